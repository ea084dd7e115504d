"""Issue 31, section 1: fifteen teaching corrections and the home page's promises. Each corrected text says what
the issue's "correct" column says, in English and Chinese, and the wrong phrase is gone from every string table
(and from the guided lessons and the docstrings that repeated it). Row 1's number is pinned where the page
computes it: tests/pages/test_tokens.py (the excess 0.27 = (366 " ." + 260 line breaks) / 2,342 words)."""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path

import pytest
import torch

from models.loading import load, shipped_tokenizer
from models.teaching import catalog
from models.teaching.token_stats import non_word_tokens
from ui.i18n import STRINGS
from ui.strings import TABLES

from .apptest import markdown_text, open_app

ROOT = Path(__file__).parents[2]
GUIDES = ROOT / "guides"

# (row, key, {language: phrases the text must contain})
NEW = [
    (
        1,
        "tokens.stopped",
        {
            "en": ["excess, **{excess:.2f}** per word", "{dots:,} “ .” tokens", "{breaks:,} line-break"],
            "zh": ["**{excess:.2f}**", "{dots:,} 个“ .”词元", "{breaks:,} 个换行词元"],
        },
    ),
    (
        2,
        "block.norms_explain",
        {
            "en": ["the token embedding × √d_model and nothing else", "RoPE, which adds no position"],
            "zh": ["仅为词嵌入 × √d_model", "使用 RoPE，它不在输入上加任何位置信息"],
        },
    ),
    (
        3,
        "block.depth_readout",
        {
            "en": [
                "Only that last-layer ratio is Xiong et al. 2020's theorem",
                "Figure 3",
                "post-norm's gradient growing toward the output and pre-norm's staying flat",
            ],
            "zh": ["只有最后一层的这个比值", "图 3", "post-norm 的梯度越靠近输出越大，pre-norm 的保持平坦"],
        },
    ),
    (
        4,
        "block.depth_explain",
        {
            "en": [
                "Xavier-initialised as Xiong et al. 2020 assume",
                "Vaswani et al. 2017 do not state their initialisation",
            ],
            "zh": ["Xiong 等 2020 在分析中所作的假设", "Vaswani 等 2017 没有说明他们的初始化方式"],
        },
    ),
    (
        5,
        "objectives.mlm_explain",
        {
            "en": ["15% of the WordPiece tokens", "`create_pretraining_data.py`", "[CLS] and [SEP] not among the {n}"],
            "zh": ["15% 的 WordPiece 词元", "`create_pretraining_data.py`", "这 {n} 个不含 [CLS] 和 [SEP]"],
        },
    ),
    (
        6,
        "objectives.t5_counts",
        {
            "en": ["“slightly (but significantly)”", "added benefit, faster training (§3.3.4, §3.7)"],
            "zh": ["“略好（但显著）”", "让训练更快（§3.3.4、§3.7）"],
        },
    ),
    (
        7,
        "scaling_moe.breakdown",
        {
            "en": ["Mistral AI's announcement (December 2023)", "rounds them to 47B and 13B"],
            "zh": ["Mistral AI 发布公告（2023 年 12 月）", "取整为 47B 和 13B"],
        },
    ),
    (
        9,
        "posttrain.rlhf_body",
        {
            "en": ["**PPO-ptx**", "per-token KL", "pretraining gradients mixed in", "§3.5"],
            "zh": ["**PPO-ptx**", "对每个词元加一个到 SFT 模型的 KL 惩罚", "混入预训练梯度", "§3.5"],
        },
    ),
    (
        10,
        "scaling.tl.note.instructgpt",
        {"en": ["§3.2, Table 6", "an assumption of this page"], "zh": ["§3.2，表 6", "这是本页的假设"]},
    ),
    (
        11,
        "scaling.tl.exp_explain",
        {
            "en": [
                "Table 2 prints 0.46 / 0.54. Where the difference comes from is not known",
                "interval for a does not contain 0.46",
            ],
            "zh": ["表 2 印的是 0.46 / 0.54", "并不包含 0.46"],
        },
    ),
    (
        12,
        "heads.roles_explain",
        {
            "en": ["Kobayashi et al. (2020)'s finding", "read attention to [SEP] as a no-op"],
            "zh": ["Kobayashi 等（2020）的发现", "对 [SEP] 的注意解读为"],
        },
    ),
    (
        13,
        "lens.caveat",
        {
            "en": [
                "works fairly well past the early layers (nostalgebraist 2020)",
                "brittleness and bias",
                "(GPT-Neo, BLOOM, OPT)",
            ],
            "zh": ["logit lens 的效果相当不错（nostalgebraist 2020）", "脆弱且有偏差", "（GPT-Neo、BLOOM、OPT）"],
        },
    ),
    (14, "scaling.tl.pre", {"zh": ["前置 {norm}"]}),
    (14, "scaling.tl.post", {"zh": ["后置 {norm}"]}),
    (14, "lab.norm_position.pre", {"zh": ["前置归一化"]}),
    (15, "scaling.tl.fixes", {"zh": ["词表扩大到原来的 {ratio} 倍"]}),
    (15, "scaling.kv_intro", {"zh": ["缓存减为原来的 n_kv_heads / n_heads"]}),
    (15, "generate.kv_numbers", {"zh": ["只有后者的 1/{ratio}"]}),
]

# The wrong phrases, gone from every string table in both languages.
OLD = [
    "the remaining {rest",
    "剩下的每单词 {rest",  # 1
    "sinusoidal position), d_model",
    "词嵌入 × √d_model + 正弦位置编码",  # 2
    "That is Xiong et al. 2020",
    "这正是 Xiong 等 2020",  # 3
    "Xavier-initialised as in the original",
    "与原始 Transformer 一样用 Xavier",  # 4
    "picks round(0.15 · n) tokens",
    "count in n but",
    "[CLS] 和 [SEP] 计入 n 但从不被选",  # 5
    "which is why T5 chose it",
    "这正是 T5 选择它的原因",  # 6
    "match the paper's 46.7B",
    "与论文的总参数 46.7B",  # 7
    "3. **PPO**:",
    "3. **PPO**：",  # 9
    "§3.3–3.5",
    "its 6B is GPT-3's 6.7B",
    "其 6B 即 GPT-3 的 6.7B",  # 10
    "from the unrounded fit",
    "来自未取整的拟合",  # 11
    "where the value vector is small: a no-op",
    "而那里的值向量很小",  # 12
    "decode poorly",
    "解码效果很差",
    "which is why the *tuned lens*",  # 13
    "预归一化",  # 14 (and 后归一化 but for 之后归一化, "after ... normalise": test_row14)
    "词表扩大了",
    "缩小 n_heads / n_kv_heads 倍",
    "少 {ratio} 倍",  # 15
    "live in your browser session",
    "浏览器会话",
    "a question to think about",
    "一个思考题",  # home
]


def _all_strings() -> list[str]:
    return [text for entry in STRINGS.values() for text in entry.values()]


def _guide_text() -> str:
    return "\n".join(p.read_text() for p in sorted(GUIDES.glob("*.toml")))


def _zh_of(value) -> list[str]:
    """Every zh text inside a parsed guide (tables and lists of them, any depth)."""
    if isinstance(value, dict):
        own = [value["zh"]] if isinstance(value.get("zh"), str) else []
        return own + [z for v in value.values() for z in _zh_of(v)]
    if isinstance(value, list):
        return [z for v in value for z in _zh_of(v)]
    return []


@pytest.mark.parametrize(("row", "key", "want"), NEW, ids=[f"row{r}-{k}" for r, k, _ in NEW])
def test_the_corrected_text_says_what_is_correct(row, key, want):
    for lang, phrases in want.items():
        text = STRINGS[key][lang]
        assert [p for p in phrases if p not in text] == [], (row, lang, text)


@pytest.mark.parametrize("phrase", OLD)
def test_the_wrong_phrase_is_gone_from_every_string_table_and_guide(phrase):
    assert [s for s in _all_strings() if phrase in s] == []
    assert phrase not in _guide_text()


def test_row1_the_excess_names_both_of_its_parts():
    """The held-out English is joined with line breaks; with the shipped tokenizer each " ." and each line break
    is a token of its own, and they are exactly the tokens with no letter (the sweep's last row: test_tokens.py)."""
    tok = shipped_tokenizer()
    text = "\n".join(["alice met bob at the park .", "the cats that the dog sees are happy ."])
    assert non_word_tokens(tok, text) == {" .": 2, "\n": 1}
    rendered = STRINGS["tokens.stopped"]["en"].format(
        requested=4096, reached=2349, flat=1000, words=2342, total=2968 / 2342, excess=626 / 2342, dots=366, breaks=260
    )
    assert "the excess, **0.27** per word, is (366 “ .” tokens + 260 line-break tokens) / 2,342 words" in rendered


def test_row2_the_shipped_decoder_adds_no_position_to_its_first_layer_input():
    model = load("decoder")
    assert model.config.positional == "rope" and model.config.embed_scale
    net = model.net
    assert net.pe is None and net.pos_emb is None
    ids = torch.tensor([[5, 9, 5, 17]])
    with torch.no_grad():
        at_0, shifted = net.embed(ids, torch.arange(4)), net.embed(ids, torch.arange(4) + 7)
        want = net.tok_emb(ids) * math.sqrt(model.config.d_model)
    assert torch.equal(at_0, shifted) and torch.allclose(at_0, want)
    assert torch.equal(at_0[0, 0], at_0[0, 2])  # the same token at two positions: the same input vector


def test_row3_the_guide_separates_the_theorem_from_the_toy():
    text = (GUIDES / "11-norms.toml").read_text()
    assert "That last-layer ratio is what Xiong et al. 2020 proved (Theorem 1)" in text
    assert "Figure 3" in text and "图 3" in text


def test_row5_the_guide_cites_the_code_for_the_exact_count():
    text = (GUIDES / "13-objectives.toml").read_text()
    assert "round(0.15 · n)" not in text and text.count("create_pretraining_data.py") == 2


def test_row7_and_row10_sources_in_the_tables():
    assert catalog.MIXTRAL.source.startswith("Mistral AI, Mixtral announcement, Dec 2023 (46.7B total, 12.9B active)")
    assert catalog.total(catalog.MIXTRAL) == 46_702_792_704 and catalog.active_total(catalog.MIXTRAL) == 12_879_925_248
    for size in ("1.3B", "6B", "175B"):
        assert catalog.TIMELINE_BY_NAME[f"InstructGPT {size}"].source == "Ouyang et al. 2022, §3.2, Table 6"


def test_rows_8_10_11_12_the_docstrings_say_it_too():
    moe = (ROOT / "models" / "core" / "moe.py").read_text()
    assert "The Mixtral paper describes no auxiliary loss" in moe and "0.02" in moe
    assert "Mixtral trains with the same loss" not in moe
    assert "as in InstructGPT" not in (ROOT / "models" / "training" / "posttrain.py").read_text()
    assert "unrounded" not in (ROOT / "models" / "teaching" / "scaling.py").read_text()
    norms = (ROOT / "models" / "teaching" / "norms.py").read_text()
    assert "as the original Transformer" not in norms and "Vaswani et al. 2017 do not state theirs" in norms
    assert '"no-op" head (Clark et al. 2019' not in (ROOT / "models" / "inspection" / "heads.py").read_text()


def test_row12_the_guide_gives_clark_only_the_sep_reading():
    text = (GUIDES / "10-head-roles.toml").read_text()
    assert "which Clark et al. (2019) read as a no-op" not in text
    assert "Clark et al. (2019) read such attention to [SEP] as a no-op" in text and "Kobayashi" in text


def test_row14_the_timeline_writes_pre_and_post_as_the_block_page_does():
    for position, en, zh in (("pre", "pre-RMSNorm", "前置 RMSNorm"), ("post", "post-LayerNorm", "后置 LayerNorm")):
        norm = en.split("-", 1)[1]
        assert STRINGS[f"scaling.tl.{position}"]["en"].format(norm=norm) == en
        assert STRINGS[f"scaling.tl.{position}"]["zh"].format(norm=norm) == zh
    everything = "\n".join(_all_strings()) + _guide_text()
    assert not re.search(r"[预后]-(RMSNorm|LayerNorm)", everything) and not re.search(r"(?<!之)后归一化", everything)


def test_row15_the_moe_pages_say_词元_in_chinese():
    for module in ("lab_moe", "scaling_moe"):
        assert [k for k, v in TABLES[module].items() if re.search(r"(?i)\btokens?\b", v["zh"])] == []
        assert [k for k, v in TABLES[module].items() if "词元" in v["zh"]]  # the word is there, in Chinese
    guide = tomllib.loads((GUIDES / "08-modern-block.toml").read_text())
    assert [z for z in _zh_of(guide) if re.search(r"(?i)\btokens?\b", z)] == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_home_describes_what_is_there(lang):
    intro, guides, real = (STRINGS[f"home.{k}"][lang] for k in ("intro", "guides", "real_models"))
    want = {
        "en": (["on its server", "published models can be added"],
               ["predict the result first", "checks live", "hints", "start a class"],
               ["Hugging Face name", "Qwen/Qwen3-0.6B", "Hugging Face cache", "`python -m models.fetch org/name`"]),
        "zh": (["在服务器上运行", "也可以加入已发布的模型"],
               ["先请你预测结果", "实时检查", "提示", "开启课堂"],
               ["Hugging Face 上的名称", "Qwen/Qwen3-0.6B", "Hugging Face 缓存", "`python -m models.fetch org/name`"]),
    }[lang]  # fmt: skip
    for text, phrases in zip((intro, guides, real), want, strict=True):
        assert [p for p in phrases if p not in text] == [], text
    at = open_app(lang=lang)
    shown = markdown_text(at)
    label, picker = STRINGS["fetch.open"][lang], STRINGS["model.label"][lang]
    assert f"**{label}**" in shown and f"**{picker}**" in shown and "Qwen/Qwen3-0.6B" in shown
