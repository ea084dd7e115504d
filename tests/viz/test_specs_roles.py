"""The field guide's figures (role_grid, qk_scatter) skip Plotly's validation like every builder: each one's
output must be exactly what a validating go.Figure holds. Plus what they promise to show."""

from __future__ import annotations

import numpy as np
import pytest

from tests.viz.test_specs import assert_valid
from viz.labels import Labels
from viz.roles import ROLE_COLORS, qk_scatter, role_grid, role_table

ROLES = np.array([["previous_token", "", "first_token"], ["induction", "diffuse", "duplicate_token"]], dtype=object)
SCORES = {r: np.linspace(0, 1, 6).reshape(2, 3) for r in ROLE_COLORS}
NAMES = {r: r.replace("_", " ") + " <i>" for r in ROLE_COLORS}
RNG = np.random.default_rng(0)
N = 12
XY = RNG.normal(size=(2 * N, 2))
IS_KEY = np.arange(2 * N) >= N
POSITION = np.tile(np.arange(6), 4)
SEQUENCE = np.tile(np.repeat([0, 1], 6), 2)
TOKENS = ["a", "<b>", "c & d", "猫", "x", "y"] * 4
ZH = Labels(query="查询", key="键", layer="层", head="头", position="位置")

CASES = {
    "role_grid": lambda: role_grid(ROLES, SCORES, NAMES, title="roles & <b>", selected=(1, 2)),
    "role_grid zh, scale 1.5, no selection": lambda: role_grid(
        ROLES, SCORES, NAMES, none_name="无", scale=1.5, labels=ZH
    ),
    "role_grid wide (no cell text)": lambda: role_grid(np.full((3, 14), "", dtype=object), {}, NAMES),
    "qk_scatter by kind": lambda: qk_scatter(XY, IS_KEY, POSITION, SEQUENCE, TOKENS, explained=(0.4, 0.2), title="q/k"),
    "qk_scatter by position, zh, scale 1.5": lambda: qk_scatter(
        XY, IS_KEY, POSITION, SEQUENCE, TOKENS, color_by="position", scale=1.5, labels=ZH, prompt_name="提示"
    ),
    "qk_scatter prompt only": lambda: qk_scatter(XY[:12], IS_KEY[6:18], POSITION[:12], np.zeros(12, int), TOKENS[:12]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_roles_builder_output_is_a_valid_figure(case):
    assert_valid(CASES[case]())


def test_role_grid_colours_and_names_every_head():
    fig = role_grid(ROLES, SCORES, NAMES, none_name="none")
    cells = fig.data[0]
    assert cells["z"].tolist() == [[1, 0, 4], [2, 5, 3]]  # 0 = no role, then ROLE_COLORS' order
    assert cells["text"][0][0] == "previous token<br>&lt;i&gt;" and cells["text"][0][1] == "none"
    assert (
        "induction token" not in cells["customdata"][1][0] and "induction &lt;i&gt;: 0.60" in cells["customdata"][1][0]
    )
    assert [t["name"] for t in fig.data[1:]] == [
        NAMES[r].replace("<", "&lt;").replace(">", "&gt;") for r in ROLE_COLORS
    ]
    with pytest.raises(ValueError, match="unknown roles"):
        role_grid(np.array([["copying"]], dtype=object), {}, NAMES)


def test_role_table_lists_every_head_and_score():
    table = role_table(ROLES, SCORES, NAMES, none_name="-", head_word="head", role_word="role")
    assert table["head"] == ["L1H1", "L1H2", "L1H3", "L2H1", "L2H2", "L2H3"]
    assert table["role"][1] == "-" and table["role"][3] == NAMES["induction"]
    assert table[NAMES["diffuse"]] == ["0.00", "0.20", "0.40", "0.60", "0.80", "1.00"]


def test_qk_scatter_marks_queries_and_keys_and_escapes_tokens():
    fig = qk_scatter(XY, IS_KEY, POSITION, SEQUENCE, TOKENS)
    names = [t["name"] for t in fig.data]
    assert names == ["query · random tokens", "key · random tokens", "query · prompt", "key · prompt"]
    prompt_keys = fig.data[3]
    assert prompt_keys["marker"]["symbol"] == "diamond" and prompt_keys["mode"] == "markers"
    assert [c[0] for c in prompt_keys["customdata"]][:3] == ["a", "&lt;b&gt;", "c &amp; d"]
    assert sum(len(t["x"]) for t in fig.data) == 2 * N
    by_pos = qk_scatter(XY, IS_KEY, POSITION, SEQUENCE, TOKENS, color_by="position")
    assert sum("colorbar" in t["marker"] for t in by_pos.data) == 1
