"""The "What a head causes" page (issue 42 part 3) in AppTest: the map it draws is models.patching's, on the same
prompts; the toy decoder's repeated-span template puts the field guide's induction heads on top (one pair and the
batch of eight); bad input is a message; English and Chinese; a tiny published decoder and encoder."""

from __future__ import annotations

import json

import numpy as np
import pytest

import models
from models import patching
from tests.models.hf.tiny import build
from tests.models.hf.tiny_gemma import build_gemma
from tests.models.hf.tiny_qwen35 import build_qwen35
from ui import params, patch_pairs

from .apptest import HOSTILE_PROMPTS, array, figures, markdown_text, open_app, titled

MAP = "Recovered share per head"


def _recovered(at) -> np.ndarray:
    return array(titled(at, MAP)["data"][0]["z"]).astype(float)


def _exact(model: models.LiveModel, pair: patch_pairs.Pair) -> patching.Patching:
    """The map for a pair: words that start with the same tokens (" D a v id", " S ar a h" to a byte-level BPE) have
    those appended to both prompts, and the first tokens that differ are compared, as the page says."""
    enc = model.tokenizer.encode
    a, w = (patch_pairs.continuation(enc, pair.clean, word) for word in (pair.answer, pair.wrong))
    i = next(i for i, (x, y) in enumerate(zip(a, w, strict=False)) if x != y)
    clean, corrupted = (model.source_ids(text)[0] + a[:i] for text in (pair.clean, pair.corrupted))
    return patching.heads(model, clean, corrupted, a[i], w[i])


def _induction_heads(model: models.LiveModel) -> set[tuple[int, int]]:
    labels = models.label_heads(models.head_scores(model))
    return {(int(i), int(j)) for i, j in zip(*np.nonzero(labels == "induction"), strict=True)}


def test_the_map_is_patching_heads_on_the_same_prompts_and_induction_heads_lead():
    at = open_app("patch")
    model = models.load("decoder")
    pair = patch_pairs.template("repeat", toy=True)
    assert at.text_input(key="pt_clean").value == pair.clean
    exact = _exact(model, pair)
    np.testing.assert_allclose(_recovered(at), exact.recovered, atol=1e-6)
    top = np.unravel_index(np.nanargmax(exact.recovered), exact.recovered.shape)
    assert (int(top[0]), int(top[1])) in _induction_heads(model)  # the field guide's induction heads (layer 2)
    hover = titled(at, MAP)["data"][0]["customdata"]
    assert hover[1][0][1] == f"{exact.patched[1, 0]:.3f}"  # the raw metric beside the share
    assert f"{exact.clean:.3f}" in markdown_text(at) and f"{exact.corrupted:.3f}" in markdown_text(at)
    link = at.get("link_button")[0].proto
    assert link.url.startswith("explorer?model=decoder&layer=") and "prompt=" in link.url


def test_the_batch_of_eight_puts_an_induction_head_first_with_an_interval():
    at = open_app("patch", pt_batch="1")
    fig = titled(at, "Mean recovered share over 8 pairs")
    (tr,) = fig["data"]
    name = tr["y"][0]
    layer, head = (int(x) - 1 for x in name[1:].split("H"))
    assert (layer, head) in _induction_heads(models.load("decoder"))
    mean = array(tr["x"])
    assert np.all(np.diff(mean) <= 1e-12)  # largest first
    assert np.all(array(tr["error_x"]["array"]) >= 0) and np.all(array(tr["error_x"]["arrayminus"]) >= 0)


@pytest.mark.parametrize("prompt", HOSTILE_PROMPTS)
def test_hostile_prompts_are_messages(prompt):
    at = open_app("patch", pt_clean=prompt, pt_corrupt=prompt, pt_answer="<b>x</b>", pt_wrong="🙂")
    assert not at.exception, [e.value for e in at.exception]
    shown = json.dumps(figures(at)) + markdown_text(at)
    assert "<script>" not in shown and "<b>" not in shown
    assert at.info or at.warning  # empty, too long, or the same prompt twice: each says so


def test_a_length_mismatch_names_both_lengths_and_offers_the_swap():
    at = open_app("patch", pt_clean="alice met bob at the park", pt_corrupt="bob met alice", pt_answer="alice",
                  pt_wrong="bob")  # fmt: skip
    (warning,) = at.warning
    assert "**7** tokens" in warning.value and "**4**" in warning.value
    at.button(key="pt_use_proposal").click().run()
    assert at.text_input(key="pt_corrupt").value == "bob met alice at the park"
    assert not at.warning and figures(at)


def test_a_link_that_sets_some_boxes_keeps_them():
    at = open_app("patch", pt_corrupt="<b>typed</b>", pt_answer="kind")
    pair = patch_pairs.template("repeat", toy=True)
    assert at.text_input(key="pt_clean").value == pair.clean  # the template's, where the link says nothing
    assert at.text_input(key="pt_corrupt").value == "<b>typed</b>" and at.text_input(key="pt_answer").value == "kind"
    assert at.text_input(key="pt_wrong").value == pair.wrong


def test_a_long_prompt_and_a_prompt_with_nothing_to_swap_are_messages():
    at = open_app("patch", pt_clean="x" * 10_000, pt_corrupt="y" * 10_000)
    assert any("at most 64 tokens" in w.value for w in at.warning) and not figures(at)
    at = open_app("patch")
    at.text_input(key="pt_clean").input("小明喜欢猫 🙂").run()  # no two names, no repeated word
    assert any("No corruption to propose" in i.value for i in at.info)
    assert not at.exception


def test_prompts_that_agree_about_the_answer_say_so():
    text = "the cats that the dog sees are happy ."
    at = open_app("patch", pt_clean=text, pt_corrupt=text, pt_answer="the", pt_wrong="a")
    assert any("do not disagree" in w.value for w in at.warning)
    assert not figures(at)


def test_a_typed_prompt_gets_a_proposed_corruption_and_several_token_words_are_named():
    at = open_app("patch")
    at.text_input(key="pt_clean").input("when alice and bob went to the park , bob gave a ball to").run()
    assert at.text_input(key="pt_corrupt").value == "when bob and alice went to the park , alice gave a ball to"
    assert (at.text_input(key="pt_answer").value, at.text_input(key="pt_wrong").value) == ("alice", "bob")
    at.text_input(key="pt_answer").input("mary").run()  # two tokens to the toy tokenizer: ␣m ary
    assert "uses its first token" in "\n".join(c.value for c in at.caption)


def test_chinese_names_share_their_first_token_and_the_page_is_in_chinese():
    at = open_app("patch", lang="zh", pt_template="names_zh")
    assert at.text_input(key="pt_clean").value == "小明和小红去了商店，小红把饮料给了"
    assert "注意力图显示一个头" in markdown_text(at)
    assert any("补上这些词元" in c.value for c in at.caption)  # 小明, 小红: 小 is appended, 明 vs 红 compared
    titled(at, "每个头的恢复比例")
    assert any("不会做这个任务" in i.value for i in at.info)  # the toy decoder: 0.15 clean, 0.28 corrupted


def test_an_encoder_picked_in_the_sidebar_gets_a_message_and_the_toy_decoder():
    at = open_app("patch", model="encoder")
    assert any("is not a decoder" in i.value for i in at.info)
    assert _recovered(at).shape == (2, 4)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("patch")
    build("gpt2", root / "tiny-gpt2")
    build("bert", root / "tiny-bert")
    build_qwen35(root / "tiny-qwen35")
    build_gemma("gemma2", root / "tiny-gemma2")
    return root


def test_a_tiny_published_decoder_is_patched(local):
    at = open_app("patch", model="tiny-gpt2", pt_template="names_en")
    model = models.load(params.local_models()["tiny-gpt2"].path)
    (pair,) = patch_pairs.batch("names_en", False, lambda s: len(model.source_ids(s)[0]), n=1)  # equal lengths
    assert at.text_input(key="pt_clean").value == pair.clean
    exact = _exact(model, pair)
    assert exact.disagree  # its random weights (seed 0) do disagree on this pair
    np.testing.assert_allclose(_recovered(at), exact.recovered, atol=1e-5)
    n = len(figures(at))
    at.toggle(key="pt_pos_on").set_value(True).run()  # by position: on demand for a published model
    assert not at.exception and len(figures(at)) == n + 1


def test_a_tiny_published_encoder_gets_the_message(local):
    at = open_app("patch", model="tiny-bert")
    assert any("is not a decoder" in i.value for i in at.info)


def test_qwen35s_linear_layers_and_gemma2s_cap_are_named(local):
    at = open_app("patch", model="tiny-qwen35")
    assert not at.exception, [e.value for e in at.exception]
    linear = models.load(params.local_models()["tiny-qwen35"].path).config
    layers = [i for i, kind in enumerate(linear.layer_types) if kind == "linear_attention"]
    assert layers
    assert not at.warning  # its random weights (seed 0) disagree on the pair
    notes = "\n".join(c.value for c in at.caption)
    assert f"Layers {', '.join(str(i + 1) for i in layers)} are linear attention" in notes
    at = open_app("patch", model="tiny-gemma2")
    assert not at.exception, [e.value for e in at.exception]
    assert not at.warning
    assert any("soft-caps its logits" in c.value for c in at.caption)


def test_a_rerun_runs_no_model_once_cached(monkeypatch):
    span = "the kind ball happy"
    at = open_app("patch", pt_clean=f"{span} lamp {span}", pt_corrupt=f"{span} cup {span}", pt_answer="lamp",
                  pt_wrong="cup")  # fmt: skip
    calls = []
    real = patching.heads
    monkeypatch.setattr(patching, "heads", lambda *a, **k: calls.append(1) or real(*a, **k))
    at.toggle(key="tables").set_value(True).run()  # a rerun of the whole page
    at.segmented_control(key="pt_layer").set_value(0).run()
    assert not at.exception and calls == []
