"""Attention Explorer through AppTest: the figures carry the model's real attention."""

import json

import numpy as np
import pytest

import models
import viz
from tests.pages.apptest import array, figures, heatmaps, open_app, set_prompt

PROMPT = "the cats that the dog sees are happy ."


def test_heatmap_shows_the_prompt_tokens_and_causal_rows():
    at = open_app("explorer", prompt=PROMPT)
    (hm,) = heatmaps(at)
    tokens = models.load("decoder").run(PROMPT).tokens
    assert hm["y"] == viz.axis_labels(tokens) and hm["x"] == viz.axis_labels(tokens)
    z = array(hm["z"])
    np.testing.assert_allclose(z.sum(-1), 1.0, atol=1e-5)
    assert (np.triu(z, 1) == 0).all()  # the decoder is causal: no weight on later keys
    np.testing.assert_allclose(z, models.load("decoder").run(PROMPT).attention["decoder.self"][0, 0], atol=1e-6)


def test_layer_and_head_select_the_matching_matrix():
    at = open_app("explorer", prompt=PROMPT, layer="2", head="3")
    z = array(heatmaps(at)[0]["z"])
    np.testing.assert_allclose(z, models.load("decoder").run(PROMPT).attention["decoder.self"][1, 2], atol=1e-6)
    at.segmented_control(key="head").set_value(0).run()
    z = array(heatmaps(at)[0]["z"])
    np.testing.assert_allclose(z, models.load("decoder").run(PROMPT).attention["decoder.self"][1, 0], atol=1e-6)


def test_encoder_is_bidirectional():
    at = open_app("explorer", prompt=PROMPT, model="encoder")
    hm = heatmaps(at)[0]
    assert hm["y"][0] == "0 [CLS]" and hm["y"][-1].endswith("[SEP]")
    assert (np.triu(array(hm["z"]), 1) > 0).any()


def test_mean_and_rollout_are_labelled_and_rows_sum_to_one():
    at = open_app("explorer", prompt=PROMPT)
    tr = models.load("decoder").run(PROMPT)
    at.segmented_control(key="agg").set_value("mean").run()
    np.testing.assert_allclose(array(heatmaps(at)[0]["z"]), tr.attention["decoder.self"][0].mean(0), atol=1e-5)
    at.segmented_control(key="agg").set_value("rollout").run()
    fig = figures(at)[0]
    assert "rollout" in fig["layout"]["title"]["text"].lower()
    np.testing.assert_allclose(array(fig["data"][0]["z"]).sum(-1), 1.0, atol=1e-6)


def test_grid_is_one_figure_with_every_head_and_opens_the_selected_one_big():
    at = open_app("explorer", prompt=PROMPT, view="grid", layer="2", head="4")
    grid, big = figures(at)
    assert len([t for t in grid["data"] if t["type"] == "heatmap"]) == 2 * 4
    expected = models.load("decoder").run(PROMPT).attention["decoder.self"][1, 3]
    np.testing.assert_allclose(array(grid["data"][1 * 4 + 3]["z"]), expected, atol=1e-6)
    np.testing.assert_allclose(array(big["data"][0]["z"]), expected, atol=1e-6)


def test_head_view_draws_lines_for_every_head():
    at = open_app("explorer", prompt=PROMPT, view="lines")
    (fig,) = figures(at)
    names = {t.get("legendgroup") for t in fig["data"] if t.get("legendgroup")}
    assert len(names) == 4


def test_encoder_decoder_prefills_its_own_translation_and_shows_cross_attention():
    at = open_app("explorer", prompt="1234", model="encoder-decoder")
    assert at.text_input(key="target").value == "one thousand two hundred thirty four"
    at.radio(key="attn").set_value("decoder.cross").run()
    hm = heatmaps(at)[0]
    assert hm["x"] == viz.axis_labels(["1", "2", "3", "4", "[EOS]"])
    assert len(hm["y"]) == 1 + len(["one", "thousand", "two", "hundred", "thirty", "four"])  # [BOS] + words
    at.text_input(key="target").input("one").run()
    assert len(heatmaps(at)[0]["y"]) == 2


@pytest.mark.parametrize("lang,label", [("en", "Layer"), ("zh", "层")])
def test_language_switch_translates_controls(lang, label):
    at = open_app("explorer", prompt=PROMPT, lang=lang)
    assert at.segmented_control(key="layer").label == label


@pytest.mark.parametrize(
    "text",
    ["   ", "a" * 10_000, "我喜欢机器学习", "😀🎉👍", "<script>alert(1)</script>", "$x$ **bold** [link](http://x)"],
)
@pytest.mark.parametrize("model", models.SHIPPED)
def test_hostile_prompts_give_notices_not_tracebacks(text, model):
    at = open_app("explorer", model=model)
    set_prompt(at, text)
    if not text.strip():
        assert at.info and not heatmaps(at)
        return
    if len(text) > 1000:
        assert any("at most" in w.value for w in at.warning)
    hm = heatmaps(at)[0]
    assert all(not label.count("<script") for label in hm["y"])  # escaped for Plotly: &lt;script


def test_empty_prompt_gives_a_hint():
    at = open_app("explorer")
    set_prompt(at, "")
    assert any("Type a prompt" in i.value for i in at.info)


def _downloads(at, monkeypatch) -> dict[str, str]:
    """The files the page's download buttons offer, by file name. The Explorer makes them on click
    (data= a function, registered with the media manager, deferred): the registration is wrapped to keep
    each function, which is then called as a click would."""
    from streamlit.runtime.media_file_manager import MediaFileManager

    deferred: dict[str, tuple] = {}
    add = MediaFileManager.add_deferred

    def recording(self, data_callable, mimetype, coordinates, file_name=None, **kwargs):
        deferred[file_name] = (data_callable, mimetype)
        return add(self, data_callable, mimetype, coordinates, file_name=file_name, **kwargs)

    monkeypatch.setattr(MediaFileManager, "add_deferred", recording)
    at.run()
    assert {name: mime for name, (_, mime) in deferred.items()} == {
        "attention.json": "application/json",
        "attention.csv": "text/csv",
    }
    return {name: make() for name, (make, _) in deferred.items()}


@pytest.mark.parametrize("sink_tables", ["0", "1"])
def test_json_download_names_the_shown_matrix_with_or_without_the_sink_tables(sink_tables, monkeypatch):
    at = open_app("explorer", prompt=PROMPT, layer="2", head="3", sink_tables=sink_tables)
    assert at.toggle(key="sink_tables").value is (sink_tables == "1")
    payload = json.loads(_downloads(at, monkeypatch)["attention.json"])
    assert payload["what"] == "decoder.self Layer 2, head 3"
    assert payload["shape"] == [len(payload["query_tokens"]), len(payload["key_tokens"])]


def test_value_weighted_switch_on_heatmap_grid_and_lines():
    """weighting=norm draws α_ij‖f(x_j)‖ ÷ its row's sum (Kobayashi et al. 2020): rows sum to 1, the colour
    bar says what the cells are."""
    from models.analysis import value_weighted

    tr = models.load("encoder").run(PROMPT)
    expected = value_weighted(tr.attention["encoder.self"], tr.value_norms["encoder.self"])
    at = open_app("explorer", prompt=PROMPT, model="encoder", weighting="norm", layer="1", head="3")
    (hm,) = heatmaps(at)
    z = array(hm["z"])
    np.testing.assert_allclose(z, expected[0, 2], atol=1e-6)
    np.testing.assert_allclose(z.sum(-1), 1.0, atol=1e-5)
    assert not np.allclose(z, tr.attention["encoder.self"][0, 2], atol=1e-3)
    assert hm["colorbar"]["title"]["text"] == "share of α‖f(x)‖"
    assert "value-weighted" in figures(at)[0]["layout"]["title"]["text"]
    assert any("Kobayashi" in c.value for c in at.caption)
    at.segmented_control(key="view").set_value("grid").run()
    grid, big = figures(at)
    np.testing.assert_allclose(array(grid["data"][1 * 4 + 1]["z"]), expected[1, 1], atol=1e-6)
    np.testing.assert_allclose(array(big["data"][0]["z"]), expected[0, 2], atol=1e-6)
    at.segmented_control(key="view").set_value("lines").run()
    assert figures(at)  # drawn from the value-weighted rows, no error
    assert "norm" in at.query_params["weighting"]  # a copied link keeps the switch


def test_weights_setting_leaves_every_figure_as_it_was():
    default = open_app("explorer", prompt=PROMPT, model="encoder", sink_tables="1")
    raw = open_app("explorer", prompt=PROMPT, model="encoder", sink_tables="1", weighting="raw")
    assert figures(raw) == figures(default)
    assert "weighting" not in default.query_params


def test_nonsense_weighting_falls_back_with_a_notice():
    at = open_app(None, prompt=PROMPT, weighting="loudness")
    assert at.warning and "ignored" in at.warning[0].value and "weighting" in at.warning[0].value
    at.switch_page("lessons/explorer.py").run()
    assert not at.exception
    assert at.segmented_control(key="weighting").value == "raw"
    assert heatmaps(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_sinks_notice_gives_the_weight_and_the_norm_share(lang):
    from models.analysis import attention_sinks, sink_shares

    tr = models.load("minilm").run(PROMPT)
    top = max(
        attention_sinks(tr.attention["encoder.self"], tr.tokens, value_norms=tr.value_norms["encoder.self"]),
        key=lambda s: s["weight"],
    )
    at = open_app("explorer", prompt=PROMPT, model="minilm", lang=lang, sink_tables="1")
    (notice,) = [i.value for i in at.info if "L" in i.value and "→" in i.value]
    assert f"L{top['layer'] + 1}H{top['head'] + 1}" in notice
    assert f"{top['weight']:.0%}" in notice and f"{top['norm_share']:.0%}" in notice
    assert top["norm_share"] < top["weight"] / 2  # MiniLM's [CLS]/[SEP] sinks carry little
    figs = figures(at)
    assert len(figs) == 1 + 3 * 2  # the heatmap, then per tab two tables: the weight and the norm share
    shares = sink_shares(tr.attention["encoder.self"], tr.tokens)
    norm_shares = sink_shares(tr.attention["encoder.self"], tr.tokens, value_norms=tr.value_norms["encoder.self"])
    np.testing.assert_allclose(array(figs[1]["data"][0]["z"]), shares["start"], atol=1e-6)
    np.testing.assert_allclose(array(figs[2]["data"][0]["z"]), norm_shares["start"], atol=1e-6)
