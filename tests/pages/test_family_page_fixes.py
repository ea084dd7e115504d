"""Fixes after the screenshot review of the new families' pages (issue 29), on tiny random published folders:
Translate with a random T5 prefills a readable, short target (no "�", at most PREFILL_TOKENS tokens, notes that
say so) from an English source; ELECTRA's word picker splits Chinese per character with unique labels; the
Positional page's learned-table heading has no nested brackets and T5's bias table numbers heads from 1; the
model picker puts the size right after a (shortened) name; the Explorer says an ALBERT with spiece.model cuts
its text with SentencePiece."""

from __future__ import annotations

import dataclasses
import re

import pytest

from lessons.translate_prefill import PREFILL_TOKENS, REAL_SOURCE, REPLACEMENT, prefill
from models.teaching import replacements
from tests.models.hf.tiny_encoders import build_encoder
from tests.models.hf.tiny_spiece import build_albert_spiece
from tests.models.hf.tiny_t5 import build_t5
from ui.shell import NAME_CHARS, short_name

from .apptest import array, markdown_text, open_app, titled

pytest.importorskip("transformers")
LONG = "tiny-t5-with-a-very-long-folder-name-indeed"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("families")
    build_t5(root / "tiny-t5", "t5")
    build_t5(root / LONG, "t5")
    build_encoder("electra-discriminator", root / "tiny-electra")
    build_albert_spiece(root / "tiny-albert-spiece")
    return root


def _captions(at) -> str:
    return "\n".join(c.value for c in at.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_random_t5_prefills_a_readable_short_target_from_an_english_source(local, lang):
    at = open_app("translate", model="tiny-t5", lang=lang)
    assert at.text_input(key="source").value == REAL_SOURCE  # not the toy's "1234"
    # this random T5's output for it is byte pieces only ("�"): the box starts with the source, and says why
    assert at.text_input(key="typed").value == REAL_SOURCE
    notes = _captions(at)
    assert {"en": f"its first {PREFILL_TOKENS} tokens", "zh": f"前 {PREFILL_TOKENS} 个词元"}[lang] in notes
    assert {"en": "starts with your source sentence", "zh": "先放了你的源句子"}[lang] in notes
    rows = titled(at, {"en": "Decoder self-attention", "zh": "解码器自注意力"}[lang])["data"][0]["y"]
    assert len(rows) <= PREFILL_TOKENS + 8  # the target the heatmaps draw stays short (it was 89 rows)
    after = _captions(at.text_input(key="typed").input("Das Haus ist wunderbar.").run())
    assert "source sentence" not in after and "源句子" not in after  # the notes describe the prefill only


def test_prefill_drops_byte_pieces_and_cuts_an_unfinished_output(local):
    import models

    live = models.load(str(local / "tiny-t5"))
    steps = list(live.generate_ids(live.source_ids("translate English to German: 1234")[0], live.start_ids, 64))
    raw = live.tokenizer.decode([s.token_id for s in steps][:PREFILL_TOKENS])
    assert steps[-1].token_id not in live.eos_ids and REPLACEMENT in raw and raw.replace(REPLACEMENT, "").strip()
    text, notes = prefill(live, steps, "fallback")
    assert text == " ".join(raw.replace(REPLACEMENT, " ").split()) and REPLACEMENT not in text
    assert notes == ["translate.prefill_cut", "translate.prefill_bytes"]
    done = steps[:3] + [dataclasses.replace(steps[3], token_id=min(live.eos_ids))]
    assert prefill(live, done, "fallback")[1] in ([], ["translate.prefill_bytes"])  # finished: never cut


def test_chinese_words_are_picked_per_character_with_unique_labels():
    text = "小明说小红喜欢苹果。The cat  sat"
    ws = replacements.words(text)
    assert ws == ["小", "明", "说", "小", "红", "喜", "欢", "苹", "果", "。", "The", "cat", "sat"]
    labels = replacements.pill_labels(ws)
    assert len(set(labels)) == len(labels) and labels[0] == "小₁" and labels[3] == "小₂" and labels[1] == "明"
    assert replacements.replace_words(text, [4], "狗") == "小明说小狗喜欢苹果。The cat sat"  # no spaces added
    assert replacements.replace_words(text, [], "") == "小明说小红喜欢苹果。The cat sat"
    assert replacements.replace_words("a b c d", [0], "x", most=2) == "x b"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_electra_replaces_one_chinese_character(local, lang):
    at = open_app("objectives", model="tiny-electra", prompt="小明说小红喜欢苹果。", lang=lang, electra_words="4",
                  electra_with="狗")  # fmt: skip
    assert "小明说小狗喜欢苹果。" in markdown_text(at)
    fig = titled(at, {"en": "P(replaced) per token", "zh": "P（被替换）"}[lang])
    assert len(array(fig["data"][0]["y"])) == 12  # [CLS], 10 characters, [SEP]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_positional_headings_and_t5_heads(local, lang):
    at = open_app("positional", model="tiny-t5", lang=lang)
    headers = [h.value for h in at.header]
    learned = [h for h in headers if h.startswith(("Learned position", "可学习的位置嵌入"))]
    assert learned and not re.search(r"\([^)]*\(|（[^）]*（", learned[0]), learned  # no bracket inside a bracket
    table = titled(at, {"en": "Learned bias of the encoder", "zh": "编码器按桶和头"}[lang])
    assert table["data"][0]["y"] == ["1", "2", "3", "4"]  # heads from 1, as the lines' legend


def test_picker_label_shows_the_size_after_a_shortened_name(local):
    from ui import shell

    at = open_app("explorer", model="tiny-t5")
    label = shell.model_labels()(LONG)
    assert len(short_name(LONG)) == NAME_CHARS and "…" in short_name(LONG)
    assert re.fullmatch(rf"{re.escape(short_name(LONG))} · \d+K · T5 encoder-decoder", label), label
    assert shell.model_labels()("tiny-t5").startswith("tiny-t5 · ") and not at.exception


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_explorer_names_sentencepiece_for_an_albert_with_spiece_model(local, lang):
    at = open_app("explorer", model="tiny-albert-spiece", prompt="The Cat sat on the [MASK]. 小猫", lang=lang)
    text = markdown_text(at)
    assert "SentencePiece" in text and "BPE" not in text.split("SentencePiece")[0][-80:]
    assert "`[CLS]`" in text and "`[MASK]`" in text and "`[SEP]`" in text
