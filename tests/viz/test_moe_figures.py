"""The mixture-of-experts figures: one cell per layer and token with the chosen experts written in it,
coloured by the first choice; the load bars with the even-share line."""

import numpy as np
import pytest

from viz import expert_load, router_choices


def test_router_choices_cells_text_and_colour():
    chosen = np.array([[[0, 2], [1, 0]], [[3, 1], [2, 3]]])  # [L=2, T=2, k=2]
    gates = np.full(chosen.shape, 0.5)
    spec = router_choices(chosen, gates, ["a", "<b>"], 4, title="t")
    tr = spec.data[0]
    assert tr["text"] == [["1+3", "2+1"], ["4+2", "3+4"]]
    np.testing.assert_array_equal(np.asarray(tr["z"]), chosen[:, :, 0] + 0.5)
    assert tr["zmin"] == 0 and tr["zmax"] == 4 and "&lt;b&gt;" in tr["x"][1]
    with pytest.raises(ValueError, match="expert ids"):
        router_choices(chosen, gates, ["a", "b"], 3)


def test_expert_load_bars_and_even_line():
    spec = expert_load(np.array([0.5, 0.25, 0.25, 0.0]), ideal_word="even")
    assert list(np.asarray(spec.data[0]["y"])) == [0.5, 0.25, 0.25, 0.0]
    line = spec.data[1]
    assert list(line["y"]) == [0.25, 0.25] and line["name"] == "even = 0.250"
