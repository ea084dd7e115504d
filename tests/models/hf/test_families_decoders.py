"""GPT-1, Phi, SmolLM3 and OLMo 2, loaded by models.load(folder), against transformers' eager forward.

Attention of every layer and head and the logits within 1e-4, hidden states within 1e-4 relative, greedy
generation with our KV cache against transformers' per-step logits, parameter counts, describe().
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
import torch

import models
from models.config import ModelConfig

from .test_families import check_forward, check_generation, oracle
from .tiny import published_layout
from .tiny_decoders import build

pytest.importorskip("transformers")
warnings.filterwarnings("ignore", message=".*token_id.*")
QUARTER = {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.25}
PHI_QK = {"qk_layernorm": True, "num_key_value_heads": 2, "tie_word_embeddings": True, "rope_parameters": QUARTER}
SMOL_LIST = {"no_rope_layers": [0, 1, 1, 0], "tie_word_embeddings": False,
             "rope_parameters": {"rope_type": "default", "rope_theta": 5000000.0}}  # fmt: skip
CASES = {
    "gpt1": ("openai-gpt", {}),
    "phi": ("phi", {}),  # RoPE on 8 of 16 dims, MHA, untied head with its bias
    "phi-qk-ln-gqa-tied": ("phi", PHI_QK),  # per-head q/k LayerNorm, RoPE on 4 of 16 dims, GQA, tied
    "smollm3": ("smollm3", {}),  # layer 3 NoPE (interval 4), GQA, tied
    "smollm3-list": ("smollm3", SMOL_LIST),  # layers 0 and 3 NoPE, untied
    "olmo2": ("olmo2", {}),  # GQA, untied
    "olmo2-mqa-tied": ("olmo2", {"num_key_value_heads": 1, "tie_word_embeddings": True}),
}
LABELS = {"openai-gpt": "GPT-1", "phi": "Phi", "smollm3": "SmolLM3", "olmo2": "OLMo 2"}


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("decoders")
    return {name: (build(kind, root / name, **over), root / name) for name, (kind, over) in CASES.items()}


def check(hf, live: models.LiveModel, ids: list[int]) -> None:
    """test_families.check_forward, but for OLMo 2 (post_sub: a final norm without pre-norm) transformers' last
    hidden state is after the final norm, so it is compared through the logits only."""
    if live.config.norm_position != "post_sub":
        return check_forward(hf, live, ids)
    tr, out = live.run_ids(ids), oracle(hf, ids)
    theirs = torch.stack([a[0] for a in out.attentions]).numpy()
    np.testing.assert_allclose(tr.attention["decoder.self"], theirs, atol=1e-4, rtol=0)
    np.testing.assert_allclose(tr.logits, out.logits[0].numpy(), atol=1e-4, rtol=0)
    for i in range(len(out.hidden_states) - 1):
        ours, ref = tr.hidden["decoder"][i], out.hidden_states[i][0].numpy()
        assert np.abs(ours - ref).max() <= 1e-4 * max(1.0, np.abs(ref).max()), f"hidden state {i}"


@pytest.mark.parametrize("name", list(CASES))
def test_attention_logits_and_hidden_states_match_transformers(folders, name):
    hf, folder = folders[name]
    ids = np.random.default_rng(1).integers(110, 2000, 24).tolist()
    check(hf, models.load(str(folder)), ids)


@pytest.mark.parametrize("name", ["gpt1", "phi-qk-ln-gqa-tied", "smollm3", "olmo2"])
def test_greedy_generation_with_kv_cache_matches_transformers_step_by_step(folders, name):
    hf, folder = folders[name]
    live = models.load(str(folder))
    check_generation(hf, live, [300, 301, 302, 303, 304], 10)


@pytest.mark.parametrize("name", list(CASES))
def test_described_counted_and_configured(folders, name):
    from models.analysis import parameter_counts
    from models.published.checkpoints import describe

    hf, folder = folders[name]
    e = describe(folder)
    assert (e.family, e.arch, e.error) == (LABELS[CASES[name][0]], "decoder", None)
    assert e.params == sum(p.numel() for p in hf.parameters())  # a tied head counted once
    live = models.load(str(folder))
    assert sum(parameter_counts(live.config).values()) == sum(p.numel() for p in live.net.parameters())
    assert e.params == sum(p.numel() for p in live.net.parameters())  # nothing left out, nothing added
    cfg = live.config
    expected = {
        "gpt1": dict(norm_position="post", activation="gelu_tanh", positional="learned", tie_embeddings=True),
        "phi": dict(shared_block_norm=True, parallel_residual=True, rotary_dim=8, head_bias=True, qk_norm=False),
        "phi-qk-ln-gqa-tied": dict(rotary_dim=4, qk_norm=True, qk_norm_scope="head", n_kv_heads=2),
        "smollm3": dict(nope_layers=(3,), rope_base=2_000_000.0, tie_embeddings=True),
        "smollm3-list": dict(nope_layers=(0, 3), rope_base=5_000_000.0, tie_embeddings=False),
        "olmo2": dict(norm_position="post_sub", qk_norm=True, qk_norm_scope="all", norm="rmsnorm"),
        "olmo2-mqa-tied": dict(qk_norm_scope="all", n_kv_heads=1, tie_embeddings=True),
    }[name]
    assert {k: getattr(cfg, k) for k in expected} == expected


def test_smollm3_nope_layers_really_drop_rope(folders):
    net = models.load(str(folders["smollm3-list"][1])).net
    assert [b.self_attn.rope for b in net.decoder] == [False, True, True, False]


def test_olmo2_qk_map_and_keys_use_the_whole_projection_norm(folders):
    """qk_map.head_qk and experiments.head_keys recompute q and k as the model does (norm over all heads first)."""
    from models.inspection.experiments import head_keys
    from models.inspection.qk_map import head_qk

    live = models.load(str(folders["olmo2"][1]))
    tr = live.run_ids(list(range(200, 212)))
    layer, head = 1, 3
    q, k = head_qk(live, tr.hidden["decoder"][layer], "decoder.self", layer, head)
    scores = q @ k.T * live.config.scale
    np.testing.assert_allclose(scores[np.tril_indices(12)], tr.scores["decoder.self"][layer, head][np.tril_indices(12)],
                               atol=1e-4, rtol=1e-5)  # fmt: skip
    keys = head_keys(live, tr)
    np.testing.assert_allclose(keys[layer, head], k, atol=1e-5)


def test_original_layouts_read_the_same(tmp_path, folders):
    """phi-2's config.json has partial_rotary_factor and rope_theta at the top; GPT-1's original weights have no
    "transformer." prefix on their names."""
    from safetensors.torch import load_file, save_file

    hf, folder = folders["phi"]
    old = tmp_path / "phi-old"
    old.mkdir()
    for f in folder.iterdir():
        (old / f.name).write_bytes(f.read_bytes())
    published_layout(old, rope_parameters=None, partial_rotary_factor=0.5, rope_theta=10000.0, rope_scaling=None)
    live = models.load(str(old))
    assert live.config.rotary_dim == 8
    check(hf, live, list(range(300, 320)))

    hf, folder = folders["gpt1"]
    bare = tmp_path / "gpt1-bare"
    bare.mkdir()
    for f in folder.iterdir():
        (bare / f.name).write_bytes(f.read_bytes())
    state = load_file(str(folder / "model.safetensors"))
    assert all(k.startswith("transformer.") for k in state)
    save_file({k.removeprefix("transformer."): v for k, v in state.items()}, str(bare / "model.safetensors"))
    check(hf, models.load(str(bare)), list(range(300, 320)))


@pytest.mark.parametrize(
    ("name", "change", "match"),
    [
        ("smollm3", {"use_sliding_window": True, "sliding_window": 4}, "use_sliding_window"),
        ("olmo2", {"attention_bias": True}, "attention_bias"),
        ("gpt1", {"afn": "tanh"}, "afn"),
        ("phi", {"partial_rotary_factor": 0.1, "rope_parameters": None}, "partial_rotary_factor"),
    ],
)
def test_unsupported_settings_are_refused_with_a_reason(tmp_path, folders, name, change, match):
    folder = tmp_path / name
    folder.mkdir()
    for f in folders[name][1].iterdir():
        (folder / f.name).write_bytes(f.read_bytes())
    published_layout(folder, **change)
    with pytest.raises(models.WeightsError, match=match):
        models.load(str(folder))


def test_new_config_fields_are_quiet_validated_and_round_trip():
    plain = ModelConfig()
    assert not {"shared_block_norm", "nope_layers", "qk_norm_scope"} & set(plain.to_dict())
    cfg = ModelConfig(positional="rope", n_layers=4, nope_layers=(1, 3), qk_norm=True, qk_norm_scope="all",
                      norm_position="post_sub", norm="rmsnorm")  # fmt: skip
    again = ModelConfig.from_dict(json.loads(json.dumps(cfg.to_dict())))
    assert again == cfg and again.nope_layers == (1, 3)
    for bad, match in [
        (dict(shared_block_norm=True), "parallel_residual"),
        (dict(positional="learned", nope_layers=(0,)), "positional='rope'"),
        (dict(positional="rope", nope_layers=(2,)), "0..1"),
        (dict(positional="rope", nope_layers=(1, 0)), "increasing"),
        (dict(qk_norm_scope="all"), "qk_norm=True"),
        (dict(qk_norm=True, qk_norm_scope="heads"), "head, all"),
        (dict(norm_position="post_sub", parallel_residual=True), "parallel_residual"),
    ]:
        with pytest.raises(ValueError, match=match):
            ModelConfig(**bad)


def test_post_sub_and_shared_norm_build_and_count_without_a_checkpoint():
    from models.analysis import parameter_counts
    from models.core.transformer import Transformer

    for cfg in (
        ModelConfig(norm_position="post_sub", norm="rmsnorm", positional="rope", qk_norm=True, qk_norm_scope="all",
                    n_kv_heads=2, activation="swiglu"),
        ModelConfig(parallel_residual=True, shared_block_norm=True, positional="rope", rotary_dim=8, qk_norm=True),
        ModelConfig(arch="encoder-decoder", norm_position="post_sub", qk_norm=True, qk_norm_scope="all"),
    ):  # fmt: skip
        net = Transformer(cfg)
        assert sum(parameter_counts(cfg).values()) == sum(p.numel() for p in net.parameters())
        ids = torch.tensor([[5, 6, 7, 8]])
        mask = torch.ones(4, 4, dtype=torch.bool).tril()
        if cfg.arch == "decoder":
            assert torch.isfinite(net(ids, mask, cfg.scale)).all()
