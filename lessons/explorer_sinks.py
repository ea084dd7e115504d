"""The Explorer's attention-sink notice and tables: each sink's share of the weight beside its share of
the value-weighted attention α‖f(x)‖ (Kobayashi et al. 2020), which says how much it really adds."""

import numpy as np
import streamlit as st

import viz
from models.analysis import attention_sinks, sink_shares
from ui import charts, shell, state
from ui.i18n import md, t

SINKS_LISTED = 8  # the strongest sinks named in the notice; the tables below show every head
GROUPS = ("start", "end", "punctuation")


def sinks_toggle() -> None:
    """The tables' switch, with the Explorer's controls above the prompt box (not re-sent on Enter). A toggle, not an
    expander: an expander's figures are built on every rerun even when closed (three more figures cost about 30 ms a
    keystroke)."""
    state.ensure("sink_tables")
    shell.track("sink_tables")
    st.toggle(t("explorer.sinks_title"), key="sink_tables")


def sinks(att: np.ndarray, value_norms: np.ndarray, tokens: list[str], figure_scale: float, first: int = 0) -> None:
    """att [L, H, T, T] and value_norms [L, H, T] of one self-attention; first: the model's layer number of att[0]
    (a long prompt passes the layer shown only: every layer would be recomputed on every rerun)."""
    found = attention_sinks(att, tokens, value_norms=value_norms)
    if found:
        top = sorted(found, key=lambda s: -s["weight"])[:SINKS_LISTED]
        heads = ", ".join(
            t("explorer.sink_item", layer=first + s["layer"] + 1, head=s["head"] + 1, token=s["token"],
              weight=f"{s['weight']:.0%}", norm=f"{s['norm_share']:.0%}")
            for s in top
        )  # fmt: skip
        more = t("explorer.sinks_more", n=len(found) - len(top)) if len(found) > len(top) else ""
        st.info(t("explorer.sinks", heads=md(heads)) + t("explorer.sinks_norm") + more)
    if not st.session_state.get("sink_tables"):  # the switch is with the controls above (sinks_toggle)
        return
    shares = {"weight": sink_shares(att, tokens), "norm": sink_shares(att, tokens, value_norms=value_norms)}
    tabs = st.tabs([t(f"explorer.sinks.{group}") for group in GROUPS])  # one tab per group of tokens
    for tab, group in zip(tabs, GROUPS, strict=True):
        title = t(f"explorer.sinks.{group}")
        for col, what in zip(tab.columns(2), shares, strict=True):  # stacked on a phone
            spec = viz.value_heatmap(
                shares[what][group],
                [str(first + i + 1) for i in range(att.shape[0])],
                [str(h + 1) for h in range(att.shape[1])],
                index_labels=False,
                title=title if what == "weight" else t("explorer.norm_suffix", title=title),
                x_title=t("lbl.head"),
                y_title=t("lbl.layer"),
                hover_name=t("lbl.weight") if what == "weight" else t("explorer.norm_label"),
                zmin=0,
                zmax=1,
                text_fmt=".0%",
                scale=figure_scale,
            )
            charts.plot(col, spec, key=f"sinks_{group}" if what == "weight" else f"sinks_{group}_norm")
    st.caption(t("explorer.sinks_explain"))
