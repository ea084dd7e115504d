"""A published ELECTRA discriminator (config.detector_head) picked in the sidebar: the Objectives page's ELECTRA
section runs it on the prompt with the words the student replaced, and draws its own P(replaced) per token; the
Masked tokens page says in one sentence that a discriminator predicts no tokens (no bars of predictions)."""

from __future__ import annotations

import html

import numpy as np
import pytest

import models
import viz
from models.teaching import replacements
from tests.models.hf.tiny_encoders import build_encoder

from .apptest import array, figures, markdown_text, open_app, titled

PROMPT = "the cats that the dog sees are happy ."
TITLE = {"en": "P(replaced) per token; red: you replaced it", "zh": "判别器给每个词元的 P（被替换）"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("electra")
    build_encoder("electra-discriminator", root / "tiny-electra")
    return root


@pytest.fixture
def local(folder, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(folder))
    return folder / "tiny-electra"


def test_replaced_words_and_flags():
    assert replacements.replace_words("a  b c", [1, 9], " x ") == "a x c"
    assert replacements.replace_words("a b c", [1], "  ") == "a b c"  # blank: nothing replaced
    assert replacements.replaced_flags(["[CLS]", "a", "b", "[SEP]"], ["[CLS]", "a", "x", "y", "[SEP]"]) == [
        False, False, True, True, False]  # fmt: skip
    assert not any(replacements.replaced_flags(["a", "b"], ["a", "b"]))  # the same word back counts as original


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_objectives_runs_the_published_discriminator_on_the_altered_sentence(local, lang):
    at = open_app("objectives", model="tiny-electra", prompt=PROMPT, lang=lang, electra_words="1,4", electra_with="car")
    assert not at.exception
    altered = "the car that the car sees are happy ."
    disc = models.load(str(local))
    tr = disc.run(altered)
    p = disc.replaced_prob(tr)
    fig = titled(at, TITLE[lang])
    bars = fig["data"][0]
    np.testing.assert_allclose(array(bars["y"]), p, rtol=1e-5, atol=1e-6)  # the model's own numbers, same text
    assert [html.unescape(x) for x in fig["layout"]["xaxis"]["ticktext"]] == tr.tokens
    red = [i for i, c in enumerate(bars["marker"]["color"]) if c == viz.HIGHLIGHT]
    assert [tr.tokens[i] for i in red] == ["car", "car"]  # exactly the replaced tokens, specials never
    text = markdown_text(at)
    assert altered in text
    right = int(((p > 0.5) == np.isin(np.arange(len(p)), red)).sum())
    assert (f"**{right} of {len(p)}**" if lang == "en" else f"判对 **{right} 个**") in text
    assert ("sigmoid" in text) and ("tiny-electra" in text)
    assert not any("P(replaced); red: it was" in str(f["layout"].get("title")) for f in figures(at))  # no toy pair


def test_the_same_word_back_is_original_and_no_pick_reads_the_prompt(local):
    at = open_app("objectives", model="tiny-electra", prompt=PROMPT, electra_words="4", electra_with="dog")
    bars = titled(at, TITLE["en"])["data"][0]
    assert viz.HIGHLIGHT not in bars["marker"]["color"]
    disc = models.load(str(local))
    np.testing.assert_allclose(array(bars["y"]), disc.replaced_prob(disc.run(PROMPT)), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_masked_tokens_page_says_a_discriminator_predicts_no_tokens(local, lang):
    at = open_app("mlm", model="tiny-electra", prompt=PROMPT, lang=lang)
    assert not at.exception
    (w,) = at.warning
    assert (
        ("ELECTRA discriminator" in w.value and "predicts no tokens" in w.value)
        if lang == "en"
        else "不预测任何词元" in w.value
    )
    assert not figures(at)  # no bars of predicted tokens


@pytest.mark.parametrize("page", ["lens", "generate", "softmax", "heads", "block", "similarity", "tokens"])
def test_other_pages_with_a_discriminator(local, page):
    at = open_app(page, model="tiny-electra", prompt=PROMPT)
    assert not at.exception, [e.value for e in at.exception]
