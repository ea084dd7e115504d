"""Architecture lab: two configurations (A and B) side by side on the same prompt. Every option of
ModelConfig is a control; a variant starts random-init at once and can be trained here."""

import json

import numpy as np
import streamlit as st

import models
import viz
from lessons.lab_checks import checks
from lessons.lab_controls import config_controls, copy_buttons
from lessons.lab_moe import experts_section
from lessons.lab_snapshots import forming, recipe_control
from lessons.lab_training import side_model, training_panel
from models import analysis, variants
from models.core.transformer import INIT_STD
from models.teaching import catalog
from ui import charts, controls, shell, state
from ui.i18n import md, names, part_names, t, viz_labels
from ui.loaders import lab_run, training_jobs
from ui.params import SIDES

settings = state.current()
labels = viz_labels()
fig_scale = settings.figure_scale  # figure and font size, not an attention scale
tok = shell.tokenizer_or_stop()  # the shipped tokenizer alone: a damaged decoder.pt does not block the lab
jobs = training_jobs()
st.markdown(t("lab.intro"))


def configurations() -> dict[str, models.ModelConfig]:
    """The two sides' controls, and the copy buttons under them."""
    st.header(t("lab.configure_title"))
    st.caption(t("lab.sidebar_note"))
    configs, cols = {}, st.columns(2, gap="large")
    for side, col in zip(SIDES, cols, strict=True):
        with col:
            st.subheader(t(f"lab.side.{side}"))
            try:
                configs[side] = config_controls(side, tok.vocab_size, 1 if settings.present else 2)
            except ValueError as e:  # unreachable from the controls; a hand-made URL, say
                st.error(t("lab.invalid", error=md(e)))
                shell.stop()
    copy_buttons()
    return configs


def comparison(configs, sides, keys, runs, layer: int, head: int, zmax: float | None) -> None:
    """Per side: trained or random, the chosen head's attention, the size, Train and every head's entropy."""
    entropy_max = max(float(np.log(len(r["tokens"]))) for r in runs.values())  # one colour scale for A and B
    cols = st.columns(2, gap="large")
    for side, col in zip(SIDES, cols, strict=True):
        cfg, (_, trained, history), run, key = configs[side], sides[side], runs[side], keys[side]
        with col:
            # The side's name and its badge on one line: the figures start higher (issue 39). Our strings, no "]".
            if trained is not None:
                badge = t("lab.trained_badge", steps=recipe["steps"], val=f"{history['val'][-1]:.3f}")
                st.subheader(f"{t(f'lab.side.{side}')} :green-badge[:material/school: {badge}]")
            else:
                badge = t("lab.random_badge", seed=cfg.seed)
                st.subheader(f"{t(f'lab.side.{side}')} :orange-badge[:material/casino: {badge}]")
                if key in jobs.trained:
                    st.caption(t("lab.random_by_sidebar"))
            li, hi = min(layer, cfg.n_layers - 1), min(head, cfg.n_heads - 1)
            if (li, hi) != (layer, head):
                st.caption(t("lab.clamped", layer=li + 1, head=hi + 1))
            attn = names("attn")("decoder.self" if cfg.arch == "decoder" else "encoder.self")
            title = t("lab.heatmap_title", attn=attn, layer=li + 1, head=hi + 1)
            fig = viz.heatmap(run["attention"][li, hi], run["tokens"], run["tokens"], title=title, zmax=zmax,
                              scale=fig_scale, labels=labels)  # fmt: skip
            shell.plot(fig, f"{side}_heat", run["attention"][li, hi], run["tokens"], run["tokens"])
            total = sum(analysis.parameter_counts(cfg).values())
            st.markdown(t("lab.summary", total=f"{total:,}", short=viz.short_count(total), d_head=cfg.d_head,
                          scale=f"{cfg.scale:.4g}"))  # fmt: skip
            training_panel(jobs, side, cfg, key, fig_scale, recipe_name)
            charts.plot(st,
                viz.value_heatmap(
                    run["entropy"], [str(i + 1) for i in range(cfg.n_layers)],
                    [str(h + 1) for h in range(cfg.n_heads)], index_labels=False, title=t("lab.entropy_fig"),
                    x_title=t("lbl.head"), y_title=t("lbl.layer"),
                    hover_name=t("lab.entropy"), zmin=0, zmax=entropy_max, text_fmt=".2f",
                    height=int(200 + 40 * cfg.n_layers), square=False, scale=fig_scale,
                ),
                key=f"{side}_entropy",
            )  # fmt: skip
            st.caption(t("lab.uniform_rows", uniform=f"{run['uniform']:.2f}"))
    st.markdown(t("lab.train_intro"))  # under the Train buttons it explains
    if any(sides[s][1] is None for s in SIDES):
        st.caption(t("lab.random_explain", std=INIT_STD))
    st.caption(t("lab.entropy_caption"))


def parameters(configs) -> None:
    """Parameters by component, A against B."""
    st.header(t("lab.params_title"))
    counts = {side: analysis.parameter_counts(configs[side]) for side in SIDES}
    parts = list(counts["a"])
    charts.plot(st,
        viz.bars(np.array([counts["a"][p] for p in parts], dtype=float), [t(f"part.{p}") for p in parts],
                 reference=np.array([counts["b"][p] for p in parts], dtype=float),
                 names_shown=(t("lab.side.a"), t("lab.side.b")), x_title="", y_title=t("common.params"),
                 title=t("lab.params_fig"), text_fmt=None, log_y=True, scale=fig_scale),
        key="lab_params",
    )  # fmt: skip
    llama = catalog.BY_NAME["Llama-3.1-8B"]
    st.markdown(t("lab.params_explain", share=f"{catalog.counts(llama)['embeddings'] / catalog.total(llama):.1%}"))
    tied = [t(f"lab.side.{s}") for s in SIDES if configs[s].tie_embeddings]
    if tied:
        st.caption(t("lab.tied_note", sides=", ".join(tied)))


def learning(sides, keys) -> None:
    """Held-out loss of each side that was (or is being) trained."""
    histories = {}
    for side in SIDES:
        history, job = sides[side][2], jobs.jobs.get(keys[side])
        if history is not None:
            histories[side] = history
        elif job is not None and job.history.val:
            histories[side] = job.history.to_dict()
    if not histories:
        st.info(t("lab.no_losses"))
        return
    st.subheader(t("lab.loss_title"))
    steps = recipe["steps"]
    x = np.arange(0, steps + 1, variants.EVAL_EVERY, dtype=float)
    series = []
    for side, h in histories.items():
        y = np.full(x.size, np.nan)
        for s, v in zip(h["val_step"], h["val"], strict=True):
            y[np.searchsorted(x, s)] = v
        series.append(viz.Series(t(f"lab.side.{side}"), y, color=viz.HEAD_COLORS[SIDES.index(side)]))
    charts.plot(st, viz.lines(x, series, x_title=t("lab.step"), y_title=t("lab.held_loss"),
                              hlines=[(float(np.log(tok.vocab_size)), t("lab.uniform"))], scale=fig_scale),
                    key="lab_losses")  # fmt: skip
    extra = " " + t("lab.recipe_explain", **recipe) if "repeat_steps" in recipe else ""
    st.markdown(t("lab.loss_explain", **recipe) + extra)


def anatomy(configs, sides) -> None:
    """One side's parameters as a treemap, and its module tree."""
    st.header(t("lab.anatomy_title"))
    state.ensure("lab_anatomy")
    st.segmented_control(t("lab.anatomy_side"), list(SIDES), format_func=names("lab.side"), key="lab_anatomy",
                         required=True)  # fmt: skip
    shell.track("lab_anatomy", "lab_tree")
    side = st.session_state["lab_anatomy"]
    cfg, model = configs[side], sides[side][0]
    c1, c2 = st.columns([3, 2], gap="large")
    with c1:
        charts.plot(st, viz.param_treemap(analysis.parameter_counts(cfg), part_names(),
                                          title=t("lab.treemap_fig", side=t(f"lab.side.{side}")), scale=fig_scale),
                        key="lab_treemap")  # fmt: skip
    c2.markdown(t("lab.tree_explain"))
    state.ensure("lab_tree")
    if st.toggle(t("lab.tree_toggle"), key="lab_tree"):  # full width: the Linear shapes are what GQA changes
        st.code(repr(model.net), language="text")


# The comparison first, the two configurations under it: on a 1366x768 projector the page opens on A's and B's
# attention (issue 39). The controls run first (the comparison needs them) and draw into their own place below.
compared = st.container()
configs = configurations()
recipe_name = recipe_control()
recipe = variants.RECIPES[recipe_name]
# Each side's identity, computed once a run: the cache key of its config (lab_model, lab_run) and the
# name of its trained weights on disk.
cfg_jsons = {side: json.dumps(configs[side].to_dict(), sort_keys=True) for side in SIDES}
keys = {side: variants.variant_key(configs[side], configs[side].seed, recipe=recipe_name) for side in SIDES}
with compared:
    sides = {side: side_model(jobs, settings.weights, side, cfg_jsons[side], keys[side]) for side in SIDES}
    text = shell.prompt_or_stop(settings, sides["a"][0])
    st.header(t("lab.compare"))
    which, colours = st.columns([3, 1], vertical_alignment="bottom")  # one row: the figures start higher
    with which:
        depth = controls.Depth(max(c.n_layers for c in configs.values()), max(c.n_heads for c in configs.values()))
        layer, head = controls.layer_head(depth)
    state.ensure("autoscale")
    colours.toggle(t("ctl.autoscale"), key="autoscale", help=t("ctl.autoscale_help"))
    shell.track("autoscale")
    runs = {side: lab_run(cfg_jsons[side], sides[side][1], text) for side in SIDES}
    comparison(configs, sides, keys, runs, layer, head, None if st.session_state["autoscale"] else 1.0)
parameters(configs)
learning(sides, keys)
forming(configs, sides, cfg_jsons, text, layer, head, fig_scale, recipe_name)
experts_section(configs, sides, runs, layer, fig_scale)
checks(configs, runs, layer, fig_scale)
anatomy(configs, sides)
