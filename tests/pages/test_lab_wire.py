"""The wire between two heads over a lab variant's training (ui/lab_wire.py, issue 43 §6), on the shipped toy decoder
as the trained end and its random-init twin as the start: the K-composition from the best previous-token head into the
best induction head rises from chance to well above it, and beats Q and V at the end, as the circuit says."""

from __future__ import annotations

import numpy as np
import torch

import models
from models import circuits
from ui import lab_wire


def _kept():
    trained = models.load("decoder")
    torch.manual_seed(0)
    start = models.build(trained.config, trained.tokenizer)  # random init, the same shapes
    return [(0, start), (5000, trained)]


def test_the_pair_is_the_best_previous_token_head_into_the_best_induction_head():
    scores = models.head_scores(models.load("decoder"))
    snaps = {"previous_token": [scores["previous_token"]], "induction": [scores["induction"]]}
    sender, receiver = lab_wire.pair(snaps)
    assert sender[0] < receiver[0]
    assert scores["previous_token"][sender] == scores["previous_token"].max()
    assert scores["induction"][receiver] == scores["induction"].max()
    flipped = {"previous_token": [scores["induction"]], "induction": [scores["previous_token"]]}
    assert lab_wire.pair(flipped) is None  # a "previous-token" head after the "induction" one: no wire


def test_the_k_wire_rises_with_training_and_beats_q_and_v():
    kept = _kept()
    scores = models.head_scores(kept[-1][1])
    sender, receiver = lab_wire.pair({r: [scores[r]] for r in ("previous_token", "induction")})
    w = lab_wire.over_training(kept, sender, receiver)
    assert w["step"] == [0, 5000]
    base = w["baseline"][0]
    assert w["K"][1] > 1.5 * base and w["K"][1] > w["K"][0]  # trained: well above chance, and above the start
    assert w["K"][1] > 3 * max(w["Q"][1], w["V"][1])  # K-composition, not Q or V (about 0.18 against 0.03)
    again = circuits.k_composition_between(kept[-1][1], sender, receiver)
    np.testing.assert_allclose([w[k][1] for k in "KQV"], [again[k] for k in "KQV"])
