"""Masked-token page: the encoder's predictions are its MLM head's, the recipe converges to
15% and 80/10/10, and the decoder's guess ignores everything right of the blank."""

import re

import numpy as np
import pytest
import torch

import models
from models.inspection.experiments import top_tokens
from models.tokenizer import MASK
from tests.pages.apptest import array, markdown_text, open_app, set_prompt, titled

PROMPT = "the cats that the dog sees are happy ."


def _bars(at, title):
    fig = titled(at, title)
    ticks = fig["layout"]["xaxis"]["ticktext"]
    return list(ticks), array(fig["data"][0]["y"])


def test_default_masks_cats_and_shows_the_encoders_own_top_10():
    at = open_app("mlm", prompt=PROMPT)
    enc = models.load("encoder")
    ids = enc.source_ids(PROMPT)[0]
    ids[2] = MASK
    want_tokens, want_p = top_tokens(enc, enc.run_ids(ids).logits[2], 10)
    names, p = _bars(at, "Encoder's top 10")
    assert names == want_tokens
    np.testing.assert_allclose(p, want_p, rtol=1e-5)
    row = array(titled(at, "attention of position 2")["data"][0]["z"])
    np.testing.assert_allclose(row.sum(-1), 1.0, atol=1e-5)


def test_mask_typed_in_the_prompt_and_the_right_context_decides():
    are = open_app("mlm", prompt="the [MASK] that the dog sees are happy .")
    is_ = open_app("mlm", prompt="the [MASK] that the dog sees is happy .")
    dec_are, dec_is = _bars(are, "Decoder: left context only"), _bars(is_, "Decoder: left context only")
    assert dec_are[0] == dec_is[0]
    np.testing.assert_allclose(dec_are[1], dec_is[1])  # the decoder never sees the verb
    enc_are, enc_is = _bars(are, "Encoder: both sides"), _bars(is_, "Encoder: both sides")
    assert enc_are[0] != enc_is[0]  # the encoder does


def test_recipe_shares_over_10000_draws_are_within_one_percent():
    at = open_app("mlm", prompt=PROMPT, recipe_seed="5")
    text = markdown_text(at)
    m = re.search(
        r"After 10,000 draws: ([\d.]+)% .* Of those, ([\d.]+)% .*, ([\d.]+)% a random token, and ([\d.]+)%", text
    )
    chosen, mask, rand, keep = (float(g) for g in m.groups())
    assert abs(chosen - 15) < 1 and abs(mask - 80) < 1 and abs(rand - 10) < 1 and abs(keep - 10) < 1
    fig = titled(at, "draws")
    for trace, want in zip(fig["data"][:3], (0.8, 0.1, 0.1), strict=True):
        assert abs(array(trace["y"])[-1] - want) < 0.01


def test_the_strip_colours_what_the_recipe_chose():
    at = open_app("mlm", prompt=PROMPT, recipe_seed="1")
    assert "This draw chose" in markdown_text(at)


@pytest.mark.parametrize("text", ["", "[MASK]", "[MASK] [MASK] [MASK]", "x" * 10_000, "小明在公园吃[MASK]。", "🙂"])
def test_hostile_prompts_on_the_mlm_page(text):
    at = open_app("mlm")
    set_prompt(at, text)
    if not text:
        assert any("Type a prompt" in i.value for i in at.info)
    elif "[MASK]" in text:
        titled(at, "Encoder's top 10")
        if text == "[MASK]":
            assert any("no ordinary tokens" in i.value for i in at.info)


def test_both_choice_rules_are_shown_and_berts_count_is_exact():
    """'the cats that the dog sees are happy .' is [CLS] + 9 + [SEP] = 11 tokens: BERT's code chooses exactly
    max(1, round(0.15 × 11)) = 2; this app's per-token rule averages 0.15 × 9 = 1.35."""
    at = open_app("mlm", prompt=PROMPT)
    text = markdown_text(at)
    assert "BERT's code" in text and "= **2** every time" in text and "1.35 on average" in text
    at = open_app("mlm", prompt=PROMPT, recipe_rule="exact", recipe_seed="3")
    assert "This draw chose 2 of 9 tokens" in markdown_text(at)
    fig = titled(at, "BERT's exact count")
    assert np.allclose(array(fig["data"][3]["y"]), 2 / 9)  # the same share every draw
    m = re.search(r"Of those, ([\d.]+)% .*, ([\d.]+)% a random token", markdown_text(at))
    assert abs(float(m.group(1)) - 80) < 1 and abs(float(m.group(2)) - 10) < 1


def test_the_hidden_word_gets_its_rank_and_probability_when_it_is_not_among_the_ten():
    """The default hides ␣cats; the encoder's ten guesses are plural nouns without it: the caption says where it
    stands (issue 39: a student saw no red bar and no word on why)."""
    at = open_app("mlm", prompt=PROMPT)
    enc = models.load("encoder")
    ids = enc.source_ids(PROMPT)[0]
    cats = ids[2]
    ids[2] = MASK
    p = torch.softmax(torch.as_tensor(enc.run_ids(ids).logits[2], dtype=torch.float64), -1).numpy()
    rank = int((p > p[cats]).sum()) + 1
    assert rank > 10
    caption = next(c.value for c in at.caption if "hidden token was" in c.value)
    assert f"guess number **{rank}**" in caption and f"p = {p[cats]:.3f}" in caption
