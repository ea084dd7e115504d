"""The lesson pages in a real Chromium: figures draw, formulas render as math (KaTeX, not
TeX source), no error box, and the Chinese UI shows Chinese headings."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import visit
from ui.strings.nav import STRINGS

PLOTS = ".js-plotly-plot"
FIRST_DRAW_MS = 60_000  # the rank page runs its sweep once per server (cached afterwards)

HEADINGS = {
    "rank": ("Your prompt: one head under both masks", "你的输入：同一个头在两种掩码下", 6),
    "positional": ("A shift by k is a rotation", "平移 k 就是旋转", 10),
    "softmax": ("q·k is not cosine similarity", "q·k 不是余弦相似度", 8),
    "generate": ("The KV cache", "KV 缓存", 3),
    "translate": ("Teacher forcing: you write the target", "教师强制：由你来写目标", 6),
    "mlm": ("BERT's masking recipe, live", "BERT 的掩码方案（现场运行）", 5),
    "similarity": ("Sentence similarity (MiniLM)", "句子相似度（MiniLM）", 2),
    "lab": ("What the options change, checked on the prompt", "各选项改变了什么：在输入上检验", 8),
    "scaling": (
        "Chinchilla (Hoffmann et al. 2022): how to split a compute budget",
        "Chinchilla（Hoffmann 等 2022）：如何分配计算预算",
        6,
    ),
}


FORMULAS = ("rank", "positional", "softmax", "similarity", "scaling")


def _open(page: Page, path: str, n_plots: int, title: str | None = None, fresh: bool = True) -> None:
    """Open a page and wait for its figures; a lesson (its title given) in a fresh tab or by a page change in an
    open one (conftest.visit)."""
    if title is None:
        page.goto(path)
    else:
        visit(page, path, fresh, title, FIRST_DRAW_MS)
    page.wait_for_function(
        "([sel, n]) => document.querySelectorAll(sel).length >= n",
        arg=[f"{PLOTS} .main-svg", n_plots],
        polling=100,
        timeout=FIRST_DRAW_MS,
    )


@pytest.mark.parametrize("lesson", sorted(HEADINGS))
def test_lesson_page_draws_its_figures_and_math(tabs, lesson: str) -> None:
    english, _, n_plots = HEADINGS[lesson]
    page, fresh = tabs(("en",), 1280, 900)  # one tab visits the lessons in turn
    _open(page, f"/{lesson}", n_plots, STRINGS[f"nav.{lesson}"]["en"], fresh)
    main = page.get_by_test_id("stMain")
    expect(main.get_by_role("heading", name=english)).to_be_visible()
    if lesson in FORMULAS:
        assert main.locator(".katex").count() >= 1  # st.latex rendered by KaTeX
    assert "\\frac" not in main.inner_text()  # no raw TeX left on screen
    expect(page.get_by_test_id("stException")).to_have_count(0)


@pytest.mark.parametrize("lesson", sorted(HEADINGS))
def test_lesson_page_in_chinese(tabs, lesson: str) -> None:
    _, chinese, n_plots = HEADINGS[lesson]
    page, fresh = tabs(("zh",), 1280, 900)  # its first page sets the language, which the session keeps
    _open(page, f"/{lesson}?lang=zh", n_plots, STRINGS[f"nav.{lesson}"]["zh"], fresh)
    expect(page.get_by_test_id("stMain").get_by_role("heading", name=chinese)).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_minilm_in_the_explorer(page: Page) -> None:
    """The pretrained encoder draws WordPiece tokens ([CLS] ... [SEP], lower-cased) in a real browser."""
    _open(page, "/explorer?model=minilm&prompt=Tokenization%20is%20fun", 1)
    ticks = set(page.eval_on_selector_all(".js-plotly-plot .ytick text", "els => els.map(e => e.textContent)"))
    assert {"0 [CLS]", "1 token", "2 ##ization", "5 [SEP]"} <= ticks
