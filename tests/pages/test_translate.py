"""Translate page: the steps are the model's greedy translation, cross-attention rows sum to 1,
and teacher forcing reports the model's probability of every typed token."""

import numpy as np
import pytest

import models
from models.inspection.experiments import target_probabilities
from tests.pages.apptest import array, markdown_text, open_app, titled


def test_steps_spell_the_greedy_translation_and_end_with_eos():
    at = open_app("translate", source="1234", tr_step="64")
    text = markdown_text(at)
    model = models.load("encoder-decoder")
    words = model.translate("1234")
    assert words == "one thousand two hundred thirty four"
    n = len(list(model.generate("1234", 64)))
    assert f"Step {n} of {n}" in text and "[EOS]" in text


def test_cross_attention_rows_sum_to_one_and_the_matrix_fills_in():
    at = open_app("translate", source="9071", tr_step="3", layer="2", head="1")
    row = array(titled(at, "Cross-attention of")["data"][0]["z"])
    np.testing.assert_allclose(row.sum(-1), 1.0, atol=1e-5)
    matrix = array(titled(at, "Cross-attention so far")["data"][0]["z"])
    assert matrix.shape[0] == 3  # one row per token written so far
    np.testing.assert_allclose(matrix.sum(-1), 1.0, atol=1e-5)
    steps = list(models.load("encoder-decoder").generate("9071", 3))
    np.testing.assert_allclose(matrix, np.stack([s.attention["decoder.cross"][1, 0] for s in steps]), atol=1e-6)
    at.button(key="tr_step_next").click().run()
    assert array(titled(at, "Cross-attention so far")["data"][0]["z"]).shape[0] == 4


def test_teacher_forcing_agrees_with_its_own_translation():
    at = open_app("translate", source="1234")
    assert at.text_input(key="typed").value == "one thousand two hundred thirty four"
    assert at.success and "matches every token" in at.success[0].value


def test_teacher_forcing_flags_a_wrong_word_with_its_probability():
    at = open_app("translate", source="1234", typed="one thousand two hundred forty four")
    res = target_probabilities(models.load("encoder-decoder"), "1234", "one thousand two hundred forty four")
    fig = titled(at, "P(your token")
    np.testing.assert_allclose(array(fig["data"][0]["y"]), res["probs"], rtol=1e-5)
    colors = fig["data"][0]["marker"]["color"]
    wrong = res["tokens"].index("␣forty")
    assert colors[wrong] != colors[0] and res["probs"][wrong] < 0.01
    assert at.warning and "␣thirty" in at.warning[0].value
    self_att = array(titled(at, "Decoder self-attention")["data"][0]["z"])
    assert (np.triu(self_att, 1) == 0).all()  # masked: no token reads a later one


def test_a_new_source_refills_the_target_with_the_new_translation():
    at = open_app("translate", source="1234")
    at.text_input(key="source").input("15").run()
    assert at.text_input(key="typed").value == "fifteen"


@pytest.mark.parametrize("source", ["", "x" * 10_000, "一千二百三十四", "🙂", "<script>alert(1)</script>"])
def test_hostile_sources(source):
    at = open_app("translate")
    at.text_input(key="source").input(source).run()
    assert not at.exception
    if not source:
        assert at.info
    else:
        titled(at, "Cross-attention so far")
        if source == "🙂":
            assert any("translate numbers" in i.value for i in at.info)
