"""The shipped byte-level BPE tokenizer: exact round trips and readable token strings."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from models.tokenizer import SPECIALS, VISIBLE, char_runs

# `tok` is session-scoped (and read-only), so hypothesis may reuse it across examples.
FIXTURE_OK = settings(max_examples=1000, deadline=None)

CONTROL = st.characters(min_codepoint=0, max_codepoint=0x1F) | st.sampled_from("\x7f\x85\u2028\u2029")
CJK = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)
EMOJI = st.characters(min_codepoint=0x1F300, max_codepoint=0x1FAFF)
# codec="utf-8": every character but lone surrogates, which are not text (a browser cannot send
# them, and tokenizers rejects them with a TypeError).
ANY_CHAR = st.characters(codec="utf-8")
MIXED = st.text(ANY_CHAR | CONTROL | CJK | EMOJI | st.sampled_from(list(" \t\n\r[]<>")))


@FIXTURE_OK
@given(text=st.text(ANY_CHAR) | MIXED)
@example(text="")
@example(text="小明喜欢苹果。今天天气很好！")
@example(text="𠀀𪚥 龘 ｆｕｌｌｗｉｄｔｈ　全角")  # CJK extension B, full-width forms, ideographic space
@example(text="😀👍🏽👨‍👩‍👧 🇨🇳")  # emoji with skin tone, ZWJ sequence, flag
@example(text="\x00")
@example(text="a\x00b\x01\x1f\x7f")
@example(text="<script>alert(1)</script>")
@example(text="[MASK]")
@example(text="the [MASK] is [CLS][SEP][PAD][BOS][EOS] happy")
@example(text="[mask] [MASK [MASK]]")
@example(text="ä über straße, naïve café")
@example(text="  leading and trailing  \n\n\t")
@example(text="\r\n\u2028\u00a0\ufeff\u200b")
@example(text="\ufffd")
def test_decode_encode_round_trip(tok, text):
    assert tok.decode(tok.encode(text)) == text


def test_special_token_names_become_special_tokens(tok):
    ids = tok.encode("[MASK]")
    assert ids == [SPECIALS.index("[MASK]")]
    assert tok.token_strs(ids) == ["[MASK]"]


# ---------------------------------------------------------------- readable token strings


def unescape(token_strs: list[str]) -> str:
    """Invert token_str: visible whitespace back to whitespace, <xx> back to the byte xx."""
    inverse = {v: k for k, v in VISIBLE.items()}
    out = bytearray()
    for s in token_strs:
        for part in re.split(r"(<[0-9a-f]{2}>)", s):
            if re.fullmatch(r"<[0-9a-f]{2}>", part):
                out.append(int(part[1:3], 16))
            else:
                out += "".join(inverse.get(c, c) for c in part).encode()
    return out.decode("utf-8")


# "<" and the visible-whitespace symbols themselves are left out: they would make unescape ambiguous.
UNAMBIGUOUS = st.text(st.characters(codec="utf-8", exclude_characters="<␣↵⇥␍") | CONTROL | CJK | EMOJI)


@FIXTURE_OK
@given(text=UNAMBIGUOUS)
@example(text="ä über straße")
@example(text="小明喜欢苹果 and 😀")
@example(text="a\tb\nc\rd e\x00")
def test_token_strings_show_exactly_the_bytes_of_the_text(tok, text):
    """A token's string is the text's own characters (or <xx> for a byte of a split character), never
    GPT-2's internal byte alphabet (Ġ for a space, Ã¤ for ä); a prompt's labels (token_strs) name the
    bytes of one character by it: dropping subscripts from each run gives the text again."""
    ids = tok.encode(text)
    assert unescape([tok.token_str(i) for i in ids]) == text
    labels = tok.token_strs(ids)
    assert len(labels) == len(ids)
    runs = char_runs([tok.piece(i) for i in ids])
    for a, b, char in runs:  # a run is one character: at most 4 bytes, subscripts 1..4
        assert unescape([tok.token_str(i) for i in ids[a:b]]) == char
        assert labels[a:b] == [f"{VISIBLE.get(char, char)}{chr(0x2081 + j)}" for j in range(b - a)]
    inside = {k for a, b, _ in runs for k in range(a, b)}
    assert [x for k, x in enumerate(labels) if k not in inside] == [
        tok.token_str(i) for k, i in enumerate(ids) if k not in inside
    ]


def test_the_bytes_of_one_character_are_labelled_with_it_as_published_tokenizers_do(tok):
    """桌 is three byte tokens to the toy tokenizer: labelled 桌₁ 桌₂ 桌₃ in every figure, not <e6> <a1> <8c>."""
    ids = tok.encode("我的桌子")
    assert [tok.token_str(i) for i in ids][2:5] == ["<e6>", "<a1>", "<8c>"]
    assert tok.token_strs(ids) == ["我", "的", "桌₁", "桌₂", "桌₃", "子"]


@pytest.mark.parametrize("text", ["小明喜欢苹果", "小红看见猫", "老王在公园", "我喜欢学习"])
def test_known_chinese_shows_as_whole_characters(tok, text):
    strs = tok.token_strs(tok.encode(text))
    assert strs == list(text)  # one token string per character
    assert not any("<" in s for s in strs)


@pytest.mark.parametrize("text", ["ä", "über", "straße", "naïve café", "Ölmühle"])
def test_no_mojibake_for_latin_accents(tok, text):
    joined = "".join(tok.token_strs(tok.encode(text)))
    for bad in ("Ã", "Â", "Ä", "Ġ", "Ċ", "ĉ", "\ufffd"):
        if bad not in text:
            assert bad not in joined, (text, joined)


def test_spaces_and_whitespace_are_visible(tok):
    strs = tok.token_strs(tok.encode("the cat  sees\tthe\ndog"))
    assert "␣cat" in strs
    assert not any(" " in s or "\t" in s or "\n" in s for s in strs)
    assert any("⇥" in s for s in strs) and any("↵" in s for s in strs)
    assert "".join(strs).count("␣") == 3


def test_control_characters_are_escaped(tok):
    strs = tok.token_strs(tok.encode("a\x00b\x07"))
    assert "<00>" in strs and "<07>" in strs
    assert not any(ch in "".join(strs) for ch in "\x00\x07")


# ---------------------------------------------------------------- digits


@pytest.mark.parametrize(
    ("text", "digits"),
    [("1234", "1234"), ("0", "0"), ("9876543210", "9876543210"), ("year 2024!", "2024"), ("3.14", "314")],
)
def test_digits_are_single_tokens(tok, text, digits):
    strs = tok.token_strs(tok.encode(text))
    digit_tokens = [s for s in strs if any(c.isdigit() for c in s)]
    assert digit_tokens == list(digits)


def test_1234_is_four_tokens(tok):
    ids = tok.encode("1234")
    assert len(ids) == 4
    assert tok.token_strs(ids) == ["1", "2", "3", "4"]
    assert len(set(ids)) == 4
