"""The Explorer with a second model (issue 44): `?compare=` draws both models' attention side by side, each equal to
transformers' own for its model; a missing model, an unknown lab variant, an untrained one and a pair over the size
limit are messages with model A still drawn; the right column's pickers are its own; presets; English and Chinese.

Published models are tiny random checkpoints laid out in a throwaway Hugging Face cache (tests/models/hf/tiny.py,
tests/models/test_revisions.py). Each test names its repos uniquely: ui/loaders.get_model caches by name."""

from __future__ import annotations

import json
import shlex

import numpy as np
import pytest
import torch

import models
from models import variants
from models.core.transformer import Transformer
from tests.models.hf.tiny import build
from tests.models.test_revisions import lay_out
from ui import compare_loaders, loaders, params

from .apptest import array, figures, heatmaps, open_app

PROMPT = "the cat sat on the mat . the cat"


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    src = tmp_path_factory.mktemp("compare")
    for seed in (1, 2):
        build("gpt2", src / f"gpt2-{seed}", seed=seed)  # 2 layers, 4 heads
    build("llama", src / "llama", seed=3)  # another tokenizer: it starts with [BOS]
    build("gpt2", src / "deep", seed=4, n_layer=3, n_head=2)  # 3 layers, 2 heads
    return src


def cached(hub_dir, repos: dict) -> None:
    """repos: {"org/name": {revision: folder}} into the throwaway cache, then the app's model list scanned again."""
    for repo, revs in repos.items():
        lay_out(hub_dir, repo, revs)
    params.refresh_models()


def hf_attention(name: str, text: str) -> tuple:
    """transformers' eager attention of a cached model, on the ids our model ran ([L][1, H, T, T])."""
    import transformers as tf

    path = params.local_models()[name].path
    ids = models.load(path).source_ids(text)[0]
    hf = tf.AutoModelForCausalLM.from_pretrained(path, attn_implementation="eager", dtype=torch.float32).eval()
    with torch.no_grad():
        return hf(torch.tensor([ids]), output_attentions=True).attentions


def two_heatmaps(at) -> tuple[np.ndarray, np.ndarray]:
    """The left and the right column's heatmaps (the first two: "what differs" draws its own below them)."""
    hms = heatmaps(at)
    assert len(hms) >= 2, [f["layout"].get("title") for f in figures(at)]
    return array(hms[0]["z"]), array(hms[1]["z"])


def compare_page(**query):
    return open_app("explorer", prompt=PROMPT, precision="float32", **query)


def test_two_revisions_of_one_repo_match_transformers(hf_home, sources):
    repo = "EleutherAI/cmp-revisions"
    cached(hf_home, {repo: {"step1000": sources / "gpt2-1", "step3000": sources / "gpt2-2"}})
    a, b = f"{repo}@step1000", f"{repo}@step3000"
    at = compare_page(model=a, compare=b, layer="1", head="3", c_layer="2", c_head="4")
    za, zb = two_heatmaps(at)
    np.testing.assert_allclose(za, hf_attention(a, PROMPT)[0][0, 2].numpy(), atol=1e-4)
    np.testing.assert_allclose(zb, hf_attention(b, PROMPT)[1][0, 3].numpy(), atol=1e-4)
    assert not np.allclose(za, zb)
    for name, value in (("compare", b), ("c_layer", "2"), ("c_head", "4"), ("head", "3")):
        assert at.query_params[name] in (value, [value]), name  # the link carries both columns
    assert not at.warning


def test_two_repos_with_different_tokenizers(hf_home, sources):
    cached(hf_home, {"org/cmp-gpt2": {"main": sources / "gpt2-1"}, "org/cmp-llama": {"main": sources / "llama"}})
    at = compare_page(model="org/cmp-gpt2", compare="org/cmp-llama", c_layer="2", c_head="2")
    za, zb = two_heatmaps(at)
    np.testing.assert_allclose(za, hf_attention("org/cmp-gpt2", PROMPT)[0][0, 0].numpy(), atol=1e-4)
    np.testing.assert_allclose(zb, hf_attention("org/cmp-llama", PROMPT)[1][0, 1].numpy(), atol=1e-4)
    hms = heatmaps(at)
    assert hms[1]["y"][0] == "0 [BOS]" and hms[0]["y"][0] != "0 [BOS]"  # each column its own tokens
    assert len(hms[1]["y"]) == len(hms[0]["y"]) + 1


def test_the_right_columns_pickers_are_its_own_and_same_depth_moves_them(hf_home, sources):
    cached(hf_home, {"org/cmp-two": {"main": sources / "gpt2-1"}, "org/cmp-deep": {"main": sources / "deep"}})
    at = compare_page(model="org/cmp-two", compare="org/cmp-deep", layer="2", head="4")
    assert len(at.segmented_control(key="layer").options) == 2 and len(at.segmented_control(key="head").options) == 4
    assert (
        len(at.segmented_control(key="c_layer").options) == 3 and len(at.segmented_control(key="c_head").options) == 2
    )
    assert (at.session_state["c_layer"], at.session_state["c_head"]) == (0, 0)
    at.toggle(key="c_same").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    # A's layer 2 of 2 is B's layer 3 of 3 (round(1 · 2 / 1)); A's head 4 is B's last, head 2
    assert (at.session_state["c_layer"], at.session_state["c_head"]) == (2, 1)
    np.testing.assert_allclose(two_heatmaps(at)[1], hf_attention("org/cmp-deep", PROMPT)[2][0, 1].numpy(), atol=1e-4)
    assert at.query_params["c_same"] in ("1", ["1"]) and at.query_params["c_layer"] in ("3", ["3"])
    at.segmented_control(key="layer").set_value(0).run()  # A moves: B follows
    assert (at.session_state["c_layer"], at.session_state["c_head"]) == (0, 1)


def test_a_model_not_on_this_machine_is_a_message_and_model_a_is_drawn():
    at = compare_page(compare="EleutherAI/not-here-70m@step1000")
    assert "EleutherAI/not-here-70m@step1000" in " ".join(w.value for w in at.warning).replace("\\", "")
    assert "python -m models.fetch EleutherAI/not-here-70m --revision step1000" in [c.value for c in at.code]
    (hm,) = heatmaps(at)
    np.testing.assert_allclose(array(hm["z"]), models.load("decoder").run(PROMPT).attention["decoder.self"][0, 0],
                               atol=1e-6)  # fmt: skip
    at = compare_page(compare="my-folder")
    assert "my-folder" in " ".join(w.value for w in at.warning).replace("\\", "") and len(heatmaps(at)) == 1
    at = compare_page(compare="lab:bogus")
    assert "lab:gqa" in " ".join(w.value for w in at.warning).replace("\\", "") and len(heatmaps(at)) == 1


def test_a_pair_over_the_size_limit_names_both_sizes(hf_home, sources, monkeypatch):
    cached(hf_home, {"org/cmp-big-a": {"main": sources / "gpt2-1"}, "org/cmp-big-b": {"main": sources / "gpt2-2"}})
    size = params.local_models()["org/cmp-big-a"].params
    monkeypatch.setenv("ATTENTION_LAB_MAX_PARAMS", str(int(size * 1.5)))  # one fits, the two together do not
    params.refresh_models()
    at = compare_page(model="org/cmp-big-a", compare="org/cmp-big-b")
    warning = " ".join(w.value for w in at.warning).replace("\\", "")
    assert "ATTENTION_LAB_MAX_PARAMS" in warning and "together" in warning
    text = models.published.checkpoints.size_text(size)
    assert warning.count(text) >= 2 and len(heatmaps(at)) == 1
    assert not loaders.computed(loaders.get_model, "org/cmp-big-b", "trained")  # refused before loading


def test_without_compare_the_page_is_as_before():
    for view, charts in (("heatmap", 1), ("grid", 2), ("lines", 1)):
        at = open_app("explorer", prompt=PROMPT, view=view)
        assert len(at.main.get("plotly_chart")) == charts
        texts = [str(getattr(el, "value", "")) + str(getattr(el, "label", "")) for el in _walk(at.main)]
        assert not [x for x in texts if "compare" in x.lower() or "对比" in x]
        assert not [el for el in _walk(at.main) if str(getattr(el, "key", "") or "").startswith("c_")]
        assert "compare" not in at.query_params


def _walk(node):
    for child in getattr(node, "children", {}).values():
        yield child
        yield from _walk(child)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_english_and_chinese(lang):
    at = compare_page(model="encoder", compare="decoder", lang=lang)
    assert not at.exception
    za, zb = two_heatmaps(at)
    assert (np.triu(za, 1) > 0).any() and (np.triu(zb, 1) == 0).all()  # bidirectional left, causal right
    assert at.toggle(key="c_same").label == {"en": "Same depth", "zh": "相同深度"}[lang]
    assert at.sidebar.selectbox(key="compare").label == {"en": "Compare with…", "zh": "比较对象…"}[lang]
    headings = " ".join(m.value for m in at.main.markdown)
    assert {"en": "Decoder", "zh": "解码器"}[lang] in headings


def test_lab_variant_untrained_says_how_to_train_and_trained_is_drawn():
    at = compare_page(compare="lab:gqa")
    info = " ".join(i.value for i in at.info).replace("\\", "")
    assert "lab:gqa is not trained yet" in info and len(heatmaps(at)) == 1
    assert at.button(key="c_train") and any("python -m models.variants" in c.value for c in at.code)
    lab = compare_loaders.lab_variant("gqa")
    assert lab.config.n_kv_heads == 2 and lab.config.d_model == models.load("decoder").config.d_model
    argv = shlex.split(compare_loaders.train_command(lab))  # the command trains the weights the page looks for
    cfg = models.ModelConfig.from_dict({**json.loads(argv[3]), "vocab_size": lab.config.vocab_size})
    assert variants.variant_key(cfg, int(argv[argv.index("--seed") + 1]), recipe=argv[-1]) == lab.key
    net = Transformer(lab.config).eval()  # weights as the lab's job saves them (their values do not matter here)
    variants.save(net, variants.History(), lab.config.seed, variants.entry_path(lab.key, loaders.training_jobs().root))
    loaders.training_jobs.clear()  # a restart: the registry scans the cache again
    try:
        at = compare_page(compare="lab:gqa", c_layer="2", c_head="3")
        _, zb = two_heatmaps(at)
        want = loaders.lab_model(lab.config_json, lab.key).run(PROMPT).attention["decoder.self"][1, 2]
        np.testing.assert_allclose(zb, want, atol=1e-6)
        # what differs is measured for a lab variant too (ui/loaders.get_model reads lab:<change> from the cache)
        assert [s.value for s in at.subheader if s.value == "What differs, measured"] and not at.warning
        assert "8 pairs (8 heads in A, 8 in B)" in " ".join(m.value for m in at.markdown)
    finally:
        variants.entry_path(lab.key, loaders.training_jobs().root).unlink()
        loaders.training_jobs.clear()


@pytest.mark.parametrize("preset", ["pythia", "instruct", "learned", "gqa", "encoder"])
def test_presets_with_nothing_cached(hf_home, preset):
    params.refresh_models()
    at = open_app("explorer", prompt=PROMPT)
    at.sidebar.pills(key="compare_preset").set_value(preset).run()
    assert not at.exception, [e.value for e in at.exception]
    if preset in ("pythia", "instruct"):  # nothing set; what to fetch
        assert at.session_state["compare"] == "" and len(heatmaps(at)) == 1
        assert any("python -m models.fetch" in c.value for c in at.sidebar.code)
    elif preset in ("learned", "gqa"):
        assert at.session_state["compare"] == f"lab:{preset}" and at.button(key="c_train")
    else:
        assert (at.session_state["model"], at.session_state["compare"]) == ("encoder", "decoder")
        assert len(heatmaps(at)) >= 2 and any("bidirectional encoder" in c.value for c in at.caption)


def test_pythia_preset_picks_the_earliest_and_latest_checkpoint(hf_home, sources):
    repo = "EleutherAI/pythia-cmp"
    cached(
        hf_home,
        {repo: {"step1000": sources / "gpt2-1", "step3000": sources / "gpt2-2", "step2000": sources / "gpt2-1"}},
    )
    at = open_app("explorer", prompt=PROMPT)
    at.sidebar.pills(key="compare_preset").set_value("pythia").run()
    assert not at.exception, [e.value for e in at.exception]
    assert (at.session_state["model"], at.session_state["compare"]) == (f"{repo}@step1000", f"{repo}@step3000")
    assert len(heatmaps(at)) >= 2 and any("induction stripe" in c.value for c in at.caption)


@pytest.fixture(scope="module")
def qwen35_dir(tmp_path_factory):
    from tests.models.hf.tiny_qwen35 import build_qwen35

    root = tmp_path_factory.mktemp("compare_qwen35")
    build_qwen35(root / "cmp-qwen35")
    return root


def test_a_hybrid_model_on_either_side(qwen35_dir, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(qwen35_dir))
    params.refresh_models()
    try:
        at = compare_page(compare="cmp-qwen35", c_layer="2")  # B: its chosen layer's head, softmax or linear
        assert not at.exception, [e.value for e in at.exception]
        assert len(heatmaps(at)) >= 2
        at = compare_page(compare="cmp-qwen35", view="grid")  # a view it cannot draw: said, and one head instead
        assert any("mixes softmax and linear-attention layers" in i.value for i in at.info)
        at = compare_page(model="cmp-qwen35", compare="decoder")  # A: its own page, B named as not drawn
        assert any("is not drawn beside this model" in i.value for i in at.info)
    finally:
        params.refresh_models()


def test_cross_attention_beside_a_model_without_it():
    at = compare_page(model="encoder-decoder", compare="decoder", attn="decoder.cross")
    assert not at.exception, [e.value for e in at.exception]
    assert any("has no" in c.value for c in at.caption) and len(heatmaps(at)) >= 2


def test_the_picker_is_the_explorers_and_markup_in_the_link_is_refused():
    at = open_app("masks", prompt=PROMPT)
    assert not [s for s in at.sidebar.selectbox if s.key == "compare"]
    at = compare_page(compare="<script>alert(1)</script>")
    assert not at.exception and len(heatmaps(at)) == 1
    assert at.sidebar.selectbox(key="compare").value == ""


@pytest.mark.parametrize(
    "a, b", [(a, b) for a in models.AVAILABLE for b in models.AVAILABLE if a != b], ids="{0[0]}-{0[1]}".format
)
def test_every_pair_of_shipped_models(a, b):
    """Every ordered pair of the app's own models draws both columns and what differs, without an exception; where a
    part cannot apply (an encoder's next token or logit lens) it says so in a message."""
    at = open_app("explorer", model=a, compare=b, prompt="the cat sat on the mat . 1234")
    assert not at.exception, [e.value for e in at.exception]
    assert len(heatmaps(at)) >= 2 and [s.value for s in at.subheader if s.value == "What differs, measured"]
    decoders = sum(name == "decoder" for name in (a, b))
    lens = [m.value for m in at.info if "logit lens" in m.value]
    assert len(lens) == 2 - decoders, lens  # the lens reads a decoder's next-token head: a message for the others
