"""What the toy models know of words (issue 39, item 7): the note beside the prompt box with its live counts, the
warning on a prompt the toy tokenizer spells in letters, examples made of words it knows, a character's byte tokens
shown as one chip, and a Generate page whose first greedy token is a word."""

import html
import re

import pytest

import models
from models.lexicon import COMMON_EN
from models.loading import shipped_tokenizer
from models.teaching import known_words
from tests.pages.apptest import heatmaps, open_app, set_prompt
from ui import shell
from ui.i18n import STRINGS
from ui.params import DEFAULT_PROMPT, DEFAULT_PROMPTS, GENERATE_STARTS

TEACHER = "The animal didn't cross the street because it was too tired"


@pytest.fixture(scope="module")
def tok():
    return shipped_tokenizer()


def _popovers(at) -> list[str]:
    found = []

    def walk(node):
        for child in getattr(node, "children", {}).values():
            if getattr(child, "type", None) == "popover":
                found.append(child.proto.popover.label)
            walk(child)

    walk(at.main)
    return found


def _split_captions(at) -> list[str]:
    return [c.value for c in at.caption if c.value.startswith(":material/warning:")]


# ---------------------------------------------------------------- 1. the note and the warning


def test_the_vocabulary_counts_are_the_tokenizers_own(tok):
    v = known_words.vocabulary(tok)
    assert v.size == tok.vocab_size == 2048 and v.specials == 6 and v.bytes == 256
    cjk = [i for i in range(6, tok.vocab_size) if re.fullmatch("[\u3400-\u9fff]", tok.decode([i]) or "")]
    assert v.chars == len(cjk) > 500
    whole = {w for w in known_words.toy_words() | set(COMMON_EN) if len(tok.encode(" " + w)) == 1}
    assert v.words == len(whole) and v.toy_words == len(whole & known_words.toy_words())
    assert v.toy_words >= len(known_words.toy_words()) - 1  # every word of the toy sentences ("zero" only at the start)
    for word in ("cats", "happy", "alice", "thousand", "because", "street"):  # the note's examples are whole tokens
        assert word in whole
    assert len(tok.encode("the")) == 1 and all(len(tok.encode(name)) == 1 for name in models.data.NAMES)
    assert [tok.token_str(i) for i in tok.encode("The")] == ["T", "h", "e"]  # the note's example of a split
    assert len(tok.encode("桌")) == 3


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_toy_model_says_what_it_knows_beside_the_prompt_box(tok, lang):
    at = open_app("explorer", lang=lang)
    knows = STRINGS["prompt.knows"][lang]
    assert _popovers(at) == [STRINGS["prompt.examples"][lang], knows]
    v = known_words.vocabulary(tok)
    note = next(m.value for m in at.markdown if "BPE" in m.value and f"{v.size:,}" in m.value)
    for number in (v.words, v.toy_words, v.chars):
        assert str(number) in note
    for key in ("model.label", "model.minilm", "fetch.open", "prompt.examples"):  # the sidebar's own names
        assert STRINGS[key][lang] in note
    assert not _split_captions(at)  # the default prompt is made of words it knows


def test_no_note_for_a_published_model():
    at = open_app("explorer", model="minilm", prompt=TEACHER)
    assert _popovers(at) == ["Examples"]
    assert not _split_captions(at)


def test_a_prompt_spelt_in_letters_gets_one_warning_naming_its_words(tok):
    at = open_app("explorer")
    set_prompt(at, TEACHER)
    found = known_words.split(tok, TEACHER)
    assert found.words[:4] == ("The", "animal", "didn't", "cross") and found.mostly
    (warning,) = _split_captions(at)
    assert f"{round(100 * found.share)}%" in warning and "`The`" in warning and "Examples" in warning
    set_prompt(at, "the cats that the dog sees are happy .")
    assert not _split_captions(at)


def test_the_warning_is_in_chinese_and_on_every_prompt_page():
    at = open_app("masks", lang="zh", prompt="The cat sat on the mat.")
    (warning,) = _split_captions(at)
    assert "单个字母或字节" in warning and "`The`、`sat`" in warning


def test_one_character_it_lacks_is_no_warning(tok):
    found = known_words.split(tok, "我的桌子很大。")
    assert found.words == ("桌",) and found.pieces == 3 and not found.mostly


# ---------------------------------------------------------------- 2. the examples use words it knows


@pytest.mark.parametrize("model", models.SHIPPED)
def test_every_toy_example_is_whole_words(tok, model):
    """In both languages (the Chinese interface shows the same examples, Chinese first): no word of an example is
    spelt in pieces, so none in single letters or bytes."""
    for text in shell.EXAMPLES[model]:
        found = known_words.split(tok, text)
        assert found.parted == () and found.pieces == 0, (text, found)
    assert any(re.search(shell.CJK_CHAR, text) for text in shell.EXAMPLES[model])  # a Chinese one too


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_examples_offered_are_the_checked_ones(lang):
    at = open_app("explorer", lang=lang, model="decoder")
    offered = set(at.pills(key="example").options)
    assert offered == set(shell.EXAMPLES["decoder"]) and set(DEFAULT_PROMPTS.values()) <= offered


# ---------------------------------------------------------------- 3. a character's byte tokens as one chip


@pytest.mark.parametrize(("lang", "chip"), [("en", "`桌 (3 bytes)`"), ("zh", "`桌（3 个字节）`")])
def test_the_bytes_of_one_character_are_one_chip_and_the_figure_keeps_each_token_as_the_character(lang, chip):
    at = open_app("explorer", lang=lang, prompt="我的桌子很大。")
    chips = next(m.value for m in at.markdown if "`[BOS]`" in m.value)
    assert chip in chips and "<e6>" not in chips
    assert "`我` `的` " + chip + " `子`" in chips
    rows = heatmaps(at)[0]["y"]
    assert [html.unescape(r).split(" ", 1)[1] for r in rows[3:6]] == [
        "桌₁",
        "桌₂",
        "桌₃",
    ]  # one row a token, named as a published model names it
    assert f"{len(rows)} " in chips  # the caption still counts tokens


def test_runs_of_bytes_become_a_character_only_when_whole():
    e6, a1, x8c = b"\xe6", b"\xa1", b"\x8c"
    assert known_words.char_runs([b"a", e6, a1, x8c, b"b"]) == [(1, 4, "桌")]
    assert known_words.char_runs([e6 + a1, x8c]) == [(0, 2, "桌")]  # a merged pair and a byte
    assert known_words.char_runs([e6, a1, b"b"]) == []  # cut short: they stay bytes
    assert known_words.char_runs([a1, x8c]) == []  # continuation bytes alone
    assert known_words.char_runs(["🙂".encode()[:2], "🙂".encode()[2:]]) == [(0, 2, "🙂")]
    assert known_words.char_runs([b"\xe2\x80", b"\x8b"]) == []  # U+200B, invisible: a chip would show nothing


def test_emoji_and_accents_in_the_chips(tok):
    at = open_app("explorer", prompt="café 🙂")
    chips = next(m.value for m in at.markdown if "`[BOS]`" in m.value)
    assert "`é (2 bytes)`" in chips and "`🙂 (4 bytes)`" in chips and "<c3>" not in chips


# ---------------------------------------------------------------- 4. Generate's first step


def _chosen(at) -> tuple[str, float]:
    caption = next(c.value for c in at.caption if c.value.startswith(("Chosen", "选中")))
    token = re.split("[:：]", caption, maxsplit=1)[1].strip().split(",")[0].split("，")[0]
    return token, float(re.search(r"(?:probability|概率) ([0-9.]+)", caption).group(1))


def test_the_english_default_would_start_with_a_lone_space():
    """Why Generate has a start of its own: after " ." the toy decoder writes a space (sentences were joined by one)."""
    step = next(models.load("decoder").generate(DEFAULT_PROMPT, 1))
    assert step.token == "␣" and step.probs[step.token_id] > 0.99


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_generates_default_first_greedy_token_is_a_word(lang):
    at = open_app("generate", lang=lang)
    token, p = _chosen(at)
    assert token.strip("␣ ") and p >= 0.1, (token, p)
    start = GENERATE_STARTS.get(DEFAULT_PROMPTS[lang], DEFAULT_PROMPTS[lang])
    step = next(models.load("decoder").generate(start, 1))  # the real model, as the page loads it
    assert step.token == token and step.token.strip("␣")
    notes = [c.value for c in at.caption if "`the cats that the dog sees`" in c.value]
    assert len(notes) == (1 if lang == "en" else 0)
    if lang == "en":
        assert token == "␣are" and p > 0.5  # agrees with "cats", not with "dog" (0.95)
        assert at.text_input(key="prompt").value == DEFAULT_PROMPT  # the box is not changed


def test_a_prompt_the_student_gave_is_continued_as_it_is():
    at = open_app("generate", prompt=DEFAULT_PROMPT)  # a link with the default sentence
    assert _chosen(at)[0] == "␣"
    assert not [c.value for c in at.caption if "the cats that the dog sees`" in c.value]
    set_prompt(at, "alice met bob at the park . then alice gave")
    assert _chosen(at)[0] == "␣bob"
