"""The Explorer's "Compare with…" picker and its presets, in the sidebar right under the model picker (issue 44).

app.py draws it, on the Explorer only, into the place shell.sidebar() keeps under the model picker: a page (or a
fragment) cannot draw into the sidebar's middle. A preset sets model, compare and sometimes the prompt in one click;
one whose models are not on this machine says what to fetch instead (under the presets, for that run)."""

from __future__ import annotations

import streamlit as st

import models
from models.inspection import revisions

from . import params, shell, state
from .compare_params import lab_change, lab_names
from .i18n import names, t

PRESETS = ("pythia", "instruct", "learned", "gqa", "encoder")
PYTHIA = "EleutherAI/pythia-70m"
INSTRUCT = ("Qwen/Qwen3-0.6B-Base", "Qwen/Qwen3-0.6B")
# A sentence said twice: in its second copy an induction head attends to the token after the first copy's match.
REPEATED = "The quick brown fox jumps over the lazy dog. The quick brown fox jumps over the lazy dog."
INDUCTION = "alice met bob at the park . then alice gave bob a"  # the toy decoder's own example (ui/shell.py)
MESSAGE = "_compare_preset_message"  # (string key, commands) of a preset that could not be applied
APPLIED = "_compare_preset"  # (preset, model, compare) last set by a preset: its note shows while they stay


def heading_label(name: str) -> str:
    """A model's name as the Explorer's two columns head it: a shipped one or a lab variant in the page's language,
    any other as it was named."""
    if name in models.AVAILABLE:
        return names("model")(name)
    change = lab_change(name)
    return t(f"explorer_compare.lab.{change}") if change else name


def _labels(options: list[str]) -> dict[str, str]:
    """Each option's label, made in this run's language (AppTest reads them after the run): none, a lab variant, a
    model as the model picker names it, or a name not on this machine."""
    labels = shell.model_labels()
    out = {}
    for name in options:
        change = lab_change(name)
        if not name:
            out[name] = t("explorer_compare.none")
        elif change is not None:
            out[name] = t(f"explorer_compare.lab.{change}")
        else:
            out[name] = labels(name) or t("explorer_compare.not_here", name=name)
    return out


def draw() -> None:
    """The picker (key `compare`, "" for none) and the presets, in the sidebar."""
    state.ensure("compare")
    options = ["", *params.model_names(), *lab_names()]
    if st.session_state["compare"] not in options:  # a link's name that is not here: kept, and said on the page
        options.append(st.session_state["compare"])
    labels = _labels(options)
    st.selectbox(
        t("explorer_compare.label"), options, format_func=labels.get, key="compare", help=t("explorer_compare.help")
    )
    with st.expander(t("explorer_compare.presets"), icon=":material/compare:"):
        st.pills(
            t("explorer_compare.presets"),
            list(PRESETS),
            format_func=names("explorer_compare.preset"),
            key="compare_preset",
            on_change=_apply,
            label_visibility="collapsed",
        )
        message = st.session_state.pop(MESSAGE, None)
        if message is not None:
            key, commands = message
            st.info(t(key))
            st.code("\n".join(commands), language="bash", wrap_lines=True)  # the sidebar is narrow


def pair(preset: str) -> tuple[str, str, str | None] | tuple[str, list[str]]:
    """(model, compare, prompt or None) of a preset on this machine, or (message key, fetch commands)."""
    if preset == "pythia":
        groups = revisions.groups(params.local_models().values())
        repos = sorted(groups, key=lambda repo: not repo.startswith("EleutherAI/pythia"))
        if not repos:
            return "explorer_compare.need_pythia", [f"python -m models.fetch {PYTHIA} --revision step1000",
                                           f"python -m models.fetch {PYTHIA}"]  # fmt: skip
        kept = groups[repos[0]]
        return kept[0].name, kept[-1].name, REPEATED
    if preset == "instruct":
        usable = {name for name, e in params.local_models().items() if e.error is None}
        pairs = [(n, n.removesuffix("-Base")) for n in sorted(usable) if n.endswith("-Base")]
        found = [INSTRUCT] if set(INSTRUCT) <= usable else [p for p in pairs if p[1] in usable]
        if not found:
            return "explorer_compare.need_instruct", [f"python -m models.fetch {name}" for name in INSTRUCT]
        return found[0][0], found[0][1], None
    if preset in ("learned", "gqa"):
        return "decoder", f"lab:{preset}", INDUCTION
    return "encoder", "decoder", params.default_prompt(state.lang())


def _apply() -> None:
    preset = st.session_state.get("compare_preset")
    st.session_state["compare_preset"] = None
    if preset is None:
        return
    found = pair(preset)
    if len(found) == 2:
        st.session_state[MESSAGE] = found
        return
    model, compare, prompt = found
    st.session_state["model"], st.session_state["compare"] = model, compare
    if prompt is not None:
        st.session_state["prompt"] = prompt
        st.session_state.pop("_auto_prompt", None)  # the preset's choice: a language switch keeps it
    st.session_state[APPLIED] = (preset, model, compare)


def preset_of(model: str, compare: str) -> str | None:
    """The preset that set these two models, while they are still the ones shown."""
    applied = st.session_state.get(APPLIED)
    return applied[0] if applied is not None and applied[1:] == (model, compare) else None
