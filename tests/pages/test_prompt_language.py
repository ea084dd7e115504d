"""The prompt a session opens on follows the interface's language (ui/params.py DEFAULT_PROMPTS): a Chinese
interface opens on a Chinese prompt and lists the Chinese examples first; a prompt in the URL wins; switching the
language replaces only the app's own default, never a prompt the student typed or picked; links reopen exactly."""

from __future__ import annotations

import pytest

from tests.pages.apptest import open_app, set_prompt
from ui import shell
from ui.params import DEFAULT_PROMPT, DEFAULT_PROMPTS

ZH = DEFAULT_PROMPTS["zh"]


def _prompt(at) -> str:
    return at.text_input(key="prompt").value


def _url(at) -> dict:
    return {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def test_the_chinese_default_is_one_of_the_decoders_chinese_examples():
    assert ZH in shell.EXAMPLES["decoder"] and DEFAULT_PROMPTS["en"] == DEFAULT_PROMPT


@pytest.mark.parametrize(("lang", "expected"), [("en", DEFAULT_PROMPT), ("zh", ZH)])
def test_a_fresh_session_opens_on_its_languages_prompt(lang, expected):
    at = open_app("explorer", lang=lang)
    assert _prompt(at) == expected
    assert "prompt" not in _url(at)  # the language's default is left out of the link
    chips = "".join(m.value for m in at.markdown)
    assert ("`苹`" in chips) == (lang == "zh")  # the page ran the model on it (one chip per character)


def test_a_prompt_in_the_url_wins():
    at = open_app("explorer", lang="zh", prompt="the cat sat .")
    assert _prompt(at) == "the cat sat ."
    at = open_app("explorer", lang="zh", prompt=DEFAULT_PROMPT)
    assert _prompt(at) == DEFAULT_PROMPT
    assert _url(at)["prompt"] == DEFAULT_PROMPT  # not the Chinese default: kept in the link
    at = open_app("explorer", prompt=ZH)
    assert _prompt(at) == ZH and _url(at)["prompt"] == ZH


def test_switching_language_moves_only_the_apps_own_default():
    at = open_app("explorer")
    at.selectbox(key="lang").set_value("zh").run()
    assert _prompt(at) == ZH and "prompt" not in _url(at)
    at.selectbox(key="lang").set_value("en").run()
    assert _prompt(at) == DEFAULT_PROMPT
    set_prompt(at, "alice met bob .")
    at.selectbox(key="lang").set_value("zh").run()
    assert _prompt(at) == "alice met bob ." and _url(at)["prompt"] == "alice met bob ."
    at = open_app("explorer", lang="zh", prompt="the cat sat .")  # from a link: kept too
    at.selectbox(key="lang").set_value("en").run()
    assert _prompt(at) == "the cat sat ."


def test_a_picked_example_stays_when_the_language_changes():
    at = open_app("explorer", lang="zh")
    at.pills(key="example").set_value(0).run()  # Chinese first: the same text as the default, but picked
    assert _prompt(at) == ZH
    at.selectbox(key="lang").set_value("en").run()
    assert _prompt(at) == ZH and _url(at)["prompt"] == ZH


@pytest.mark.parametrize("model", ["decoder", "encoder", "encoder-decoder", "minilm"])
def test_chinese_examples_first_in_the_chinese_interface(model):
    at = open_app("explorer", lang="zh", model=model)
    shown = at.pills(key="example").options
    found = shell.EXAMPLES[model]
    chinese = [e for e in found if any("\u4e00" <= c <= "\u9fff" for c in e)]
    assert shown == chinese + [e for e in found if e not in chinese]
    at = open_app("explorer", model=model)
    assert at.pills(key="example").options == found
