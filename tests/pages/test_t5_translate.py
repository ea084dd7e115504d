"""The Translate page with a published T5 (tiny random): the task prefix is put before the source, the model reads
exactly that (its cross-attention's keys are the prefixed source's tokens), and the page says that a tiny random
T5 does not translate."""

from __future__ import annotations

import html

import pytest

import models
from tests.models.hf.tiny_t5 import build_t5
from ui.params import T5_TASKS

from .apptest import markdown_text, open_app, titled

pytest.importorskip("transformers")
SOURCE = "the cat sat"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("t5")
    build_t5(root / "tiny-t5", "t5")
    return root


@pytest.fixture
def local(folder, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(folder))
    return models.load(str(folder / "tiny-t5"))


def _keys(at) -> list[str]:
    fig = titled(at, "“")  # the cross-attention heatmap: source tokens quoted on its x axis
    return [html.unescape(x).split(" ", 1)[-1] for x in fig["data"][0]["x"]]


@pytest.mark.parametrize(("lang", "task"), [("en", "de"), ("zh", "fr")])
def test_the_task_prefix_is_applied(local, lang, task):
    at = open_app("translate", model="tiny-t5", source=SOURCE, lang=lang, t5_task=task)
    assert not at.exception, [e.value for e in at.exception]
    text = T5_TASKS[task] + SOURCE
    assert f"`{text}`" in markdown_text(at)
    ids, _ = local.source_ids(text)
    assert _keys(at) == [f"“{tok}”" for tok in local.tokenizer.token_strs(ids)]  # the model reads the prefix
    note = " ".join(c.value for c in at.caption)
    assert ("tiny random T5" in note) if lang == "en" else ("随机初始化的小 T5" in note)
    assert at.selectbox(key="t5_task").value == task


def test_no_prefix_or_one_typed_reads_the_source_as_typed(local):
    at = open_app("translate", model="tiny-t5", source=SOURCE, t5_task="none")
    assert _keys(at) == [f"“{tok}”" for tok in local.tokenizer.token_strs(local.source_ids(SOURCE)[0])]
    typed = "translate English to Romanian: the cat sat"
    at = open_app("translate", model="tiny-t5", source=typed)  # default task "de": not added twice
    assert f"`{typed}`" in markdown_text(at)


def test_the_toy_and_marian_get_no_prefix():
    at = open_app("translate", source="1234")
    assert not at.exception and not [s for s in at.selectbox if s.key == "t5_task"]
