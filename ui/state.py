"""The shared settings every page reads: language, model, weights, presentation mode, prompt."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

import streamlit as st
from streamlit.errors import StreamlitAPIException

from . import precision_keys
from .params import DEFAULT_WORDS, PARAMS, SHARED, default_prompt

BY_LANGUAGE = ("prompt", "word")  # defaults that follow the interface's language (until the student changes them)

PRESENTATION_SCALE = 1.5  # figure and font scale on a projector


def ensure(name: str) -> None:
    """Give a widget key its default before the widget is drawn (widgets then take no value=). The prompt's is the
    language's (params.DEFAULT_PROMPTS), remembered as put there by the app: follow_language may replace it."""
    if name not in st.session_state:
        kept = st.session_state.get("_params_kept", {})
        if name in kept:  # dropped by a page change (keep_params)
            st.session_state[name] = kept[name]
            return
        st.session_state[name] = default(name)
        if name in BY_LANGUAGE:
            st.session_state[f"_auto_{name}"] = st.session_state[name]


def keep_params() -> None:
    """At the end of every run: every parameter's value as a value of the session's own. A page change drops the
    values of widgets the new page does not draw in the same place: the Explorer draws its prompt box in a fragment of
    its own (lessons/explorer_view.py), and a page change from there dropped the box's value in Chromium; the Layer
    and Head the student clicked were dropped the same way going from the Explorer to the Masks page (their widgets
    there are other widgets under the same keys), and both came back as 1. ensure() then finds each here. Called at
    a run's start as well (app.py): a page link clicked right after Enter cuts the prompt's run short."""
    ss = st.session_state
    kept = ss.setdefault("_params_kept", {})
    # One read of the whole state (~30 µs), not `name in ss` and ss[name] for each of the 150 parameters (~550 µs: each
    # goes through Streamlit's locks, and a missing key builds its error message); twice in a full run (issue 40).
    values = ss.to_dict()
    # merged: at a run's start some are not there yet
    kept.update({name: values[name] for name in PARAMS.keys() & values.keys()})


def default(name: str) -> object:
    """What a parameter is when nothing set it, in this session's language (the URL leaves it out); the precision's
    is $ATTENTION_LAB_PRECISION's (ui/precision_keys.py)."""
    if name == "precision":
        return precision_keys.default_choice()
    if name == "word":
        return DEFAULT_WORDS.get(lang(), DEFAULT_WORDS["en"])
    return default_prompt(lang()) if name == "prompt" else PARAMS[name].default


def follow_language() -> None:
    """on_change of the language picker: a prompt the app put there (ensure) becomes the new language's default;
    one the student typed or picked, or a link gave, stays as it is."""
    ss = st.session_state
    if "_auto_prompt" in ss and ss.get("prompt") == ss["_auto_prompt"]:
        ss["prompt"] = ss["_auto_prompt"] = default_prompt(ss.get("lang", "en"))
    if "_auto_word" in ss and ss.get("word") == ss["_auto_word"]:
        ss["word"] = ss["_auto_word"] = DEFAULT_WORDS.get(ss.get("lang", "en"), DEFAULT_WORDS["en"])
    # A picker's shown value is its option's label, kept by the browser: without a value sent again, the model
    # picker still read "Decoder-only (GPT-style)" in the Chinese interface until a reload (issue 39).
    _reassert(name for name in PARAMS if name != "lang")


def _reassert(names) -> list[str]:
    """Set each name's value again as the session's own; returns the names that took it (a widget already drawn in
    this run refuses, and keeps its value anyway)."""
    kept = []
    for name in names:
        if name in st.session_state:
            with contextlib.suppress(StreamlitAPIException):
                st.session_state[name] = st.session_state[name]
                kept.append(name)
    return kept


def carry_values() -> None:
    """At the start of every full run, before any widget is drawn: every parameter's value is set again as the
    session's own, which is what a widget drawn next takes, whatever happened to its widget state since.

    Two ways lost a widget's value, both with its value still readable in session state: Streamlit names a widget by
    its key *and the page that draws it*, so after a page change the Explorer's Layer pills and the Masks page's were
    two widgets under one key, and the new page's registered with no value of its own (`layer` read 0 before the
    widget and None after it: 9 pages failed on `layer + 1`, issue 39). And a full rerun asked from a fragment
    (`st.rerun(scope="app")`, the download panel's Cancel) while the fragment's own timer had a rerun queued took
    that request's widget states: the sidebar's Weights control, outside the fragment, was registered without its
    value and read None (`state.current()`: AttributeError on None.partition; the flaky "Cancel ends a slow
    download" test, issue 41). A value set through session state is kept by the widget in both cases. ~100 keys:
    well under a millisecond."""
    _reassert(PARAMS)


def keep_values() -> None:
    """For a run that ends before drawing the page's controls (an empty prompt, a hidden guided step):
    Streamlit forgets the value of a widget not drawn in a run, so the student's view, layer or head fell
    back to its default, and the segmented controls came back with nothing selected. Set again here, each
    value is the session's own and outlives the run; resend_kept() sends it with the widget next time. A
    widget already drawn in this run keeps its value anyway (and may not be set after it is drawn)."""
    st.session_state["_kept"] = _reassert(PARAMS)


def resend_kept() -> None:
    """Before the page's widgets are drawn: the values keep_values() kept are set in this run, so each
    widget drawn again carries its value to the browser (a widget that reappears with a value from an
    earlier run is drawn empty: the browser no longer has one for it)."""
    _reassert(st.session_state.pop("_kept", []))  # a sidebar widget drawn already in this run keeps its value


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
    # a published model's weights key carries this session's precision (ui/precision_keys.py): loaders key on it
    weights = precision_keys.key(s["model"], s["weights"], s["precision"])
    return Settings(s["lang"], s["model"], weights, bool(s["present"]), s["prompt"] or "", bool(s["tables"]))


def lang() -> str:
    return st.session_state.get("lang", "en")
