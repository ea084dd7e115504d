"""The "Circuits between heads" page's last section: knock one (query, key) edge, or every copy of a word, out of
some layers' heads (score = −∞ before the softmax, the row renormalises; Geva et al. 2023), and see the answer's
probability, the metric and the pattern change."""

from __future__ import annotations

import numpy as np
import streamlit as st

import viz
from lessons.circuits_sections import error
from ui import shell, state
from ui.circuit_loaders import entry_run, knock_run
from ui.i18n import code_span, md, t, viz_labels
from ui.state import Settings


def _pick(tokens: list[str], n_layers: int, n_heads: int) -> tuple[int, int, list[int], list[int]]:
    s = st.session_state
    for key in ("cc_ko_q", "cc_ko_k", "cc_ko_word", "cc_ko_layers", "cc_ko_heads"):
        state.ensure(key)
    n = len(tokens)
    if not 0 <= s["cc_ko_q"] < n:
        s["cc_ko_q"] = s.get("cc_query", n - 1) if 0 <= s.get("cc_query", -1) < n else n - 1
    if not 0 <= s["cc_ko_k"] <= s["cc_ko_q"]:
        s["cc_ko_k"] = s.get("cc_key", 0) if 0 <= s.get("cc_key", -1) <= s["cc_ko_q"] else 0
    s["cc_ko_layers"] = [i for i in s["cc_ko_layers"] or [] if 0 <= i < n_layers] or [n_layers - 1]
    s["cc_ko_heads"] = [h for h in s["cc_ko_heads"] or [] if 0 <= h < n_heads] or [0]
    label = lambda i: f"{i} {tokens[i]}"  # noqa: E731
    number = lambda i: str(i + 1)  # noqa: E731
    c1, c2, c3, c4 = st.columns([2, 2, 1.5, 1.5])
    c1.selectbox(t("circuits.query"), list(range(n)), format_func=label, key="cc_ko_q")
    s["cc_ko_k"] = min(s["cc_ko_k"], s["cc_ko_q"])
    c2.selectbox(t("circuits.key"), list(range(s["cc_ko_q"] + 1)), format_func=label, key="cc_ko_k")
    c3.multiselect(t("circuits.ko_layers"), list(range(n_layers)), format_func=number, key="cc_ko_layers")
    c4.multiselect(t("circuits.ko_heads"), list(range(n_heads)), format_func=number, key="cc_ko_heads")
    st.toggle(t("circuits.ko_word"), key="cc_ko_word", help=t("circuits.ko_word_help"))
    shell.track("cc_ko_q", "cc_ko_k", "cc_ko_word", "cc_ko_layers", "cc_ko_heads")
    return s["cc_ko_q"], s["cc_ko_k"], s["cc_ko_layers"] or [n_layers - 1], s["cc_ko_heads"] or [0]


def knock(settings: Settings, model_name: str, texts: tuple[str, str, str, str], tokens: list[str], cfg) -> None:
    st.subheader(t("circuits.ko_title"))
    st.markdown(t("circuits.ko_intro"))
    query, key, layers, heads = _pick(tokens, cfg.n_layers, cfg.n_heads)
    keys = [j for j in range(query + 1) if tokens[j] == tokens[key]] if st.session_state["cc_ko_word"] else [key]
    edges = tuple((query, j) for j in keys)
    clean, _, answer, wrong = texts
    run = knock_run(model_name, settings.weights, clean, answer, wrong, edges, tuple(sorted(layers)),
                    tuple(sorted(heads)))  # fmt: skip
    if "error" in run:
        if run["error"] == "row":
            st.warning(t("circuits.err.row", query=f"{query} {md(tokens[query])}"))
        else:
            error(run)
        return
    if not run["applied"]:
        st.info(t("circuits.ko_none"))
    a = code_span(run["answer"])
    lines = [t("circuits.ko_prob", a=a, before=f"{run['prob_before']:.3f}", after=f"{run['prob_after']:.3f}",
               change=f"{run['prob_change']:+.3f}")]  # fmt: skip
    if run["metric_before"] is not None:
        lines.append(t("circuits.ko_metric", a=a, w=code_span(run["wrong"]), before=f"{run['metric_before']:.3f}",
                       after=f"{run['metric_after']:.3f}", change=f"{run['metric_change']:+.3f}"))  # fmt: skip
    st.markdown("  \n".join(lines))
    layer, head = sorted(layers)[0], sorted(heads)[0]
    c1, c2 = st.columns(2)
    for where, which, name in ((c1, "before", "ko_before"), (c2, "after", "ko_after")):
        w = np.asarray(run[which][layer, head], dtype=np.float64)
        shell.plot(
            viz.heatmap(w, tokens, tokens, title=t(f"circuits.{name}", layer=layer + 1, head=head + 1),
                        scale=settings.figure_scale, labels=viz_labels()),
            key=f"cc_{name}", where=where,
        )  # fmt: skip
    st.caption(t("circuits.ko_caption", n=len(run["applied"])))
    _entry(settings, model_name, texts, layer, head, query, key)


def _entry(settings: Settings, model_name: str, texts: tuple[str, str, str, str], layer: int, head: int, query: int,
           key: int) -> None:  # fmt: skip
    """The other way round: the corrupted run with only this edge's weight taken from the clean run."""
    e = entry_run(model_name, settings.weights, *texts, layer, head, query, key)
    if "error" in e:
        return  # the page's maps above say why these prompts cannot be patched
    fields = dict(layer=layer + 1, head=head + 1, clean_w=f"{e['clean_weight']:.3f}",
                  corr_w=f"{e['corrupted_weight']:.3f}", patched=f"{e['patched']:.3f}", clean=f"{e['clean']:.3f}",
                  corrupted=f"{e['corrupted']:.3f}", recovered=f"{e['recovered']:.2f}")  # fmt: skip
    st.markdown(t("circuits.entry_agree" if e["agree"] else "circuits.entry", **fields))
