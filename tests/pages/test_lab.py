"""The architecture lab through AppTest: the toggles change what they must, GQA's shared keys and
the no-PE equivariance show up, trained variants load from the cache, a corrupt entry is reported
and deleted, and the Train / Stop buttons drive a real child process."""

import json
import time

import numpy as np
import pytest
import streamlit as st

import models
import models.loading
from models import analysis, variants
from tests.pages.apptest import array, figures, open_app, table, titled
from ui import loaders
from ui.params import LAB_FIELDS as FIELDS


def lab(**query):
    return open_app("lab", **query)


def gaps(at, side="A"):
    return array(titled(at, f"{side}, layer 1: max")["data"][0]["z"])


def lab_config(at, side="a") -> models.ModelConfig:
    """The side's ModelConfig as the page built it (from the widgets' state)."""
    s = {name: at.session_state[f"{side}_{name}"] for name in FIELDS}
    heads, d = s["n_heads"], s["d_model"]
    scale = {"sqrt": None, "one": 1.0, "inv": 1.0 / (d // heads)}[s["attn_scale"]]
    return models.ModelConfig(
        arch=s["arch"], vocab_size=2048, n_layers=s["n_layers"], d_model=d, n_heads=heads,
        n_kv_heads=None if s["n_kv_heads"] == heads else s["n_kv_heads"], d_ff=s["d_ff"],
        norm_position=s["norm_position"], norm=s["norm"], activation=s["activation"], positional=s["positional"],
        attn_scale=scale, max_len=128, tie_embeddings=bool(s["tie_embeddings"]), bias=bool(s["bias"]),
        seed=int(s["seed"]), n_experts=int(s["n_experts"]), experts_top_k=int(s["experts_top_k"]),
    )  # fmt: skip


def test_defaults_render_both_sides_random_init():
    at = lab()
    heat = [f for f in figures(at) if f["layout"].get("title", {}).get("text", "").endswith("layer 1, head 1")]
    assert len(heat) == 2
    bars = titled(at, "Parameters by component")
    for trace, side in zip(bars["data"][:2], "ab", strict=True):  # values, then the reference bars
        counts = analysis.parameter_counts(lab_config(at, side))
        assert array(trace["y"]).tolist() == [float(v) for v in counts.values()]


@pytest.mark.parametrize("kv", [4, 2, 1])  # MHA, GQA, MQA
def test_gqa_heads_share_keys(kv):
    g = gaps(lab(a_n_heads="4", a_n_kv_heads=str(kv)), "A")
    group = 4 // kv
    for i in range(4):
        for j in range(4):
            assert (g[i, j] == 0) == (i // group == j // group), (kv, i, j, g)


def test_no_pe_encoder_is_permutation_equivariant():
    at = lab(a_arch="encoder", a_positional="none", b_arch="encoder", b_positional="learned")
    rows = table(at)
    delta = [float(v) for v in rows["largest change"]]
    assert delta[0] < 1e-4 and "only permuted" in rows["verdict"][0]
    assert delta[1] > 1e-2 and "outputs change" in rows["verdict"][1]
    at = lab(a_arch="decoder", a_positional="none")  # a causal mask alone breaks it
    assert float(table(at)["largest change"][0]) > 1e-2


def side_figures(at, side):
    """(mean-entropy table over every layer and head, parameter counts) of one side."""
    entropy = [
        array(f["data"][0]["z"]) for f in figures(at) if f["layout"]["title"]["text"].startswith("Mean attention")
    ]
    bars = titled(at, "Parameters by component")["data"]
    return entropy["ab".index(side)], array(bars["ab".index(side)]["y"])


@pytest.mark.parametrize(
    ("key", "value", "what"),
    [("a_activation", "relu", "attention"), ("a_norm", "layernorm", "both"), ("a_norm_position", "post", "both"),
     ("a_positional", "sinusoidal", "attention"), ("a_attn_scale", "one", "attention"), ("a_seed", 3, "attention"),
     ("a_d_model", 128, "both"), ("a_d_ff", 512, "both"), ("a_bias", True, "params"),
     ("a_tie_embeddings", True, "params"), ("a_n_kv_heads", 1, "both"), ("a_n_layers", 3, "both"),
     ("a_arch", "encoder", "attention")],
)  # fmt: skip
def test_every_toggle_changes_its_side_only(key, value, what):
    """Biases start at 0 and tying shares a matrix: at initialisation they change the parameter count, not
    the attention; SwiGLU -> ReLU keeps the count here only if d_ff is chosen so, so it is not checked."""
    at = lab()
    a0, b0 = side_figures(at, "a"), side_figures(at, "b")
    if isinstance(value, bool):
        at.toggle(key=key).set_value(value).run()
    elif key == "a_seed":
        at.number_input(key=key).set_value(value).run()
    elif key in ("a_d_model", "a_d_ff", "a_n_layers"):
        at.select_slider(key=key).set_value(value).run()
    else:
        at.selectbox(key=key).set_value(value).run()
    assert not at.exception
    a1, b1 = side_figures(at, "a"), side_figures(at, "b")
    if what in ("attention", "both"):
        assert a0[0].shape != a1[0].shape or not np.allclose(a0[0], a1[0]), key
    if what in ("params", "both"):
        assert a0[1].tolist() != a1[1].tolist(), key
    if what == "params":
        np.testing.assert_allclose(a0[0], a1[0], atol=1e-6)  # same function at initialisation
    np.testing.assert_array_equal(b0[0], b1[0])  # B is untouched
    np.testing.assert_array_equal(b0[1], b1[1])


def test_scale_one_sharpens_attention():
    """Without 1/sqrt(d_head) the scores are sqrt(d_head) times larger: lower entropy."""
    sharp, soft = lab(a_attn_scale="one"), lab(a_attn_scale="inv")
    ent = lambda at: array(titled(at, "Mean attention entropy")["data"][0]["z"]).mean()  # noqa: E731
    assert ent(sharp) < ent(lab()) < ent(soft)


def test_presets_and_copy():
    at = lab()
    at.pills(key="b_preset").set_value("bert").run()
    assert at.session_state["b_arch"] == "encoder" and at.session_state["b_norm_position"] == "post"
    next(b for b in at.button if b.label == "Copy A to B").click().run()  # under the comparison's Train buttons
    assert lab_config(at, "b") == lab_config(at, "a")


def test_induction_preset_sets_the_measured_config_and_recipe():
    at = lab()
    at.pills(key="b_preset").set_value("induction").run()
    assert at.session_state["lab_recipe"] == "induction"
    cfg = lab_config(at, "b")
    want = lab_config(at, "a")  # the default A (RoPE, Llama-style) with tied embeddings
    assert cfg.tie_embeddings and cfg.positional == "rope" and not want.tie_embeddings
    assert cfg == models.ModelConfig.from_dict({**want.to_dict(), "tie_embeddings": True})
    assert len([w for w in at.warning if "not measured" in w.value]) == 1  # A (untied) warns, B no longer


def test_recipe_on_a_config_that_forms_no_head_warns_and_offers_the_preset():
    at = lab(lab_recipe="induction")  # both default sides: measured not to form one
    warned = [w.value for w in at.warning if "not measured to form an induction head" in w.value]
    assert len(warned) == 2 and "differs from the preset in: Tie embeddings." in warned[0]
    assert "Positional encoding" in warned[1] and "0.83" in warned[1]
    at.button(key="a_use_preset").click().run()
    assert lab_config(at, "a").tie_embeddings and at.session_state["lab_recipe"] == "induction"
    assert len([w for w in at.warning if "not measured" in w.value]) == 1  # B still warns
    assert not [b for b in at.button if b.key == "a_use_preset"]
    at = lab()  # the default recipe: no warning, a note and the same offer
    assert not at.warning and any("default recipe forms no induction head" in c.value for c in at.caption)
    at.button(key="a_use_preset").click().run()
    assert at.session_state["lab_recipe"] == "induction" and lab_config(at, "a").tie_embeddings
    enc = lab(lab_recipe="induction", a_arch="encoder")  # an encoder has no induction score: nothing to offer
    assert not [b for b in enc.button if b.key == "a_use_preset"]


def train_entry(cfg: models.ModelConfig, steps: int = 20):
    tok = models.load("decoder").tokenizer
    net, hist = variants.train(cfg, tok, cfg.seed, steps)
    path = variants.entry_path(variants.variant_key(cfg, cfg.seed), loaders.training_jobs().root)
    variants.save(net, hist, cfg.seed, path)
    loaders.training_jobs.clear()  # a restart: the registry scans the cache again
    return path, hist


def test_trained_variant_loads_from_the_cache_and_corrupt_entry_is_rebuilt():
    at = lab(a_seed="7")
    cfg = lab_config(at, "a")
    path, hist = train_entry(cfg)
    at = lab(a_seed="7")
    assert not at.warning
    fig = [f for f in figures(at) if f["layout"].get("yaxis", {}).get("title", {}).get("text") == "held-out loss"]
    assert fig, "no loss curve"
    y = array(fig[0]["data"][0]["y"])
    assert np.nanmin(y) == pytest.approx(min(hist.val))
    random_at = lab(a_seed="7", weights="random")
    assert not np.allclose(array(titled(at, "layer 1, head 1")["data"][0]["z"]),
                           array(titled(random_at, "layer 1, head 1")["data"][0]["z"]))  # fmt: skip
    path.write_bytes(b"not a checkpoint")
    loaders.lab_model.clear()
    at = lab(a_seed="7")
    warning = " ".join(w.value for w in at.warning)
    assert "were damaged" in warning and path.name in warning and "have been removed" in warning
    assert "PyTorch" not in warning and "miniz" not in warning  # our words, not the library's internals
    assert not path.exists()
    train_entry(cfg)  # rebuilt
    loaders.lab_model.clear()
    assert not lab(a_seed="7").warning


def test_train_and_stop_buttons_drive_a_child_process():
    at = lab(a_seed="11")
    at.button(key="a_train").click().run()
    jobs = loaders.training_jobs()
    job = jobs.running()
    assert job is not None and job.config == lab_config(at, "a")
    assert at.button(key="b_train").disabled  # one training at a time
    end = time.time() + 60
    while not job.history.step and time.time() < end:
        time.sleep(0.2)
    at.run()
    assert any("Step" in p.proto.text for p in at.get("progress")), "no progress bar"
    at.button(key="a_stop").click().run()
    assert job.state == "cancelled"
    assert not variants.entry_path(job.key, jobs.root).exists()
    assert job.key not in jobs.trained


def test_anatomy_tree_is_the_built_module():
    at = lab(lab_tree="1", lab_anatomy="b")
    code = at.code[0].value
    assert code.startswith("Transformer(") and "(decoder): ModuleList(" in code
    cfg = lab_config(at, "b")
    tm = titled(at, "Where the parameters of B are")["data"][0]
    root = next(v for i, v in zip(tm["ids"], array(tm["values"]), strict=True) if i == "root")
    assert root == sum(analysis.parameter_counts(cfg).values())
    assert json.dumps(tm)  # serialisable


def test_snapshot_slider_replays_training():
    """A trained side (few steps, pre-built in the cache) gets the step slider: its last step shows the
    trained model's own attention, step 0 the random initialisation; the scores chart has a log x axis."""
    at = lab(a_seed="5")
    cfg = lab_config(at, "a")
    _, hist = train_entry(cfg)
    at = lab(a_seed="5")
    assert not at.exception
    steps = [s for s, _ in hist.states]
    assert list(at.select_slider(key="a_snap").options) == [str(s) for s in steps]
    trained = array(titled(at, "layer 1, head 1")["data"][0]["z"])  # the comparison's heatmap comes first
    last = array(titled(at, f"layer 1, head 1 at step {steps[-1]}")["data"][0]["z"])
    np.testing.assert_allclose(last, trained, atol=1e-6)
    scores = titled(at, "Head scores over training")
    assert scores["layout"]["xaxis"]["type"] == "log"
    best = [max(max(r) for r in s) for s in hist.snapshots["induction"]]
    lines = {trace["name"]: array(trace["y"]) for trace in scores["data"]}
    np.testing.assert_allclose(lines["induction (best head)"], best)
    assert any("Olsson et al. 2022" in c.value for c in at.caption)
    # issue 43: the wire from the best previous-token head into the best induction head, at every snapshot
    wires = [f for f in figures(at) if f["layout"].get("title", {}).get("text", "").startswith("The wire:")]
    if wires:
        named = {trace.get("name"): array(trace["y"]) for trace in wires[0]["data"] if trace.get("name")}
        assert {"K-composition", "Q-composition", "V-composition"} <= set(named)
        assert all(len(y) == len(steps) for y in named.values())
    else:  # the best previous-token head is not before the best induction head: said, not drawn
        assert any("No wire to draw" in c.value for c in at.caption)
    at.select_slider(key="a_snap").set_value(0).run()
    first = array(titled(at, "layer 1, head 1 at step 0")["data"][0]["z"])
    random_init = array(titled(lab(a_seed="5", weights="random"), "layer 1, head 1")["data"][0]["z"])
    np.testing.assert_allclose(first, random_init, atol=2e-3)  # float16 snapshot of the initialisation
    assert not np.allclose(first, last)
    at = lab(a_seed="5", lab_recipe="induction")  # another recipe, another entry: not trained yet
    assert not at.exception and at.session_state["lab_recipe"] == "induction"
    assert not [s for s in at.select_slider if s.key == "a_snap"]
    assert any("Train this side" in i.value for i in at.info)


def test_scores_chart_keeps_its_label_off_the_current_step_and_lines_apart():
    """The 'induction head' label goes to the side of its line away from the slider's line; the selected
    head's line is drawn under the best-head line, and left out when it is the best head throughout."""
    from lessons.lab_snapshots import _scores_figure

    scores = {"step": [0, 100, 600, 700, 1000], "previous_token": [[[0.2, 0.3]]] * 5,
              "induction": [[[0.1, 0.0]], [[0.1, 0.05]], [[0.3, 0.2]], [[0.6, 0.2]], [[0.8, 0.3]]]}  # fmt: skip
    side = lambda step: _scores_figure(scores, step, (0, 0), 700, 1.0).figure().layout.annotations[0].xanchor  # noqa: E731
    assert side(1000) == "right" and side(700) == "right"  # text left of the line: the slider is right of it
    assert side(600) == "left" and side(0) == "right"  # just left of it: text to the right; far left: no clash
    names = [tr.name for tr in _scores_figure(scores, 0, (0, 1), 700, 1.0).figure().data]
    assert names[0] == "induction of L1H2" and names[1] == "induction (best head)"  # under the best line
    names = [tr.name for tr in _scores_figure(scores, 0, (0, 0), 700, 1.0).figure().data]
    assert "induction of L1H1" not in names  # L1H1 is the best head at every snapshot: one line


# ---------------------------------------------------------------- mixture of experts


def test_moe_config_builds_and_the_router_view_shows_on_the_random_init():
    at = lab(a_n_experts="8", a_experts_top_k="2", b_n_experts="4", b_experts_top_k="1")
    assert not at.exception
    cfg = lab_config(at, "a")
    assert (cfg.n_experts, cfg.experts_top_k) == (8, 2) and lab_config(at, "b").n_experts == 4
    for side, n, k in (("A", 8, 2), ("B", 4, 1)):
        choice = titled(at, f"{side}: experts chosen per token")["data"][0]
        probs = array(titled(at, f"{side}, layer 1: router probabilities")["data"][0]["z"])  # [n, T]
        assert probs.shape[0] == n
        np.testing.assert_allclose(probs.sum(0), 1, rtol=1e-5)
        first = array(choice["z"]) - 0.5  # [L, T]: the first choice, an expert id
        np.testing.assert_array_equal(first[0], probs.argmax(0))
        assert all(len(cell.split("+")) == k for row in choice["text"] for cell in row)
        load = titled(at, f"{side}, layer 1: load per expert")
        f = array(load["data"][0]["y"])
        assert f.size == n and f.sum() == pytest.approx(1.0)
        assert array(load["data"][1]["y"]).tolist() == pytest.approx([1 / n, 1 / n])  # the even-load line
    text = " ".join(m.value for m in at.markdown)
    total = sum(analysis.parameter_counts(cfg).values())
    active = sum(analysis.parameter_counts(cfg, active=True).values())
    assert f"**{total:,}** parameters in total, **{active:,}** active per token" in text
    assert any("aux = n · Σᵢ fᵢ · Pᵢ = **" in c.value for c in at.caption)


def test_dense_lab_says_how_to_see_the_router_and_the_mixtral_preset_sets_experts():
    at = lab()
    assert any("Neither side has experts" in i.value for i in at.info)
    assert "n_experts" not in lab_config(at).to_dict()  # the default lab config is the dense one, unchanged
    at.pills(key="b_preset").set_value("mixtral").run()
    assert (at.session_state["b_n_experts"], at.session_state["b_experts_top_k"]) == (8, 2)
    assert titled(at, "B: experts chosen per token")
    at.pills(key="b_preset").set_value("gpt2").run()  # a family preset is dense again
    assert at.session_state["b_n_experts"] == 0


def test_trained_moe_variant_shows_its_router():
    at = lab(a_n_experts="4", a_experts_top_k="2", a_seed="9")
    cfg = lab_config(at, "a")
    _, hist = train_entry(cfg, steps=10)
    assert np.isfinite(hist.val).all()
    at = lab(a_n_experts="4", a_experts_top_k="2", a_seed="9")
    assert not at.exception and not any("randomly initialised: the router" in c.value for c in at.caption)
    f = array(titled(at, "A, layer 1: load per expert")["data"][0]["y"])
    assert f.sum() == pytest.approx(1.0)


def test_a_damaged_shipped_decoder_does_not_block_the_lab():
    """The lab needs only the tokenizer (issue 21): with decoder.pt damaged it still draws its models, while
    the Explorer on the decoder names the damaged file and the rebuild command."""
    path = models.loading.WEIGHTS_DIR / "decoder.pt"
    kept = path.read_bytes()
    st.cache_resource.clear()
    try:
        path.write_bytes(kept[: len(kept) // 3])
        at = lab()
        assert not at.error and not at.exception and figures(at)
        explorer = open_app("explorer", model="decoder")
        assert any("python -m models.train --arch decoder" in e.value.replace("\\", "") for e in explorer.error)
    finally:
        path.write_bytes(kept)
        st.cache_resource.clear()


def test_an_unwritable_cache_is_said_before_training(tmp_path, monkeypatch):
    """Issue 21: the folder and the variable to change are named before a minute of training is spent."""
    (tmp_path / "a-file").write_text("not a folder")  # root ignores permissions; a file as parent stops it too
    monkeypatch.setenv("ATTENTION_LAB_CACHE", str(tmp_path / "a-file" / "cache"))
    loaders.training_jobs.clear()
    try:
        at = lab()
        warning = " ".join(w.value for w in at.warning)
        assert "cannot be saved" in warning and "ATTENTION_LAB_CACHE" in warning and "a-file" in warning
        assert not at.button(key="a_train").disabled  # training still works, into memory
    finally:
        loaders.training_jobs.clear()


def test_a_run_that_never_finished_is_said_beside_train():
    """Issue 21: the server restarted during a run (its lock is left, no entry): the page says the run did not
    finish and offers Train."""
    at = lab(a_seed="13")
    key = variants.variant_key(lab_config(at, "a"), 13)
    variants.lock_path(key, loaders.training_jobs().root).touch()
    loaders.training_jobs.clear()  # the restart: the registry scans the cache again
    try:
        at = lab(a_seed="13")
        assert any("did not finish" in c.value for c in at.caption)
        assert not at.button(key="a_train").disabled
    finally:
        variants.lock_path(key, loaders.training_jobs().root).unlink()
        loaders.training_jobs.clear()
