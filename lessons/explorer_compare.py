"""The Explorer's second model (issue 44): `?compare=<model>` draws every figure for two models side by side.

Everything here is drawn only when a second model is named: without one the Explorer is exactly as before. Model B
is resolved and loaded above the controls (second: a model that is missing, too large or untrained says so, and the
page draws model A alone); the right column (column_b) draws B's own layer and head pickers, its token chips and the
figure through the Explorer's own drawing function, which lessons/explorer_view.py passes in (it draws A's column
with the same function)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import streamlit as st

import models
from lessons.explorer_differs import differs_section
from lessons.explorer_linear import draw as draw_linear
from lessons.explorer_linear import layer_matrix
from models import variants
from ui import compare_loaders, compare_picker, controls, precision_keys, shell, slots, state
from ui.compare_loaders import Lab, Problem
from ui.compare_params import LAB_RECIPE, lab_change
from ui.i18n import code_span, md, names, t
from ui.loaders import lab_model, training_jobs, with_status

PREFIX = "c_"  # the right column's element keys: c_heatmap, c_grid, c_focus, ... (the left keeps the old ones)
POLL_S = 1.0  # a lab variant's training progress line


@dataclasses.dataclass(frozen=True)
class Second:
    """Model B, loaded: the name `compare` gave, its weights key, the model, and for a lab variant its Lab."""

    name: str
    weights: str
    model: models.LiveModel
    lab: Lab | None = None
    trained: str | None = None  # a lab variant's trained weights' key (None: its seed's random init)


def heading(name: str) -> None:
    st.markdown(f"**{md(compare_picker.heading_label(name))}**")  # escaped: a compare name comes from the URL


def a_only(name: str) -> None:
    """Over the Explorer's sections that read one model (the neuron view, the sinks, the downloads): which one."""
    st.markdown(t("explorer_compare.a_only", name=md(compare_picker.heading_label(name))))


def say(problem: Problem) -> None:
    fields = {k: md(v) if k in ("name", "error", "reason") else v for k, v in problem.fields.items()}
    st.warning(t(problem.key, **fields), icon=":material/compare:")
    if problem.command:
        st.code(problem.command, language="bash")


def second(settings: state.Settings, model_a: models.LiveModel) -> Second | None:
    """Model B named by `compare`, loaded; None (after a message saying why, if one was named) to draw A alone."""
    state.ensure("compare")
    name = st.session_state["compare"]
    if not name:
        return None
    shell.track("compare", "c_same")
    if "linear_attention" in (model_a.config.layer_types or ()):  # its page draws its own layers' kinds
        st.info(t("explorer_compare.hybrid_a", name=md(name)))
        return None
    weights = compare_loaders.weights_of(name, settings.weights)
    problem = compare_loaders.problem(name, weights, model_a)
    if problem is not None:
        say(problem)
        return None
    change = lab_change(name)
    if change is not None:
        return _lab(name, change, precision_keys.base(settings.weights))
    loaded = compare_loaders.load(name, weights)
    if isinstance(loaded, Problem):
        say(loaded)
        return None
    return Second(name, weights, loaded)


def _lab(name: str, change: str, weights: str) -> Second | None:
    """A lab variant: its trained weights from the lab's cache, its seed's random init (the sidebar's "random"),
    or, not trained yet, the lab's own training started from here."""
    lab = compare_loaders.lab_variant(change)
    if weights == "random":
        return Second(name, "random", lab_model(lab.config_json, None), lab)
    if not compare_loaders.lab_trained(lab):
        _untrained(name, lab)
        return None
    try:
        model = with_status(t("explorer_compare.lab_loading", name=md(name)), lab_model, lab.config_json, lab.key)
    except variants.CorruptEntry as e:
        training_jobs().forget(lab.key)
        st.warning(t("explorer_compare.lab_corrupt", name=md(name), file=code_span(str(e.path))))
        return None
    return Second(name, "trained", model, lab, lab.key)


def _untrained(name: str, lab: Lab) -> None:
    """Not trained yet: a button that starts the Architecture lab's own training job, its progress, the command."""
    jobs = training_jobs()
    job = jobs.jobs.get(lab.key)
    if job is not None and job.state == "running":

        @slots.fragment(run_every=POLL_S)
        def live() -> None:
            if job.state != "running":
                st.rerun(scope="app")
            step = job.history.step[-1] if job.history.step else 0
            st.progress(
                job.progress, text=t("explorer_compare.lab_training", name=md(name), step=step, steps=job.steps)
            )

        live()
        return
    if job is not None and job.state == "failed":
        st.error(t("explorer_compare.lab_failed", name=md(name), error=md(job.error)))
    steps = variants.RECIPES[LAB_RECIPE]["steps"]
    st.info(t("explorer_compare.lab_untrained", name=md(name), steps=steps), icon=":material/model_training:")
    busy = jobs.running()
    start = (lab.config, lab.config.seed, None, LAB_RECIPE)  # the lab's own job (models/variants.py)
    st.button(
        t("explorer_compare.lab_train", name=md(name)),
        key="c_train",
        icon=":material/model_training:",
        on_click=jobs.start,
        args=start,
        disabled=busy is not None,
    )
    if busy is not None:
        st.caption(t("explorer_compare.lab_busy"))
    st.caption(t("explorer_compare.lab_command"))
    st.code(compare_loaders.train_command(lab), language="bash")


def same_depth_toggle() -> None:
    """Where the layer and head pickers were: each column now draws its own, and this makes B's follow A's."""
    state.ensure("c_same")
    st.toggle(t("explorer_compare.same_depth"), key="c_same", help=t("explorer_compare.same_depth_help"))


def column_b(settings: state.Settings, cfg_a, b: Second, v, text: str, target: str | None, draw: Callable) -> None:
    """The right column: B's heading, its pickers, and draw(model, trace, view, prefix) of the Explorer's figure;
    what cannot apply to B (a view of a hybrid model) is said instead; a long prompt gets its own zoom (c_zoom_q)."""
    heading(b.name)
    cfg = b.model.config
    hybrid = "linear_attention" in (cfg.layer_types or ())
    n_heads = max(cfg.n_heads, cfg.linear_value_heads) if hybrid else cfg.n_heads
    follows = bool(st.session_state.get("c_same"))  # B's pickers then show where A's put it, and take no click
    if follows:
        moved = controls.same_depth(v.layer, v.head, cfg_a.n_layers, cfg.n_layers, n_heads)
        st.session_state["c_layer"], st.session_state["c_head"] = moved
    pickers = dict(keys=("c_layer", "c_head"), n_heads=n_heads, disabled=follows)
    pickers["stacked"] = controls.stacked(cfg.n_layers, n_heads)
    layer, head = controls.layer_head(cfg, v.view != "lines", **pickers)
    if b.model.source_ids(text)[1]:  # cut at its max_len
        st.caption(t("prompt.truncated", n=len(b.model.tokenizer.encode(text)), max_len=cfg.max_len))
    tr = compare_loaders.second_trace(settings.model, b.name, b.weights, b.model, b.lab, b.trained, text, target)
    if hybrid:
        _hybrid(tr, v.view, layer, head, settings.figure_scale)
        return
    kind = controls.kind_for(v.kind, cfg.arch)
    if kind != v.kind:
        st.caption(t("explorer_compare.other_kind", kind=names("attn")(kind), missing=names("attn")(v.kind)))
    draw(b.model, tr, dataclasses.replace(v, kind=kind, layer=layer, head=head), PREFIX)


def _hybrid(tr, view: str, layer: int, head: int, scale: float) -> None:
    """A Qwen3.5 B: the chosen layer's head (softmax, or its linear layer's implied attention); other views say why."""
    if view != "heatmap":
        st.info(t("explorer_compare.hybrid_b"))
    kind, att = layer_matrix(tr, layer)
    head = min(head, att.shape[0] - 1)
    draw_linear(kind, att[head], layer, head, list(tr.tokens), scale, f"{PREFIX}hybrid")


def differs(settings: state.Settings, b: Second, text: str) -> None:
    """Below the two columns: what differs between them (lessons/explorer_differs.py), for two loadable models."""
    # a lab variant too: ui/loaders.get_model reads `lab:<change>` from the lab's cache
    differs_section(settings.model, settings.weights, b.name, b.weights, text, settings.figure_scale)


def note(model: str, compare: str) -> None:
    """What to look for, when the two models are the ones a preset set."""
    preset = compare_picker.preset_of(model, compare)
    if preset is not None:
        st.caption(t(f"explorer_compare.look.{preset}"))
