"""Published models from $ATTENTION_LAB_MODELS on every page (tiny random ones, built by transformers).

Each page that fits the architecture draws with the loaded model; the others say why in one sentence;
nothing shows a traceback.
"""

from __future__ import annotations

import html
import re

import pytest

from tests.models.hf.tiny import build
from tests.models.hf.tiny_encoders import build_encoder
from tests.models.hf.tiny_qwen35 import build_qwen35
from ui import params

from .apptest import figures, heatmaps, open_app

PAGES = ("explorer", "masks", "rank", "positional", "softmax", "generate", "mlm", "translate", "lab")


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    build("qwen2", root / "tiny-qwen2")
    build("bert", root / "tiny-bert")
    build("gpt2", root / "tiny-gpt2")
    build("marian", root / "tiny-marian")
    build_encoder("electra-discriminator", root / "tiny-electra")  # no vocabulary head: one logit per token
    build_qwen35(root / "tiny-qwen35")  # Gated DeltaNet linear layers: pages that pick a layer say why they skip it
    return root


@pytest.fixture
def local(models_dir, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(models_dir))
    return params.local_models()


def test_the_picker_lists_family_architecture_and_size(local):
    assert set(local) == {"tiny-qwen2", "tiny-bert", "tiny-gpt2", "tiny-marian", "tiny-electra", "tiny-qwen35"}
    at = open_app("explorer")
    labels = at.selectbox(key="model").options  # as shown: the format_func's labels
    assert "tiny-qwen2 · 147K · Qwen2 decoder" in labels
    assert "tiny-bert · 1.0M · BERT encoder" in labels
    assert any(re.fullmatch(r"tiny-marian · [\d.]+[KM] · Marian encoder-decoder", label) for label in labels)


@pytest.mark.parametrize("name", ["tiny-qwen2", "tiny-bert", "tiny-gpt2", "tiny-marian", "tiny-electra", "tiny-qwen35"])
@pytest.mark.parametrize("page", PAGES)
def test_every_page_works_or_says_why(local, name, page):
    at = open_app(page, model=name, prompt="小明喜欢猫 and the cat sat .")
    assert not at.exception, [e.value for e in at.exception]
    if page == "explorer" and name == "tiny-qwen35":  # its own view (tests/pages/test_qwen35_pages.py)
        assert any("implied attention" in str(f["layout"]["title"]["text"]) for f in figures(at))
    elif page == "explorer":
        (hm, *_) = heatmaps(at)
        assert any(y.endswith("明") for y in hm["y"])  # Chinese shows as characters, never mojibake


def test_chinese_prompt_shows_whole_characters(local):
    at = open_app("explorer", model="tiny-qwen2", prompt="鼹鼠")
    y = heatmaps(at)[0]["y"]
    assert [v.split(" ", 1)[1] for v in y] == ["鼹₁", "鼹₂", "鼹₃", "鼠₁", "鼠₂", "鼠₃"]


def test_too_large_model_is_listed_with_its_size(local, models_dir, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_MAX_PARAMS", "1000")
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(models_dir) + ":")  # a new value: scanned again
    at = open_app("explorer")
    (label,) = [o for o in at.selectbox(key="model").options if o.startswith("tiny-gpt2")]
    assert re.fullmatch(r"tiny-gpt2 · \d+K · too large \(limit 1\.0K\)", label), label  # short: both numbers show
    at = open_app("explorer", model="tiny-gpt2")
    assert any("too large" in e.value and "ATTENTION_LAB_MAX_PARAMS" in e.value for e in at.error)


def test_translate_page_runs_a_published_marian(local):
    """With a Marian folder picked, the Translate page translates real text with it (not the toy)."""
    at = open_app("translate", model="tiny-marian", source="the pilot is tired .")
    assert at.text_input(key="source").label == "Source sentence"
    assert not any("always" in c.value for c in at.caption)  # no "this page uses the toy" caption
    cross = [f for f in heatmaps(at) if "“" in str(f.get("x", [""])[0])]
    assert cross and html.unescape(cross[0]["x"][-1]).endswith("</s>”")  # Marian's source ends with </s>


def test_generate_page_continues_with_a_published_decoder(local):
    at = open_app("generate", model="tiny-qwen2", prompt="小明喜欢")
    assert not any("always" in c.value for c in at.caption)
    from ui.loaders import get_model

    qwen = get_model("tiny-qwen2")
    first = next(qwen.generate("小明喜欢", max_new_tokens=1))
    assert first.token in " ".join(m.value for m in at.markdown)  # the page shows the published model's token


def test_masked_tokens_page_with_a_published_bert(local):
    """BERT's own [MASK] (id 103) through its MLM head; the recipe never picks [CLS]/[SEP] (101, 102)."""
    at = open_app("mlm", model="tiny-bert", prompt="the cat sat on the [MASK] .")
    assert not any("always" in c.value for c in at.caption)
    tops = [f for f in figures(at) if "[MASK]" in str(f.get("layout", {}).get("title", {}).get("text", ""))]
    assert tops, "the masked position's top predictions are drawn"
    assert any("toy models" in c.value for c in at.caption)  # the encoder-vs-decoder part says why it is absent


@pytest.mark.parametrize("name", ["tiny-qwen2", "tiny-bert"])
def test_hostile_prompts_with_a_published_model(local, name):
    """Empty, 10,000 characters, Chinese, emoji and <script>: a notice or a figure, never a traceback."""
    for text in ["", "a " * 5000, "我喜欢机器学习", "😀🙂🎉", "<script>alert(1)</script>"]:
        at = open_app("explorer", model=name, prompt=text)
        assert not at.exception, (text[:20], [e.value for e in at.exception])
        if not text:
            assert at.info  # "type a prompt"
            continue
        if len(text) > 1000:
            assert at.warning  # cut to what the model reads (its max_len), and said so
        assert heatmaps(at)
        assert not any("<script>" in str(t) for f in heatmaps(at) for t in f["y"])  # labels escaped
