"""Every ordered pair of pages, one after the other in one session (issue 39): a page change must never fail.

Streamlit names a widget by its key and the page drawing it, so a value one page left under a shared key (Layer,
Head) reached the next page's widget as None, and 9 pages failed on `layer + 1`. Each test opened its page fresh,
which never showed it. Here one session walks an Eulerian circuit of the complete directed graph on the 21 pages:
each of the 21 × 20 ordered pairs (A, B) is one step A → B, 420 page changes, in English and in Chinese, once from
the default state and once after Layer, Head and the prompt were changed on the Explorer."""

from __future__ import annotations

import itertools

import pytest

from tests.pages.apptest import open_app
from ui.pages import LESSONS

PAGES = ["home", *(lesson.name for lesson in LESSONS)]


def path(name: str) -> str:
    return "lessons/home.py" if name == "home" else f"lessons/{name}.py"


def circuit(nodes: list[str]) -> list[str]:
    """An Eulerian circuit of the complete directed graph on nodes (Hierholzer): every ordered pair once, as
    consecutive entries of the list returned."""
    unused = {a: [b for b in nodes if b != a] for a in nodes}
    stack, out = [nodes[0]], []
    while stack:
        if unused[stack[-1]]:
            stack.append(unused[stack[-1]].pop())
        else:
            out.append(stack.pop())
    return out[::-1]


def test_the_circuit_visits_every_ordered_pair_once():
    walk = circuit(PAGES)
    pairs = list(itertools.pairwise(walk))
    assert len(pairs) == len(set(pairs)) == len(PAGES) * (len(PAGES) - 1) == 21 * 20


def _walk(at, walk: list[str]) -> None:
    failures = []
    for before, after in itertools.pairwise(walk):
        at.switch_page(path(after)).run()
        if at.exception:
            failures.append(f"{before} -> {after}: {at.exception[0].message}")
            at.switch_page(path(after)).run()  # the next pair starts from a page that drew
    assert not failures, "\n".join(failures[:20])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_page_change_from_every_page(lang):
    at = open_app("explorer", lang=lang)
    walk = circuit(PAGES)
    start = walk.index("explorer")  # the circuit rotated to start where a class starts: the Explorer
    _walk(at, walk[start:] + walk[1 : start + 1])


def test_every_page_change_after_layer_head_and_prompt_changed():
    at = open_app("explorer")
    at.segmented_control(key="layer").set_value(1).run()
    at.segmented_control(key="head").set_value(2).run()
    at.text_input(key="prompt").input("the cat sat on the mat").run()
    assert not at.exception, [e.value for e in at.exception]
    walk = circuit(PAGES)
    start = walk.index("explorer")
    _walk(at, walk[start:] + walk[1 : start + 1])
    at.switch_page(path("masks")).run()
    assert (at.session_state["layer"], at.session_state["head"]) == (1, 2)  # carried, not reset
    assert at.session_state["prompt"] == "the cat sat on the mat"


@pytest.mark.parametrize(("lang", "words"), [("en", "could not be drawn"), ("zh", "本页无法显示")])
def test_a_page_that_fails_in_a_deployment_says_so_in_its_language_without_paths(monkeypatch, caplog, lang, words):
    """What still goes wrong one day: with deploy/streamlit.toml's showErrorDetails = "none" the student reads one
    sentence in the page's language and no file path; the server's log has the traceback."""
    import streamlit as st

    import viz

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in /srv/app/viz/heatmap.py")

    monkeypatch.setattr(viz, "mask_heatmap", broken)
    before = st.get_option("client.showErrorDetails")
    st.config.set_option("client.showErrorDetails", "none")
    try:
        at = open_app(lang=lang)
        at.switch_page(path("masks")).run()
    finally:
        st.config.set_option("client.showErrorDetails", before)
    assert not at.exception
    shown = " ".join(e.value for e in at.error)
    assert words in shown and "/srv/app" not in shown and ".py" not in shown
    assert "a bug in /srv/app/viz/heatmap.py" in caplog.text  # the whole error, in the server's log
