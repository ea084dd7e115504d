"""A prompt of any size leaves a link that reopens (issue 21): the address bar carries at most
url.MAX_URL_TEXT_BYTES of percent-encoded text, cut at a character, and the page says so."""

from urllib.parse import quote

import pytest

from tests.pages.apptest import open_app, set_prompt
from ui import url
from ui.i18n import t


@pytest.mark.parametrize("unit", ["a", "猫", "🐱", "<script>&=?#"])
def test_url_text_is_the_longest_prefix_that_fits(unit):
    value = unit * 100_000
    kept = url.url_text(value)
    assert value.startswith(kept) and len(quote(kept, safe="")) <= url.MAX_URL_TEXT_BYTES
    assert len(quote(value[: len(kept) + 1], safe="")) > url.MAX_URL_TEXT_BYTES  # one more would not fit
    assert url.url_text("the cats sit .") == "the cats sit ."  # short text is untouched


def test_a_one_megabyte_prompt_leaves_a_link_that_reopens():
    at = open_app("explorer")  # 1,050,000 characters, sent as a client can (the box's max_chars cuts them)
    at.text_input(key="prompt").set_value("the cats sit . " * 70_000).run()
    linked = at.query_params["prompt"]
    linked = linked[0] if isinstance(linked, list) else linked
    assert 0 < len(quote(linked, safe="")) <= url.MAX_URL_TEXT_BYTES
    assert t("prompt.link_cut", n=len(linked)) in [c.value for c in at.caption]
    again = open_app("explorer", prompt=linked)  # the shared link opens the same prompt
    assert again.session_state["prompt"] == linked and not again.exception


def test_a_short_prompt_gives_no_notice():
    at = set_prompt(open_app("explorer"), "the cats sit .")
    assert not [c for c in at.caption if "address bar" in c.value]
