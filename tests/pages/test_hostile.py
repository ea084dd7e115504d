"""Hostile input everywhere (hypothesis): random Unicode typed into the prompt of every prompt page,
and the extreme values every parameter accepts, never raise; each page still draws its main figure
or says clearly why not. (Random junk in URLs: test_lesson_urls.py.)"""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.pages.apptest import open_app
from ui.pages import LESSONS
from ui.params import PARAMS

PROMPT_PAGES = [lesson.name for lesson in LESSONS if lesson.prompt]
NASTY = [
    "", " ", "\n\t\r", "\x00\x01\x7f", "🙂" * 80, "👩‍👩‍👧‍👦🏳️‍🌈", "a" * 10_000, "مرحبا بالعالم", "עברית",
    "\u200b\u200d\ufeff", "[MASK] " * 40, "[CLS][SEP][PAD][BOS][EOS]", '<img src=x onerror="alert(1)">',
    "$$\\frac{1}{0}$$ **bold** [link](http://x)", "小明说小红喜欢苹果。" * 30, "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ℌ𝔢𝔩𝔩𝔬", "e\u0301\u0301\u0301",
]  # fmt: skip
TEXT = st.one_of(st.sampled_from(NASTY), st.text(st.characters(exclude_categories=("Cs",)), max_size=400))
PROBES = ["-1", "0", "1", "2", "3", "4", "8", "16", "32", "64", "100", "128", "255", "256", "512", "999", "1000",
          "4096", "9999", "16384", "300000", "1000000", "0.05", "0.1", "3.0", "4.0", "18", "27"]  # fmt: skip


def _extremes() -> dict[str, list[str]]:
    """For every numeric parameter, the smallest and largest probe values it accepts (its range's ends)."""
    out = {}
    for name, param in PARAMS.items():
        valid = []
        for raw in PROBES:
            try:
                value = param.parse(raw)
            except (ValueError, TypeError):
                continue
            if isinstance(value, int | float) and not isinstance(value, bool):
                valid.append((value, raw))
        if len(valid) >= 2:
            valid.sort()
            out[name] = [valid[0][1], valid[-1][1]]
    return out


EXTREMES = _extremes()


def main_content(at) -> bool:
    starts = [b for b in at.button if (b.key or "").startswith("start_")]  # the guided-lessons list
    return bool(at.get("plotly_chart") or starts or at.info or at.error or at.warning)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(page=st.sampled_from(PROMPT_PAGES), text=TEXT)
@example(page="explorer", text="a" * 10_000)
@example(page="lab", text="🙂" * 80)
def test_random_unicode_prompts_never_raise(page, text):
    at = open_app(page)
    at.text_input(key="prompt").input(text).run()
    assert not at.exception, [e.value for e in at.exception]
    assert main_content(at)
    if not text.strip():
        assert at.info  # the empty prompt gets a hint


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    page=st.sampled_from([lesson.name for lesson in LESSONS]),
    query=st.dictionaries(st.sampled_from(sorted(EXTREMES)), st.integers(0, 1), min_size=1, max_size=5),
)
def test_extreme_parameter_values_never_raise(page, query):
    at = open_app(page, **{name: EXTREMES[name][end] for name, end in query.items()})
    assert main_content(at)


def test_the_extremes_cover_the_sliders():
    assert {"layer", "head", "pe_n", "pit_n", "max_new", "temp", "kv_ctx", "albert_e", "a_n_layers", "samples"} <= set(
        EXTREMES
    )
