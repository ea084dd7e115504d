"""Tokenization page: the replay's last step is the tokenizer's encode(), the slider walks the steps, the sweep
and ratio tables equal direct counts, published tokenizers join the tables, hostile prompts never crash."""

from __future__ import annotations

import html

import pytest

from models.loading import shipped_tokenizer
from models.teaching import bpe_replay, token_stats
from tests.models.hf.tiny import build

from .apptest import array, figures, markdown_text, open_app

PROMPT = "the cat that the dogs see is happy . 小明看见了小红。"


def _chips(at) -> list[str]:
    (md,) = [m.value for m in at.markdown if "Tokens at this step" in m.value]
    return [html.unescape(c) for c in md.split("]] ", 1)[1].strip("`").split("` `")]


def test_the_last_step_is_encode_and_the_slider_walks_the_merges():
    at = open_app("tokens", prompt=PROMPT)
    tok = shipped_tokenizer()
    r = bpe_replay.replay(tok, PROMPT)
    assert _chips(at) == tok.token_strs(tok.encode(PROMPT))
    assert "identical" in at.success[0].value
    assert at.slider(key="tok_step").value == len(r.steps)
    (length,) = [f for f in figures(at) if "merges fire" in f["layout"]["title"]["text"]]
    assert list(array(length["data"][0]["y"])) == [len(r.start)] + [s.n_tokens for s in r.steps]
    at.slider(key="tok_step").set_value(3).run()
    assert _chips(at) == tok.token_strs(r.at(3))
    assert f"Step 3 of {len(r.steps)}: merge number {r.steps[2].rank + 1}" in markdown_text(at)
    at.slider(key="tok_step").set_value(0).run()
    assert len(_chips(at)) == len(PROMPT.encode())  # bytes


def test_sweep_table_and_ratio_tables_are_direct_counts():
    at = open_app("tokens", prompt=PROMPT)
    sweep, chars, rule = (d.value for d in at.dataframe[1:4])
    rows = token_stats.sweep()
    assert list(sweep.iloc[:, 1]) == [r.reached for r in rows]
    assert all(r <= q for r, q in zip(sweep.iloc[:, 1], sweep.iloc[:, 0], strict=True))
    assert [float(v) for v in sweep.iloc[:, 3]] == pytest.approx([r.en.tokens / r.en.words for r in rows], abs=5e-4)
    # Past the flat point every held-out word is one token: the excess over one a word is the " ." tokens and
    # the line breaks that join the held-out sentences, both counted live and named (issue 31, row 1).
    last = rows[-1]
    dots, breaks = last.en_non_word[" ."], last.en_non_word["\n"]
    assert set(last.en_non_word) == {" .", "\n"} and last.en.tokens - last.en.words == dots + breaks
    assert breaks == len(token_stats.held_out()[0]) - 1
    excess = last.en.tokens / last.en.words - 1
    assert f"{excess:.2f}" == "0.27" and (dots, breaks) == (366, 260)
    assert (
        f"the excess, **{excess:.2f}** per word, is ({dots:,} “ .” tokens + {breaks:,} line-break tokens) / "
        f"{last.en.words:,} words" in markdown_text(at)
    )
    tok = shipped_tokenizer()
    c = token_stats.count(tok, PROMPT)
    assert float(chars.iloc[0, 5]) == pytest.approx(len(tok.encode(PROMPT)) / len(PROMPT), abs=5e-4)
    assert c.tokens == len(tok.encode(PROMPT))
    assert "MiniLM" in chars.iloc[1, 0]
    en, _ = token_stats.held_out()
    toy = "\n".join(en)
    words = sum(1 for w in toy.split() if any(ch.isalnum() for ch in w))
    assert float(rule.iloc[0, 1]) == pytest.approx(words / len(tok.encode(toy)), abs=5e-4)


def test_chinese_page_and_published_tokenizers(tmp_path, monkeypatch):
    build("gpt2", tmp_path / "tiny-gpt2")
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(tmp_path))
    at = open_app("tokens", prompt="小明喜欢猫 and the cat", lang="zh")
    assert not at.exception
    assert at.subheader[0].value == "在你的输入上逐步重放 BPE 合并"
    (_, chars, _) = (d.value for d in at.dataframe[1:4])
    assert "tiny-gpt2" in list(chars.iloc[:, 0])


@pytest.mark.parametrize(
    "prompt",
    [
        "",
        "   ",
        "x" * 10_000,
        "小明看见了小红。" * 50,
        "😀🎉👩‍👩‍👧",
        "<script>alert(1)</script> **bold** `x`",
        "[MASK]",
        "a",
    ],
)
def test_hostile_prompts_give_a_message_or_escaped_output(prompt):
    at = open_app("tokens", prompt=prompt)
    assert not at.exception, [e.value for e in at.exception]
    if not prompt.strip():
        assert at.info[0].value
        return
    assert any("identical" in m.value for m in at.success) or "No merge" in at.info[0].value
    if "<script>" in prompt:
        assert "`<script>`" in markdown_text(at) or "<script>" in "".join(_chips(at))
