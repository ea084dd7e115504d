"""Pretraining objectives page: the ELECTRA bars are the shipped discriminator's on the prompt, the counts follow
each rule, the seed lives in the URL and changes the draws, Chinese renders, hostile prompts get no traceback."""

from __future__ import annotations

import html

import numpy as np
import pytest

import models
import viz
from models import electra
from models.training import mlm, objectives
from ui import params

from .apptest import array, figures, markdown_text, open_app, table, titled

PROMPT = "the cats that the dog sees are happy . the dog is tired ."


def _strip_texts(at) -> list[list[str]]:
    return [
        [html.unescape(x) for x in f["data"][-1]["text"]]
        for f in figures(at)
        if f["data"][-1].get("mode") == "markers+text"
    ]


def test_the_electra_bars_are_the_discriminators_and_the_counts_follow_the_rules():
    at = open_app("objectives", prompt=PROMPT, obj_seed="3")
    model, _ = electra.load_electra()
    tok = models.load("encoder").tokenizer
    d = electra.detect(model, tok, PROMPT, 3)
    bars = titled(at, "P(replaced); red: it was")["data"][0]
    np.testing.assert_allclose(array(bars["y"]), d.p_replaced, rtol=1e-6)
    red = [i for i, c in enumerate(bars["marker"]["color"]) if c == viz.HIGHLIGHT]
    assert red == [i for i, r in enumerate(d.replaced) if r] and red  # seed 3 replaces at least one token
    n = len(tok.encode(PROMPT))
    text = markdown_text(at)
    k = mlm.bert_count(n + 2, n)
    assert f"**{k} of the {n} text tokens" in text
    assert f"all {len(d.tokens)} tokens (100%)" in text
    summary = table(at, 1)
    counts = objectives.loss_counts(n, 3)
    assert summary["tokens with a loss, this prompt"][-1] == f"{n}/{n} = 100%"  # causal LM
    assert summary["tokens with a loss, this prompt"][0] == f"{counts['mlm']}/{n} = {counts['mlm'] / n:.0%}"
    assert len(summary["objective"]) == len(objectives.OBJECTIVES)


def test_t5_strip_and_sentence_pairs_come_from_the_seed():
    at = open_app("objectives", prompt=PROMPT, obj_seed="3")
    tok = models.load("encoder").tokenizer
    sc = objectives.span_corruption(tok.token_strs(tok.encode(PROMPT)), 3)
    strips = _strip_texts(at)
    assert sc.inputs in strips and sc.targets in strips
    pairs = table(at, 0)
    assert (
        pairs["segment A"][3] == "the dog is tired ."
        and pairs["segment B"][3] == "the cats that the dog sees are happy ."
    )
    other = open_app("objectives", prompt=PROMPT, obj_seed="4")
    assert _strip_texts(other) != strips


def test_the_seed_is_a_url_parameter():
    assert params.PARAMS["obj_seed"].default == 1
    at = open_app("objectives", prompt=PROMPT, obj_seed="42")
    assert at.number_input(key="obj_seed").value == 42


def test_chinese_renders():
    at = open_app("objectives", prompt="小明喜欢苹果。小红喜欢香蕉。", lang="zh")
    text = markdown_text(at)
    for term in (
        "掩码语言模型",
        "动态掩码",
        "替换词元检测",
        "生成器",
        "判别器",
        "片段破坏",
        "句子顺序预测",
        "下一句预测",
        "因果语言模型",
    ):
        assert term in text + " ".join(h.value for h in at.header) + str(at.table[1].value), term


@pytest.mark.parametrize("prompt", ["", "a" * 10_000, "小明说小红喜欢苹果。", "🙂" * 40, "<script>alert(1)</script>",
                                    "[MASK] [CLS]"])  # fmt: skip
def test_hostile_prompts_get_a_page_not_a_traceback(prompt):
    at = open_app("objectives", prompt=prompt)
    assert not at.exception
    if prompt.strip() and not prompt.startswith("[MASK]"):
        assert figures(at)


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory):
    from tests.models.hf.tiny import build

    root = tmp_path_factory.mktemp("models")
    build("bert", root / "tiny-bert")
    build("gpt2", root / "tiny-gpt2")
    return root


@pytest.mark.parametrize("name", ["tiny-bert", "tiny-gpt2"])
def test_a_published_model_in_the_sidebar_keeps_the_toy_tokenizer_and_says_so(models_dir, monkeypatch, name):
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(models_dir))
    at = open_app("objectives", model=name, prompt="小明喜欢猫 and the cat sat .")
    assert "toy models' tokenizer" in " ".join(c.value for c in at.caption)
    assert titled(at, "P(replaced)")
