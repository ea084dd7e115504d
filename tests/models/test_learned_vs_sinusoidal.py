"""models.core.positional.learned_vs_sinusoidal (the Positional page's learned-table curves) and viz.signed_map."""

import numpy as np

import viz
from models.core.positional import learned_vs_sinusoidal, sinusoidal_table


def test_curves_start_at_one_and_the_sinusoidal_table_compares_equal_to_itself():
    table = sinusoidal_table(64, 32)
    sims = learned_vs_sinusoidal(table, 16)
    assert sims["cos"].shape == (64, 64) and sims["learned"].shape == sims["sinusoidal"].shape == (17,)
    np.testing.assert_allclose(sims["learned"][0], 1.0, atol=1e-6)  # every row is itself at offset 0
    np.testing.assert_allclose(sims["learned"], sims["sinusoidal"], atol=1e-6)  # the same table on both sides
    assert sims["sinusoidal"][1] > sims["sinusoidal"][16]  # near positions look more alike than far ones


def test_signed_map_is_symmetric_around_zero_with_no_cell_text():
    fig = viz.signed_map(np.array([[-0.5, 0.25], [1.0, 0.0]]), "t", "x", "y", "cos", limit=1)
    trace = fig.to_dict()["data"][0]
    assert (trace["zmin"], trace["zmax"]) == (-1, 1) and "texttemplate" not in trace and "text" not in trace
    assert trace["colorbar"]["title"]["text"] == "cos"
