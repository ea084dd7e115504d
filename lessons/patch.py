"""What a head causes (issue 42): activation patching of every head on a clean and a corrupted prompt, beside each
head's direct effect. Attention shows where a head reads; patching measures what its write does to the answer.

The model runs in ui/patch_loaders.py (cached per model, weights, prompts and words, shared by every session); the
sections under the first two maps are in lessons/patch_sections.py.
"""

from __future__ import annotations

import streamlit as st

import models
import viz
from lessons import patch_sections
from ui import patch_jobs, patch_pairs, shell, state, url
from ui.i18n import code_span, md, names, t
from ui.loaders import computed, get_model, with_status
from ui.patch_loaders import drawn, patch_run, prepared

BOXES = ("pt_clean", "pt_corrupt", "pt_answer", "pt_wrong")


def _fill(pair: patch_pairs.Pair, only_missing: bool = False) -> None:
    """The four boxes from a pair; only_missing: a link that set some of them keeps those."""
    s = st.session_state
    for box, value in zip(BOXES, (pair.clean, pair.corrupted, pair.answer, pair.wrong), strict=True):
        if not only_missing or s.get(box) is None:
            s[box] = value
    s["_pt_auto"] = pair.clean


def _count(name: str, weights: str):
    model = get_model(name, weights)
    return lambda text: len(model.source_ids(text)[0])


def _use_template(name: str, weights: str, toy: bool, only_missing: bool = False) -> None:
    """The template's first pair whose two prompts have the same token count for this model's tokenizer (a published
    tokenizer may cut Mary and John into different numbers of pieces)."""
    kind = st.session_state["pt_template"]
    found = patch_pairs.batch(kind, toy, _count(name, weights), n=1)
    _fill(found[0] if found else patch_pairs.template(kind, toy), only_missing)


def _propose(name: str, weights: str, toy: bool) -> None:
    """on_change of the clean prompt (and the "use the proposed corruption" button): a corruption of the same length."""
    pair = patch_pairs.propose(st.session_state.get("pt_clean") or "", _count(name, weights), toy)
    st.session_state["_pt_none"] = pair is None
    if pair is not None:
        _fill(pair)


def _controls(name: str, weights: str, toy: bool) -> tuple[str, str, str, str]:
    """Template, the two prompts and the two words, bound to the URL. A template's text follows the model (the toy
    decoder's words or real English) until the student types their own."""
    for key in ("pt_template", *BOXES):
        state.ensure(key)
    s = st.session_state
    if s["pt_clean"] is None:
        _use_template(name, weights, toy, only_missing=True)
    elif s.get("_pt_toy") not in (None, toy) and s["pt_clean"] == s.get("_pt_auto"):  # the template, for this model
        _use_template(name, weights, toy)
    elif s["pt_corrupt"] is None or s["pt_answer"] is None or s["pt_wrong"] is None:
        _propose(name, weights, toy)  # a link with only the clean prompt
    for key in BOXES:
        s[key] = s[key] or ""
    s["_pt_toy"] = toy
    st.segmented_control(t("patch.template"), patch_pairs.TEMPLATES, format_func=names("patch.template"),
                         key="pt_template", required=True, on_change=_use_template,
                         args=(name, weights, toy))  # fmt: skip
    c1, c2, c3, c4 = st.columns([3, 3, 1.3, 1.3])
    c1.text_input(t("patch.clean"), key="pt_clean", max_chars=url.MAX_PROMPT_CHARS, help=t("patch.clean_help"),
                  on_change=_propose, args=(name, weights, toy))  # fmt: skip
    c2.text_input(t("patch.corrupted"), key="pt_corrupt", max_chars=url.MAX_PROMPT_CHARS,
                  help=t("patch.corrupted_help"))  # fmt: skip
    c3.text_input(t("patch.answer"), key="pt_answer", max_chars=url.MAX_WORD_CHARS, help=t("patch.word_help"))
    c4.text_input(t("patch.wrong"), key="pt_wrong", max_chars=url.MAX_WORD_CHARS, help=t("patch.word_help"))
    shell.track("pt_template", *BOXES)
    if s.pop("_pt_none", False):
        st.info(t("patch.no_proposal"))
    return s["pt_clean"], s["pt_corrupt"], s["pt_answer"].strip(), s["pt_wrong"].strip()


def _error(run: dict, name: str, weights: str, toy: bool) -> None:
    key = run["error"]
    fields = {k: v for k, v in run.items() if k != "error"}
    if "detail" in fields:
        fields["detail"] = md(fields["detail"])
    (st.info if key in ("empty", "no_word") else st.warning)(t(f"patch.err.{key}", **fields))
    if key == "lengths":
        st.button(t("patch.propose"), key="pt_use_proposal", on_click=_propose, args=(name, weights, toy))
    shell.stop()


def _notes(run: dict, answer: str, wrong: str) -> None:
    """Which tokens the metric compares, when a word is several tokens or the two words share their first ones."""
    lines = []
    if run["shared"]:
        lines.append(t("patch.shared", shared=" ".join(code_span(x) for x in run["shared"])))
    else:
        for key, word, toks in (("answer", answer, run["answer_tokens"]), ("wrong", wrong, run["wrong_tokens"])):
            if len(toks) > 1:
                lines.append(t("patch.first_token", which=t(f"patch.which_{key}"), word=code_span(word), n=len(toks),
                               token=code_span(toks[0])))  # fmt: skip
    same = int(run["unchanged"].sum())
    if same:  # nnsight #502: a patch that moved nothing is a fact about the prompts, not a finding about the head
        lines.append(t("patch.unchanged", n=same, total=run["unchanged"].size))
    if run["linear_layers"]:
        lines.append(t("patch.linear", layers=", ".join(str(i + 1) for i in run["linear_layers"])))
    if run["softcapped"]:
        lines.append(t("patch.softcap"))
    if lines:
        st.caption("  \n".join(lines))


settings = state.current()
model_name = shell.decoder_or_toy(settings, "patch.decoder_only")
model = shell.model_or_stop(settings, model_name)
toy = model_name in models.SHIPPED
st.markdown(t("patch.intro"))
clean, corrupted, answer, wrong = _controls(model_name, settings.weights, toy)
key = (model_name, settings.weights, clean, corrupted, answer, wrong)
live = not toy and not computed(patch_run, *key) and not drawn(key) and "error" not in prepared(*key)
# a published model's map is drawn as it fills (seconds per layer), with Cancel (ui/patch_jobs.py)
if live and not patch_jobs.wait_or_draw(model, key, patch_sections.draw_partial, patch_sections.cancelled):
    shell.stop()
run = with_status(t("patch.computing", name=md(model_name)), patch_run, *key)
if "error" in run:
    _error(run, model_name, settings.weights, toy)
a, w = code_span(run["answer"]), code_span(run["wrong"])
clean_m, corr_m = f"{run['clean']:.3f}", f"{run['corrupted']:.3f}"
if not run["disagree"]:
    st.warning(t("patch.agree", a=a, w=w, clean=clean_m, corrupted=corr_m))
    shell.stop()
st.markdown(t("patch.metric", a=a, w=w, clean=clean_m, corrupted=corr_m))
if run["clean"] <= max(run["corrupted"], 0.0):  # the map is still exact, but of a model that does not do the task
    st.info(t("patch.not_solved", a=a, w=w, clean=clean_m, corrupted=corr_m))
_notes(run, answer, wrong)

n_layers, n_heads = run["recovered"].shape
rows, cols = viz.head_names(n_layers, n_heads)
scale = settings.figure_scale
c1, c2 = st.columns(2)
shell.plot(
    viz.signed_cells(run["recovered"], rows, cols, title=t("patch.map_title"), x_title=t("patch.head"),
                     y_title=t("patch.layer"), value_name=t("patch.recovered"), extra=run["patched"],
                     extra_name=t("patch.patched_metric"), note=t("patch.note", clean=clean_m, corrupted=corr_m),
                     scale=scale),
    key="pt_map", matrix=run["recovered"], rows=rows, cols=cols, where=c1,
)  # fmt: skip
direct = run["direct"].copy()
direct[~run["direct_exists"]] = float("nan")
shell.plot(
    viz.signed_cells(direct, rows, cols, title=t("patch.direct_title"), x_title=t("patch.head"),
                     y_title=t("patch.layer"), value_name=t("patch.direct_name"), limit=None, scale=scale),
    key="pt_direct", matrix=direct, rows=rows, cols=cols, where=c2,
)  # fmt: skip
c1.caption(t("patch.map_caption"))
heads_sum = float(run["direct"].sum())
c2.caption(t("patch.direct_caption", heads=f"{heads_sum:.3f}", rest=f"{run['direct_rest']:.3f}",
             total=f"{run['direct_total']:.3f}"))  # fmt: skip
st.caption(t("patch.bright"))
patch_sections.explorer_link(model_name, clean, run["recovered"])
patch_sections.by_position(settings, model_name, (clean, corrupted, answer, wrong), run, rows, cols)
patch_sections.residual(settings, run)
patch_sections.estimate(settings, run, rows, cols)
patch_sections.batch(settings, model_name)
patch_sections.sources()
