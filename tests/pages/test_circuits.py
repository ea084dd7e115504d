"""The "Circuits between heads" page (issue 43) in AppTest: the score split it draws adds up to the model's own score
and is models.circuits.score_parts'; its K map is circuits.composition's; on the toy decoder the field guide's best
previous-token head feeds its best induction head through the keys; path patching is circuits.path_patch's; bad input
is a message; English and Chinese; a tiny published decoder and encoder."""

from __future__ import annotations

import json

import numpy as np
import pytest

import models
from models import circuits
from tests.models.hf.tiny import build
from tests.models.hf.tiny_gemma import build_gemma
from tests.models.hf.tiny_qwen35 import build_qwen35
from ui import params, patch_pairs
from viz.circuits import composition_grid

from .apptest import HOSTILE_PROMPTS, array, figures, markdown_text, open_app, titled


def _z(fig: dict) -> np.ndarray:
    return array(fig["data"][0]["z"]).astype(float)


def _toy():
    model = models.load("decoder")
    ids = model.source_ids(patch_pairs.template("repeat", toy=True).clean)[0]
    return model, ids


def test_the_split_adds_up_to_the_models_score_and_is_score_parts():
    at = open_app("circuits")
    model, ids = _toy()
    n = len(ids)
    assert (at.selectbox(key="cc_layer").value, at.selectbox(key="cc_head").value) == (1, 0)
    assert at.selectbox(key="cc_query").value == n - 1  # the second ␣river
    assert at.selectbox(key="cc_key").value == 7  # ␣lucky, after the first ␣river: where an induction head looks
    parts = circuits.score_parts(model, ids, 1, 0, n - 1, 7)
    shown = _z(titled(at, "by part"))
    np.testing.assert_allclose(shown, parts.values, atol=1e-9)
    assert abs(shown.sum() - parts.model_score) < 1e-4
    text = markdown_text(at)
    assert (
        f"add up to **{parts.total:.3f}**" in text and f"own score for this cell is **{parts.model_score:.3f}**" in text
    )
    assert "The largest cells: **embedding** × **L1H2**" in text  # the previous-token head's write at the key


def test_another_cell_and_head_are_split_too():
    at = open_app("circuits")
    at.selectbox(key="cc_head").set_value(2).run()
    at.selectbox(key="cc_query").set_value(9).run()
    at.selectbox(key="cc_key").set_value(3).run()
    assert not at.exception
    model, ids = _toy()
    parts = circuits.score_parts(model, ids, 1, 2, 9, 3)
    np.testing.assert_allclose(_z(titled(at, "by part")), parts.values, atol=1e-9)


def test_the_k_map_is_composition_and_the_wire_beats_q_and_v():
    at = open_app("circuits")
    model = models.load("decoder")
    shown = {k: _z(titled(at, f"{k}-composition")) for k in ("K", "Q", "V")}
    for kind, z in shown.items():
        np.testing.assert_allclose(z, composition_grid(circuits.composition(model, kind)), atol=1e-9)
    labels = titled(at, "K-composition")["data"][0]["y"]
    assert labels[0] == "L1H1 · previous token" and labels[4] == "L2H1 · induction"
    k, q, v = (shown[x][0, 4] for x in ("K", "Q", "V"))  # L1H1 (previous token) -> L2H1 (induction)
    assert k > 1.5 * max(q, v) and k > circuits.composition_baseline(model, "K")
    assert "K 0.183, Q 0.032, V 0.033" in markdown_text(at)


def test_path_patching_is_path_patch_from_the_previous_token_head():
    at = open_app("circuits")
    assert at.selectbox(key="cc_sender").value == 0  # L1H1, the field guide's best previous-token head
    model, _ = _toy()
    pair = patch_pairs.template("repeat", toy=True)
    enc = model.tokenizer.encode
    clean, corrupted = (model.source_ids(x)[0] for x in (pair.clean, pair.corrupted))
    a, w = (patch_pairs.continuation(enc, pair.clean, x)[0] for x in (pair.answer, pair.wrong))
    r = circuits.path_patch(model, clean, corrupted, a, w, sender=(0, 0), receiver_input="k")
    np.testing.assert_allclose(_z(titled(at, "Recovered share, from L1H1")), r.recovered, atol=1e-6)
    at.segmented_control(key="cc_input").set_value("v").run()
    r = circuits.path_patch(model, clean, corrupted, a, w, sender=(0, 0), receiver_input="v")
    np.testing.assert_allclose(_z(titled(at, "Recovered share, from L1H1")), r.recovered, atol=1e-6)


def test_corrupting_the_clue_lights_up_the_previous_token_heads_path_into_the_keys():
    at = open_app("circuits")
    assert any("writes the **clue**" in i.value for i in at.info)  # the template changes the copied word
    clean = "the young kind ball happy river lucky the young kind ball happy river"
    at = open_app("circuits", pt_clean=clean, pt_corrupt=clean.replace("river lucky", "busy lucky"), pt_answer="lucky",
                  pt_wrong="busy", cc_sender="1")  # L1H2  # fmt: skip
    maps = {}
    for inp in ("k", "q", "v"):
        at.segmented_control(key="cc_input").set_value(inp).run()
        maps[inp] = _z(titled(at, "Recovered share, from L1H2"))[1]
    assert maps["k"].max() > 0.3 and maps["k"].min() > 0.1
    assert np.abs(maps["q"]).max() < 0.05 and np.abs(maps["v"]).max() < 0.05
    assert not at.info


def test_token_circuits_and_singular_values():
    at = open_app("circuits")
    model = models.load("decoder")
    ov = circuits.ov_circuit(model, 1, 0)
    assert f"**Copying score** {ov.copying:+.2f}" in markdown_text(at)
    np.testing.assert_allclose(array(titled(at, "Singular values")["data"][0]["y"]), ov.singular_values, atol=1e-9)
    frame = at.dataframe[0].value
    assert frame.iloc[0, 0] == model.tokenizer.token_strs([ov.pairs[0][0]])[0]


def test_knocking_out_the_induction_edge_is_knock_out_and_a_whole_row_is_a_message():
    at = open_app("circuits")
    model, ids = _toy()
    n = len(ids)
    enc = model.tokenizer.encode
    pair = patch_pairs.template("repeat", toy=True)
    a, w = (patch_pairs.continuation(enc, pair.clean, x)[0] for x in (pair.answer, pair.wrong))
    k = circuits.knock_out(model, ids, [(n - 1, 7)], [1], [0], answer_id=a, wrong_id=w)
    text = markdown_text(at)
    assert f"**{k.prob_before:.3f}** → **{k.prob_after:.3f}**" in text and k.prob_change < -0.2
    assert f"**{k.metric_before:.3f}** → **{k.metric_after:.3f}**" in text
    np.testing.assert_allclose(_z(titled(at, "edge knocked out")), k.pattern_after[1, 0], atol=1e-6)
    np.testing.assert_allclose(_z(titled(at, "L2H1, unchanged")), k.pattern_before[1, 0], atol=1e-6)
    at.selectbox(key="cc_ko_q").set_value(0).run()  # [BOS] sees only itself
    assert not at.exception and any("a softmax over no keys is undefined" in x.value for x in at.warning)
    at = open_app("circuits", cc_ko_word="1")  # every ␣lucky before the query: the one copy here
    assert not at.exception and titled(at, "edge knocked out")


def test_pattern_patching_of_the_edge_is_patch_entry():
    """The knock-out's edge the other way round: the corrupted run with only that weight from the clean run."""
    at = open_app("circuits")
    model = models.load("decoder")
    pair = patch_pairs.template("repeat", toy=True)
    enc = model.tokenizer.encode
    clean, corrupted = (model.source_ids(x)[0] for x in (pair.clean, pair.corrupted))
    a, w = (patch_pairs.continuation(enc, pair.clean, x)[0] for x in (pair.answer, pair.wrong))
    q, k = at.session_state["cc_ko_q"], at.session_state["cc_ko_k"]
    layer, head = sorted(at.session_state["cc_ko_layers"])[0], sorted(at.session_state["cc_ko_heads"])[0]
    e = circuits.patch_entry(model, clean, corrupted, a, w, layer, head, q, k)
    text = markdown_text(at)
    assert f"a recovered share of **{e.recovered:.2f}**" in text and f"{e.clean_weight:.3f}" in text


@pytest.mark.parametrize("prompt", HOSTILE_PROMPTS)
def test_hostile_prompts_are_messages_or_figures(prompt):
    at = open_app("circuits", pt_clean=prompt, pt_corrupt=prompt, pt_answer="<b>x</b>", pt_wrong="🙂")
    assert not at.exception, [e.value for e in at.exception]
    shown = json.dumps(figures(at)) + markdown_text(at)
    assert "<script>" not in shown and "<b>" not in shown


def test_a_long_prompt_is_a_message():
    at = open_app("circuits", pt_clean="x" * 10_000)
    assert any("at most 64 tokens" in w.value for w in at.warning) and not figures(at)


def test_chinese():
    at = open_app("circuits", lang="zh", pt_template="names_zh")
    assert not at.exception
    text = markdown_text(at)
    assert "K 组合" in text and "加起来是" in text and "复制分数" in text
    titled(at, "按部分拆分")
    titled(at, "K 组合")


def test_an_encoder_gets_a_message_and_the_toy_decoder():
    at = open_app("circuits", model="encoder")
    assert any("is not a decoder" in i.value for i in at.info)
    assert _z(titled(at, "K-composition")).shape == (8, 8)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("circuits")
    build("gpt2", root / "tiny-gpt2")
    build("bert", root / "tiny-bert")
    build_qwen35(root / "tiny-qwen35")
    build_gemma("gemma2", root / "tiny-gemma2")
    return root


def test_a_tiny_published_decoder_works(local):
    at = open_app("circuits", model="tiny-gpt2", pt_template="names_en")
    assert not at.exception, [e.value for e in at.exception]
    model = models.load(params.local_models()["tiny-gpt2"].path)
    shown = _z(titled(at, "by part"))
    assert abs(shown.sum() - float(markdown_text(at).split("own score for this cell is **")[1].split("**")[0])) < 2e-3
    np.testing.assert_allclose(_z(titled(at, "K-composition")), composition_grid(circuits.composition(model, "K")),
                               atol=1e-9)  # fmt: skip


def test_a_tiny_published_encoder_gets_the_message(local):
    at = open_app("circuits", model="tiny-bert")
    assert any("is not a decoder" in i.value for i in at.info)


def test_gemma2s_cap_and_qwen35s_linear_layers_are_messages_not_tracebacks(local):
    at = open_app("circuits", model="tiny-gemma2")
    assert not at.exception, [e.value for e in at.exception]
    assert any("soft-caps its scores" in c.value for c in at.caption)
    at = open_app("circuits", model="tiny-qwen35")
    assert not at.exception, [e.value for e in at.exception]
    cfg = models.load(params.local_models()["tiny-qwen35"].path).config
    for layer in range(cfg.n_layers):
        at.selectbox(key="cc_layer").set_value(layer).run()
        assert not at.exception, [e.value for e in at.exception]
        if cfg.layer_types[layer] == "linear_attention":
            assert any("does not apply" in w.value for w in at.warning)


def test_a_rerun_runs_no_model_once_cached(monkeypatch):
    at = open_app("circuits")
    calls = []
    for name in ("score_parts", "composition", "path_patch", "ov_circuit", "knock_out"):
        real = getattr(circuits, name)
        monkeypatch.setattr(circuits, name, lambda *a, _r=real, **k: calls.append(1) or _r(*a, **k))
    at.toggle(key="tables").set_value(True).run()
    assert not at.exception and calls == []
