"""The real app in a real Chromium: typing drives the figure, language, shared links, bad input.

Fixtures (conftest.py) start `streamlit run app.py` once per session and give each test a fresh
browser context, i.e. a fresh Streamlit session.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import sidebar_at_rest

HEATMAP_TICKS = ".js-plotly-plot .ytick text"
FIRST_DRAW_MS = 40_000  # the first page of the session loads torch and the model
DRAW_MS = 15_000
SPECIAL = re.compile(r"\[(?:BOS|EOS|CLS|SEP)\]")


def y_ticks(page: Page) -> list[str]:
    """The token labels of the first figure (the attention heatmap; the sink tables follow it)."""
    return page.eval_on_selector(
        ".js-plotly-plot", "gd => [...gd.querySelectorAll('.ytick text')].map(e => e.textContent)"
    )


def open_explorer(page: Page, query: str = "") -> None:
    page.goto(f"/explorer{query}")
    page.wait_for_selector(HEATMAP_TICKS, timeout=FIRST_DRAW_MS)


def prompt_box(page: Page):
    return page.get_by_role("textbox", name="Prompt")


def model_box(page: Page):
    return page.get_by_test_id("stSidebar").get_by_role("combobox", name="Model")


def chips_text(page: Page) -> str:
    """The token chips (Markdown inline code under the caption) joined, special tokens left out."""
    chips = page.get_by_test_id("stMain").locator("[data-testid='stMarkdownContainer'] code")
    expect(chips.first).to_be_visible()
    return SPECIAL.sub("", "".join(chips.all_text_contents()))


def test_figure_follows_typing_without_enter(page: Page) -> None:
    open_explorer(page)
    assert any(label.endswith("␣cats") for label in y_ticks(page))  # the default prompt
    box = prompt_box(page)
    box.click()
    page.keyboard.press("ControlOrMeta+A")
    page.keyboard.press("Backspace")
    page.keyboard.type("alice met bob at the park", delay=30)  # typing, then a pause; no Enter
    # Labels are "position token", ␣ marking a leading space: wait for the new prompt's tokens.
    page.wait_for_function(
        """sel => {
            const ticks = [...document.querySelectorAll(sel)].map(e => e.textContent);
            return ticks.includes('1 alice') && ticks.includes('3 ␣bob') && ticks.includes('6 ␣park')
                && !ticks.some(t => t.includes('cats'));
        }""",
        arg=HEATMAP_TICKS,
        timeout=DRAW_MS,
    )
    assert set(y_ticks(page)) == {"0 [BOS]", "1 alice", "2 ␣met", "3 ␣bob", "4 ␣at", "5 ␣the", "6 ␣park"}
    expect(page.get_by_text("7 tokens", exact=False)).to_be_visible()
    expect(box).to_have_value("alice met bob at the park")
    expect(box).to_be_focused()  # still typing in it: no Enter, no blur


def test_switch_language_to_chinese(page: Page) -> None:
    open_explorer(page)
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar).to_contain_text("Attention Explorer")  # its group is open: the current page
    sidebar.get_by_role("combobox", name="Language / 语言").click()
    page.get_by_role("option", name="简体中文").click()
    expect(sidebar).to_contain_text("注意力浏览器")
    main = page.get_by_test_id("stMain")
    expect(main.get_by_role("heading", name="注意力浏览器")).to_be_visible()
    expect(main.get_by_test_id("stWidgetLabel").filter(has_text=re.compile(r"^层$"))).to_be_visible()
    expect(main.get_by_test_id("stWidgetLabel").filter(has_text=re.compile(r"^头$"))).to_be_visible()
    expect(page.get_by_role("textbox", name="输入文本")).to_be_visible()  # the prompt label
    expect(page).to_have_url(re.compile(r"[?&]lang=zh\b"))
    page.wait_for_selector(HEATMAP_TICKS, timeout=DRAW_MS)


def test_shared_link_restores_model_prompt_and_grid(page: Page) -> None:
    page.goto("/explorer?model=encoder&prompt=the%20cat%20sleeps&view=grid")
    grid_titles = page.locator(".js-plotly-plot .annotation-text", has_text="head 4")
    expect(grid_titles).to_have_count(1, timeout=FIRST_DRAW_MS)
    expect(prompt_box(page)).to_have_value("the cat sleeps")
    expect(model_box(page)).to_have_value(re.compile(r"^Encoder-only"))
    # The grid: one heatmap per (layer, head) of the 2-layer, 4-head encoder; then the selected head, big.
    kinds = page.evaluate(
        "() => [...document.querySelectorAll('.js-plotly-plot')].map(gd => (gd.data || []).map(t => t.type))"
    )
    assert kinds == [["heatmap"] * 8, ["heatmap"]], kinds
    assert chips_text(page) == "the␣cat␣sleeps"  # the token chips: the prompt as the encoder reads it
    expect(page).to_have_url(re.compile(r"model=encoder"))


def test_script_in_prompt_shows_as_text(page: Page) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    payload = "<script>alert(1)</script>"
    open_explorer(page, "?prompt=%3Cscript%3Ealert(1)%3C/script%3E")
    expect(prompt_box(page)).to_have_value(payload)
    # The token chips (Markdown inline code) spell the prompt out literally, one BPE piece each.
    assert chips_text(page) == payload
    chips = page.get_by_test_id("stMain").locator("[data-testid='stMarkdownContainer'] code")
    expect(chips.filter(has_text=re.compile(r"^<$")).first).to_be_visible()
    assert "1 <" in y_ticks(page)  # and the heatmap labels show it as text too
    assert page.evaluate("() => document.querySelectorAll('[data-testid=stMain] script').length") == 0
    page.wait_for_timeout(300)  # give a would-be injected script a moment to run
    assert dialogs == []


def test_nonsense_url_warns_and_still_draws(page: Page) -> None:
    open_explorer(page, "?model=gpt9&layer=99&foo=bar")
    warning = page.get_by_test_id("stAlertContentWarning")
    expect(warning).to_contain_text("not understood")
    expect(warning).to_contain_text("model=gpt9")
    expect(warning).to_contain_text("layer=99")
    expect(warning).to_contain_text("foo=bar")
    assert "2 ␣cats" in y_ticks(page)  # the default model and prompt, drawn
    expect(model_box(page)).to_have_value(re.compile(r"^Decoder-only"))  # the default model


def test_clearing_the_prompt_clears_it_from_the_url(page: Page) -> None:
    open_explorer(page, "?prompt=alice%20met%20bob")
    box = prompt_box(page)
    box.click()
    page.keyboard.press("ControlOrMeta+A")
    page.keyboard.press("Backspace")
    expect(page.get_by_text("Type a prompt above")).to_be_visible(timeout=DRAW_MS)
    # What is on screen is an empty prompt; a shared link or a reload must not bring the old one back.
    expect(page).not_to_have_url(re.compile(r"prompt=alice"), timeout=3_000)


HOSTILE = '<img src=x onerror="window.__pwned=1;alert(1)"><script>window.__pwned=2</script>'
# Every place user text reaches: the shared prompt on the prompt pages, and each page's own text boxes.
HOSTILE_PAGES = [
    ("explorer", "prompt"), ("masks", "word"), ("mlm", "prompt"), ("generate", "prompt"), ("lab", "prompt"),
    ("softmax", "prompt"), ("translate", "source"), ("translate", "typed"), ("similarity", "sentences"),
    ("patch", "pt_clean"), ("patch", "pt_corrupt"), ("patch", "pt_answer"),
]  # fmt: skip


@pytest.mark.parametrize(("lesson", "param"), HOSTILE_PAGES)
def test_html_in_user_text_executes_nothing(page: Page, lesson: str, param: str) -> None:
    """An <img onerror> or <script> typed by a student is shown as text on every page: no element
    with an event handler appears, no script runs, no dialog opens."""
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(f"/{lesson}?{urlencode({param: HOSTILE})}")
    boxes = "() => [...document.querySelectorAll('input, textarea')].some(e => e.value.includes('onerror'))"
    page.wait_for_function(boxes, polling=100, timeout=FIRST_DRAW_MS)  # the text did arrive, in its box
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=stStatusWidget]')", polling=100, timeout=FIRST_DRAW_MS
    )
    page.wait_for_timeout(500)  # give a would-be injected handler a moment to fire
    assert page.evaluate("() => window.__pwned") is None
    assert page.evaluate("() => document.querySelectorAll('[data-testid=stMain] [onerror]').length") == 0
    assert page.evaluate("() => document.querySelectorAll('[data-testid=stMain] script').length") == 0
    assert dialogs == []
    expect(page.get_by_test_id("stException")).to_have_count(0)


FOCUSED_JS = """() => { const e = document.activeElement;
  const text = (e.innerText || e.value || '').trim().slice(0, 40);
  return [e.tagName, e.getAttribute('aria-label') || '', text].join('|') }"""


def test_every_kind_of_control_is_reachable_with_the_keyboard(page: Page) -> None:
    """Tab alone reaches the prompt, the example pills, the segmented controls (layer, head, view),
    the toggles, the downloads and every sidebar control: a student without a mouse can use the page."""
    open_explorer(page)
    seen = []
    for _ in range(80):
        page.keyboard.press("Tab")
        seen.append(page.evaluate(FOCUSED_JS))
    text = "\n".join(seen)
    wanted = ["INPUT|Prompt|", "INPUT|Model|", "INPUT|Language / 语言|", "INPUT|Presentation mode|",
              "INPUT|Numbers as tables|", "BUTTON||1", "BUTTON||one head",
              "Download shown attention (CSV)"]  # fmt: skip
    for control in wanted:
        assert control in text, (control, seen)


def test_a_guided_lesson_in_chinese_steps_through_pages(page: Page) -> None:
    """Start → the first step's page in its preset state, in the viewer's language; Next step → the
    next one, and the address bar holds the step for a student to open."""
    page.goto("/guides?lang=zh")
    page.get_by_role("button", name="开始").first.click()
    main = page.get_by_test_id("stMain")
    expect(main.get_by_role("heading", name="注意力浏览器")).to_be_visible(timeout=FIRST_DRAW_MS)
    expect(main.get_by_text("第 1 / 5 步")).to_be_visible()
    main.get_by_role("button", name="下一步").click()
    expect(main.get_by_text("第 2 / 5 步")).to_be_visible(timeout=DRAW_MS)
    expect(page.get_by_test_id("stSidebar").get_by_role("combobox", name="模型")).to_have_value("仅编码器（BERT 式）")
    page.wait_for_function("() => location.search.includes('gstep=2')", timeout=DRAW_MS)


LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
# Names that stay Latin in Chinese text too (model families, the function, the symbol).
# "Logit lens" (nostalgebraist 2020), SFT and DPO are names Chinese courses keep in Latin letters too.
PROPER_NOUNS = {"BERT", "GPT", "MiniLM", "Softmax", "d_k", "Logit", "lens", "SFT", "DPO"}
PROPER_NOUNS |= {"Hugging", "Face", "safetensors"}  # "Add a model…": the Hub's name and the weights' file format
LANGUAGE_LABEL = "Language / 语言"  # bilingual on purpose: the way back, whatever language is shown


def test_chinese_sidebar_shows_no_english(page: Page) -> None:
    """The lesson groups (ui/nav.py, opened one by one so every page title is shown) and everything else in
    the sidebar are Chinese: no Streamlit "View N more" or other English text."""
    page.goto("/?lang=zh")
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar).to_contain_text("训练、规模与缩放")  # the last group's title
    for summary in sidebar.get_by_test_id("stExpander").locator("summary").all():
        sidebar_at_rest(page)  # the groups below the one opened last have stopped moving
        summary.click()
    sidebar_at_rest(page)
    expect(sidebar).to_contain_text("模型规模与缩放定律")  # a page of the last group
    expect(sidebar.get_by_role("combobox", name="模型")).to_be_visible()
    expect(sidebar).to_contain_text("演示模式")
    lines = sidebar.evaluate(
        """el => {
            const icons = new Set([...el.querySelectorAll('[data-testid=stIconMaterial]')].map(e => e.textContent));
            return [...el.innerText.split('\\n').filter(line => !icons.has(line.trim())),
                    ...[...el.querySelectorAll('input:not([type=checkbox]):not([type=radio])')].map(i => i.value)];
        }"""
    )  # icons are ligatures ("home", "school"): Latin text drawn as a picture
    text = "\n".join(lines).replace(LANGUAGE_LABEL, "")
    assert "首页" in text and "演示模式" in text, text
    assert set(LATIN_WORD.findall(text)) - PROPER_NOUNS == set(), text


def test_after_enter_the_page_alone_reruns_and_its_download_is_made_on_click(page: Page) -> None:
    """The prompt reruns the page's fragment (ui/body.py; tests/test_page_fragment.py checks what the
    server sends): the figure and the URL follow it; the JSON download, made on click, holds the matrix
    now shown."""
    open_explorer(page, "?layer=2&head=3")
    box = prompt_box(page)
    box.fill("alice met bob at the park")
    box.press("Enter")
    page.wait_for_function(
        "sel => [...document.querySelectorAll(sel)].some(e => e.textContent === '6 ␣park')", arg=HEATMAP_TICKS
    )
    expect(page).to_have_url(re.compile(r"prompt=alice\+met\+bob\+at\+the\+park"))
    button = page.get_by_test_id("stDownloadButton").first
    with page.expect_download() as download:
        button.get_by_role("button").click()
    assert download.value.suggested_filename == "attention.json"
    payload = json.loads(Path(download.value.path()).read_text())
    assert payload["what"] == "decoder.self Layer 2, head 3"
    assert payload["key_tokens"] == ["[BOS]", "alice", "␣met", "␣bob", "␣at", "␣the", "␣park"]
