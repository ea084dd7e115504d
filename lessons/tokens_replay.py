"""Tokenization page, section 1: the shipped tokenizer's BPE merges replayed on the prompt, one step at a time."""

import numpy as np
import streamlit as st

import viz
from models.teaching.bpe_replay import MAX_CHARS
from ui import charts, shell, state, token_loaders
from ui.i18n import t
from viz import Series

CHIPS = 200  # tokens shown as chips at once (a 10,000-character prompt is thousands)
TABLE_ROWS = 300  # rows of the merge table


def replay_section(settings: state.Settings, tokenizer, text: str) -> None:
    st.subheader(t("tokens.replay_title"))
    ranks = token_loaders.merge_ranks()
    explain = t("tokens.replay_explain", merges=len(ranks), vocab=tokenizer.vocab_size)
    if len(text) > MAX_CHARS:
        st.caption(t("tokens.cut", n=len(text), max=MAX_CHARS))
    r = token_loaders.replay(text)
    n = len(r.steps)
    strs = tokenizer.token_strs
    if n == 0:
        st.info(t("tokens.no_merges", tokens=len(r.start)))
        shell.token_chips(strs(r.final[:CHIPS]), caption=t("tokens.chips"))
        if len(r.final) > CHIPS:
            st.caption(t("tokens.shown_first", shown=CHIPS, n=len(r.final)))
        st.markdown(explain)
        return
    state.ensure("tok_step")
    if st.session_state.get("_tok_text", text) != text:  # a new prompt opens on its final tokenization
        st.session_state["tok_step"] = n
    st.session_state["_tok_text"] = text
    st.session_state["tok_step"] = min(st.session_state["tok_step"], n)
    k = st.slider(t("tokens.step"), 0, n, key="tok_step")
    shell.track("tok_step")
    seq = r.at(k)
    lengths = np.array([len(r.start)] + [s.n_tokens for s in r.steps])
    # The length chart beside this step's merge and tokens, the explanation under them: on a 1366x768 projector the
    # page opens on its first figure (issue 39).
    c1, c2 = st.columns([3, 2])
    charts.plot(
        c1,
        viz.lines(
            np.arange(n + 1),
            [Series(t("tokens.series_length"), lengths)],
            x_title=t("tokens.x_step"),
            y_title=t("tokens.y_tokens"),
            title=t("tokens.length_title"),
            current=k,
            y_range=(0, float(lengths[0]) * 1.05),
            scale=settings.figure_scale,
        ),
        key="tok_length",
    )
    with c2:
        _step(r, k, seq, strs)
        if r.final == tokenizer.encode(text[:MAX_CHARS]):
            st.success(t("tokens.same", tokens=len(r.final), bytes=len(r.start), ratio=len(r.start) / len(r.final)))
        else:
            st.error(t("tokens.differs"))
        with st.expander(t("tokens.all_steps")):
            rows = r.steps[:TABLE_ROWS]
            st.dataframe(
                {
                    t("tokens.col_step"): list(range(1, len(rows) + 1)),
                    t("tokens.col_rank"): [s.rank + 1 for s in rows],
                    t("tokens.col_pair"): [" + ".join(strs([s.left, s.right])) for s in rows],
                    t("tokens.col_merged"): strs([s.merged for s in rows]),
                    t("tokens.col_count"): [s.count for s in rows],
                    t("tokens.col_after"): [s.n_tokens for s in rows],
                },
                hide_index=True,
            )
    st.markdown(explain)


def _step(r, k: int, seq: list[int], strs) -> None:
    """Step k's merge (or the bytes at step 0) and the tokens it leaves."""
    n = len(r.steps)
    if k == 0:
        st.markdown(t("tokens.step_zero", n=n, tokens=len(seq)))
    else:
        s = r.steps[k - 1]
        left, right, merged = (shell.code_span(x) for x in strs([s.left, s.right, s.merged]))
        st.markdown(
            t(
                "tokens.step_caption",
                k=k,
                n=n,
                rank=s.rank + 1,
                left=left,
                right=right,
                merged=merged,
                count=s.count,
                tokens=s.n_tokens,
            )
        )
    shell.token_chips(strs(seq[:CHIPS]), caption=t("tokens.chips"))
    if len(seq) > CHIPS:
        st.caption(t("tokens.shown_first", shown=CHIPS, n=len(seq)))
