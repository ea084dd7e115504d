"""The words of "What differs" (ui/differs_text.py): head and layer names, and the roles' one-line summary."""

import numpy as np

from models.inspection.heads import ROLES
from ui.differs_text import WHERE_MAX, best_pairs, cka_reading, head_name, head_names, layer_names, role_summary


def test_heads_and_layers_are_named_from_one():
    assert head_name(0, 0) == "L1H1" and head_name(1, 3) == "L2H4"
    names = layer_names(3)
    assert len(names) == 3 and names[1].endswith(" 1") and names[2].endswith(" 2")  # row 0: the embeddings


def test_the_role_summary_counts_and_places_each_role_and_cuts_a_long_list():
    first, second = ROLES[0], ROLES[1]
    roles = np.full((3, 10), "", dtype=object)
    roles[1, 0] = roles[1, 3] = first
    roles[0, :] = second  # ten heads: the list is cut after WHERE_MAX
    text = role_summary(roles, {r: r.upper() for r in ROLES})
    assert f"{first.upper()} **2** (L2H1, L2H4)" in text
    assert f"{second.upper()} **10** (" in text and text.count(", …") == 1
    assert text.count("L1H") == WHERE_MAX
    assert role_summary(np.full((2, 2), "", dtype=object), {}) != ""  # none: the sentence that says so


def test_head_lists_best_pairs_and_the_cka_sentence():
    assert head_names([0, 2], 2) == ["L1H1", "L1H2", "L3H1", "L3H2"]
    pairs = [(0, 0, 1, 1, 0.2), (1, 1, 0, 0, 0.9), (0, 1, 1, 0, 0.5)]
    assert best_pairs(pairs, 2) == "A L2H2 ↔ B L1H1 (0.90), A L1H2 ↔ B L2H1 (0.50)"
    cka = np.array([[0.1, 0.7], [0.4, 0.95], [0.2, 0.3]])
    got = cka_reading(cka, 0.35)
    assert (got["above"], got["total"], got["best"]) == (3, 6, "0.950")
    assert (got["la"], got["lb"]) == (layer_names(3)[1], layer_names(2)[1])
