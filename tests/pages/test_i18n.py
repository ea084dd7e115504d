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
