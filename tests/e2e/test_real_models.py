"""Published models in a real Chromium: tiny random Qwen2 and BERT folders in $ATTENTION_LAB_MODELS.

The picker lists them (and a too-large one with its size and the limit), the Explorer draws them, and a
Chinese prompt shows whole characters: a byte-level piece of 鼹 is 鼹₁, never mojibake. English and
Chinese. With SHOTS=1 in the environment, screenshots go to /tmp/shots-e2e/ (never committed).
"""

from __future__ import annotations

import itertools
import os
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect

from tests.models.hf.tiny import build

from .conftest import new_page, serve

FIRST_DRAW_MS = 60_000  # the first page of the server loads torch and the model
TICKS = ".js-plotly-plot .ytick text"
MAX_PARAMS = 1_200_000  # tiny-bert (~1.0M, its 30522-token vocabulary) fits; wide-gpt2 (~2.1M) does not
CHINESE = "小明喜欢鼹鼠"
MOJIBAKE = re.compile(r"[\ufffd\u00c0-\u00ff]")  # U+FFFD or Latin-1 letters: bytes shown as characters
SHOTS = Path("/tmp/shots-e2e")
SIZES = {"laptop": (1366, 768), "desktop": (1920, 1080), "phone": (390, 844)}
KIND = {"en": ("decoder", "encoder"), "zh": ("解码器", "编码器")}
MODEL_LABEL = {"en": "Model", "zh": "模型"}
TOO_LARGE = {"en": "wide-gpt2 · 2.1M · too large (limit 1.2M)", "zh": "wide-gpt2 · 2.1M · 过大（上限 1.2M）"}


@pytest.fixture(scope="module")
def real_url(chromium_path: str, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("models")
    build("qwen2", root / "tiny-qwen2")
    build("bert", root / "tiny-bert")
    build("gpt2", root / "wide-gpt2", n_embd=256, n_layer=2)
    env = {"ATTENTION_LAB_MODELS": str(root), "ATTENTION_LAB_MAX_PARAMS": str(MAX_PARAMS)}
    with serve(tmp_path_factory.mktemp("streamlit"), env) as base:
        yield base


@pytest.fixture()
def page(browser, real_url: str):
    with new_page(browser, real_url) as pg:
        yield pg


def explorer(page: Page, **query) -> None:
    page.goto(f"/explorer?{urlencode(query)}")
    page.wait_for_selector(TICKS, timeout=FIRST_DRAW_MS)


def y_ticks(page: Page) -> list[str]:
    """The heatmap's row labels, "position token", in position order (the DOM has them bottom-up)."""
    ticks = page.eval_on_selector(
        ".js-plotly-plot", "gd => [...gd.querySelectorAll('.ytick text')].map(e => e.textContent)"
    )
    return sorted(ticks, key=lambda tick: int(tick.split(" ", 1)[0]))


def chips(page: Page) -> list[str]:
    """The token chips (Markdown inline code under the token count)."""
    code = page.get_by_test_id("stMain").locator("[data-testid='stMarkdownContainer'] code")
    expect(code.first).to_be_visible()
    return code.all_text_contents()


def picker_options(page: Page, lang: str) -> list[str]:
    """The model picker's options, as its opened menu lists them. The picker is scrolled into view first, and clicked
    once the sidebar has stopped scrolling: below an open "Add a model…" panel (and the Explorer's "Compare with…")
    the sidebar can be scrolled past it, and Playwright's own scroll before the click arrived after the menu opened:
    the menu closes on a scroll (react-aria), and the picker was left focused with no option shown."""
    picker = page.get_by_test_id("stSidebar").get_by_role("combobox", name=MODEL_LABEL[lang])
    picker.scroll_into_view_if_needed()
    page.wait_for_function(  # the same position in two frames running
        """e => new Promise(r => { const y = e.getBoundingClientRect().top;
            requestAnimationFrame(() => requestAnimationFrame(() => r(e.getBoundingClientRect().top === y))); })""",
        arg=picker.element_handle(),
    )
    picker.click()
    options = page.get_by_role("option")
    expect(options.first).to_be_visible()
    return options.all_text_contents()


def shot(page: Page, name: str) -> None:
    if os.environ.get("SHOTS"):
        SHOTS.mkdir(exist_ok=True)
        page.wait_for_timeout(600)  # let Plotly finish its layout
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def no_traceback(page: Page) -> None:
    errors = page.get_by_test_id("stException")
    expect(errors, " | ".join(errors.all_inner_texts())[:2000]).to_have_count(0)  # the message names the exception
    assert "Traceback" not in page.get_by_test_id("stMain").inner_text()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_picker_lists_the_models_with_family_architecture_and_size(page: Page, lang: str) -> None:
    explorer(page, lang=lang)
    options = picker_options(page, lang)
    decoder, encoder = KIND[lang]
    assert any(re.fullmatch(rf"tiny-qwen2 · \d+K · Qwen2 {decoder}", o) for o in options), options
    assert any(re.fullmatch(rf"tiny-bert · 1.0M · BERT {encoder}", o) for o in options), options
    (wide,) = [o for o in options if o.startswith("wide-gpt2")]
    assert wide == TOO_LARGE[lang], wide  # its size and the limit, short enough for the sidebar
    shot(page, f"picker-{lang}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_chinese_prompt_shows_whole_characters_with_qwen2(page: Page, lang: str) -> None:
    explorer(page, model="tiny-qwen2", prompt=CHINESE, lang=lang)
    ticks = y_ticks(page)
    tokens = [tick.split(" ", 1)[1] for tick in ticks]
    assert [tok for tok in tokens if tok.startswith("鼹")] == ["鼹₁", "鼹₂", "鼹₃"], tokens
    whole = [re.sub("[₀-₉]", "", tok) for tok in tokens]  # a character's pieces, each named after it
    assert "".join(k for k, _ in itertools.groupby(whole)) == CHINESE, tokens
    assert not any(MOJIBAKE.search(tok) for tok in ticks), ticks
    chip_text = chips(page)
    assert [c for c in chip_text if c.startswith("鼹")] == ["鼹₁", "鼹₂", "鼹₃"], chip_text
    assert not any(MOJIBAKE.search(c) for c in chip_text), chip_text
    no_traceback(page)


def test_bert_tokens_start_with_cls_and_end_with_sep(page: Page) -> None:
    explorer(page, model="tiny-bert", prompt="The cat sat on the [MASK].")
    tokens = [tick.split(" ", 1)[1] for tick in y_ticks(page)]
    assert tokens[0] == "[CLS]" and tokens[-1] == "[SEP]" and "[MASK]" in tokens, tokens
    chip_text = chips(page)
    assert chip_text[0] == "[CLS]" and chip_text[-1] == "[SEP]", chip_text
    no_traceback(page)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_too_large_model_says_so_without_a_traceback(page: Page, lang: str) -> None:
    page.goto(f"/explorer?{urlencode({'model': 'wide-gpt2', 'lang': lang})}")
    error = page.get_by_test_id("stAlertContentError")
    expect(error).to_contain_text({"en": "too large", "zh": "太大"}[lang], timeout=FIRST_DRAW_MS)
    expect(error).to_contain_text("2.1M")
    expect(error).to_contain_text("ATTENTION_LAB_MAX_PARAMS")
    expect(error).to_contain_text("1.2M")
    expect(page.get_by_text({"en": "press Enter", "zh": "回车"}[lang])).to_have_count(0)  # nothing will run
    expect(page.locator(TICKS)).to_have_count(0)
    no_traceback(page)
    shot(page, f"too-large-{lang}")


@pytest.mark.skipif(not os.environ.get("SHOTS"), reason="screenshots only with SHOTS=1")
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("model", ["tiny-qwen2", "tiny-bert"])
def test_screenshots(browser, real_url: str, model: str, lang: str) -> None:
    prompt = CHINESE if model == "tiny-qwen2" else "The cat sat on the [MASK]."
    for size, (width, height) in SIZES.items():
        with new_page(browser, real_url, width, height) as pg:
            explorer(pg, model=model, prompt=prompt, lang=lang)
            no_traceback(pg)
            shot(pg, f"{model}-{lang}-{size}")
    with new_page(browser, real_url, *SIZES["laptop"]) as pg:
        explorer(pg, model=model, prompt=prompt, lang=lang, present=1)
        shot(pg, f"{model}-{lang}-present")
