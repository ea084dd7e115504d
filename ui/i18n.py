"""Looks up every user-visible string, in English and 简体中文: pages call t(key, **fields). The tables
themselves live in ui/strings/, one module per page or shared prefix.

Strings are Markdown (ours, trusted). Anything derived from user input that goes into one
passes through md() first, so it shows as typed: no links, no emphasis, no math, no HTML.
"""

from __future__ import annotations

import re

import viz

from .state import lang
from .strings import TABLES, part

STRINGS: dict[str, dict[str, str]] = {}
for _table in TABLES.values():
    assert not set(_table) & set(STRINGS), set(_table) & set(STRINGS)  # one meaning per key
    STRINGS.update(_table)

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>$~:])")


def md(text: object) -> str:
    """Escape user-derived text for Markdown, so it shows as typed (no links, HTML or math)."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))


def t(key: str, **fields: object) -> str:
    """The string for key in the current language (English if a translation is missing)."""
    return _in(lang(), key).format(**fields)


def in_run_language():
    """t bound to this run's language: for a format_func, which Streamlit (and AppTest) may call after the run, where
    the session's language can no longer be read (a Chinese option then came back in English and matched nothing)."""
    code = lang()
    return lambda key, **fields: _in(code, key).format(**fields)


def _in(code: str, key: str) -> str:
    entry = STRINGS[key]
    return entry.get(code, entry["en"])


def names(prefix: str):
    """A format_func for widget options: option -> t(f"{prefix}.{option}"), in the language of
    this run (the function may be called later, outside the run, e.g. by AppTest)."""
    code = lang()
    return lambda option: _in(code, f"{prefix}.{option}")


def part_names() -> dict[str, str]:
    """Translated names of parameter_counts() components (and "root", the total) for viz.param_treemap."""
    return {key.removeprefix("part."): t(key) for key in part.STRINGS}


def viz_labels() -> viz.Labels:
    names = ("query", "key", "weight", "layer", "head", "allowed", "blocked", "position", "change", "unchanged",
             "changed")  # fmt: skip
    return viz.Labels(**{n: t(f"lbl.{n}") for n in names})


def code_span(text: str) -> str:
    """Markdown inline code that shows text exactly (a fence longer than any backtick run in it)."""
    run = max((len(r) for r in re.findall("`+", text)), default=0)
    fence = "`" * (run + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def tokens_line(tokens: list[str]) -> str:
    """Tokens as Markdown code spans in a row, the last one in bold: a generation's output so far, its newest token
    marked (the Translate page's steps)."""
    return " ".join([*(code_span(tok) for tok in tokens[:-1]), f"**{code_span(tokens[-1])}**"])
