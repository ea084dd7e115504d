"""The 'What each head does' page: the field guide and the query/key map, with the shipped models, MiniLM, tiny
published folders and hostile prompts."""

from __future__ import annotations

import numpy as np
import pytest

import models
from models.inspection import heads
from tests.models.hf.tiny import build
from ui import params
from ui.i18n import STRINGS

from .apptest import array, figures, markdown_text, open_app, titled


def _grid(at) -> dict:
    return titled(at, "Role of each head")["data"][0]


def _qk(at) -> dict:
    return titled(at, "queries and keys")


def test_the_grid_shows_head_scores_roles_of_the_shipped_decoder():
    at = open_app("heads")
    expected = heads.label_heads(heads.head_scores(models.load("decoder")))
    order = ["", *viz_roles()]
    z = array(_grid(at)["z"])
    assert [[order[int(v)] for v in row] for row in z] == expected.tolist()
    assert expected[1].tolist() == ["induction"] * 4  # the shipped decoder's second layer
    (table,) = at.dataframe
    assert len(table.value) == 8 and list(table.value.columns[:2]) == ["head", "role"]
    text = markdown_text(at)
    for role, reason in heads.THRESHOLD_REASONS.items():
        assert reason in text, role  # the UI states each threshold's reason, as the code does
        assert f"{heads.ROLE_THRESHOLDS[role]:.2f}" in text
    assert "Olsson et al. (2022)" in text and "Yeh et al. 2023" in " ".join(c.value for c in at.caption)


def viz_roles():
    from viz.roles import ROLE_COLORS

    return list(ROLE_COLORS)


def test_english_reasons_are_the_models_reasons():
    for role, reason in heads.THRESHOLD_REASONS.items():
        assert STRINGS[f"heads.reason.{role}"]["en"] == reason


def test_the_qk_map_follows_layer_head_and_colour_from_the_url():
    at = open_app("heads", layer="2", head="4", qk_color="kind", prompt="alice met bob . then alice met")
    fig = _qk(at)
    assert "Layer 2, head 4 (induction)" in fig["layout"]["title"]["text"]
    prompt = [tr for tr in fig["data"] if "prompt" in tr["name"]]
    tokens = models.load("decoder").run("alice met bob . then alice met").tokens
    assert [len(array(tr["x"])) for tr in prompt] == [len(tokens)] * 2  # every query and key of the prompt
    assert [c[0] for c in prompt[0]["customdata"]] == tokens
    assert prompt[1]["marker"]["symbol"] == "diamond"
    at.segmented_control(key="qk_color").set_value("position").run()
    assert not at.exception and at.query_params.get("qk_color") in (None, [])  # the default leaves the URL
    assert any("colorbar" in tr["marker"] for tr in _qk(at)["data"])
    assert at.query_params["layer"] in ("2", ["2"]) and at.query_params["head"] in ("4", ["4"])


def test_chinese_and_presentation_mode():
    at = open_app("heads", lang="zh", present="1", model="minilm")
    titles = [f["layout"].get("title", {}).get("text", "") for f in figures(at)]
    assert "每个头的角色" in titles and any("查询与键" in t for t in titles)
    assert "Olsson" in markdown_text(at)


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    build("qwen2", root / "tiny-qwen2")
    build("bert", root / "tiny-bert")
    build("gpt2", root / "tiny-gpt2")
    return root


@pytest.mark.parametrize("name", ["tiny-qwen2", "tiny-bert", "tiny-gpt2"])
def test_published_models(models_dir, monkeypatch, name):
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(models_dir))
    params.local_models()
    at = open_app("heads", model=name, prompt="小明喜欢猫 and the cat sat .")
    assert not at.exception, [e.value for e in at.exception]
    z = array(_grid(at)["z"])
    assert z.shape == (2, 4) and _qk(at)["data"]


@pytest.mark.parametrize("text", ["", "a " * 5000, "我喜欢机器学习", "😀🙂🎉", "<script>alert(1)</script>"])
def test_hostile_prompts(text):
    at = open_app("heads", prompt=text)
    assert not at.exception, [e.value for e in at.exception]
    if not text:
        assert at.info and not figures(at)  # "type a prompt"
        return
    if len(text) > 1000:
        assert at.warning
    hover = [c[0] for tr in _qk(at)["data"] for c in tr["customdata"]]
    assert not any("<script>" in h for h in hover)
    assert np.isfinite(array(_qk(at)["data"][-1]["x"])).all()
