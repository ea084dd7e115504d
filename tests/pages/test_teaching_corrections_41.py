"""Issue 41, part 2: sixteen teaching corrections (and BERT's cap on predictions). Each corrected text says what the
issue says, in English and Chinese, the wrong phrase is gone from every string table, and where a page computes a
number it is checked on the page: the scale s with its family's reason and the formula as the model computes it
(T5, Gemma 2, Granite, the toys), the soft cap's e^(2·cap), T5's exact buckets, the router loss transformers reports,
the neuron view's permuted dimensions. The numbers behind the texts: tests/models/test_score_scale.py,
test_router_loss_hf.py, test_teaching_numbers_41.py."""

from __future__ import annotations

from pathlib import Path

import pytest

import models
from models.core import moe
from tests.models.hf.tiny import build
from tests.models.hf.tiny_gemma import build_gemma
from tests.models.hf.tiny_granite import build_granite
from tests.models.hf.tiny_t5 import build_t5
from ui.i18n import STRINGS

from .apptest import markdown_text, open_app

ROOT = Path(__file__).parents[2]
PROMPT = "the cats that the dog sees are happy . the dog is tired ."

# (item, key, {language: phrases the text must contain})
EN, ZH = "en", "zh"
NEW = [
    (2, "fetch.revision_help", {EN: ["checkpoints are branches", "main is step143000"], ZH: ["检查点是分支"]}),
    (2, "heads.rev_caption", {EN: ["as branches step0"], ZH: ["step143000 分支"]}),
    (
        3,
        "softmax_bf16.intro",
        {
            EN: ["Many published models", "GPT-2, BERT and MiniLM store float32", "Pythia and phi-2 float16"],
            ZH: ["许多已发布模型", "GPT-2、BERT 和 MiniLM 存为 float32", "Pythia 和 phi-2 存为 float16"],
        },
    ),
    (
        4,
        "softmax_bf16.intro",
        {
            EN: ["rounded to bfloat16 before it is widened back to float32"],
            ZH: ["结果先舍入为 bfloat16 再扩展回 float32"],
        },
    ),
    (
        4,
        "softmax_bf16.explain",
        {
            EN: ["both runs use the same weights", "rounding the activations"],
            ZH: ["两次运行用的是同一组权重", "差异完全来自对激活值的舍入"],
        },
    ),
    (
        5,
        "softmax.softcap_explain",
        {
            EN: ["e^{span}", "That does not stop one key", "training stable (Gemma 2 report, §2)"],
            ZH: ["e^{span}", "并不能阻止某个键", "让训练保持稳定（Gemma 2 技术报告，§2）"],
        },
    ),
    (
        6,
        "explorer_linear.linear_caption",
        {
            EN: [
                "Yang, Kautz & Hatamizadeh 2024",
                "chunked (UT) form (Yang et al. 2024",
                "causal convolution of width {kernel}",
                "tokens j−{back} … j",
                "before the gated norm and the output projection",
            ],
            ZH: [
                "Yang、Kautz 与 Hatamizadeh 2024",
                "分块（UT）形式",
                "宽度为 {kernel} 的因果卷积",
                "词元 j−{back} … j",
                "门控归一化和输出投影之前",
            ],
        },
    ),
    (
        7,
        "explorer_linear.compare_text",
        {
            EN: ["q·k itself is negative", "most negative cells are of this kind"],
            ZH: ["q·k 本身为负", "大多数负值格子属于这种"],
        },
    ),
    (
        8,
        "positional.nope_explain",
        {
            EN: ["about 100M parameters trained on synthetic tasks", "Yang et al. (2025"],
            ZH: ["约 1 亿参数的解码器，在合成任务上训练", "Yang 等（2025"],
        },
    ),
    (
        10,
        "heads.rev_duplicates",
        {EN: ["#83, #198", "(70m–410m)", "#195", "#205"], ZH: ["#83、#198", "70m–410m", "#195、#205"]},
    ),
    (
        11,
        "explorer_neuron.order",
        {EN: ["this app's order, not the checkpoint's", "2i + 1"], ZH: ["本应用的顺序，不是检查点里的顺序", "2i + 1"]},
    ),
    (12, "model.precision.help", {EN: ["in bfloat16 on a GPU and where the CPU"], ZH: ["在 GPU 上，以及在原生支持"]}),
    (
        13,
        "explorer.router_caption",
        {
            EN: ["load_balancing_loss_func", "reports k × this, {hf} here"],
            ZH: ["load_balancing_loss_func", "这个值的 k 倍，这里为 {hf}"],
        },
    ),
    (13, "lab_moe.load_caption", {EN: ["reports k × this value"], ZH: ["这个值的 k 倍"]}),
    (14, "softmax_bf16.intro", {ZH: ["尾数（有效位）只有 8 位"]}),
    (
        15,
        "positional.t5_intro",
        {
            EN: ["absolute value is less than a quarter", "below {enc_exact}", "below {dec_exact}"],
            ZH: ["偏移绝对值小于桶数四分之一", "或一半（解码器", "每个偏移独占一个桶"],
        },
    ),
    (
        17,
        "objectives.mlm_explain",
        {
            EN: ["max_predictions_per_seq", "20 for its sequences of max_seq_length = 128"],
            ZH: ["max_predictions_per_seq", "max_seq_length = 128 的序列最多 20 个"],
        },
    ),
    (17, "mlm.recipe_rule_help", {EN: ["max_predictions_per_seq"], ZH: ["最多 20 个"]}),
]

OLD = [
    "1/√d_k = {scale}",
    "缩放 1/√d_k = {scale}",
    "s = 1/√d_head = 1/√{d}",
    "1/√d_head = {s}",  # 1
    "checkpoints are tags",
    "检查点是标签",  # 2
    "Published models store their weights",
    "已发布模型的权重以 **bfloat16** 存储，这是",  # 3
    "returned as float32",
    "以 float32 累加并返回",  # 4
    "no single key can take a row's whole weight",
    "都不能独占一行的全部权重",  # 5
    "a negative cell is a value that a later",
    "负值的格子表示某个值被后来相似的键部分擦除",  # 7
    "有效数字只有 8 位",  # 14
    "Offsets up to a quarter",
    "前四分之一的偏移各占一个桶",  # 15
]


def _all_strings() -> list[str]:
    return [text for entry in STRINGS.values() for text in entry.values()]


@pytest.mark.parametrize(("item", "key", "want"), NEW, ids=[f"item{i}-{k}" for i, k, _ in NEW])
def test_the_corrected_text_says_what_is_correct(item, key, want):
    for lang, phrases in want.items():
        text = STRINGS[key][lang]
        assert [p for p in phrases if p not in text] == [], (item, lang, text)


@pytest.mark.parametrize("phrase", OLD)
def test_the_wrong_phrase_is_gone(phrase):
    assert [s for s in _all_strings() if phrase in s] == []


def test_items_2_9_10_16_the_readme_and_the_docstrings():
    readme = (ROOT / "README.md").read_text()
    assert "training checkpoints are branches" in readme and "checkpoints are tags" not in readme
    assert "#83, #198" in readme and "mistralai/Mixtral-8x7B-v0.1" in readme
    assert "partial rotary 0.5," not in readme and "phi-2 0.4" in readme
    assert "1007M counts" in readme and "`tie_word_embeddings` is true" in readme and "752M" in readme
    for path in ("models/fetch.py", "models/published/hub.py", "models/inspection/revisions.py"):
        text = (ROOT / path).read_text()
        assert "a tag (Pythia" not in text and "tag such as Pythia" not in text and "as tags" not in text, path
    assert "#83 and #198" in (ROOT / "models" / "inspection" / "revisions.py").read_text()
    assert "k × this value" in (ROOT / "models" / "core" / "moe.py").read_text()


# ---------------------------------------------------------------- on the pages
@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    pytest.importorskip("transformers")
    root = tmp_path_factory.mktemp("corrections41")
    build_t5(root / "tiny-t5", "t5")
    build_gemma("gemma2", root / "tiny-gemma2")  # query_pre_attn_scalar 12, attention cap 5
    build_granite(root / "tiny-granite", k=2)  # attention_multiplier 0.09, 4 experts
    build("gpt_neox", root / "tiny-pythia")  # RoPE on 4 of 16 dims, rotate-half permuted at load
    return root


def _captions(at) -> str:
    return "\n".join(c.value for c in at.caption)


def _latex(at) -> str:
    return "\n".join(x.value for x in at.latex)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_item1_the_toys_print_one_over_sqrt_dk(lang):
    d = models.load("decoder").config.d_head
    at = open_app("explorer", prompt=PROMPT, lang=lang)
    want = {"en": f"scale s = {d**-0.5:.4f} (1/√{d})", "zh": f"缩放因子 s = {d**-0.5:.4f}（1/√{d}）"}[lang]
    assert want in _captions(at) and r"\sqrt{d_k}" in _latex(at)
    at = open_app("softmax", prompt=PROMPT, lang=lang)
    assert want in markdown_text(at)
    at = open_app("generate", prompt=PROMPT, lang=lang)
    assert want in markdown_text(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_item1_t5_has_no_scale_and_its_bias_is_drawn(local, lang):
    at = open_app("explorer", model="tiny-t5", prompt="the cat sat", lang=lang)
    want = {"en": "scale s = 1.0000 (T5: no scaling", "zh": "缩放因子 s = 1.0000（T5：不缩放"}[lang]
    caption, latex = _captions(at), _latex(at)
    assert want in caption and "1/√64 = 1.0000" not in caption
    assert "+B+M" in latex and r"\sqrt" not in latex and r"\mathrm{bucket}(j-i)" in latex
    at = open_app("softmax", model="tiny-t5", prompt="the cat sat", lang=lang)
    assert want in markdown_text(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_item1_and_5_gemma2s_scale_its_soft_cap_and_e_to_the_2cap(local, lang):
    cfg = models.load(str(local / "tiny-gemma2")).config
    assert cfg.attn_softcap == 5.0
    at = open_app("explorer", model="tiny-gemma2", prompt=PROMPT, lang=lang)
    s = f"{12**-0.5:.4f}"
    want = {
        "en": f"scale s = {s} (Gemma: query_pre_attn_scalar^−½ = 1/√12",
        "zh": f"缩放因子 s = {s}（Gemma：query_pre_attn_scalar^−½ = 1/√12",
    }
    assert want[lang] in _captions(at) and "c = 5" in _captions(at)
    assert r"c\,\tanh" in _latex(at) and "c=5" in _latex(at)
    at = open_app("softmax", model="tiny-gemma2", prompt=PROMPT, lang=lang)
    assert "e^10" in markdown_text(at)  # two capped scores differ by < 2·cap = 10


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_item1_and_13_granites_multiplier_and_the_router_loss_transformers_reports(local, lang):
    at = open_app("explorer", model="tiny-granite", prompt=PROMPT, lang=lang)
    want = {
        "en": "scale s = 0.0900 (Granite's attention_multiplier from its config, in place of 1/√8 = 0.3536)",
        "zh": "缩放因子 s = 0.0900（Granite 配置中的 attention_multiplier，取代 1/√8 = 0.3536）",
    }[lang]
    caption = _captions(at)
    assert want in caption
    live = models.load(str(local / "tiny-granite"))
    probs = live.run(PROMPT).router["decoder"]
    _, aux = moe.balance_of(probs[0], live.config.experts_top_k)
    assert f"{aux:.3f}" in caption and f"{2 * aux:.3f}" in caption  # k = 2: transformers' value is 2 × ours


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_item11_the_neuron_view_says_its_dimensions_are_permuted(local, lang):
    at = open_app("explorer", model="tiny-pythia", prompt=PROMPT, neuron="1", lang=lang)
    caption = _captions(at)
    want = {
        "en": ["this app's order, not the checkpoint's", "i + 2", "dimensions 4 and above are not rotated"],
        "zh": ["本应用的顺序", "i + 2", "第 4 维及以后不旋转"],
    }[lang]
    assert [w for w in want if w not in caption] == [], caption
    at = open_app("explorer", prompt=PROMPT, neuron="1", lang=lang)  # the toy's own order: nothing permuted
    assert STRINGS["explorer_neuron.order"][lang][:12] not in _captions(at)


def test_item15_t5s_exact_buckets_on_the_positional_page(local):
    at = open_app("positional", model="tiny-t5")
    cfg = models.load(str(local / "tiny-t5")).config
    text = markdown_text(at)
    assert f"below {cfg.rel_buckets // 4})" in text and f"below {cfg.rel_buckets // 2})" in text
