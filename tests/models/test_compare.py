"""Issue 44: two models side by side. Linear CKA against its definition, heads matched back after a permutation,
token spans and shared spans across real tokenizers (byte-level BPE, WordPiece, sentencepiece)."""

from __future__ import annotations

import copy
import itertools
import json

import numpy as np
import pytest
import torch
from scipy.optimize import linear_sum_assignment
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

import models as lab
from models.core import long_trace
from models.inspection import compare as cmp
from models.inspection.compare import (
    compare,
    head_similarity,
    linear_cka,
    match_heads,
    shared_spans,
    span_patterns,
    token_spans,
)
from models.live import LiveModel
from tests.models.hf.tiny import build

EN = "The cat sat on the mat, and the dog ran home."
ZH = "小明说小红喜欢苹果。"
rng = np.random.default_rng(0)


@pytest.fixture(scope="module")
def dec():
    return lab.load("decoder")


@pytest.fixture(scope="module")
def enc():
    return lab.load("encoder")


def other_bpe(folder) -> None:
    """A GPT-2-style byte-level BPE unlike the app's: no CJK split (so pieces cut Chinese characters into bytes
    across character edges), trimmed offsets (its "␣cat" reports "cat")."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.post_processor = processors.ByteLevel(trim_offsets=True)
    trainer = trainers.BpeTrainer(vocab_size=600, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  special_tokens=["<|endoftext|>"], show_progress=False)  # fmt: skip
    tok.train_from_iterator(lab.data.corpus(300, 1) + [ZH * 3, "小红 苹果 喜欢"], trainer)
    tok.save(str(folder / "tokenizer.json"))


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """Tiny published checkpoints, built once: gpt2 (the app's tokenizer, no BOS), gpt2 with another byte-level BPE,
    bert (WordPiece: lower-cased, accents stripped, [CLS] ... [SEP]), marian (sentencepiece, encoder-decoder)."""
    root = tmp_path_factory.mktemp("compare")
    out = {}
    for name, kind in (("gpt2", "gpt2"), ("gpt2_other", "gpt2"), ("bert", "bert"), ("marian", "marian")):
        build(kind, root / name, seed=3)
        if name == "gpt2_other":
            other_bpe(root / name)
        out[name] = lab.load(root / name)
    return out


# ------------------------------------------------------------------ linear CKA


def hsic_cka(x, y):
    """Kornblith et al. (2019), eq. for linear kernels: HSIC(K, L) = tr(K H L H) / (n-1)², H the centring matrix."""
    n = len(x)
    h = np.eye(n) - np.ones((n, n)) / n
    k, l_ = x @ x.T, y @ y.T
    hsic = lambda a, b: np.trace(a @ h @ b @ h) / (n - 1) ** 2  # noqa: E731
    return hsic(k, l_) / np.sqrt(hsic(k, k) * hsic(l_, l_))


def test_cka_is_one_on_itself_and_ignores_rotation_and_scale():
    x = rng.normal(size=(12, 20))
    q, _ = np.linalg.qr(rng.normal(size=(20, 20)))
    assert linear_cka(x, x) == pytest.approx(1.0, abs=1e-12)
    assert linear_cka(x, x @ q) == pytest.approx(1.0, abs=1e-10)
    assert linear_cka(x, 3.7 * x) == pytest.approx(1.0, abs=1e-12)
    assert linear_cka(1e-9 * x, x) == pytest.approx(1.0, abs=1e-10)  # tiny is not constant
    assert linear_cka(x, x + 5.0) == pytest.approx(1.0, abs=1e-10)  # columns are centred
    a = rng.normal(size=(20, 20)) + np.diag(np.linspace(0.1, 10, 20))  # invertible, not orthogonal
    assert abs(np.linalg.det(a)) > 1e-6
    assert linear_cka(x, x @ a) < 0.99


def test_cka_equals_the_hsic_formula_and_is_zero_when_constant():
    for n, d1, d2 in ((5, 3, 8), (16, 40, 7), (30, 10, 10)):
        x, y = rng.normal(size=(n, d1)), rng.normal(size=(n, d2))
        assert linear_cka(x, y) == pytest.approx(hsic_cka(x, y), abs=1e-10)
        xc, yc = x - x.mean(0), y - y.mean(0)  # the feature-space form in the docstring
        feat = np.linalg.norm(yc.T @ xc) ** 2 / (np.linalg.norm(xc.T @ xc) * np.linalg.norm(yc.T @ yc))
        assert linear_cka(x, y) == pytest.approx(feat, abs=1e-10)
    assert linear_cka(np.ones((6, 4)), rng.normal(size=(6, 3))) == 0.0
    assert cmp.cka_map(np.ones((2, 6, 4)), rng.normal(size=(3, 6, 5)), list(range(6)), list(range(6))).max() == 0.0


def test_assignment_is_optimal():
    """scipy's Hungarian algorithm, as match_heads calls it, against brute force, square and rectangular, with ties."""
    for n, m in ((1, 1), (4, 4), (3, 6), (6, 3), (5, 5)):
        for trial in range(10):
            c = rng.normal(size=(n, m))
            c = np.round(c) if trial % 3 == 0 else c
            rows, cols = linear_sum_assignment(c)
            assert len(rows) == min(n, m) == len(set(rows)) == len(set(cols))
            k = min(n, m)
            best = min(
                c[np.arange(n), list(p)].sum() if n <= m else c[list(p), np.arange(m)].sum()
                for p in itertools.permutations(range(max(n, m)), k)
            )
            assert c[rows, cols].sum() == pytest.approx(best, abs=1e-9)


# ------------------------------------------------------------------ a model against itself, heads permuted


def test_a_model_against_itself(dec):
    tr = dec.run(EN)
    res = compare(dec, tr, dec, tr, EN)
    assert np.allclose(np.diag(res.cka), 1.0, atol=1e-6)
    assert res.cka.shape == (dec.config.n_layers + 1,) * 2
    assert all(la == lb and ha == hb and s == pytest.approx(1.0, abs=1e-6) for la, ha, lb, hb, s in res.heads.pairs)
    assert len(res.heads.pairs) == dec.config.n_layers * dec.config.n_heads
    assert res.cka_baseline < np.diag(res.cka).min() - 0.1
    assert res.kind_a == res.kind_b == "decoder.self"


def permuted(model: LiveModel, perms: list[list[int]]) -> LiveModel:
    """The same model with the heads of layer l reordered: new head h is old head perms[l][h] (its rows of W_Q,
    W_K, W_V and its columns of W_O move together, so the output is unchanged)."""
    net = copy.deepcopy(model.net)
    dh = model.config.d_head
    for block, perm in zip(net.decoder, perms, strict=True):
        att = block.self_attn
        idx = torch.cat([torch.arange(p * dh, (p + 1) * dh) for p in perm])
        with torch.no_grad():
            for lin in (att.q, att.k, att.v):
                lin.weight.copy_(lin.weight[idx])
            att.o.weight.copy_(att.o.weight[:, idx])
    return LiveModel(net, model.tokenizer, model.meta)


def test_permuted_heads_are_matched_back(dec):
    cfg = dec.config
    assert cfg.kv_heads == cfg.n_heads
    perms = [list(np.random.default_rng(7 + i).permutation(cfg.n_heads)) for i in range(cfg.n_layers)]
    assert any(p != list(range(cfg.n_heads)) for p in perms)
    twin = permuted(dec, perms)
    a, b = dec.run(EN), twin.run(EN)
    assert np.allclose(np.asarray(a.logits), np.asarray(b.logits), atol=1e-5)
    for i in range(cfg.n_layers):
        assert np.allclose(b.attention["decoder.self"][i], a.attention["decoder.self"][i][perms[i]], atol=1e-6)
    res = compare(dec, a, twin, b, EN)
    for la, ha, lb, hb, s in res.heads.pairs:
        assert la == lb and perms[lb][hb] == ha and s == pytest.approx(1.0, abs=1e-6)
    assert np.allclose(np.diag(res.cka), 1.0, atol=1e-6)


# ------------------------------------------------------------------ spans


def check_spans(model, text):
    """Template tokens are None; every other token's span holds text (whole characters) and they run in order."""
    ids = model.source_ids(text)[0]
    spans = token_spans(model, text)
    before, after = model.template
    assert len(spans) == len(ids)
    assert all(s is None for s in spans[: len(before)]) and all(s is None for s in spans[len(spans) - len(after) :])
    inner = spans[len(before) : len(spans) - len(after)]
    assert all(s is not None and 0 <= s[0] <= s[1] <= len(text) for s in inner)
    assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in itertools.pairwise(inner))
    return spans


def check_shared(text, spans_a, spans_b, sh):
    """The shared spans cover the text without gaps or overlaps; each span's last token ends at its end (up to
    whitespace); every token with visible text is in exactly one span, and its visible text lies inside that span."""
    assert len(sh.spans) >= 2
    assert sh.spans[0][0] == 0 and sh.spans[-1][1] == len(text)
    assert all(a[1] == b[0] and a[0] < a[1] for a, b in itertools.pairwise(sh.spans))
    for spans, last, members in ((spans_a, sh.last_a, sh.members_a), (spans_b, sh.last_b, sh.members_b)):
        for (s0, s1), p, mem in zip(sh.spans, last, members, strict=True):
            assert p == max(mem) and not text[spans[p][1] : s1].strip() and not text[s1 : spans[p][1]].strip()
            for q in mem:
                visible = [i for i in range(*spans[q]) if not text[i].isspace()]
                assert all(s0 <= i < s1 for i in visible)
        flat = [q for mem in members for q in mem]
        assert len(flat) == len(set(flat))
        assert {q for q, s in enumerate(spans) if s is not None and text[s[0] : s[1]].strip()} <= set(flat)


@pytest.mark.parametrize("text", [EN, ZH, "Café  naïve, 小红 🙂 ok"])
def test_alignment_across_tokenizers(dec, enc, tiny, text):
    mine = check_spans(dec, text)
    for other in (enc, tiny["gpt2"], tiny["gpt2_other"], tiny["bert"], tiny["marian"]):
        theirs = check_spans(other, text)
        check_shared(text, mine, theirs, shared_spans(mine, theirs, text))


def test_tokens_that_share_a_character(tiny):
    """The other byte-level BPE cuts Chinese characters into bytes: those tokens overlap by the character they
    share, and no shared span cuts through it."""
    m = tiny["gpt2_other"]
    spans = token_spans(m, ZH)
    assert any(a[1] > b[0] for a, b in itertools.pairwise(spans)), m.tokenizer.token_strs(m.source_ids(ZH)[0])
    for s in spans:  # whole characters: decoding a span's text round-trips through the tokenizer
        assert ZH[s[0] : s[1]] and all(len(c.encode()) == 3 or c == "。" for c in ZH[s[0] : s[1]])


def test_whitespace_differences_keep_alignment():
    """ "hello|␣world" against "hello␣|world" and a trimmed "world": one shared cut, before the space."""
    text = "hello world"
    a, b, c = [(0, 5), (5, 11)], [(0, 6), (6, 11)], [None, (0, 5), (6, 11), None]
    for other in (b, c):
        sh = shared_spans(a, other, text)
        assert sh.spans == [(0, 5), (5, 11)]
    assert shared_spans(a, c).spans == [(0, 5), (5, 11)]  # a gap is enough without the text
    assert shared_spans(a, b).spans == [(0, 11)]  # without the text, a space is not known to be one


def test_identical_tokenizers_give_one_span_per_token(dec, enc):
    """Same tokenizer, different templates: one span per token, except the byte tokens of one character (🙂),
    which share it and so make one span."""
    text = "the cat  sat 🙂 ok"
    sa, sb = token_spans(dec, text), token_spans(enc, text)
    sh = shared_spans(sa, sb, text)
    groups: list[list[int]] = []
    for p, s in enumerate(sa):
        if s is not None:
            if groups and sa[groups[-1][-1]][1] > s[0]:
                groups[-1].append(p)
            else:
                groups.append([p])
    assert sh.members_a == groups and sh.members_b == groups
    assert [len(g) for g in groups].count(4) == 1


def test_marian_and_bert_offsets_map_to_the_prompt(tiny):
    text = "Café  naïve [MASK] ok"
    bert = tiny["bert"]
    spans = token_spans(bert, text)
    strs = bert.tokenizer.token_strs(bert.source_ids(text)[0])
    got = {t: text[s[0] : s[1]] for t, s in zip(strs, spans, strict=True) if s is not None}
    assert got["cafe"] == "Café" and got["naive"] == "naïve" and got["[MASK]"] == "[MASK]"
    marian = tiny["marian"]
    spans = token_spans(marian, ZH)
    strs = marian.tokenizer.token_strs(marian.source_ids(ZH)[0])
    assert [ZH[s[0] : s[1]] for s in spans if s is not None and s[1] > s[0]] == list(ZH)
    assert spans[-1] is None and strs[-1] == "</s>"


def test_decoded_fallback_agrees_with_offsets(dec, tiny):
    """The decode-based alignment (used when a tokenizer's offsets do not fit the ids) against the library's."""
    from models.inspection.compare_spans import _decoded_spans

    for model in (dec, tiny["bert"], tiny["marian"], tiny["gpt2_other"]):
        for text in (EN, ZH):
            ids = model.source_ids(text)[0]
            before, after = model.template
            inner = ids[len(before) : len(ids) - len(after)]
            lib = token_spans(model, text)[len(before) : len(ids) - len(after)]
            got = _decoded_spans(model.tokenizer, inner, text)
            for (a0, a1), (b0, b1) in zip(lib, got, strict=True):
                assert text[a0:a1].strip() == text[b0:b1].strip()


# ------------------------------------------------------------------ patterns, compare()


def test_span_patterns(dec, enc):
    tr = dec.run(EN)
    spans = token_spans(dec, EN)
    sh = shared_spans(spans, token_spans(enc, EN), EN)
    pat = span_patterns(tr.attention["decoder.self"], sh.last_a, sh.members_a)
    sums = pat.sum(-1)
    assert np.all(np.isclose(sums, 1.0) | np.isclose(sums, 0.0)) and np.isclose(sums, 1.0).mean() > 0.9
    real = [p for p, s in enumerate(spans) if s is not None]  # same tokenizer: one span per token
    assert sh.last_a == real
    att = np.asarray(tr.attention["decoder.self"], dtype=np.float64)[:, :, real][:, :, :, real]
    assert np.allclose(pat, att / att.sum(-1, keepdims=True), atol=1e-6)
    sim = head_similarity(pat, pat)
    assert sim.shape == (pat.shape[0] * pat.shape[1],) * 2 and np.allclose(np.diag(sim), 1.0)
    flat = np.zeros_like(pat)
    assert not head_similarity(flat, pat).any()


def test_compare_decoder_with_encoder(dec, enc):
    res = compare(dec, dec.run(EN), enc, enc.run(EN), EN)
    assert res.cka.shape == (dec.config.n_layers + 1, enc.config.n_layers + 1)
    assert res.kind_a == "decoder.self" and res.kind_b == "encoder.self"
    assert 0.0 <= res.cka_baseline < 1.0 and np.all((res.cka >= 0) & (res.cka <= 1))
    assert res.heads.similarity.shape == (dec.config.n_layers * dec.config.n_heads,) * 2
    assert [p[:2] for p in res.heads.pairs] == sorted(p[:2] for p in res.heads.pairs)
    with pytest.raises(ValueError, match="share"):
        compare(dec, dec.run("a"), enc, enc.run("a"), "a")


def test_compare_across_tokenizers_and_arches(dec, tiny):
    for name in ("gpt2_other", "marian"):
        other = tiny[name]
        for text in (EN, ZH):
            res = compare(dec, dec.run(text), other, other.run(text), text)
            assert res.cka.shape == (dec.config.n_layers + 1, other.config.n_layers + 1)
            assert res.kind_b == ("encoder.self" if name == "marian" else "decoder.self")
            assert len(res.heads.pairs) == min(res.heads.similarity.shape)


def test_long_traces_and_layer_numbers(dec, monkeypatch):
    """Attention kept per layer (a long trace) gives the same comparison; pairs carry the model's layer numbers."""
    eager = compare(dec, dec.run(EN), dec, dec.run(EN), EN)
    monkeypatch.setattr(long_trace, "LAZY_ATTENTION_BYTES", 0)
    tr = dec.run(EN)
    assert not isinstance(tr.attention["decoder.self"], np.ndarray)
    lazy = compare(dec, tr, dec, tr, EN)
    assert np.allclose(lazy.cka, eager.cka, atol=1e-5)
    assert np.allclose(lazy.heads.similarity, eager.heads.similarity, atol=1e-5)
    pat = rng.random((2, 3, 4, 4))
    hm = match_heads(pat, pat, layers_a=[3, 7], layers_b=[1, 5])
    assert {(p[0], p[2]) for p in hm.pairs} == {(3, 1), (7, 5)} and hm.shape_a == (2, 3)
    json.dumps([list(p) for p in hm.pairs])  # plain ints and floats: the page can cache and show them


def test_a_run_cut_at_max_len(dec, tiny):
    """The tiny GPT-2 keeps 64 tokens of a long prompt: the shared spans stop where its run stops."""
    text = " ".join([EN] * 8)
    short = tiny["gpt2"]
    assert short.source_ids(text)[1] and not dec.source_ids(text)[1]
    sa, sb = token_spans(dec, text), token_spans(short, text)
    sh = shared_spans(sa, sb, text)
    assert sh.spans[-1][1] == sb[-1][1] < len(text) and sh.last_b[-1] == len(sb) - 1
    assert all(a[1] == b[0] for a, b in itertools.pairwise(sh.spans))
    res = compare(dec, dec.run(text), short, short.run(text), text)
    assert res.cka.shape == (dec.config.n_layers + 1, short.config.n_layers + 1)


def test_a_long_prompt_is_compared_on_its_last_spans(dec, monkeypatch):
    """More shared spans than MAX_SPANS: the comparison keeps the last ones (a head's pattern is S² numbers), and
    says how many there were."""
    tr = dec.run(EN)
    whole = compare(dec, tr, dec, tr, EN)
    monkeypatch.setattr(cmp, "MAX_SPANS", 4)
    cut = compare(dec, tr, dec, tr, EN)
    assert cut.n_shared == whole.n_shared == len(whole.shared.spans) > 4
    assert cut.shared.spans == whole.shared.spans[-4:] and cut.shared.last_a == whole.shared.last_a[-4:]
    assert cut.cka.shape == whole.cka.shape and np.allclose(np.diag(cut.cka), 1.0)
    assert all(sim == pytest.approx(1.0) for *_, sim in cut.heads.pairs)


def test_the_partner_grid_names_each_heads_partner(dec):
    """HeadMatch.partner_grid (the page's grid of A's heads): a model against itself, each head its own partner."""
    tr = dec.run(EN)
    z, names = compare(dec, tr, dec, tr, EN).heads.partner_grid()
    n_layers, n_heads = dec.config.n_layers, dec.config.n_heads
    assert z.shape == (n_layers, n_heads) and np.allclose(z, 1.0)
    assert names == [[f"L{la + 1}H{h + 1}" for h in range(n_heads)] for la in range(n_layers)]
