"""Logit lens and knock-out page: the table's top row is the model's own prediction, the knock-out numbers are
models.inspection.interventions', the controls live in the URL, other architectures get a sentence, bad prompts a
notice."""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

import models
from models.inspection import interventions
from tests.models.hf.tiny import build
from ui import params

from .apptest import HOSTILE_PROMPTS, array, check_hostile, figures, markdown_text, open_app

PROMPT = "alice met bob at the park . then alice gave bob a"


def _table(at) -> dict:
    (fig,) = [f for f in figures(at) if "Top next token" in str(f["layout"].get("title", {}).get("text", ""))]
    return fig["data"][0]


def _copy_numbers(at) -> tuple[float, float]:
    (base, knocked) = re.search(r"accuracy \*\*([\d.]+)\*\* unchanged and \*\*([\d.]+)\*\*", markdown_text(at)).groups()
    return float(base), float(knocked)


def test_the_top_row_is_the_models_prediction_and_the_numbers_are_the_lens():
    at = open_app("lens", prompt=PROMPT)
    model = models.load("decoder")
    tr = model.run(PROMPT)
    lens = interventions.logit_lens(model, tr)
    table = _table(at)
    assert table["y"] == ["embedding", "layer 1", "layer 2"]
    top_row = [html.unescape(c) for c in table["customdata"][-1]]
    assert top_row == model.tokenizer.token_strs(int(i) for i in tr.logits.argmax(-1))[:16]
    np.testing.assert_allclose(array(table["z"]), lens.top_prob[:, :16], rtol=1e-6)
    (line,) = [f for f in figures(at) if "by layer" in f["layout"]["title"]["text"]]
    np.testing.assert_allclose(array(line["data"][0]["y"]), lens.final_prob[:, -1], rtol=1e-6)


def test_knocking_out_all_induction_heads_breaks_copying_and_the_loss_is_the_models():
    at = open_app("lens", prompt=PROMPT, ko_layer="2", ko_heads="1,2,3,4")
    base, knocked = _copy_numbers(at)
    assert base > 0.9 and knocked < 0.2
    model = models.load("decoder")
    ko = interventions.knockout(model, model.source_ids(PROMPT)[0], 1, (0, 1, 2, 3), "zero")
    (before, after) = at.metric
    assert float(before.value) == pytest.approx(ko.loss_base, abs=5e-4)
    assert float(after.value) == pytest.approx(ko.loss_knocked, abs=5e-4)
    (fig,) = [f for f in figures(at) if "knocked out" in f["layout"]["title"]["text"]]
    np.testing.assert_allclose(array(fig["data"][0]["y"]), ko.p_knocked, rtol=1e-6)
    np.testing.assert_allclose(array(fig["data"][1]["y"]), ko.p_base, rtol=1e-6)


def test_controls_round_trip_through_the_url():
    at = open_app("lens", prompt=PROMPT, ko_layer="1", ko_heads="2,4", ko_mode="uniform")
    assert at.session_state["ko_layer"] == 0 and at.session_state["ko_heads"] == [1, 3]
    assert dict(at.query_params) | {"prompt": ""} == {
        "prompt": "",
        "ko_layer": "1",
        "ko_heads": "2,4",
        "ko_mode": "uniform",
    }
    at.segmented_control(key="ko_mode").set_value("zero").run()
    assert "ko_mode" not in at.query_params  # the default is not written


def test_no_head_picked_says_so():
    at = open_app("lens", prompt=PROMPT, ko_heads="")
    assert any("at least one head" in i.value for i in at.info)
    assert not at.metric


def test_a_long_prompt_gets_a_window_slider():
    at = open_app("lens", prompt=" ".join([PROMPT] * 3), lens_from="5")
    assert at.slider(key="lens_from").value == 5
    assert _table(at)["x"][0].startswith("5 ")


def test_an_encoder_picked_in_the_sidebar_gets_a_sentence_and_the_toy_decoder():
    at = open_app("lens", model="encoder", prompt=PROMPT)
    assert any("needs a decoder-only model" in c.value for c in at.caption)
    assert _table(at)["y"][-1] == "layer 2"


@pytest.mark.parametrize("prompt", HOSTILE_PROMPTS)
def test_hostile_prompts_show_a_notice_or_an_escaped_figure(prompt):
    check_hostile("lens", prompt)


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    build("gpt2", root / "tiny-gpt2")
    build("llama", root / "tiny-llama")
    build("bert", root / "tiny-bert")
    return root


@pytest.mark.parametrize("name", ["tiny-gpt2", "tiny-llama"])
def test_published_decoders_are_read_through_their_own_head(models_dir, monkeypatch, name):
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(models_dir))
    at = open_app("lens", model=name, prompt="小明喜欢猫 and the cat sat . 🙂 <script>")
    assert not at.exception, [e.value for e in at.exception]
    assert not any("needs a decoder-only model" in c.value for c in at.caption)
    model = models.load(params.local_models()[name].path)
    tr = model.run("小明喜欢猫 and the cat sat . 🙂 <script>")
    assert _table(at)["y"][-1] == f"layer {model.config.n_layers}"
    top = [html.unescape(c) for c in _table(at)["customdata"][-1]]
    assert top == model.tokenizer.token_strs(int(i) for i in np.asarray(tr.logits).argmax(-1))[:16]


def test_a_published_encoder_gets_the_sentence(models_dir, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(models_dir))
    at = open_app("lens", model="tiny-bert", prompt=PROMPT)
    assert any("needs a decoder-only model" in c.value for c in at.caption)
