"""The Explorer's "What differs, measured" (issue 44) in AppTest, drawn on its own by a small script: the CKA map it
shows is compare.cka_map of the two models' own runs; a model against itself shows CKA 1 on the diagonal and every
head matched to itself; the token counts are each tokenizer's; the next-token probabilities are a direct forward's
softmax; an encoder's next token and logit lens are messages; Chinese; tiny published models; no model run on a
rerun."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from streamlit.testing.v1 import AppTest

import models
from models.inspection import compare, heads
from tests.models.hf.tiny import build
from tests.models.hf.tiny_encoders import build_encoder
from tests.models.hf.tiny_qwen35 import build_qwen35
from ui import params

from .apptest import array, markdown_text, titled

TEXT = "the cat sat on the mat ."


def _page(name_a: str, weights_a: str, name_b: str, weights_b: str, text: str, lang: str) -> None:
    import streamlit as st

    from lessons.explorer_differs import differs_section

    st.session_state["lang"] = lang
    differs_section(name_a, weights_a, name_b, weights_b, text, 1.0)


def _open(name_a: str, name_b: str, text: str = TEXT, lang: str = "en", weights: str = "trained") -> AppTest:
    at = AppTest.from_function(_page, args=(name_a, weights, name_b, weights, text, lang), default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _z(fig: dict, trace: int = 0) -> np.ndarray:
    return array(fig["data"][trace]["z"]).astype(float)


def _load(name: str) -> models.LiveModel:
    entry = params.local_models().get(name)
    return models.load(entry.path if entry else name)


def _expected_cka(a: models.LiveModel, b: models.LiveModel, text: str) -> np.ndarray:
    """compare.cka_map of the two models' own runs (an encoder's stream for an encoder)."""
    tr_a, tr_b = a.run(text), b.run(text)
    shared = compare.shared_spans(compare.token_spans(a, text), compare.token_spans(b, text), text)
    side = lambda m, tr: tr.hidden["decoder" if m.config.arch == "decoder" else "encoder"]  # noqa: E731
    return compare.cka_map(side(a, tr_a), side(b, tr_b), shared.last_a, shared.last_b)


def _softmax_top(model: models.LiveModel, text: str, k: int = 5) -> np.ndarray:
    logits = torch.as_tensor(np.asarray(model.run(text).logits[-1]), dtype=torch.float64)
    return torch.topk(torch.softmax(logits, -1), k).values.numpy()


def _counts(model: models.LiveModel, text: str) -> tuple[int, int]:
    """(every position, as the token chips above the column count them; the tokens of the text alone)."""
    before, after = model.template
    n_all = len(model.source_ids(text)[0])
    return n_all, n_all - len(before) - len(after)


def _reads(model: models.LiveModel, text: str) -> str:
    n_all, n = _counts(model, text)
    return f"reads **{n_all}** tokens" + (f": **{n}** from the prompt's text" if n_all != n else f", all **{n}**")


def test_decoder_against_encoder():
    at = _open("decoder", "encoder")
    dec, enc = models.load("decoder"), models.load("encoder")
    np.testing.assert_allclose(_z(titled(at, "Linear CKA")), _expected_cka(dec, enc, TEXT), atol=1e-6)
    text = markdown_text(at)
    assert _reads(dec, TEXT) in text and _reads(enc, TEXT) in text
    assert "the special tokens `[CLS]` `[SEP]`." in text  # the encoder's: 2 more than its text's tokens
    shown = [float(p) for p in at.dataframe[1].value.iloc[:, 1]]  # [0]: the shared spans, [1]: A's next tokens
    np.testing.assert_allclose(shown, _softmax_top(dec, TEXT), atol=1e-4)
    infos = " ".join(i.value for i in at.info)
    assert "An encoder predicts no next token" in infos and "No logit lens" in infos
    assert titled(at, "Top next token per layer")  # A's lens is a figure
    assert titled(at, "Role of each head")


def test_a_model_against_itself_is_diagonal_and_matched_to_itself():
    at = _open("decoder", "decoder")
    cka = _z(titled(at, "Linear CKA"))
    np.testing.assert_allclose(np.diag(cka), 1.0, atol=1e-9)
    grid = titled(at, "coloured by their partner")
    np.testing.assert_allclose(_z(grid), 1.0, atol=1e-9)
    full = titled(at, "Pattern correlation of every head")  # one −1…1 scale for both
    assert (grid["data"][0]["zmin"], grid["data"][0]["zmax"]) == (full["data"][0]["zmin"], full["data"][0]["zmax"])
    assert (grid["data"][0]["zmin"], grid["data"][0]["zmax"]) == (-1.0, 1.0)
    assert "need not be its single best match" in " ".join(c.value for c in at.caption)
    for layer, row in enumerate(grid["data"][0]["customdata"]):
        for head, hover in enumerate(row):
            assert hover.startswith(f"L{layer + 1}H{head + 1} → B L{layer + 1}H{head + 1}<br>"), hover


def test_many_heads_are_drawn_layer_by_layer(monkeypatch):
    from lessons import explorer_differs_parts

    monkeypatch.setattr(explorer_differs_parts, "HEADS_MAX", 4)  # the toy models' 8 heads count as "many"
    at = _open("decoder", "encoder")
    fig = titled(at, "Best pair of heads for each pair of layers")
    assert _z(fig).shape == (2, 2) and fig["data"][0]["y"] == ["L1", "L2"]
    assert fig["data"][0]["zmin"] == -1.0 and fig["data"][0]["zmax"] == 1.0
    assert any("the 8 × 8 head × head map is shown per pair of layers (2 × 2 cells" in c.value for c in at.caption)


def test_chinese():
    at = _open("decoder", "encoder", text="小明喜欢猫，猫也喜欢小明。", lang="zh")
    assert at.subheader[0].value == "差异在哪里：逐项测量" and "词元对齐" in markdown_text(at)
    assert "个来自输入文本" in markdown_text(at)
    assert any("编码器不预测下一个词元" in i.value for i in at.info)


def test_too_few_shared_spans_is_a_message():
    at = _open("decoder", "encoder", text="a")
    assert any("alike at only 1 span" in i.value for i in at.info)


def test_no_model_run_on_a_rerun(monkeypatch):
    at = _open("decoder", "encoder", text="a dog ran to the park")
    calls = []
    for owner, name in ((models.LiveModel, "run"), (models.LiveModel, "run_ids"), (heads, "head_scores"),
                        (compare, "compare")):  # fmt: skip
        real = getattr(owner, name)
        monkeypatch.setattr(owner, name, lambda *a, _r=real, **k: calls.append(1) or _r(*a, **k))
    at.run()
    assert not at.exception and calls == []


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("differs")
    build("gpt2", root / "tiny-gpt2")
    build("gpt2", root / "tiny-gpt2-b", seed=1, n_layer=3, n_head=2)
    build("bert", root / "tiny-bert")
    build_qwen35(root / "tiny-qwen35")
    build_encoder("electra-discriminator", root / "tiny-electra")
    return root


def test_two_tiny_published_decoders(local):
    at = _open("tiny-gpt2", "tiny-gpt2-b")
    a, b = _load("tiny-gpt2"), _load("tiny-gpt2-b")
    cka = _z(titled(at, "Linear CKA"))
    assert cka.shape == (3, 4)
    np.testing.assert_allclose(cka, _expected_cka(a, b, TEXT), atol=1e-6)
    for i, model in enumerate((a, b)):
        shown = [float(p) for p in at.dataframe[1 + i].value.iloc[:, 1]]
        np.testing.assert_allclose(shown, _softmax_top(model, TEXT), atol=1e-4)
    assert "A has 8 heads and B 6: 2 of A's heads are left without a partner" in markdown_text(at)


def test_a_tiny_bert_and_a_chinese_prompt(local):
    text = "小明喜欢猫，猫也喜欢小明。"
    at = _open("tiny-gpt2", "tiny-bert", text=text)
    a, b = _load("tiny-gpt2"), _load("tiny-bert")
    shown = markdown_text(at)
    assert _reads(a, text) in shown and _reads(b, text) in shown
    assert any("No logit lens" in i.value for i in at.info)


def test_electras_discriminator_says_what_it_predicts(local):
    at = _open("tiny-electra", "tiny-bert")
    infos = " ".join(i.value for i in at.info)
    assert "ELECTRA's discriminator predicts no next token" in infos and "An encoder predicts no next token" in infos
    assert titled(at, "Linear CKA")


def test_qwen35s_linear_layers_are_messages_not_tracebacks(local):
    at = _open("tiny-qwen35", "tiny-gpt2")
    assert any("Gated DeltaNet linear-attention layers" in i.value for i in at.info)  # its roles
    assert any("only its softmax-attention layers are matched" in c.value for c in at.caption)
    cfg = _load("tiny-qwen35").config
    soft = [i for i, kind in enumerate(cfg.layer_types) if kind != "linear_attention"]
    rows = titled(at, "coloured by their partner")["data"][0]["y"]
    assert rows == [f"layer {i + 1}" for i in soft]


def test_the_lens_of_the_last_positions_is_the_whole_lens_there():
    """lens_tail runs the lens on the last n rows of the residual stream only: each position's row is its own, so the
    rows equal the whole lens's (ui/head_loaders.logit_lens, the lens page's)."""
    from ui.differs_loaders import lens_tail
    from ui.head_loaders import logit_lens

    text = "alice met bob at the park . then alice gave bob a"
    tail, whole = lens_tail("decoder", "trained", text, 4), logit_lens("decoder", "trained", text)
    n = len(whole["tokens"])
    assert tail["start"] == n - 4 and tail["tokens"] == whole["tokens"][-4:]
    assert tail["top"] == [row[-4:] for row in whole["top"]]
    np.testing.assert_allclose(tail["top_prob"], whole["top_prob"][:, -4:], rtol=1e-6)
