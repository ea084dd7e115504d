"""Circuits between heads (issue 43): why a head attends where it does (its score split into the parts of the stream
that made it), composition scores from the weights, path patching from one head into another's q, k or v, and a
head's OV and QK circuits in tokens.

The prompts are the "What a head causes" page's (its pt_* URL parameters and templates, ui/patch_pairs.py); the model
runs in ui/circuit_loaders.py (cached); the sections under the first are in lessons/circuits_sections.py.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

import models
import viz
from lessons import circuits_knock, circuits_sections
from ui import patch_pairs, shell, state, url
from ui.circuit_loaders import parts_run, prompt_tokens
from ui.i18n import in_run_language, md, names, t
from ui.loaders import get_model, with_status
from viz.circuits import part_name

BOXES = ("pt_clean", "pt_corrupt", "pt_answer", "pt_wrong")
PARTS = ("embedding", "positions", "biases", "block")


def _use_template(name: str, weights: str, toy: bool) -> None:
    model = get_model(name, weights)
    kind = st.session_state["pt_template"]
    found = patch_pairs.batch(kind, toy, lambda text: len(model.source_ids(text)[0]), n=1)
    pair = found[0] if found else patch_pairs.template(kind, toy)
    for box, value in zip(BOXES, (pair.clean, pair.corrupted, pair.answer, pair.wrong), strict=True):
        st.session_state[box] = value
    st.session_state["_pt_auto"] = pair.clean
    for key in ("cc_query", "cc_key"):  # a new prompt: the default cell again
        st.session_state[key] = -1


def _controls(name: str, weights: str, toy: bool) -> tuple[str, str, str, str]:
    """The patch page's template and four boxes, bound to the same URL parameters."""
    for key in ("pt_template", *BOXES):
        state.ensure(key)
    s = st.session_state
    if s["pt_clean"] is None or (s.get("_pt_toy") not in (None, toy) and s["pt_clean"] == s.get("_pt_auto")):
        _use_template(name, weights, toy)
    for key in BOXES:
        s[key] = s[key] or ""
    s["_pt_toy"] = toy
    st.segmented_control(t("circuits.template"), patch_pairs.TEMPLATES, format_func=names("circuits.template"),
                         key="pt_template", required=True, on_change=_use_template, help=t("circuits.prompts"),
                         args=(name, weights, toy))  # fmt: skip
    c1, c2, c3, c4 = st.columns([3, 3, 1.3, 1.3])
    c1.text_input(t("circuits.clean"), key="pt_clean", max_chars=url.MAX_PROMPT_CHARS)
    c2.text_input(t("circuits.corrupted"), key="pt_corrupt", max_chars=url.MAX_PROMPT_CHARS)
    c3.text_input(t("circuits.answer"), key="pt_answer", max_chars=url.MAX_WORD_CHARS)
    c4.text_input(t("circuits.wrong"), key="pt_wrong", max_chars=url.MAX_WORD_CHARS)
    shell.track("pt_template", *BOXES)
    return s["pt_clean"], s["pt_corrupt"], s["pt_answer"].strip(), s["pt_wrong"].strip()


def _default_key(tokens: list[str], query: int) -> int:
    """The token after the query token's last earlier occurrence (where an induction head looks), else the query."""
    earlier = [i for i in range(query - 1) if tokens[i] == tokens[query]]
    return earlier[-1] + 1 if earlier else query


def _cell(tokens: list[str], n_layers: int, n_heads: int) -> tuple[int, int, int, int]:
    """Layer, head, query and key pickers (query default: the last token; key: where an induction head looks)."""
    s = st.session_state
    for key in ("cc_layer", "cc_head", "cc_query", "cc_key"):
        state.ensure(key)
    s["cc_layer"] = min(max(s["cc_layer"] or 0, 0), n_layers - 1)
    s["cc_head"] = min(max(s["cc_head"] or 0, 0), n_heads - 1)
    n = len(tokens)
    if not 0 <= s["cc_query"] < n:
        s["cc_query"] = n - 1
    if not 0 <= s["cc_key"] <= s["cc_query"]:
        s["cc_key"] = _default_key(tokens, s["cc_query"])
    labels = [f"{i} {tok}" for i, tok in enumerate(tokens)]  # widgets show text as it is
    number = lambda i: str(i + 1)  # noqa: E731
    c1, c2, c3, c4 = st.columns([1, 1, 2, 2])
    c1.selectbox(t("circuits.layer"), list(range(n_layers)), format_func=number, key="cc_layer")
    c2.selectbox(t("circuits.head"), list(range(n_heads)), format_func=number, key="cc_head")
    c3.selectbox(t("circuits.query"), list(range(n)), format_func=lambda i: labels[i], key="cc_query")
    s["cc_key"] = min(s["cc_key"], s["cc_query"])
    c4.selectbox(t("circuits.key"), list(range(s["cc_query"] + 1)), format_func=lambda i: labels[i], key="cc_key")
    shell.track("cc_layer", "cc_head", "cc_query", "cc_key")
    return s["cc_layer"], s["cc_head"], s["cc_query"], s["cc_key"]


def why(settings: state.Settings, model_name: str, clean: str, tokens: list[str], cfg) -> tuple[int, int]:
    """Section 1: the score of one cell split into query part × key part, its largest cells in words, the row."""
    st.subheader(t("circuits.why_title"))
    layer, head, query, key = _cell(tokens, cfg.n_layers, cfg.n_heads)
    run = with_status(t("circuits.computing", name=md(model_name)), parts_run, model_name, settings.weights, clean,
                      layer, head, query, key)  # fmt: skip
    if "error" in run:
        circuits_sections.error(run)
        return layer, head
    tr = in_run_language()
    words = {p: tr(f"circuits.part.{p}") for p in PARTS}
    rows = [part_name(x, words) for x in run["query_labels"]]
    cols = [part_name(x, words) for x in run["key_labels"]]
    q_tok, k_tok = tokens[query], tokens[key]
    shell.plot(
        viz.signed_cells(run["values"], rows, cols, limit=None,
                         title=t("circuits.parts_title", layer=layer + 1, head=head + 1, query=f"{query} {q_tok}",
                                 k=f"{key} {k_tok}"),
                         x_title=t("circuits.key_side"), y_title=t("circuits.query_side"),
                         value_name=t("circuits.contribution"), scale=settings.figure_scale),
        key="cc_parts", matrix=run["values"], rows=rows, cols=cols,
    )  # fmt: skip
    values = run["values"]
    st.markdown(t("circuits.why_intro"))
    st.markdown(t("circuits.sum", n=values.size, total=f"{run['total']:.3f}", model=f"{run['model_score']:.3f}"))
    cells = ", ".join(t("circuits.cell", q=f"**{part_name(a, words)}**", k=f"**{part_name(b, words)}**",
                        v=f"{v:+.2f}") for a, b, v in run["largest"])  # fmt: skip
    q_main = rows[int(np.abs(values.sum(1)).argmax())]
    k_main = cols[int(np.abs(values.sum(0)).argmax())]
    st.markdown(t("circuits.largest", cells=cells, q_main=q_main, k_main=k_main))
    if run["softcap"]:
        st.caption(t("circuits.softcap", cap=run["softcap"], total=f"{run['total']:.3f}",
                     model=f"{run['model_score']:.3f}"))  # fmt: skip
    if run["masked"]:
        st.caption(t("circuits.masked"))
    if run["row"] is not None:
        labels = [f"{i} {tok}" for i, tok in enumerate(tokens[: query + 1])]  # the figure escapes them
        row = np.asarray(run["row"][: query + 1], dtype=np.float64)
        shell.plot(
            viz.bars(row, labels, x_title=t("circuits.position"), y_title=t("circuits.weight"), highlight=key,
                     title=t("circuits.row_title", layer=layer + 1, head=head + 1, query=f"{query} {q_tok}"),
                     scale=settings.figure_scale),
            key="cc_row", matrix=row[None], rows=[t("circuits.weight")], cols=labels,
        )  # fmt: skip
        st.caption(t("circuits.row_caption"))
    return layer, head


settings = state.current()
model_name = shell.decoder_or_toy(settings, "circuits.decoder_only")
model = shell.model_or_stop(settings, model_name)
toy = model_name in models.SHIPPED
st.markdown(t("circuits.intro"))
clean, corrupted, answer, wrong = _controls(model_name, settings.weights, toy)
prep = prompt_tokens(model_name, settings.weights, clean)
if "error" in prep:
    circuits_sections.error(prep)
    shell.stop()
layer, head = why(settings, model_name, clean, prep["tokens"], model.config)
circuits_sections.composition(settings, model_name)
circuits_sections.path(settings, model_name, (clean, corrupted, answer, wrong))
circuits_sections.tokens(settings, model_name, layer, head)
circuits_knock.knock(settings, model_name, (clean, corrupted, answer, wrong), prep["tokens"], model.config)
circuits_sections.sources()
