"""Controls that more than one page draws (layer, head, which attention), bound to the URL."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

import models

from . import shell, slots, state
from .i18n import names, t
from .params import ATTENTION_KINDS


def _clamp(name: str, n: int) -> int:
    """A layer/head index from the URL that this model does not have falls back to the first."""
    state.ensure(name)
    if st.session_state[name] is None or st.session_state[name] >= n:
        if st.session_state[name] is not None:
            st.toast(t("shell.url.out_of_range", name=name, value=st.session_state[name] + 1, n=n))
        st.session_state[name] = 0
    return st.session_state[name]


SEGMENTS_MAX = 8  # more buttons than this overflow a half-width column (MiniLM has 12 heads)


def _pick(label: str, n: int, key: str, disabled: bool = False) -> None:
    """Buttons 1..n for a few choices; a slider when there are many."""
    number = lambda i: str(i + 1)  # noqa: E731
    if n <= SEGMENTS_MAX:
        st.segmented_control(label, list(range(n)), format_func=number, key=key, required=True, disabled=disabled)
    else:
        st.select_slider(label, list(range(n)), format_func=number, key=key, disabled=disabled)


@dataclass(frozen=True)
class Depth:
    """How many layers and heads to offer when no one model has them (the lab: the larger of A and B)."""

    n_layers: int
    n_heads: int


def softmax_layers_or_stop(cfg: models.ModelConfig | Depth) -> None:
    """A page that assumes every layer is softmax attention says in one sentence why it skips a model with Gated
    DeltaNet linear-attention layers (Qwen3.5), and stops; the Explorer draws them (lessons/explorer_linear.py)."""
    if "linear_attention" in (getattr(cfg, "layer_types", None) or ()):
        st.info(t("ctl.linear_layers"))
        shell.stop()


def layer_head(
    cfg: models.ModelConfig | Depth,
    with_head: bool = True,
    keys: tuple[str, str] = ("layer", "head"),
    n_heads: int | None = None,
    stacked: bool = False,
    disabled: bool = False,
) -> tuple[int, int]:
    """Layer and head pickers under `keys` (the Explorer's second model has its own, issue 44). stacked: the head
    under the layer, for a half-width column, where two side by side hid MiniLM's sixth layer button. n_heads: the
    heads to offer when they are not cfg.n_heads (a Qwen3.5 column of the Explorer's comparison: its linear layers'
    value heads); without it a model with linear-attention layers stops here."""
    if n_heads is None:
        softmax_layers_or_stop(cfg)  # Qwen3.5: its trace's rows are not its layer numbers
    n_heads = cfg.n_heads if n_heads is None else n_heads
    layer, head = keys
    _clamp(layer, cfg.n_layers)
    _clamp(head, n_heads)
    cols = (st.container(), st.container()) if stacked else st.columns(2)
    with cols[0]:
        _pick(t("ctl.layer"), cfg.n_layers, layer, disabled)
    if with_head:
        with cols[1]:
            _pick(t("ctl.head"), n_heads, head, disabled)
    shell.track(layer, head)
    return st.session_state[layer], st.session_state[head]


ARCH_KINDS = {"encoder": ("encoder.self",), "decoder": ("decoder.self",), "encoder-decoder": ATTENTION_KINDS}


def same_depth(layer: int, head: int, layers_a: int, layers_b: int, heads_b: int) -> tuple[int, int]:
    """B's layer at A's relative depth, round(layer · (L_B − 1) / (L_A − 1)), and A's head, or B's last."""
    return (round(layer * (layers_b - 1) / (layers_a - 1)) if layers_a > 1 else 0), min(head, heads_b - 1)


SIDE_BY_SIDE = 5  # buttons a quarter of a 1366 px page holds (MiniLM's sixth layer was cut off)


def stacked(n_layers: int, n_heads: int) -> bool:
    """A column's Head under its Layer when either has more buttons than a quarter of the page holds; side by side
    otherwise (two toy models: 76 px less above the figures)."""
    return max(n_layers, n_heads) > SIDE_BY_SIDE


def kind_for(kind_a: str, arch_b: str) -> str:
    """The same attention in B when B has it, else B's main one (a decoder has no cross attention)."""
    kinds = ARCH_KINDS[arch_b]
    return kind_a if kind_a in kinds else kinds[0]


def attention_kind_for(arch: str) -> str:
    """Which attention to show, before the trace is made (the Explorer draws its controls above the prompt box);
    only the encoder-decoder has a choice."""
    kinds = list(ARCH_KINDS[arch])
    if st.session_state.get("attn") not in kinds:
        st.session_state["attn"] = kinds[0]
    if len(kinds) > 1:
        st.radio(t("ctl.attn"), kinds, format_func=names("attn"), key="attn", horizontal=True)
        shell.track("attn")
    return st.session_state["attn"]


def axis_tokens(trace: models.Trace, kind: str) -> tuple[list[str], list[str]]:
    """(query tokens, key tokens) of an attention kind: cross-attention is target rows × source keys."""
    target = trace.target_tokens or []
    if kind == "encoder.self":
        return trace.tokens, trace.tokens
    if kind == "decoder.cross":
        return target, trace.tokens
    return (target, target) if trace.target_tokens is not None else (trace.tokens, trace.tokens)


PLAY_SECONDS = 0.8


def _move(key: str, to: int) -> None:
    st.session_state[key] = to


def stepper(key: str, total: int) -> int:
    """Reset / back / next buttons and a play toggle over `total` steps; returns how many are shown
    (1..total). Play reruns a timer fragment that advances one step and redraws the page."""
    state.ensure(key)
    n = st.session_state[key] = max(1, min(st.session_state[key], total))
    cols = st.columns([1, 1, 2, 2])
    first, back = ":material/first_page:", ":material/chevron_left:"  # Material icons ship with Streamlit
    cols[0].button(
        "", icon=first, key=f"{key}_reset", on_click=_move, args=(key, 1), help=t("step.reset"), disabled=n <= 1
    )
    cols[1].button(
        "", icon=back, key=f"{key}_back", on_click=_move, args=(key, n - 1), help=t("step.back"), disabled=n <= 1
    )
    cols[2].button(t("step.next"), key=f"{key}_next", on_click=_move, args=(key, n + 1), type="primary",
                   disabled=n >= total)  # fmt: skip
    if n >= total:
        st.session_state[f"{key}_play"] = False  # the end: the toggle switches itself off (set before it is drawn)
    playing = cols[3].toggle(t("step.play"), key=f"{key}_play", help=t("step.play_help"))
    shell.track(key)
    st.session_state[f"{key}_armed"] = False  # a full run re-arms the timer below
    if playing and n < total:

        @slots.fragment(run_every=PLAY_SECONDS)
        def tick() -> None:
            if not st.session_state[f"{key}_armed"]:  # the run that drew the page: just arm
                st.session_state[f"{key}_armed"] = True
                return
            st.session_state[key] = min(st.session_state[key] + 1, total)
            st.rerun(scope="app")

        tick()
    return n


def focus_query(q_tokens: list[str], key: str = "focus") -> int | None:
    """The Explorer's head view: the query to follow (its options are this prompt's tokens, so it is drawn with the
    figure, not with the controls above it); None: every query."""
    options = [None, *range(len(q_tokens))]
    if st.session_state.get(key) not in options:
        st.session_state[key] = None  # a query of an earlier, longer prompt
    everything = t("ctl.focus_all")
    return st.selectbox(
        t("ctl.focus"), options, key=key, format_func=lambda i: everything if i is None else f"{i} {q_tokens[i]}"
    )
