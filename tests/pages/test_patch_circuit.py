"""Issue 42's known answer, second half: on the toy decoder's repeated span, patching its best previous-token head
recovers part of the answer, and that part reaches the answer through the induction heads' keys (path patching,
models.circuits): the previous-token head matters through them, not by itself (K-composition; Olsson et al. 2022)."""

from __future__ import annotations

import numpy as np

import models
from models import circuits, patching
from ui import patch_loaders, patch_pairs


def test_the_previous_token_head_matters_through_the_induction_heads_keys():
    model = models.load("decoder")
    pair = patch_pairs.template("repeat", True)
    prep = patch_loaders._prepare(model, pair.clean, pair.corrupted, pair.answer, pair.wrong)
    args = (prep["clean_ids"], prep["corrupted_ids"], prep["answer_id"], prep["wrong_id"])
    scores = models.head_scores(model)
    best = np.unravel_index(int(np.argmax(scores["previous_token"])), scores["previous_token"].shape)
    prev = (int(best[0]), int(best[1]))  # the field guide's best previous-token head
    roles = models.label_heads(scores)
    induction = [tuple(int(i) for i in lh) for lh in zip(*np.nonzero(roles == "induction"), strict=True)]
    total = patching.heads(model, *args).recovered[prev]
    paths = {i: circuits.path_patch(model, *args, sender=prev, receiver_input=i).recovered for i in "qkv"}
    through = {i: sum(paths[i][lh] for lh in induction) for i in "qkv"}
    assert total > 0.2  # the previous-token head carries a fifth of the answer or more
    assert through["k"] > 0.75 * total  # most of it through the induction heads' keys
    assert through["k"] > 3 * (abs(through["q"]) + abs(through["v"]))
    assert np.isfinite(paths["k"]).any()
