"""Lesson 16, "Two heads make an induction head": its answers recomputed with models.circuits and the field guide on
the shipped decoder (a retrained model that changes the truth fails here, naming the step), and each step's page
drawn in the step's preset state."""

from __future__ import annotations

import numpy as np
import pytest

import models
from models import circuits
from ui import patch_pairs

from .apptest import open_app, titled
from .test_guide_answers import assert_choice, assert_why_says, choice_index, step

GUIDE = "16-two"


@pytest.fixture(scope="module")
def decoder():
    return models.load("decoder")


def test_16_layer_2_holds_the_induction_heads(decoder):
    labels = models.label_heads(models.head_scores(decoder))
    assert set(labels[1]) == {"induction"} and list(labels[0][:3]) == ["previous_token"] * 3
    assert_choice(GUIDE, 1, choice_index(GUIDE, 1, "layer 2"))


def test_16_k_composition_beats_q_and_v(decoder):
    c = circuits.k_composition_between(decoder, (0, 0), (1, 0))
    best = max(c, key=c.get)
    assert_choice(GUIDE, 2, choice_index(GUIDE, 2, f"{best}-composition"))
    base = circuits.composition_baseline(decoder, "K")
    assert c["K"] > 2 * base > 2 * max(c["Q"], c["V"])
    assert_why_says(GUIDE, 2, f"{c['K']:.3f}", f"{c['Q']:.3f}", f"{c['V']:.3f}")
    assert f"{base:.3f}" in step(GUIDE, 2).text["en"]


def test_16_the_previous_token_heads_write_arrives_through_the_keys(decoder):
    p = step(GUIDE, 3).params
    enc = decoder.tokenizer.encode
    a, w = (patch_pairs.continuation(enc, p["pt_clean"], x)[0] for x in (p["pt_answer"], p["pt_wrong"]))
    clean, corrupted = (decoder.source_ids(p[x])[0] for x in ("pt_clean", "pt_corrupt"))
    rec = {inp: circuits.path_patch(decoder, clean, corrupted, a, w, sender=(0, p["cc_sender"]),
                                    receiver_input=inp).recovered[1] for inp in "qkv"}  # fmt: skip
    best = max(rec, key=lambda inp: np.nanmean(rec[inp]))
    assert_choice(GUIDE, 3, choice_index(GUIDE, 3, f"{best}, the"))
    assert best == "k" and max(np.abs(rec["q"]).max(), np.abs(rec["v"]).max()) < 0.01
    assert_why_says(GUIDE, 3, *(f"{v:.2f}" for v in rec["k"]))


@pytest.mark.parametrize("n", [2, 3])
def test_16_each_step_draws_its_page(n):
    params = {k: str(v) for k, v in step(GUIDE, n).params.items()}
    at = open_app("circuits", **params)
    assert not at.exception
    titled(at, "K-composition")
    if n == 3:
        assert at.segmented_control(key="cc_input").value == "k" and titled(at, "from L1H2 into each head's k")
