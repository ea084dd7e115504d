"""The smaller things a teacher's walk found (issue 39), each checked as the page shows it."""

from __future__ import annotations

from tests.pages.apptest import open_app


def test_chinese_masks_replaces_a_token_with_a_chinese_word_not_a_letter():
    at = open_app("masks", lang="zh")
    assert at.session_state["word"] == "猫"
    replaced = [c.value for c in at.caption if c.value.startswith("位置")]
    assert replaced and "→ 猫" in replaced[0], replaced


def test_english_masks_keeps_dog_and_a_word_the_student_typed_survives_a_language_switch():
    at = open_app("masks")
    assert at.session_state["word"] == "dog"
    at.text_input(key="word").input("cat").run()
    at.selectbox(key="lang").set_value("zh").run()
    assert at.session_state["word"] == "cat"  # typed: the student's, not the language's default
