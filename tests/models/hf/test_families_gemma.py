"""Gemma 2 and Gemma 3 (text), loaded by models.load(folder), against transformers' eager forward (the oracle).

Attention of every layer and head, logits and hidden states within 1e-4; sliding layers' masks; greedy generation
with our KV cache against transformers' per-step logits; parameter counts; the published config layouts.
"""

from __future__ import annotations

import json
import shutil
import warnings

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import models

from .test_families import check_generation, oracle
from .tiny import published_layout
from .tiny_gemma import build_gemma

pytest.importorskip("transformers")
warnings.filterwarnings("ignore", message=".*token_id.*")
CASES = {
    "gemma2-caps": ("gemma2", {}),  # GQA, head_dim 16 on 32, window 4, attention cap 5, logits cap 3, tied
    "gemma2-untied-nocap": ("gemma2", {"tie_word_embeddings": False, "num_key_value_heads": 4,
                                       "attn_logit_softcapping": None, "final_logit_softcapping": None}),
    "gemma3-5to1": ("gemma3_text", {}),  # 5 sliding : 1 full, RoPE 10⁴ / 10⁶, q/k norms, window 5
    "gemma3-mqa-untied": ("gemma3_text", {"num_key_value_heads": 1, "tie_word_embeddings": False,
                                          "layer_types": ["full_attention", "sliding_attention", "sliding_attention"],
                                          "num_hidden_layers": 3}),
}  # fmt: skip
LABEL = {"gemma2": "Gemma 2", "gemma3_text": "Gemma 3"}


def check_gemma(hf, live: models.LiveModel, ids: list[int]) -> None:
    """check_forward's comparisons; HF's last hidden state is after the final norm (sandwich is pre-norm too), so
    that one is compared through the logits."""
    tr = live.run_ids(ids)
    out = oracle(hf, ids)
    theirs = torch.stack([a[0] for a in out.attentions]).numpy()  # [L, H, T, T]
    assert tr.attention["decoder.self"].shape == theirs.shape
    np.testing.assert_allclose(tr.attention["decoder.self"], theirs, atol=1e-4, rtol=0)
    np.testing.assert_allclose(np.asarray(tr.logits), out.logits[0].numpy(), atol=1e-4, rtol=0)
    for i in range(len(out.hidden_states) - 1):
        ours, ref = tr.hidden["decoder"][i], out.hidden_states[i][0].numpy()
        assert np.abs(ours - ref).max() <= 1e-4 * max(1.0, np.abs(ref).max()), f"hidden state {i}"


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("gemma")
    return {name: (build_gemma(kind, root / name, **over), root / name) for name, (kind, over) in CASES.items()}


def prompt_ids(live, n=24, seed=0):
    return [*live.template[0], *np.random.default_rng(seed).integers(110, 2000, n).tolist()]


@pytest.mark.parametrize("name", list(CASES))
def test_attention_logits_and_hidden_states_match_transformers(folders, name):
    hf, folder = folders[name]
    live = models.load(str(folder))
    assert len(live.template[0]) == 1  # the tokenizer's BOS first, as Gemma's <bos>
    check_gemma(hf, live, prompt_ids(live))


def copy_folder(src, dst):
    shutil.copytree(src, dst)
    return dst


def test_old_published_layouts_read_the_same(tmp_path, folders):
    """gemma-2 as published (no layer_types, top-level rope_theta); gemma-3 before transformers 5 (rope_theta for the
    full layers, rope_local_base_freq for the sliding ones, sliding_window_pattern instead of layer_types)."""
    hf2, f2 = folders["gemma2-caps"]
    old2 = copy_folder(f2, tmp_path / "g2")
    published_layout(old2, layer_types=None, rope_parameters=None, rope_theta=10000.0, hidden_act="gelu_pytorch_tanh")
    live = models.load(str(old2))
    assert live.config.layer_types == ("sliding_attention", "full_attention") * 2
    check_gemma(hf2, live, prompt_ids(live))
    hf3, f3 = folders["gemma3-5to1"]
    old3 = copy_folder(f3, tmp_path / "g3")
    published_layout(old3, layer_types=None, rope_parameters=None, rope_theta=1000000.0, rope_local_base_freq=10000.0,
                     rope_scaling=None, sliding_window_pattern=6)  # fmt: skip
    live = models.load(str(old3))
    cfg = live.config
    assert cfg.layer_types == ("sliding_attention",) * 5 + ("full_attention",)
    assert (cfg.rope_base, cfg.rope_local_base) == (1e6, 1e4)
    check_gemma(hf3, live, prompt_ids(live))


def test_sliding_layers_see_only_their_window(folders):
    live = models.load(str(folders["gemma2-caps"][1]))
    tr = live.run_ids(list(range(100, 112)))
    assert tr.mask == "causal" and tr.masks["decoder.self"][11].all()  # what the full layers use
    layers = tr.layer_masks["decoder.self"]  # [L, T, T]
    assert layers.shape == (4, 12, 12)
    assert layers[0, 11].tolist() == [False] * 8 + [True] * 4  # sliding: the last 4 positions, its own included
    assert layers[1, 11].all() and not layers[1, 0, 1:].any()  # full: causal
    att = tr.attention["decoder.self"]
    assert (att[0, :, 11, :8] == 0).all() and (att[1, :, 11, :8] > 0).all()
    assert models.load(str(folders["gemma3-5to1"][1])).run_ids(list(range(100, 104))).layer_masks  # per layer too


def test_layer_masks_keep_each_distinct_mask_once(folders):
    """[L, T, T] as read, two masks as stored (sliding and full), whatever the number of layers; a pickled trace
    (st.cache_data) reads the same; nobody can write one layer's mask into another's."""
    import pickle

    live = models.load(str(folders["gemma3-5to1"][1]))
    masks = live.run_ids(list(range(100, 120))).layer_masks["decoder.self"]
    full = np.asarray(masks)
    assert full.shape == masks.shape == (6, 20, 20) and full.dtype == bool
    assert masks._distinct.shape == (2, 20, 20)  # 5 sliding layers and 1 full one
    for layer in range(6):
        np.testing.assert_array_equal(masks[layer], full[layer])
        np.testing.assert_array_equal(masks[layer, 19], full[layer, 19])
    assert masks[0, 19].sum() == live.config.sliding_window and masks[5, 19].all()
    np.testing.assert_array_equal(np.asarray(pickle.loads(pickle.dumps(masks))), full)
    with pytest.raises(ValueError):
        masks[0][0, 0] = False


def test_soft_caps_bound_scores_and_logits_and_matter(folders):
    folder = folders["gemma2-caps"][1]
    live = models.load(str(folder))
    ids = prompt_ids(live)
    tr = live.run_ids(ids, scores=True)
    scores = tr.scores["decoder.self"]
    finite = scores[np.isfinite(scores)]
    assert np.abs(finite).max() <= 5.0 and np.abs(np.asarray(tr.logits)).max() <= 3.0
    uncapped = models.load(str(folder))  # its own module: switch the caps off on it alone
    for block in uncapped.net.decoder:
        block.self_attn.softcap = None
    assert np.abs(uncapped.run_ids(ids).attention["decoder.self"] - tr.attention["decoder.self"]).max() > 1e-2
    raw = live.net.head(live.net.dec_norm(torch.tensor(tr.hidden["decoder"][-1])))
    assert raw.abs().max() > 4.0  # the logits cap of 3 bites


@pytest.mark.parametrize("name", ["gemma2-caps", "gemma3-5to1", "gemma3-mqa-untied"])
def test_greedy_generation_with_kv_cache_matches_transformers_step_by_step(folders, name):
    hf, folder = folders[name]
    live = models.load(str(folder))
    check_generation(hf, live, [*live.template[0], 300, 301, 302, 303, 304], 12)  # past the windows of 4 and 5


@pytest.mark.parametrize("name", list(CASES))
def test_described_configured_and_counted(folders, name):
    from models.analysis import parameter_counts
    from models.published.checkpoints import describe

    hf, folder = folders[name]
    kind = CASES[name][0]
    e = describe(folder)
    assert (e.family, e.arch, e.error) == (LABEL[kind], "decoder", None)
    assert e.params == sum(p.numel() for p in hf.parameters())  # a tied head counted once
    live = models.load(str(folder))
    cfg = live.config
    assert sum(parameter_counts(cfg).values()) == sum(p.numel() for p in live.net.parameters())
    assert cfg.norm_position == "sandwich" and cfg.activation == "geglu" and cfg.head_dim == 16 and cfg.embed_scale
    assert cfg.scale == 12**-0.5 and cfg.qk_norm == (kind == "gemma3_text")
    if kind == "gemma3_text":
        assert (cfg.rope_base, cfg.rope_local_base, cfg.attn_softcap, cfg.final_softcap) == (1e6, 1e4, None, None)
    assert models.config.ModelConfig.from_dict(json.loads(json.dumps(cfg.to_dict()))) == cfg


def test_unsupported_settings_are_refused_with_a_reason(folders):
    from models.published.families import FAMILIES, UnsupportedModel, gemma_config

    c = json.loads((folders["gemma3-5to1"][1] / "config.json").read_text())
    linear = {**c["rope_parameters"], "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6}}
    with pytest.raises(UnsupportedModel, match="linear"):
        gemma_config({**c, "rope_parameters": linear})
    with pytest.raises(UnsupportedModel, match="bidirectional"):
        gemma_config({**c, "use_bidirectional_attention": True})
    with pytest.raises(UnsupportedModel, match="hidden_activation"):
        gemma_config({**c, "hidden_activation": "silu"})
    assert "gemma3" not in FAMILIES  # the multimodal wrapper (text_config, linear RoPE scaling) is not mapped


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    layers=st.integers(1, 4),
    kv=st.sampled_from([1, 2, 4]),
    head_dim=st.sampled_from([8, 16]),
    hidden=st.sampled_from([16, 32]),
    window=st.integers(2, 8),
    tied=st.booleans(),
    seed=st.integers(0, 1000),
)
def test_drawn_gemma3_sizes_match(tmp_path_factory, layers, kv, head_dim, hidden, window, tied, seed):
    folder = tmp_path_factory.mktemp("drawn_gemma")
    kinds = ["sliding_attention" if (i + seed) % 3 else "full_attention" for i in range(layers)]
    hf = build_gemma("gemma3_text", folder, seed=seed, num_hidden_layers=layers, num_key_value_heads=kv,
                     head_dim=head_dim, hidden_size=hidden, sliding_window=window, tie_word_embeddings=tied,
                     layer_types=kinds, query_pre_attn_scalar=head_dim)  # fmt: skip
    live = models.load(str(folder))
    check_gemma(hf, live, list(range(50, 70)))
