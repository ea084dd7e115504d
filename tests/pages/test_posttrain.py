"""The post-training page: untrained (a button, no numbers), trained (a pre-built cache entry: the table and
the bars show the entry's measured numbers), a cache folder that cannot be written, a corrupt entry, and
hostile text in the page's own prompt box."""

from __future__ import annotations

import pytest

import models
from lessons.posttrain_results import MAX_CHARS
from models import posttrain_run
from models.training import posttrain as P
from tests.pages.apptest import array, figures, open_app

SHORT = {"sft_steps": 4, "dpo_steps": 4}  # a real (short) run: the page only reads what the entry holds


@pytest.fixture(scope="module")
def entry(tmp_path_factory):
    """A cache folder holding an entry under the key the page looks for."""
    root = tmp_path_factory.mktemp("posttrain-cache")
    base = models.load("decoder")
    nets, results = P.post_train(base.net, base.tokenizer, recipe=SHORT)
    posttrain_run.save(nets, results, posttrain_run.entry_path(posttrain_run.entry_key(), root))
    return root, results


def test_untrained_shows_the_button_and_no_numbers(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_CACHE", str(tmp_path))
    at = open_app("posttrain")
    assert at.button(key="pt_train") is not None
    assert at.info and len(figures(at)) == 1  # only the shipped decoder's margins (test_posttrain_margins.py)
    assert any("InstructGPT" in m.value for m in at.markdown)  # where RLHF sits, before training too


def test_trained_page_shows_the_entrys_numbers(entry, monkeypatch):
    root, results = entry
    monkeypatch.setenv("ATTENTION_LAB_CACHE", str(root))
    at = open_app("posttrain")
    assert not at.error and not at.warning
    dots = figures(at)[1]["data"]  # [0]: the margins (test_posttrain_margins.py)
    chosen, rejected = array(dots[0]["y"]), array(dots[1]["y"])
    for i, stage in enumerate(P.STAGES):
        s = P.summary(results, stage)
        assert chosen[i] == pytest.approx(s["chosen"]) and rejected[i] == pytest.approx(s["rejected"])
    table = at.table[1].value
    assert list(table.iloc[:, 4]) == [f"{P.summary(results, s)['accuracy']:.0%}" for s in P.STAGES]
    rewards = at.table[2].value
    assert list(rewards.iloc[1, 1:]) == ["+0.000"] * 3  # the SFT model's implicit reward against itself
    d = P.summary(results, "dpo")
    assert rewards.iloc[2, 1] == f"{d['reward_chosen']:+.3f}"
    assert len(at.table) == 5  # data, results, implicit rewards, held-out generations, own prompt


HOSTILE = [
    "",
    "   ",
    "<script>alert(1)</script>",
    "[MASK] " * 200,
    "`a` | *b* $x$ \\",
    "小明给了小红一本书。Q: 谁？ A:",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_in_the_prompt_box(entry, monkeypatch, text):
    root, _ = entry
    monkeypatch.setenv("ATTENTION_LAB_CACHE", str(root))
    at = open_app("posttrain")
    at.text_input(key="pt_prompt").input(text).run()
    assert not at.exception
    if not text.strip():
        assert at.info
    else:
        assert len(at.table) == 5


def test_an_unwritable_cache_is_a_clear_message(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("ATTENTION_LAB_CACHE", str(blocker))
    at = open_app("posttrain")
    assert at.error and "ATTENTION_LAB_CACHE" in at.error[0].value


def test_a_corrupt_entry_is_reported_and_deleted(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_CACHE", str(tmp_path))
    path = posttrain_run.entry_path(posttrain_run.entry_key(), tmp_path)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"garbage")
    at = open_app("posttrain")
    assert at.warning and not path.exists()


def test_the_own_prompt_box_holds_its_bound(entry, monkeypatch):
    """A value longer than the box's max_chars, sent as a client can, is cut on the server and answered."""
    monkeypatch.setenv("ATTENTION_LAB_CACHE", str(entry[0]))
    at = open_app("posttrain")
    assert at.text_input(key="pt_prompt").max_chars == MAX_CHARS
    at.text_input(key="pt_prompt").set_value("Q: who? A: " * 10_000).run()
    assert not at.exception and len(at.session_state["pt_prompt"]) == MAX_CHARS
    assert len(at.table) == 5  # every stage answered
