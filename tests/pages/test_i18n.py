"""The string tables: every key in both languages with the same placeholders, and every key the
code asks for exists (a missing one would be a KeyError in front of a class)."""

import re
import string
from pathlib import Path

import pytest

from ui.i18n import STRINGS
from ui.pages import LESSONS
from ui.params import DTYPES, SWEEP_INPUTS, TOLERANCES

ROOT = Path(__file__).parents[2]


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("key", sorted(STRINGS))
def test_every_string_has_both_languages_with_the_same_placeholders(key):
    entry = STRINGS[key]
    assert set(entry) == {"en", "zh"}, key
    assert entry["en"].strip() and entry["zh"].strip()
    assert _fields(entry["en"]) == _fields(entry["zh"]), key


def test_every_literal_key_in_the_code_exists():
    used = set()
    for path in [*ROOT.glob("lessons/*.py"), *ROOT.glob("ui/*.py"), ROOT / "app.py"]:
        used |= set(re.findall(r'\bt\("([a-z_.0-9-]+)"', path.read_text()))
    assert used, "the scan found nothing"
    assert not used - set(STRINGS)


def test_option_and_lesson_names_exist():
    keys = [f"nav.{lesson.name}" for lesson in LESSONS] + [f"home.{lesson.name}" for lesson in LESSONS]
    keys += [f"rank.tol.{v}" for v in TOLERANCES] + [f"rank.sweep_in.{v}" for v in SWEEP_INPUTS]
    keys += [f"positional.pe.{v}" for v in ("sinusoidal", "learned", "rope", "none")]
    assert not [k for k in keys if k not in STRINGS]
    assert DTYPES == ("float64", "float32")  # shown as they are: the numpy names


def _unbalanced_bold(text: str) -> list[str]:
    """`**` that CommonMark will not take as bold: an opening one after a letter and before punctuation, or a
    closing one after punctuation and before a letter, as `**直接偏好优化（DPO）**用` (the asterisks showed)."""
    import unicodedata

    def punct(c: str) -> bool:
        return unicodedata.category(c)[0] in "PS"

    bad = []
    for n, m in enumerate(re.finditer(r"\*\*", text)):
        i = m.start()
        before, after = (text[i - 1] if i else " "), (text[i + 2] if i + 2 < len(text) else " ")
        opening = n % 2 == 0
        if opening and punct(after) and not (before.isspace() or punct(before)):
            bad.append(text[max(0, i - 8) : i + 10])
        if not opening and punct(before) and not (after.isspace() or punct(after)):
            bad.append(text[max(0, i - 8) : i + 10])
    return bad


def test_bold_text_renders_in_both_languages():
    texts = [(key, lang, text) for key, entry in STRINGS.items() for lang, text in entry.items()]
    bad = {(key, lang): b for key, lang, text in texts if (b := _unbalanced_bold(text))}
    assert not bad, bad
