"""The lab's controls for one configuration (A or B): every option of ModelConfig, the presets and
the copy buttons. Kept apart from the page so lab.py reads as its sections."""

import streamlit as st

import models
from models.config import ACTIVATIONS, ARCHS, NORM_POSITIONS, NORMS, POSITIONALS
from ui import params, shell, state
from ui.i18n import in_run_language, names, t
from ui.lab_configs import lab_config
from ui.params import (
    LAB_D_FF,
    LAB_D_MODEL,
    LAB_EXPERTS,
    LAB_FIELDS,
    LAB_HEADS,
    LAB_LAYERS,
    LAB_PRESETS,
    LAB_SCALES,
    LAB_TOP_K,
)

# Static CSS (never user text): the preset pills wrap onto a second row instead of scrolling sideways, where
# the last one ("Induction head forms") was cut off in a half-width column.
PILLS_CSS = """<style>
:is(.st-key-a_preset, .st-key-b_preset) [data-testid="stButtonGroup"] > div { flex-wrap: wrap; overflow-x: visible; }
</style>"""
# (field, its strings' key under lab.*, options) of the choice fields drawn as select boxes
CHOICES = (("norm_position", "norm_position", NORM_POSITIONS), ("norm", "norm", NORMS),
           ("activation", "activation", ACTIVATIONS), ("positional", "positional", POSITIONALS),
           ("attn_scale", "scale", LAB_SCALES))  # fmt: skip


def use_preset(side: str, preset: str) -> None:
    """Set one side's fields to a preset's (and the training recipe, for a preset that names one)."""
    for name, value in LAB_PRESETS[preset].items():
        st.session_state[f"{side}_{name}"] = value
    if preset in params.LAB_PRESET_RECIPES:
        st.session_state["lab_recipe"] = params.LAB_PRESET_RECIPES[preset]


def _apply_preset(side: str) -> None:
    preset = st.session_state.get(f"{side}_preset")
    if preset is not None:
        use_preset(side, preset)
        st.session_state[f"{side}_preset"] = None


def _copy(src: str, dst: str) -> None:
    for name in LAB_FIELDS:
        st.session_state[f"{dst}_{name}"] = st.session_state[f"{src}_{name}"]


def kv_label(heads: int):
    kinds = {1: "mqa", heads: "mha"}  # one query head: MHA (and MQA) with one K/V head
    tr = in_run_language()
    return lambda k: tr(f"lab.kv.{kinds.get(k, 'gqa')}", k=k, group=heads // k)


def config_controls(side: str, vocab_size: int, per_row: int) -> models.ModelConfig:
    """The controls of one side; every combination they allow is a valid ModelConfig."""
    key = lambda name: f"{side}_{name}"  # noqa: E731
    for name in LAB_FIELDS:
        state.ensure(key(name))
    ss = st.session_state
    if ss[key("n_heads")] % ss[key("n_kv_heads")]:  # a KV-head count must divide the query heads
        ss[key("n_kv_heads")] = ss[key("n_heads")]
    st.html(PILLS_CSS)
    st.pills(t("lab.preset"), list(LAB_PRESETS), format_func=names("lab.preset"), key=key("preset"),
             on_change=_apply_preset, args=(side,))  # fmt: skip
    widgets = [
        lambda: st.selectbox(t("lab.arch"), ARCHS, format_func=names("common.arch"), key=key("arch")),
        lambda: st.select_slider(t("lab.layers"), LAB_LAYERS, key=key("n_layers"), help=t("lab.layers_help")),
        lambda: st.select_slider("d_model", LAB_D_MODEL, key=key("d_model"), help=t("lab.d_help")),
        lambda: st.select_slider(t("lab.heads"), LAB_HEADS, key=key("n_heads"), help=t("lab.heads_help")),
        lambda: st.selectbox(t("lab.kv"), [k for k in LAB_HEADS if ss[key("n_heads")] % k == 0][::-1],
                             format_func=kv_label(ss[key("n_heads")]), key=key("n_kv_heads"), help=t("lab.kv_help")),
        lambda: st.select_slider("d_ff", LAB_D_FF, key=key("d_ff"), help=t("lab.ff_help")),
        lambda: st.select_slider(t("lab_moe.experts"), LAB_EXPERTS, key=key("n_experts"),
                                 help=t("lab_moe.experts_help"), format_func=names("lab_moe.n")),
        lambda: st.selectbox(t("lab_moe.top_k"), LAB_TOP_K, format_func=names("lab_moe.top_k"),
                             key=key("experts_top_k"), help=t("lab_moe.top_k_help"),
                             disabled=ss[key("n_experts")] == 0),
        *[lambda name=name, words=words, options=options: st.selectbox(
            t(f"lab.{words}"), options, format_func=names(f"lab.{words}"), key=key(name), help=t(f"lab.{words}_help"))
          for name, words, options in CHOICES],
        lambda: st.number_input(t("lab.seed"), 0, 99, key=key("seed"), help=t("lab.seed_help")),
        lambda: st.toggle(t("lab.bias"), key=key("bias"), help=t("lab.bias_help")),
        lambda: st.toggle(t("lab.tie"), key=key("tie_embeddings"), help=t("lab.tie_help")),
    ]  # fmt: skip
    # Two per row, a row at a time, so a phone stacks them in reading order; one per row on a projector.
    for start in range(0, len(widgets), per_row):
        for col, draw in zip(st.columns(per_row), widgets[start : start + per_row], strict=False):
            with col:
                draw()
    shell.track(*(key(name) for name in LAB_FIELDS))
    return lab_config({name: ss[key(name)] for name in LAB_FIELDS}, vocab_size)


def copy_buttons() -> None:
    """A -> B and B -> A: every field of one side onto the other."""
    c1, c2, _ = st.columns([1, 1, 2])
    c1.button(t("lab.copy_ab"), on_click=_copy, args=("a", "b"), icon=":material/arrow_forward:")
    c2.button(t("lab.copy_ba"), on_click=_copy, args=("b", "a"), icon=":material/arrow_back:")
