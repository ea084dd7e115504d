"""A published decoder whose layers differ in position: SmolLM3's NoPE layers, Gemma 3's two RoPE bases."""

import streamlit as st

import models
from models.core.layer_positions import layer_positions, nope_interval, varies_by_layer
from ui import precision_keys, shell
from ui.i18n import t
from ui.state import Settings
from viz.labels import plain_number as number


def _layers(indices: list[int]) -> str:
    return ", ".join(str(i + 1) for i in indices)  # 1-based, as the pages' layer pickers


def rope_by_layer(settings: Settings) -> None:
    """Drawn only when the sidebar's published decoder has NoPE layers or a second RoPE base."""
    name = shell.published_or(settings, "decoder", "")
    try:
        model = shell.load(name, precision_keys.trained(name)) if name else None
    except models.WeightsError:
        return
    if model is None or not varies_by_layer(model.config):
        return
    cfg = model.config
    rows = layer_positions(cfg)
    st.header(t("positional.layers_title", model=name))
    if cfg.nope_layers:
        k = nope_interval(cfg)
        rope = [r.layer for r in rows if r.rope_base is not None]
        n = len(cfg.nope_layers)
        every = t("positional.nope_every", k=k) if k else ""
        which = t("positional.nope_which" if n > 1 else "positional.nope_which_one", n=n,
                  layers=_layers(sorted(cfg.nope_layers)), every=every)  # fmt: skip
        st.markdown(t("positional.nope_explain", which=which, total=cfg.n_layers, rope=len(rope),
                      theta=number(cfg.rope_base)))  # fmt: skip
    if cfg.rope_local_base is not None:
        local = [r.layer for r in rows if r.window is not None]
        full = [r.layer for r in rows if r.window is None]
        st.markdown(t("positional.two_bases_explain", local=number(cfg.rope_local_base), glob=number(cfg.rope_base),
                      local_layers=_layers(local), full_layers=_layers(full), window=cfg.sliding_window))  # fmt: skip
    head = [t("positional.layers_col_layer"), t("positional.layers_col_attention"), t("positional.layers_col_pos")]
    table = [
        {
            head[0]: r.layer + 1,
            head[1]: t("positional.layers_sliding", w=r.window) if r.window else t("positional.layers_full"),
            head[2]: t("positional.layers_nope") if r.rope_base is None else f"RoPE, θ = {number(r.rope_base)}",
        }
        for r in rows
    ]
    st.table(table, hide_index=True)
