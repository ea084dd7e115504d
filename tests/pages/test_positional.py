"""Positional-encoding page: every number drawn is the formula's, the shift is a rotation, RoPE
depends on the offset only, and without positions a bidirectional model only permutes its outputs."""

import numpy as np
import pytest

from models.core.positional import shift_matrix, sinusoidal_table
from tests.pages.apptest import array, markdown_text, open_app, set_prompt, titled


@pytest.mark.parametrize("d,base", [("64", "10000"), ("16", "100")])
def test_pe_table_cells_equal_the_formula(d, base):
    at = open_app("positional", pe_d=d, pe_base=base, pe_n="64")
    z = array(titled(at, "whole table")["data"][0]["z"])
    d, base = int(d), float(base)
    assert z.shape == (64, d)
    for pos, dim in [(0, 0), (5, 10 % d), (63, d - 1), (17, 3)]:
        fn = np.sin if dim % 2 == 0 else np.cos
        assert z[pos, dim] == pytest.approx(fn(pos / base ** ((dim - dim % 2) / d)), abs=1e-12)


def test_waves_are_the_chosen_dimensions():
    at = open_app("positional", pe_dims="0,7", pe_n="32")
    fig = titled(at, "along the positions")
    names = [tr["name"] for tr in fig["data"]]
    assert len(names) == 2 and names[0].startswith("dim 0 (sin") and names[1].startswith("dim 7 (cos")
    np.testing.assert_allclose(array(fig["data"][0]["y"]), np.sin(np.arange(32)), atol=1e-12)


def test_similarity_depends_only_on_the_offset():
    at = open_app("positional", pe_n="48")
    sim = array(titled(at, "every pair of positions")["data"][0]["z"])
    for k in (0, 1, 9, 30):
        diag = np.diagonal(sim, k)
        np.testing.assert_allclose(diag, diag[0], atol=1e-9)
    assert sim[0, 0] == pytest.approx(32.0)  # d/2 at the default d_model = 64


def test_shift_arrow_is_the_rotated_pe_and_the_error_is_rounding():
    at = open_app("positional", pe_k="9", pe_pos="4", pe_pair="2")
    fig = titled(at, "Pair 2")
    tips = [np.array([array(tr["x"])[-1], array(tr["y"])[-1]]) for tr in fig["data"][:2]]
    pe = sinusoidal_table(20, 64)
    np.testing.assert_allclose(tips[0], pe[4, 4:6], atol=1e-12)
    np.testing.assert_allclose(tips[1], pe[13, 4:6], atol=1e-12)
    np.testing.assert_allclose(shift_matrix(9, 64)[4:6, 4:6] @ tips[0], tips[1], atol=1e-12)
    error = float(markdown_text(at).split("PE(pos+k)| = **")[1].split("**")[0])
    assert error < 1e-12


def test_rope_grid_is_constant_along_diagonals_and_scores_match_when_moved_together():
    at = open_app("positional", rope_m="3", rope_n="11")
    grid = array(titled(at, "for every m and n")["data"][0]["z"])
    for off in (-20, 0, 8):
        diag = np.diagonal(grid, off)
        np.testing.assert_allclose(diag, diag[0], atol=1e-9)
    text = markdown_text(at)
    first = text.split("the score is **")[1].split("**")[0]
    second = text.split("it is **")[1].split("**")[0]
    assert first == second == f"{grid[3, 11]:.6f}"


def test_learned_table_similarity_is_a_cosine_matrix():
    at = open_app("positional")
    z = array(titled(at, "learned table")["data"][0]["z"])
    assert z.shape == (128, 128)
    np.testing.assert_allclose(np.diagonal(z), 1.0, atol=1e-9)
    assert np.abs(z).max() <= 1 + 1e-9


@pytest.mark.parametrize("model", ["decoder", "encoder", "encoder-decoder"])
def test_without_positions_a_bidirectional_model_only_permutes_its_outputs(model):
    prompt = "1234" if model == "encoder-decoder" else "the cats that the dog sees are happy ."
    at = open_app("positional", model=model, prompt=prompt)
    fig = titled(at, "No PE, bidirectional")
    assert fig["layout"]["yaxis"]["type"] == "log"
    bi = array(fig["data"][0]["y"])
    causal = array(titled(at, "No PE, causal")["data"][0]["y"])
    assert bi.max() < 1e-4
    assert causal.max() > 1e-3


@pytest.mark.parametrize("text", ["", "x" * 10_000, "小明说小红喜欢苹果。", "🙂", "a"])
def test_hostile_prompts_on_the_positional_page(text):
    at = open_app("positional")
    set_prompt(at, text)
    titled(at, "whole table")  # the prompt-free sections always draw
    if not text:
        assert any("Type a prompt" in i.value for i in at.info)
    if text == "a":
        assert any("fewer than two" in i.value for i in at.info)
