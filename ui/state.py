"""The shared settings every page reads: language, model, weights, presentation mode, prompt."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from .params import PARAMS, SHARED

PRESENTATION_SCALE = 1.5  # figure and font scale on a projector


def ensure(name: str) -> None:
    """Give a widget key its default before the widget is drawn (widgets then take no value=)."""
    if name not in st.session_state:
        st.session_state[name] = PARAMS[name].default


@dataclass(frozen=True)
class Settings:
    lang: str
    model: str
    weights: str
    present: bool
    prompt: str
    tables: bool = False  # every attention heatmap also as a table of numbers (screen readers)

    @property
    def figure_scale(self) -> float:
        """Figure and font scale (projector mode); not the attention scale of the Softmax page."""
        return PRESENTATION_SCALE if self.present else 1.0


def current() -> Settings:
    for name in SHARED:
        ensure(name)
    s = st.session_state
    return Settings(s["lang"], s["model"], s["weights"], bool(s["present"]), s["prompt"] or "", bool(s["tables"]))


def lang() -> str:
    return st.session_state.get("lang", "en")
