"""The Explorer's neuron view (lessons/explorer_neuron.py) through AppTest: off by default; on, the figure's
q ⊙ k sums to the score the model computed for the picked query and key (default: the last token and its
highest-weight key), in English and Chinese, for the decoder (RoPE), the encoder and the encoder-decoder."""

import numpy as np
import pytest

import models
from tests.pages.apptest import array, figures, open_app

PROMPT = "the cats that the dog sees are happy ."


def _neuron(at) -> dict:
    (fig,) = [f for f in figures(at) if "Σ q⊙k" in str(f["layout"].get("title", {}).get("text", ""))]
    return fig


def _product(fig) -> np.ndarray:
    return array(next(tr for tr in fig["data"] if tr["yaxis"] == "y3" and tr["offsetgroup"] != "before")["y"])


def test_off_by_default_and_listed_in_the_url():
    at = open_app("explorer", prompt=PROMPT)
    assert not [f for f in figures(at) if "Σ q⊙k" in str(f["layout"].get("title", {}).get("text", ""))]
    at.toggle(key="neuron").set_value(True).run()
    assert at.query_params["neuron"] in ("1", ["1"])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_default_pair_sums_to_the_traced_score(lang):
    at = open_app("explorer", prompt=PROMPT, neuron="1", layer="2", head="3", lang=lang)
    assert not at.exception
    tr = models.load("decoder").run(PROMPT)
    att, scores = tr.attention["decoder.self"][1, 2], tr.scores["decoder.self"][1, 2]
    query = len(tr.tokens) - 1
    key = int(np.argmax(att[query]))
    fig = _neuron(at)
    assert abs(_product(fig).sum() * tr.attn_scale - scores[query, key]) < 1e-5
    assert len([t for t in fig["data"] if t["offsetgroup"] == "before"]) == 3  # RoPE: before and after
    text = "\n".join(m.value for m in at.markdown)
    assert ("缩放" if lang == "zh" else "times the scale") in text
    assert at.selectbox(key="nv_q").value == -1 and at.selectbox(key="nv_k").value == -1  # automatic


def test_picked_query_and_key_from_the_url():
    at = open_app("explorer", prompt=PROMPT, model="encoder", neuron="1", nv_q="2", nv_k="5")
    tr = models.load("encoder").run(PROMPT)
    fig = _neuron(at)
    assert abs(_product(fig).sum() * tr.attn_scale - tr.scores["encoder.self"][0, 0, 2, 5]) < 1e-5
    assert not [t for t in fig["data"] if t["offsetgroup"] == "before"]  # learned positions: nothing turns
    at.selectbox(key="nv_k").set_value(1).run()
    assert abs(_product(_neuron(at)).sum() * tr.attn_scale - tr.scores["encoder.self"][0, 0, 2, 1]) < 1e-5
    assert at.query_params["nv_k"] in ("1", ["1"])


def test_a_key_the_query_may_not_see_falls_back_and_cross_attention_has_none():
    at = open_app("explorer", prompt=PROMPT, neuron="1", nv_q="2", nv_k="7")  # causal: query 2 sees keys 0..2
    assert at.selectbox(key="nv_k").value == -1
    at = open_app("explorer", prompt="1234", model="encoder-decoder", neuron="1", attn="decoder.cross")
    assert not at.get("selectbox") or all(s.key not in ("nv_q", "nv_k") for s in at.selectbox)
