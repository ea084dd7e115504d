"""The lab's checks of what the options change, computed live on both sides: GQA's shared keys (the
largest gap between two query heads' keys) and the shuffle test (no positions: permutation-equivariant)."""

import streamlit as st

import viz
from ui import charts
from ui.i18n import names, t
from ui.params import SIDES


def checks(configs, runs, layer: int, fig_scale: float) -> None:
    """What the options change, checked live: GQA's shared keys, and the shuffle test."""
    st.header(t("lab.checks_title"))
    st.markdown(t("lab.gqa_explain"))
    cols = st.columns(2, gap="large")
    gap_max = max(float(runs[s]["key_gaps"][min(layer, configs[s].n_layers - 1)].max()) for s in SIDES) or 1.0
    for side, col in zip(SIDES, cols, strict=True):
        cfg, run = configs[side], runs[side]
        li = min(layer, cfg.n_layers - 1)
        heads = [str(h + 1) for h in range(cfg.n_heads)]
        charts.plot(col,
            viz.value_heatmap(run["key_gaps"][li], heads, heads, index_labels=False,
                                    x_title=t("lab.query_head"), y_title=t("lab.query_head"),
                                    hover_name="max |k_i − k_j|", zmin=0, zmax=gap_max, text_fmt=".2f",
                                    title=t("lab.gaps_fig", side=t(f"lab.side.{side}"), layer=li + 1,
                                            kv=cfg.kv_heads, heads=cfg.n_heads), scale=fig_scale),
            key=f"{side}_gaps",
        )  # fmt: skip
    st.markdown(t("lab.shuffle_explain"))
    rows = []
    for side in SIDES:
        cfg, run = configs[side], runs[side]
        verdict = "lab.shuffle.none" if not run["shuffled"] else (
            "lab.shuffle.equivariant" if run["shuffle"] < 1e-4 else "lab.shuffle.changes")  # fmt: skip
        rows.append({t("lab.col.side"): t(f"lab.side.{side}"),
                     t("lab.col.pe"): names("lab.positional")(cfg.positional),
                     t("lab.col.mask"): t(f"mask.{cfg.default_mask}"), t("lab.col.delta"): f"{run['shuffle']:.2e}",
                     t("lab.col.verdict"): t(verdict)})  # fmt: skip
    st.table(rows)
