"""Architecture lab: two configurations (A and B) side by side on the same prompt. Every option of
ModelConfig is a control; a variant starts random-init at once and can be trained here."""

import json
from types import SimpleNamespace

import numpy as np
import streamlit as st

import models
import viz
from models import analysis, catalog, variants
from models.config import ACTIVATIONS, ARCHS, NORM_POSITIONS, NORMS, POSITIONALS
from models.transformer import INIT_STD
from ui import controls, shell, state
from ui.i18n import md, names, part_names, t, viz_labels
from ui.loaders import lab_model, lab_run, training_jobs
from ui.params import LAB_D_FF, LAB_D_MODEL, LAB_HEADS, LAB_LAYERS, LAB_PRESETS, LAB_SCALES, SIDES

FIELDS = ("arch", "layers", "d", "heads", "kv", "ff", "norm_position", "norm", "activation", "positional", "scale",
          "bias", "tie", "seed")  # fmt: skip
LAB_MAX_LEN = 128  # the lab's models read at most this many tokens
POLL_SECONDS = 1.0  # the live loss curve's refresh while a variant trains

settings = state.current()
labels = viz_labels()
scale = settings.scale
tok = shell.model_or_stop(settings, "decoder").tokenizer  # the shipped tokenizer (names the rebuild command if missing)
jobs = training_jobs()
st.markdown(t("lab.intro"))
st.caption(t("lab.sidebar_note"))


def _apply_preset(side: str) -> None:
    preset = st.session_state.get(f"{side}_preset")
    if preset is not None:
        for name, value in LAB_PRESETS[preset].items():
            st.session_state[f"{side}_{name}"] = value
        st.session_state[f"{side}_preset"] = None


def _copy(src: str, dst: str) -> None:
    for name in FIELDS:
        st.session_state[f"{dst}_{name}"] = st.session_state[f"{src}_{name}"]


def kv_label(heads: int):
    kinds = {1: "mqa", heads: "mha"}  # one query head: MHA (and MQA) with one K/V head
    return lambda k: t(f"lab.kv.{kinds.get(k, 'gqa')}", k=k, group=heads // k)


def config_controls(side: str) -> models.ModelConfig:
    """The controls of one side; every combination they allow is a valid ModelConfig."""
    key = lambda name: f"{side}_{name}"  # noqa: E731
    for name in FIELDS:
        state.ensure(key(name))
    ss = st.session_state
    if ss[key("heads")] % ss[key("kv")]:  # a KV-head count must divide the query heads
        ss[key("kv")] = ss[key("heads")]
    st.pills(t("lab.preset"), list(LAB_PRESETS), format_func=names("lab.preset"), key=key("preset"),
             on_change=_apply_preset, args=(side,))  # fmt: skip
    widgets = [
        lambda: st.selectbox(t("lab.arch"), ARCHS, format_func=names("common.arch"), key=key("arch")),
        lambda: st.select_slider(t("lab.layers"), LAB_LAYERS, key=key("layers"), help=t("lab.layers_help")),
        lambda: st.select_slider("d_model", LAB_D_MODEL, key=key("d"), help=t("lab.d_help")),
        lambda: st.select_slider(t("lab.heads"), LAB_HEADS, key=key("heads"), help=t("lab.heads_help")),
        lambda: st.selectbox(t("lab.kv"), [k for k in LAB_HEADS if ss[key("heads")] % k == 0][::-1],
                             format_func=kv_label(ss[key("heads")]), key=key("kv"), help=t("lab.kv_help")),
        lambda: st.select_slider("d_ff", LAB_D_FF, key=key("ff"), help=t("lab.ff_help")),
        *[lambda name=name, options=options: st.selectbox(t(f"lab.{name}"), options, format_func=names(f"lab.{name}"),
                                                          key=key(name), help=t(f"lab.{name}_help"))
          for name, options in (("norm_position", NORM_POSITIONS), ("norm", NORMS), ("activation", ACTIVATIONS),
                                ("positional", POSITIONALS), ("scale", LAB_SCALES))],
        lambda: st.number_input(t("lab.seed"), 0, 99, key=key("seed"), help=t("lab.seed_help")),
        lambda: st.toggle(t("lab.bias"), key=key("bias"), help=t("lab.bias_help")),
        lambda: st.toggle(t("lab.tie"), key=key("tie"), help=t("lab.tie_help")),
    ]  # fmt: skip
    # Two per row, a row at a time, so a phone stacks them in reading order; one per row on a projector.
    per_row = 1 if settings.present else 2
    for start in range(0, len(widgets), per_row):
        for col, draw in zip(st.columns(per_row), widgets[start : start + per_row], strict=False):
            with col:
                draw()
    heads = ss[key("heads")]
    shell.track(*(key(name) for name in FIELDS))
    d_head = ss[key("d")] // heads
    attn_scale = {"sqrt": None, "one": 1.0, "inv": 1.0 / d_head}[ss[key("scale")]]
    return models.ModelConfig(
        arch=ss[key("arch")], vocab_size=tok.vocab_size, n_layers=ss[key("layers")], d_model=ss[key("d")],
        n_heads=heads, n_kv_heads=None if ss[key("kv")] == heads else ss[key("kv")], d_ff=ss[key("ff")],
        norm_position=ss[key("norm_position")], norm=ss[key("norm")], activation=ss[key("activation")],
        positional=ss[key("positional")], attn_scale=attn_scale, max_len=LAB_MAX_LEN,
        tie_embeddings=bool(ss[key("tie")]), bias=bool(ss[key("bias")]), seed=int(ss[key("seed")]),
    )  # fmt: skip


def progress_text(h: variants.History, steps: int) -> str:
    step = h.step[-1] if h.step else 0
    loss = h.loss[-1] if h.loss else float("nan")
    val = h.val[-1] if h.val else float("nan")
    eta = h.seconds * (steps - step) / step if step else float("nan")  # the pace so far
    return t("lab.progress", step=step, steps=steps, loss=f"{loss:.3f}", val=f"{val:.3f}", seconds=f"{h.seconds:.0f}",
             eta=f"{eta:.0f}")  # fmt: skip


def curve(h: variants.History, steps: int, name: str):
    """The live loss curve of one training run: training loss (smoothed) and held-out loss."""
    x = np.arange(0, steps + 1, variants.REPORT_EVERY, dtype=float)
    train = np.interp(x, h.step, h.loss, left=np.nan, right=np.nan) if h.step else np.full(x.size, np.nan)
    held = np.interp(x, h.val_step, h.val, left=np.nan, right=np.nan) if h.val else np.full(x.size, np.nan)
    held[x > (h.val_step[-1] if h.val_step else -1)] = np.nan
    return viz.lines(
        x, [viz.Series(t("lab.train_loss"), train, markers=False, dash="dot"),
            viz.Series(t("lab.held_loss"), held, markers=False)],
        x_title=t("lab.step"), y_title=t("lab.loss"), title=name, hlines=[(float(np.log(tok.vocab_size)),
        t("lab.uniform"))], height=300, scale=scale,
    )  # fmt: skip


def training_panel(side: str, cfg: models.ModelConfig, key: str) -> None:
    """Train / progress / stop for one side. Training runs in a child process (models.variants)."""
    job = jobs.jobs.get(key)
    if key in jobs.trained:
        return
    if job is not None and job.state == "running":

        @st.fragment(run_every=POLL_SECONDS)
        def live() -> None:
            if job.state != "running":  # finished, failed or stopped: redraw the whole page once
                st.rerun(scope="app")
            st.progress(job.progress, text=progress_text(job.history, job.steps))
            st.plotly_chart(curve(job.history, job.steps, ""), key=f"{side}_live")
            st.button(t("lab.stop"), key=f"{side}_stop", icon=":material/stop_circle:", on_click=jobs.cancel,
                      args=(key,))  # fmt: skip

        live()
        return
    if job is not None and job.state == "failed":
        st.error(t("lab.failed", error=md(job.error)))
    if job is not None and job.state == "cancelled":
        st.caption(t("lab.cancelled"))
    busy = jobs.running()
    st.button(t("lab.train", steps=variants.RECIPE["steps"]), key=f"{side}_train", icon=":material/model_training:",
              on_click=jobs.start, args=(cfg, cfg.seed), disabled=busy is not None,
              help=t("lab.train_help"))  # fmt: skip
    if busy is not None:
        st.caption(t("lab.busy"))


def side_model(cfg_json: str, key: str) -> tuple[models.LiveModel, str | None, dict | None]:
    """(model, trained key or None, training history or None); a corrupt cache entry is reported,
    deleted and the side falls back to its random initialisation."""
    trained = key if key in jobs.trained and settings.weights == "trained" else None
    if trained is not None:
        try:
            model = lab_model(cfg_json, trained)
            return model, trained, model.meta["history"]
        except variants.CorruptEntry as e:
            jobs.forget(key)
            st.warning(t("lab.corrupt", error=md(e)))
    return lab_model(cfg_json, None), None, None


# ----------------------------------------------------------------- the two configurations
configs, cols = {}, st.columns(2, gap="large")
for side, col in zip(SIDES, cols, strict=True):
    with col:
        st.subheader(t(f"lab.side.{side}"))
        try:
            configs[side] = config_controls(side)
        except ValueError as e:  # unreachable from the controls; a hand-made URL, say
            st.error(t("lab.invalid", error=md(e)))
            shell.stop()
c1, c2, _ = st.columns([1, 1, 2])
c1.button(t("lab.copy_ab"), on_click=_copy, args=("a", "b"), icon=":material/arrow_forward:")
c2.button(t("lab.copy_ba"), on_click=_copy, args=("b", "a"), icon=":material/arrow_back:")

sides = {}
# Each side's identity, computed once a run: the cache key of its config (lab_model, lab_run) and the
# name of its trained weights on disk.
cfg_jsons = {side: json.dumps(configs[side].to_dict(), sort_keys=True) for side in SIDES}
keys = {side: variants.variant_key(configs[side], configs[side].seed) for side in SIDES}
for side in SIDES:
    sides[side] = side_model(cfg_jsons[side], keys[side])
text = shell.prompt_or_stop(settings, sides["a"][0])

st.header(t("lab.compare"))
layer, head = controls.layer_head(
    SimpleNamespace(
        n_layers=max(c.n_layers for c in configs.values()), n_heads=max(c.n_heads for c in configs.values())
    )
)
state.ensure("autoscale")
st.toggle(t("ctl.autoscale"), key="autoscale", help=t("ctl.autoscale_help"))
shell.track("autoscale")
zmax = None if st.session_state["autoscale"] else 1.0
if any(sides[s][1] is None for s in SIDES):
    st.caption(t("lab.random_explain", std=INIT_STD))
runs = {side: lab_run(cfg_jsons[side], sides[side][1], text) for side in SIDES}
entropy_max = max(float(np.log(len(r["tokens"]))) for r in runs.values())  # one colour scale for A and B
cols = st.columns(2, gap="large")
for side, col in zip(SIDES, cols, strict=True):
    cfg, (model, trained, history), run, key = configs[side], sides[side], runs[side], keys[side]
    with col:
        st.subheader(t(f"lab.side.{side}"))
        total = sum(analysis.parameter_counts(cfg).values())
        if trained is not None:
            st.badge(t("lab.trained_badge", steps=variants.RECIPE["steps"], val=f"{history['val'][-1]:.3f}"),
                     icon=":material/school:", color="green")  # fmt: skip
        else:
            st.badge(t("lab.random_badge", seed=cfg.seed), icon=":material/casino:", color="orange")
            if key in jobs.trained:
                st.caption(t("lab.random_by_sidebar"))
        st.markdown(t("lab.summary", total=f"{total:,}", short=viz.short_count(total), d_head=cfg.d_head,
                      scale=f"{cfg.scale:.4g}"))  # fmt: skip
        training_panel(side, cfg, key)
        li, hi = min(layer, cfg.n_layers - 1), min(head, cfg.n_heads - 1)
        if (li, hi) != (layer, head):
            st.caption(t("lab.clamped", layer=li + 1, head=hi + 1))
        attn = names("attn")("decoder.self" if cfg.arch == "decoder" else "encoder.self")
        title = t("lab.heatmap_title", attn=attn, layer=li + 1, head=hi + 1)
        fig = viz.heatmap(run["attention"][li, hi], run["tokens"], run["tokens"], title=title, zmax=zmax, scale=scale,
                          labels=labels)  # fmt: skip
        shell.plot(fig, f"{side}_heat", run["attention"][li, hi], run["tokens"], run["tokens"])
        st.plotly_chart(
            viz.plots.value_heatmap(
                run["entropy"], [str(i + 1) for i in range(cfg.n_layers)], [str(h + 1) for h in range(cfg.n_heads)],
                index_labels=False, title=t("lab.entropy_fig"),
                x_title=t("lbl.head"), y_title=t("lbl.layer"),
                hover_name=t("lab.entropy"), zmin=0, zmax=entropy_max, text_fmt=".2f",
                height=int(200 + 40 * cfg.n_layers), square=False, scale=scale,
            ),
            key=f"{side}_entropy",
        )  # fmt: skip
        st.caption(t("lab.uniform_rows", uniform=f"{run['uniform']:.2f}"))
st.caption(t("lab.entropy_caption"))

# ----------------------------------------------------------------- parameters and learning
st.header(t("lab.params_title"))
counts = {side: analysis.parameter_counts(configs[side]) for side in SIDES}
parts = list(counts["a"])
st.plotly_chart(
    viz.bars(np.array([counts["a"][p] for p in parts], dtype=float), [t(f"part.{p}") for p in parts],
             reference=np.array([counts["b"][p] for p in parts], dtype=float),
             names_shown=(t("lab.side.a"), t("lab.side.b")), x_title="", y_title=t("common.params"),
             title=t("lab.params_fig"), text_fmt=None, log_y=True, scale=scale),
    key="lab_params",
)  # fmt: skip
llama = catalog.BY_NAME["Llama-3.1-8B"]
st.markdown(t("lab.params_explain", share=f"{catalog.counts(llama)['embeddings'] / catalog.total(llama):.1%}"))
tied = [t(f"lab.side.{s}") for s in SIDES if configs[s].tie_embeddings]
if tied:
    st.caption(t("lab.tied_note", sides=", ".join(tied)))

histories = {}
for side in SIDES:
    history, job = sides[side][2], jobs.jobs.get(keys[side])
    if history is not None:
        histories[side] = history
    elif job is not None and job.history.val:
        histories[side] = job.history.to_dict()
if histories:
    st.subheader(t("lab.loss_title"))
    steps = variants.RECIPE["steps"]
    x = np.arange(0, steps + 1, variants.EVAL_EVERY, dtype=float)
    series = []
    for side, h in histories.items():
        y = np.full(x.size, np.nan)
        for s, v in zip(h["val_step"], h["val"], strict=True):
            y[np.searchsorted(x, s)] = v
        series.append(viz.Series(t(f"lab.side.{side}"), y, color=viz.HEAD_COLORS[SIDES.index(side)]))
    st.plotly_chart(viz.lines(x, series, x_title=t("lab.step"), y_title=t("lab.held_loss"),
                              hlines=[(float(np.log(tok.vocab_size)), t("lab.uniform"))], scale=scale),
                    key="lab_losses")  # fmt: skip
    st.markdown(t("lab.loss_explain", **variants.RECIPE))
else:
    st.info(t("lab.no_losses"))

# ----------------------------------------------------------------- what the options change, checked live
st.header(t("lab.checks_title"))
st.markdown(t("lab.gqa_explain"))
cols = st.columns(2, gap="large")
gap_max = max(float(runs[s]["key_gaps"][min(layer, configs[s].n_layers - 1)].max()) for s in SIDES) or 1.0  # shared
for side, col in zip(SIDES, cols, strict=True):
    cfg, run = configs[side], runs[side]
    li = min(layer, cfg.n_layers - 1)
    heads = [str(h + 1) for h in range(cfg.n_heads)]
    col.plotly_chart(
        viz.plots.value_heatmap(run["key_gaps"][li], heads, heads, index_labels=False, x_title=t("lab.query_head"),
                                y_title=t("lab.query_head"), hover_name="max |k_i − k_j|", zmin=0, zmax=gap_max,
                                text_fmt=".2f",
                                title=t("lab.gaps_fig", side=t(f"lab.side.{side}"), layer=li + 1,
                                        kv=cfg.kv_heads, heads=cfg.n_heads), scale=scale),
        key=f"{side}_gaps",
    )  # fmt: skip
st.markdown(t("lab.shuffle_explain"))
rows = []
for side in SIDES:
    cfg, run = configs[side], runs[side]
    verdict = "lab.shuffle.none" if not run["shuffled"] else (
        "lab.shuffle.equivariant" if run["shuffle"] < 1e-4 else "lab.shuffle.changes")  # fmt: skip
    rows.append({t("lab.col.side"): t(f"lab.side.{side}"), t("lab.col.pe"): names("lab.positional")(cfg.positional),
                 t("lab.col.mask"): t(f"mask.{cfg.default_mask}"), t("lab.col.delta"): f"{run['shuffle']:.2e}",
                 t("lab.col.verdict"): t(verdict)})  # fmt: skip
st.table(rows)

# ----------------------------------------------------------------- anatomy
st.header(t("lab.anatomy_title"))
state.ensure("lab_anatomy")
st.segmented_control(t("lab.anatomy_side"), list(SIDES), format_func=names("lab.side"), key="lab_anatomy",
                     required=True)  # fmt: skip
shell.track("lab_anatomy", "lab_tree")
side = st.session_state["lab_anatomy"]
cfg, model = configs[side], sides[side][0]
c1, c2 = st.columns([3, 2], gap="large")
with c1:
    counts_side = analysis.parameter_counts(cfg)
    st.plotly_chart(viz.param_treemap(counts_side, part_names(),
                                      title=t("lab.treemap_fig", side=t(f"lab.side.{side}")), scale=scale),
                    key="lab_treemap")  # fmt: skip
c2.markdown(t("lab.tree_explain"))
state.ensure("lab_tree")
if st.toggle(t("lab.tree_toggle"), key="lab_tree"):  # full width: the Linear shapes are what GQA changes
    st.code(repr(model.net), language="text")
