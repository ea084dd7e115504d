"""AppTest helpers: run the real app.py, open a page, read the Plotly figures it drew."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

APP = Path(__file__).parents[2] / "app.py"


def open_app(page: str | None = None, **query: str) -> AppTest:
    """Run app.py (first run, with these URL parameters), then switch to page if given."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    if page:
        at.switch_page(f"lessons/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def figures(at: AppTest) -> list[dict]:
    """Every Plotly figure on the page, as the JSON the browser receives."""
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def set_prompt(at: AppTest, text: str) -> AppTest:
    at.text_input(key="prompt").input(text).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def array(value) -> np.ndarray:
    """A Plotly data array as numpy (Plotly ships numeric arrays as base64 'bdata')."""
    if isinstance(value, dict) and "bdata" in value:
        a = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = value.get("shape")
        return a.reshape([int(x) for x in str(shape).split(",")]) if shape else a
    return np.asarray(value)


def heatmaps(at: AppTest) -> list[dict]:
    """The token-by-token heatmap traces (those with category axes of 'i token' labels)."""
    return [
        tr
        for fig in figures(at)
        for tr in fig["data"]
        if tr.get("type") == "heatmap" and "y" in tr and " " in str(tr["y"][0])  # "0 [BOS]", not a layer number
    ]


def titled(at: AppTest, text: str) -> dict:
    """The first figure whose title contains text."""
    for fig in figures(at):
        if text in str(fig.get("layout", {}).get("title", {}).get("text", "")):
            return fig
    raise AssertionError(f"no figure titled {text!r}: {[f['layout'].get('title') for f in figures(at)]}")


def table(at: AppTest, index: int = 0) -> dict[str, list]:
    """A st.table's columns as {header: [cells]}."""
    df = at.table[index].value
    return {str(c): list(df[c]) for c in df.columns}


def markdown_text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


# The prompts every new page is tried with: empty, very long, Chinese, emoji, markup.
HOSTILE_PROMPTS = [
    "",
    "x" * 10_000,
    "小明喜欢猫，猫也喜欢小明。",
    "🙂🐱 the cat 🙂",
    "<script>alert(1)</script> <b>bold</b>",
]


def check_hostile(page: str, prompt: str) -> AppTest:
    """The page on a hostile prompt: no exception; empty gets a notice naming the prompt; otherwise the
    markup reaches the figures only as escaped text."""
    at = open_app(page, prompt=prompt)
    assert not at.exception
    if not prompt:
        assert any("prompt" in i.value.lower() for i in at.info)
    else:
        text = json.dumps(figures(at))
        assert "<script>" not in text and "<b>" not in text
    return at
