"""head_scores (a field guide to heads) and the query/key map (AttentionViz), on the shipped models, MiniLM and
tiny published folders of every kind of attention we load (GPT-2 pre-norm, Llama RoPE + GQA, BERT post-norm)."""

from __future__ import annotations

import time

import numpy as np
import pytest

import models
from models.inspection import heads, probes, qk_map
from tests.models.hf.tiny import build

PROMPT = "the cats that the dog sees are happy . 小明 <b>"


@pytest.fixture(scope="module")
def decoder():
    return models.load("decoder")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    root = tmp_path_factory.mktemp("heads")
    out = {}
    for kind in ("gpt2", "llama", "bert"):
        build(kind, root / kind)
        out[kind] = models.load(root / kind)
    return out


def test_finds_the_shipped_decoders_induction_and_previous_token_heads(decoder):
    scores = heads.head_scores(decoder)
    induction = probes.induction_scores(decoder)
    best = np.unravel_index(induction.argmax(), induction.shape)
    assert np.unravel_index(scores["induction"].argmax(), induction.shape) == best
    assert abs(scores["induction"][best] - induction[best]) <= 0.05
    held = models.data.corpus(200, probes.HELD_OUT_SEED)[:50]  # what the training report uses
    previous = probes.previous_token_scores(decoder, held)
    best = np.unravel_index(previous.argmax(), previous.shape)
    assert np.unravel_index(scores["previous_token"].argmax(), previous.shape) == best
    assert abs(scores["previous_token"][best] - previous[best]) <= 0.05
    labels = heads.label_heads(scores)
    assert labels[1].tolist() == ["induction"] * 4 and labels[0, 0] == "previous_token"


def test_scores_are_in_range_and_deterministic(decoder):
    a, b = heads.head_scores(decoder, seed=3), heads.head_scores(decoder, seed=3)
    c = heads.head_scores(decoder, seed=4)
    assert set(a) == set(heads.ROLES) == set(heads.ROLE_THRESHOLDS) == set(heads.THRESHOLD_REASONS)
    for role in heads.ROLES:
        assert a[role].shape == (2, 4) and ((a[role] >= 0) & (a[role] <= 1)).all()
        assert np.array_equal(a[role], b[role])
    assert not np.array_equal(a["induction"], c["induction"])


def test_induction_probe_keeps_its_old_draws(decoder):
    """The refactor (any template, batched) draws what the training report's probe drew: [BOS] R R from
    random_span, one sequence at a time."""
    import random

    rng = random.Random(probes.HELD_OUT_SEED)
    r = probes.random_span(rng, decoder.config.vocab_size, 20)
    seqs, start = probes.repeated_sequences(decoder, 1, 20, probes.HELD_OUT_SEED)
    assert seqs[0] == [models.LiveModel.template.fget(decoder)[0][0], *r, *r] and start == 1
    att = decoder.run_ids(seqs[0]).attention["decoder.self"]
    np.testing.assert_allclose(probes.induction_scores(decoder, n_seqs=1), probes.induction_pattern(att, 1, 20))


def test_label_heads_takes_the_largest_margin():
    s = {r: np.zeros((1, 3)) for r in heads.ROLES}
    s["induction"][0] = [0.9, 0.2, 0.35]
    s["first_token"][0] = [0.95, 0.1, 0.0]
    assert heads.label_heads(s).tolist() == [["induction", "", "induction"]]  # 0.6 > 0.35 margin


@pytest.mark.parametrize("kind", ["gpt2", "llama", "bert"])
def test_works_on_published_folders(tiny, kind):
    model = tiny[kind]
    scores = heads.head_scores(model)
    for v in scores.values():
        assert v.shape == (model.config.n_layers, model.config.n_heads) and (v >= 0).all() and (v <= 1).all()
    pool = probes.ordinary_ids(model)
    assert not set(pool) & set(model.tokenizer.special_ids) and len(pool) > 100
    seqs, start = probes.repeated_sequences(model, 2, 8, 0)
    assert start == len(model.template[0]) and seqs[0][:start] == model.template[0]


def test_minilm_in_under_two_seconds():
    model = models.load("minilm")
    heads.head_scores(model, seed=1)  # warm
    t0 = time.perf_counter()
    scores = heads.head_scores(model)
    assert time.perf_counter() - t0 <= 2.0 * 1.5  # 2 s budget, with room for a busy test machine
    assert scores["previous_token"].max() > 0.9  # MiniLM has a sharp previous-token head (L1H3)
    pool = set(probes.ordinary_ids(model))
    tok = model.tokenizer.tok
    names = [tok.id_to_token(i) for i in pool]
    assert not [n for n in names if len(n) > 1 and n.startswith("[") and n.endswith("]")]  # [unused7], [CLS]
    assert "[" in names and "the" in names


# ---------------------------------------------------------------- query/key map


def _softmax(s: np.ndarray, mask: np.ndarray) -> np.ndarray:
    s = np.where(mask, s, -np.inf)
    w = np.exp(s - s.max(-1, keepdims=True))
    return w / w.sum(-1, keepdims=True)


def _models(decoder, tiny):
    return {"decoder": decoder, "encoder": models.load("encoder"), **tiny}


@pytest.mark.parametrize("name", ["decoder", "encoder", "gpt2", "llama", "bert"])
def test_qk_vectors_give_the_models_own_scores_and_the_balanced_ones_its_weights(decoder, tiny, name):
    model = _models(decoder, tiny)[name]
    tr = model.run(PROMPT)
    kind = probes.self_attention_key(model)
    mask = tr.masks[kind]
    batch = qk_map.probe_batch(model)
    for layer in range(model.config.n_layers):
        for head in range(model.config.n_heads):
            q, k = qk_map.head_qk(model, tr.hidden[qk_map.stream_key(kind)][layer], kind, layer, head)
            np.testing.assert_allclose((q @ k.T * tr.attn_scale)[mask], tr.scores[kind][layer, head][mask], atol=2e-4)
            m = qk_map.qk_map(model, tr, layer, head, batch)
            n = len(tr.tokens)
            q2, k2 = q * m.c, k / m.c + m.shift  # what the map drew for the prompt, before the PCA
            weights = _softmax(q2 @ k2.T * tr.attn_scale, mask)
            np.testing.assert_allclose(weights, tr.attention[kind][layer, head], atol=1e-5)
            all_q = np.concatenate(
                [q] + [qk_map.head_qk(model, batch.hidden[layer], kind, layer, head)[0].reshape(-1, q.shape[1])]
            )
            assert m.xy.shape == (2 * len(all_q), 2) and m.is_key.sum() == len(all_q)
            assert m.tokens[:n] == tr.tokens and (m.sequence[:n] == 0).all() and (m.position[:n] == np.arange(n)).all()


def test_balance_centres_and_equalises_norms():
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(30, 8)) * 3, rng.normal(size=(20, 8)) + 5
    q2, k2, t, c = qk_map.balance(q, k)
    np.testing.assert_allclose(k2, k / c + t)
    np.testing.assert_allclose(q2.mean(0), k2.mean(0), atol=1e-12)
    assert np.isclose(np.linalg.norm(q2, axis=1).mean(), np.linalg.norm(k2, axis=1).mean())
    np.testing.assert_allclose(_softmax(q2 @ k2.T, np.ones((30, 20), bool)), _softmax(q @ k.T, np.ones((30, 20), bool)))


def test_probe_batch_is_the_models_own_stream(decoder):
    batch = qk_map.probe_batch(decoder, n_seqs=2, span=5)
    tr = decoder.run_ids(batch.ids[1])
    np.testing.assert_allclose(batch.hidden[:, 1], tr.hidden["decoder"], atol=1e-5)
    assert batch.tokens[1] == tr.tokens


def test_pca2_is_the_svd_projection():
    pts = np.random.default_rng(1).normal(size=(200, 6)) * [5, 3, 1, 1, 0.5, 0.1]
    xy, share = qk_map.pca2(pts)
    centred = pts - pts.mean(0)
    _, s, vt = np.linalg.svd(centred, full_matrices=False)
    np.testing.assert_allclose(np.abs(xy), np.abs(centred @ vt[:2].T), atol=1e-9)
    np.testing.assert_allclose(share, (s[:2] ** 2) / (s**2).sum())
