"""Circuits between heads (issue 43): identities that need no peer. score_parts adds up to the model's own score on
every kind of block (learned positions + LayerNorm, RoPE + RMSNorm + GQA, q/k norms, OLMo 2's norms after each
sublayer, Gemma 2's sandwich and soft-cap, a parallel block with partial RoPE) and obeys the softmax's invariance;
the copying score and the factored eigenvalues; knocking out edges; the toy decoder's induction circuit.
"""

from __future__ import annotations

import copy
import random
import warnings
from functools import partial

import numpy as np
import pytest
import torch

import models
from models import circuits
from models.inspection.patch_hooks import Capture, setup, stream_of

from .hf.tiny import build
from .hf.tiny_decoders import build as build_decoder
from .hf.tiny_gemma import build_gemma
from .hf.tiny_granite import build_granite
from .hf.tiny_qwen35 import build_qwen35

pytest.importorskip("transformers")
warnings.filterwarnings("ignore", message=".*token_id.*")

PROMPT = [300 + (7 * i) % 97 for i in range(12)]
FAMILIES = {
    "gpt2": partial(build, "gpt2"),
    "llama": partial(build, "llama"),
    "qwen3": partial(build, "qwen3"),
    "pythia": partial(build, "gpt_neox"),
    "olmo2": partial(build_decoder, "olmo2"),
    "gemma2": partial(build_gemma, "gemma2"),
    "phi": partial(build_decoder, "phi"),
    "smollm3": partial(build_decoder, "smollm3"),
    "granite": partial(build_granite, k=2),
    "qwen35": build_qwen35,
}
CELLS = [(0, 1, 7, 3), (1, 2, 11, 0), (1, 3, 9, 9), (1, 0, 5, 2)]  # (layer, head, query, key)


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("circuit-parts")
    for name, make in FAMILIES.items():
        make(folder=root / name)
    return root


def load64(folders, name):
    """float64 weights (a checkpoint stored in bfloat16 is read as float32 first: bfloat16 mode's matmuls would
    round every product to float32)."""
    live = models.load(folders / name, precision="float32")
    live.net.double()
    return live


@pytest.fixture(scope="module")
def toy64():
    live = copy.deepcopy(models.load("decoder"))
    live.net.double()
    return live


def patterns(live, ids) -> list[torch.Tensor]:
    """The model's own attention weights per layer (1, H, T, T), float64, as its forward used them."""
    s = setup(live, len(ids))
    cap = Capture(s, ["pattern"])
    with torch.inference_mode():
        stream_of(s, ids, cap)
    return cap.acts["pattern"]


@pytest.mark.parametrize("name", ["toy", *(f for f in FAMILIES if f != "qwen35")])
def test_the_parts_add_up_to_the_models_own_score(request, folders, name):
    live = request.getfixturevalue("toy64") if name == "toy" else load64(folders, name)
    for layer, head, query, key in CELLS:
        p = circuits.score_parts(live, PROMPT, layer, head, query, key)
        assert p.values.shape == (len(p.query_labels), len(p.key_labels))
        assert p.values.sum() == pytest.approx(p.total, abs=1e-5)
        seen = p.model_score if p.softcap is None else p.softcap * np.tanh(p.total / p.softcap)
        if p.masked:
            assert p.model_score == -np.inf
        else:
            assert p.model_score == pytest.approx(seen, abs=1e-9)
        parts = set(p.query_labels)
        assert {"embedding", "biases"} <= parts and (f"L{layer - 1}H0" in parts) == (layer > 0)
        assert ("positions" in parts) == (name == "gpt2")  # only GPT-2 has a learned position table
    cap = circuits.score_parts(live, PROMPT, 1, 2, 11, 0).softcap
    assert cap == live.config.attn_softcap and (cap is not None) == (name == "gemma2")


def test_qwen35s_linear_layers_are_one_part_each_and_have_no_composition(folders):
    """Qwen3.5: three Gated DeltaNet layers, then softmax attention. A linear layer's block is one part of the stream;
    it has no softmax heads, so its composition rows and columns are NaN (TransformerLens leaves such layers out)."""
    live = load64(folders, "qwen35")
    full = [i for i, t in enumerate(live.config.layer_types) if t == "full_attention"]
    p = circuits.score_parts(live, PROMPT, full[0], 1, 9, 3)
    assert p.total == pytest.approx(p.model_score, abs=1e-9)
    assert [lab for lab in p.query_labels if "block" in lab] == [f"L{i} block" for i in range(full[0])]
    c = circuits.composition(live, "K")
    assert np.isnan(c[: full[0]]).all() and np.isnan(c[:, :, : full[0]]).all() and (c[full[0], :, full[0]] == 0).all()
    with pytest.raises(ValueError, match="softmax attention layer"):
        circuits.score_parts(live, PROMPT, 0, 1, 9, 3)


@pytest.mark.parametrize("name", ["toy", "gpt2", "qwen3"])
def test_differences_of_totals_are_log_ratios_of_the_attention_weights(request, folders, name):
    """softmax(s)_j / softmax(s)_j' = exp(s_j − s_j'): the split explains the pattern, not just a number."""
    live = request.getfixturevalue("toy64") if name == "toy" else load64(folders, name)
    w = patterns(live, PROMPT)
    for layer, head, query in [(0, 1, 9), (1, 3, 11)]:
        totals = np.array([circuits.score_parts(live, PROMPT, layer, head, query, k).total for k in range(query + 1)])
        logw = torch.log(w[layer][0, head, query, : query + 1]).numpy()
        np.testing.assert_allclose(totals - totals[0], logw - logw[0], atol=1e-9, rtol=0)


def test_a_head_that_writes_nothing_has_a_zero_row_and_column(folders):
    live = load64(folders, "llama")
    dh = live.config.d_head
    with torch.no_grad():
        live.net.decoder[0].self_attn.o.weight[:, 2 * dh : 3 * dh] = 0.0
    p = circuits.score_parts(live, PROMPT, 1, 1, 10, 4)
    i = p.query_labels.index("L0H2")
    assert (p.values[i] == 0).all() and (p.values[:, i] == 0).all()
    assert np.abs(p.values[p.query_labels.index("L0H1")]).max() > 1e-6
    assert p.total == pytest.approx(p.model_score, abs=1e-9)


def test_copying_score_is_one_for_a_projection_and_minus_one_for_its_negative():
    g = torch.Generator().manual_seed(0)
    u = torch.linalg.qr(torch.randn(64, 8, generator=g, dtype=torch.float64))[0]  # P = U·Uᵀ: rank 8, P² = P
    for sign in (1.0, -1.0):
        ev = circuits.factored_eigenvalues(u, sign * u.T)
        np.testing.assert_allclose(ev, sign * np.ones(8), atol=1e-12)
        assert circuits.copying_score(ev) == pytest.approx(sign, abs=1e-12)
    rot = torch.tensor([[0.0, -1.0], [1.0, 0.0]], dtype=torch.float64)  # a rotation: eigenvalues ±i, score 0
    assert circuits.copying_score(circuits.factored_eigenvalues(rot, torch.eye(2, dtype=torch.float64))) == 0.0


def test_factored_eigenvalues_equal_the_dense_products_on_64_tokens(toy64):
    """The toy decoder's head L1H0, restricted to a 64-token vocabulary: W_E·OV·W_U is [64, 64] of rank d_head."""
    from models.inspection.circuit_weights import embedding_matrix, unembedding_matrix

    wv, wo = circuits.ov_matrix(toy64, 1, 0)
    a, b = embedding_matrix(toy64.net)[:64] @ wv, wo @ unembedding_matrix(toy64.net, "decoder")[:, :64]
    dense = np.linalg.eigvals((a @ b).numpy())
    dense = dense[np.argsort(-np.abs(dense), kind="stable")]
    mine = circuits.factored_eigenvalues(a, b)
    assert len(mine) == toy64.config.d_head
    np.testing.assert_allclose(np.sort_complex(mine), np.sort_complex(dense[: len(mine)]), atol=1e-8)
    assert np.abs(dense[len(mine) :]).max() < 1e-8  # the other 64 − d_head are zero
    s = circuits.factored_singular_values(wv, wo)
    np.testing.assert_allclose(s, np.linalg.svd((wv @ wo).numpy(), compute_uv=False)[: len(s)], atol=1e-10)


def test_knocking_out_what_the_mask_hides_changes_nothing_bit_for_bit(folders):
    live = load64(folders, "gpt2")
    future = [(q, k) for q in range(len(PROMPT)) for k in range(q + 1, len(PROMPT))]
    r = circuits.knock_out(live, PROMPT, future, answer_id=310, wrong_id=320)
    assert r.edges == () and r.prob_change == 0.0 and r.metric_change == 0.0
    np.testing.assert_array_equal(r.pattern_after, r.pattern_before)
    tr = live.run_ids(PROMPT)
    np.testing.assert_allclose(r.pattern_before, tr.attention["decoder.self"], atol=1e-6)  # the trace keeps float32


def test_a_knocked_out_edge_is_a_minus_infinity_score(folders):
    """The renormalised row equals the softmax with that score set to −∞, in the layer's own scores."""
    live = load64(folders, "llama")
    r = circuits.knock_out(live, PROMPT, [(9, 0), (9, 4)], layers=[0], heads=[1, 3])
    s = setup(live, len(PROMPT))
    block = live.net.decoder[0]
    with torch.inference_mode():
        x = stream_of(s, PROMPT)[0]
        _, rec = block(x, s.mask, s.scale, s.positions(len(PROMPT)), upto="self")
    scores = rec["self_scores"][0].clone()
    scores[:, 9, [0, 4]] = float("-inf")
    expect = torch.softmax(scores, -1).numpy()
    for h in range(4):
        want = expect[h] if h in (1, 3) else r.pattern_before[0, h]
        np.testing.assert_allclose(r.pattern_after[0, h], want, atol=1e-12)
    assert r.edges == ((9, 0), (9, 4))
    assert r.prob_change != 0.0 and r.metric_change is None
    with pytest.raises(ValueError, match="every key"):
        circuits.knock_out(live, PROMPT, [(2, 0), (2, 1), (2, 2)])


def test_views_that_need_a_decoder_say_so(tmp_path, folders):
    build("bert", tmp_path / "bert")
    bert = models.load(tmp_path / "bert")
    assert circuits.composition(bert, "K").shape == (2, 4, 2, 4)  # composition reads any stack
    for call in (lambda m: circuits.score_parts(m, PROMPT, 1, 0, 3, 2),
                 lambda m: circuits.knock_out(m, PROMPT, [(3, 2)]),
                 lambda m: circuits.path_patch(m, PROMPT, PROMPT, 1, 2, sender=(0, 0))):  # fmt: skip
        with pytest.raises(ValueError, match="decoder-only"):
            call(bert)
        with pytest.raises(ValueError, match="encoder-decoder"):
            call(models.load("encoder-decoder"))
    with pytest.raises(ValueError, match="kind"):
        circuits.composition(bert, "X")
    qwen3 = load64(folders, "qwen3")  # GQA: a K/V head's input serves its group, so k and v maps are [L, H_kv]
    k = circuits.path_patch(qwen3, PROMPT, [*PROMPT[:5], 1000, *PROMPT[6:]], 310, 320, sender=(0, 1),
                            receiver_input="k")  # fmt: skip
    assert k.patched.shape == (2, 2) and np.isnan(k.patched[0]).all() and np.isfinite(k.patched[1]).all()


def test_the_toy_decoders_previous_token_head_k_composes_into_its_induction_head(toy64):
    """Olsson et al. 2022: the induction head's keys read the previous-token head's write. K-composition from the
    best previous-token head into the best induction head beats that pair's Q and V (about 0.18 against 0.05), and
    on a repeated span the induction head's score at (second copy, token after the first copy) is mostly the query's
    own token embedding against a previous-token head's write at the key (not always the best one: of its three
    previous-token heads, L0H1 tops most spans, L0H0 the rest)."""
    scores = models.head_scores(toy64)
    labels = models.label_heads(scores)
    prev = np.unravel_index(np.argmax(scores["previous_token"]), scores["previous_token"].shape)
    ind = np.unravel_index(np.argmax(scores["induction"]), scores["induction"].shape)
    assert prev[0] < ind[0]
    pair = circuits.k_composition_between(toy64, prev, ind)
    assert pair["K"] > 0.15 and pair["K"] > 2.5 * max(pair["Q"], pair["V"]), pair
    assert pair["K"] > 1.5 * circuits.composition_baseline(toy64, "K")
    rng = random.Random(0)
    span = rng.sample(range(10, toy64.config.vocab_size), 10)
    ids = [toy64.template[0][0], *span, *span]
    p = circuits.score_parts(toy64, ids, int(ind[0]), int(ind[1]), 15, 6)  # query: 2nd copy of span[4]; key: span[5]
    (q_part, k_part, value), *_ = p.largest(3)
    assert q_part == "embedding" and k_part[:2] == "L0", p.largest(3)
    assert labels[0, int(k_part[3:])] == "previous_token" and value > 0.5 * p.total > 0, p.largest(3)
    assert "the key side is mostly" in p.sentence()


def test_one_clean_pattern_entry_in_a_two_key_row_is_the_whole_row_patched(folders):
    """Query 1 sees keys 0 and 1: its clean weight at key 0 fixes the row, so patching that one entry equals
    activation patching's whole pattern row at position 1 (patching.heads, what="pattern", by_position)."""
    from models import patching

    live = load64(folders, "gpt2")
    corrupted = [PROMPT[0], 1000, *PROMPT[2:]]
    by_pos = patching.heads(live, PROMPT, corrupted, 310, 320, what="pattern", by_position=True)
    for layer, head in [(0, 2), (1, 1)]:
        e = circuits.patch_entry(live, PROMPT, corrupted, 310, 320, layer, head, 1, 0)
        assert (e.clean, e.corrupted) == pytest.approx((by_pos.clean, by_pos.corrupted), abs=1e-12)
        assert e.patched == pytest.approx(by_pos.patched[layer, head, 1], abs=1e-10)
        assert e.clean_weight != e.corrupted_weight  # position 1 differs, so its query does
    same = circuits.patch_entry(live, PROMPT, corrupted, 310, 320, 1, 1, 0, 0)  # query 0: one key, weight 1 in both
    assert same.clean_weight == same.corrupted_weight == 1.0 and same.patched == pytest.approx(
        same.corrupted, abs=1e-12
    )
    with pytest.raises(ValueError, match="key <= query"):
        circuits.patch_entry(live, PROMPT, corrupted, 310, 320, 0, 0, 2, 5)
