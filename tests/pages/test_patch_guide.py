"""Lesson 15, "Which heads cause the answer?": its answers recomputed with models.patching and models.attribution on
the shipped decoder (a retrained model that changes the truth fails here, naming the step), and its goal reached by
the previous-token head once the clue changes, not in the step's preset state."""

from __future__ import annotations

import numpy as np
import pytest

import models
from models import attribution, patching
from ui import patch_pairs

from .apptest import open_app
from .test_guide_answers import assert_choice, assert_why_says, choice_index, goal, step

GUIDE = "15-which"


@pytest.fixture(scope="module")
def decoder():
    return models.load("decoder")


def _run(model, clean: str, corrupted: str, answer: str, wrong: str):
    enc = model.tokenizer.encode
    a, w = (patch_pairs.continuation(enc, clean, word)[0] for word in (answer, wrong))
    c, k = model.source_ids(clean)[0], model.source_ids(corrupted)[0]
    return patching.heads(model, c, k, a, w), attribution.direct(model, c, a, w)


def _preset(n: int) -> tuple[str, str, str, str]:
    p = step(GUIDE, n).params
    return p["pt_clean"], p["pt_corrupt"], p["pt_answer"], p["pt_wrong"]


def test_15_the_preset_is_the_pages_own_template(decoder):
    pair = patch_pairs.template("repeat", toy=True)
    for n in (1, 2, 3):
        assert _preset(n) == (pair.clean, pair.corrupted, pair.answer, pair.wrong)


def test_15_an_induction_head_recovers_most_and_none_half(decoder):
    r, _ = _run(decoder, *_preset(1))
    layer, head = np.unravel_index(np.nanargmax(r.recovered), r.recovered.shape)
    assert_choice(GUIDE, 1, choice_index(GUIDE, 1, f"Layer {layer + 1}, head {head + 1} "))
    assert np.nanmax(r.recovered) < 0.5
    rec = r.recovered.round(2)
    assert_why_says(GUIDE, 1, *(f"{v:.2f}" for v in rec[1]), f"{rec[0, 0]:.2f}", f"{rec[0, 3]:.2f}")
    labels = models.label_heads(models.head_scores(decoder))
    assert labels[layer, head] == "induction" and set(labels[1]) == {"induction"}


def test_15_a_large_direct_write_that_patching_does_not_need(decoder):
    r, d = _run(decoder, *_preset(2))
    text = step(GUIDE, 2).text
    for lang in ("en", "zh"):
        assert f"{d.heads[0, 1]:.2f}" in text[lang] and f"{r.recovered[0, 1]:.2f}".replace("-", "−") in text[lang]
    question = step(GUIDE, 2).free.question
    assert all(f"{d.heads[0, 0]:.2f}" in question[lang] and f"{r.recovered[0, 0]:.2f}" in question[lang]
               for lang in ("en", "zh"))  # fmt: skip


def test_15_the_goal_is_the_previous_token_head_once_the_clue_changes(decoder):
    clean, _, answer, wrong = _preset(3)
    assert not goal(GUIDE, 3).reached  # the preset: the induction heads share the copy
    changed = "the young kind ball happy busy lucky the young kind ball happy river"  # the first ␣river, not ␣lucky
    r, _ = _run(decoder, clean, changed, answer, wrong)
    layer, head = np.unravel_index(np.nanargmax(r.recovered), r.recovered.shape)
    assert (layer, head) == (0, 1) and r.recovered[0, 1] >= 0.5
    assert models.label_heads(models.head_scores(decoder))[0, 1] == "previous_token"
    reached = goal(GUIDE, 3, pt_corrupt=changed, pt_head=1)
    assert reached.reached and f"{r.recovered[0, 1]:.2f}" in reached.detail
    assert f"{r.recovered[0, 1]:.2f}" in step(GUIDE, 3).goal.done["en"]
    assert not goal(GUIDE, 3, pt_corrupt=changed, pt_head=6).reached  # an induction head alone is not it
    assert not goal(GUIDE, 3, pt_corrupt="young kind", pt_head=1).reached  # different lengths: no run


def test_15_the_goal_is_reached_live_on_the_page():
    at = open_app("patch", guide="15-which-heads-cause", gstep="3")
    assert any("Layer 2, head 3 recovers" in c.value for c in at.caption)  # the preset head, checked at once
    assert not at.success
    at.text_input(key="pt_corrupt").input("the young kind ball happy busy lucky the young kind ball happy river").run()
    at.selectbox(key="pt_head").set_value(1).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Layer 1, head 2 recovers 0.94" in s.value for s in at.success)
