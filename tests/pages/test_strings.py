"""How the string tables are laid out: ui/strings/<module>.py holds exactly the keys that start with
"<module>.", each once; a page asks only for its own keys or shared ones, so moving or deleting a page
never breaks another; ui/i18n.py only looks strings up. (test_i18n.py checks that every key has
English and Chinese, with the same placeholders.)"""

import ast
import pkgutil
from pathlib import Path

import pytest

import ui.strings
from ui.i18n import STRINGS
from ui.pages import LESSONS
from ui.strings import TABLES

ROOT = Path(__file__).parents[2]
STRINGS_DIR = ROOT / "ui" / "strings"
# lessons/<page>.py -> its own module of ui/strings (the same name for every page today).
PAGE_MODULE = {"home": "home"} | {lesson.name: lesson.name for lesson in LESSONS}
# Modules no page owns: keys used by several pages, by the shell, or by both (nav.* titles are read by
# app.py, the home page and the guided lessons; lbl.* by every chart; mask.* by four pages; ...).
# classroom.*: the Guided lessons page, the step bar on every page and the teacher's view.
SHARED = {"common", "shell", "nav", "lbl", "mask", "part", "model", "weights", "prompt", "ctl", "attn", "step"}
SHARED |= {"classroom", "fetch"}  # the sidebar's class and "Add a model…" panels
# A long page's section may keep its strings apart: <page>_<section>.py (lab_moe: the lab's experts section).
SECTIONS = {name for name in TABLES if name.partition("_")[0] in PAGE_MODULE.values() and name not in PAGE_MODULE}


def test_every_module_is_merged_and_is_a_page_or_shared():
    found = {m.name for m in pkgutil.iter_modules(ui.strings.__path__)}
    assert found == set(TABLES)
    assert set(TABLES) == set(PAGE_MODULE.values()) | SHARED | SECTIONS
    assert not set(PAGE_MODULE.values()) & SHARED
    assert sum(map(len, TABLES.values())) == len(STRINGS)


@pytest.mark.parametrize("module", sorted(TABLES))
def test_every_key_starts_with_its_module_name(module):
    assert [key for key in TABLES[module] if not key.startswith(f"{module}.")] == []


def _table_keys(path: Path) -> list[str]:
    """The keys of the STRINGS dict literal as written (a dict silently keeps only the last of two)."""
    tree = ast.parse(path.read_text())
    (table,) = [n.value for n in tree.body if isinstance(n, ast.AnnAssign) and n.target.id == "STRINGS"]
    return [k.value for k in table.keys]


def test_no_key_is_defined_twice():
    keys = [key for path in sorted(STRINGS_DIR.glob("*.py")) if path.stem != "__init__" for key in _table_keys(path)]
    assert len(keys) == len(STRINGS)
    assert sorted({k for k in keys if keys.count(k) > 1}) == []


def _keys_asked_for(path: Path) -> set[str]:
    """Keys (and key prefixes) a file asks for: any string that is a key, names("prefix") and t(f"prefix.{x}")."""
    asked = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Constant) and node.value in STRINGS:
            asked.add(node.value)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            first = node.args[0]
            if node.func.id == "names" and isinstance(first, ast.Constant):
                asked.add(f"{first.value}.")
            if node.func.id in ("t", "names") and isinstance(first, ast.JoinedStr):
                head = first.values[0]
                assert isinstance(head, ast.Constant) and "." in head.value, ast.unparse(first)
                asked.add(head.value)
    return asked


@pytest.mark.parametrize("page", sorted(PAGE_MODULE))
def test_a_page_asks_only_for_its_own_or_shared_keys(page):
    path = ROOT / "lessons" / f"{page}.py"
    asked = _keys_asked_for(path)
    assert asked, "the scan found nothing"
    allowed = {PAGE_MODULE[page], *SHARED, *(m for m in SECTIONS if m.partition("_")[0] == PAGE_MODULE[page])}
    assert sorted(key for key in asked if key.partition(".")[0] not in allowed) == []


def test_i18n_holds_no_string_table():
    tree = ast.parse((ROOT / "ui" / "i18n.py").read_text())
    tables = [n for n in ast.walk(tree) if isinstance(n, ast.Dict) and any(isinstance(k, ast.Constant) for k in n.keys)]
    assert tables == []
