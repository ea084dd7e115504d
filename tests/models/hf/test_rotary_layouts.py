"""Qwen3 and GPT-NeoX (Pythia) layouts: the permutations the loader applies, partial RoPE, the configs as
published, and what the app computes beside the forward (q/k maps, keys) for heads with a q/k norm or partial RoPE.

The forward, generation and parameter counts of both families are in test_families.py (CASES).
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import models
from models.core.positional import apply_rope, rope_inv_freq
from models.published import families
from models.published.families import common, llama, neox

from .test_families import check_forward
from .tiny import QUARTER_ROTARY, build, published_layout

pytest.importorskip("transformers")
warnings.filterwarnings("ignore", message=".*token_id.*")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("layouts")
    return {kind: (build(kind, root / kind), root / kind) for kind in ("qwen3", "gpt_neox")}


def logits_gap(hf, live: models.LiveModel, ids: list[int]) -> float:
    with torch.no_grad():
        ref = hf(torch.tensor([ids])).logits[0].numpy()
    return float(np.abs(live.run_ids(ids).logits - ref).max())


def test_apply_rope_with_rotary_dim_turns_only_the_leading_dims():
    x = torch.randn(1, 2, 7, 16, dtype=torch.float64)
    pos = torch.arange(3, 10)
    inv = rope_inv_freq(4, 10000.0)  # frequencies over the rotated width: base^(-2i/4)
    out = apply_rope(x, pos, inv)
    assert torch.equal(out[..., 4:], x[..., 4:])  # the pass-through dims, bit for bit
    torch.testing.assert_close(out[..., :4], apply_rope(x[..., :4], pos))  # a full RoPE of width 4
    torch.testing.assert_close(apply_rope(x, pos, rotary_dim=4), out)
    torch.testing.assert_close(out.norm(dim=-1), x.norm(dim=-1))  # still a rotation
    with pytest.raises(ValueError, match="rotary_dim"):
        apply_rope(x, pos, inv, rotary_dim=6)


def test_half_to_interleaved_permutes_the_rotated_slice_of_every_head():
    rows = torch.arange(16.0)  # two heads of 8: a bias, or one row index per output row
    assert common.half_to_interleaved(rows, 8).tolist() == [0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15]
    assert common.half_to_interleaved(rows, 8, 4).tolist() == [0, 2, 1, 3, 4, 5, 6, 7, 8, 10, 9, 11, 12, 13, 14, 15]
    w = torch.arange(16.0)[:, None].expand(16, 3)  # a weight: its rows move, each row whole
    assert torch.equal(common.half_to_interleaved(w, 8, 4)[:, 0], common.half_to_interleaved(rows, 8, 4))
    gain = torch.arange(8.0)  # Qwen3's q_norm [d_head]: one head
    assert common.half_to_interleaved(gain, 8).tolist() == [0, 4, 1, 5, 2, 6, 3, 7]


def test_qwen3_q_and_k_norm_gains_move_with_their_dimensions(built, monkeypatch):
    """Loaded as it should be, Qwen3 matches; with the q/k norm gains left in rotate-half order, it does not."""
    hf, folder = built["qwen3"]
    ids = list(range(200, 230))
    assert logits_gap(hf, models.load(str(folder)), ids) < 1e-4
    monkeypatch.setattr(llama, "ROTATED", ("self_attn.q_proj", "self_attn.k_proj"))
    assert logits_gap(hf, models.load(str(folder)), ids) > 1e-3


def test_neox_permutes_only_its_rotary_slice(built, monkeypatch):
    hf, folder = built["gpt_neox"]
    ids = list(range(200, 230))
    assert logits_gap(hf, models.load(str(folder)), ids) < 1e-4
    whole_head = lambda t, d_head, rotary=None: common.half_to_interleaved(t, d_head)  # noqa: E731
    monkeypatch.setattr(neox, "half_to_interleaved", whole_head)
    assert logits_gap(hf, models.load(str(folder)), ids) > 1e-3  # the whole head permuted: the pass-through moved


def test_fused_qkv_is_split_head_by_head():
    t = torch.arange(2 * 3 * 4.0)  # 2 heads, [q | k | v] of 4 rows each
    q, k, v = neox.split_qkv(t, 2, 4)
    assert q.tolist() == [0, 1, 2, 3, 12, 13, 14, 15] and k.tolist() == [4, 5, 6, 7, 16, 17, 18, 19]
    assert v.tolist() == [8, 9, 10, 11, 20, 21, 22, 23]


def test_pythia_as_published_reads_the_same(tmp_path, built):
    """Pythia's own config.json (transformers 4.24) has rotary_pct and rotary_emb_base, no rope_parameters."""
    hf, folder = built["gpt_neox"]
    old = tmp_path / "pythia"
    old.mkdir()
    for f in folder.iterdir():
        (old / f.name).write_bytes(f.read_bytes())
    published_layout(old, rope_parameters=None, rotary_pct=0.25, rotary_emb_base=10000, attention_bias=None)
    live = models.load(str(old))
    assert live.config == models.load(str(folder)).config
    check_forward(hf, live, list(range(300, 330)))


def config_json(built, kind: str, **changes) -> dict:
    return {**json.loads((built[kind][1] / "config.json").read_text()), **changes}


@pytest.mark.parametrize(
    ("kind", "changes", "says"),
    [
        ("qwen3", {"use_sliding_window": True, "sliding_window": 4}, "use_sliding_window"),
        ("qwen3", {"layer_types": ["full_attention", "sliding_attention"]}, "layer_types"),
        ("qwen3", {"attention_bias": True}, "attention_bias"),
        ("gpt_neox", {"attention_bias": False}, "attention_bias"),
        ("gpt_neox", {"rope_parameters": {"rope_type": "default", "partial_rotary_factor": 0.1}}, "rotary"),
        ("gpt_neox", {"rope_parameters": {"rope_type": "linear", "factor": 2.0}}, "scaling"),
    ],
)
def test_unsupported_settings_are_named(built, kind, changes, says):
    c = config_json(built, kind, **changes)
    with pytest.raises(families.UnsupportedModel, match=says):
        families.FAMILIES[families.family_of(c)][1](c)


def test_qwen3_without_head_dim_in_its_file_gets_transformers_default(built):
    c = config_json(built, "qwen3")
    del c["head_dim"]
    assert families.llama_config(c).d_head == 128  # Qwen3Config's default, not hidden / heads


@pytest.mark.parametrize("kind", ["qwen3", "gpt_neox"])
def test_qk_map_and_keys_are_what_the_attention_compared(built, kind):
    """qk_map.head_qk and experiments.head_keys recompute q and k from the residual stream: with Qwen3's q/k
    norm and Pythia's partial RoPE applied as in the forward, q·k · scale is the traced score."""
    from models.inspection.experiments import head_keys
    from models.inspection.qk_map import head_qk

    live = models.load(str(built[kind][1]))
    tr = live.run_ids(list(range(150, 170)), scores=True)
    keys = head_keys(live, tr)  # [L, H, T, dh]
    for layer in range(live.config.n_layers):
        for head in range(live.config.n_heads):
            q, k = head_qk(live, tr.hidden["decoder"][layer], "decoder.self", layer, head)
            np.testing.assert_allclose(k, keys[layer, head], atol=1e-5)
            scores = q @ k.T * live.config.scale
            causal = np.tril(np.ones_like(scores, dtype=bool))
            np.testing.assert_allclose(scores[causal], tr.scores["decoder.self"][layer, head][causal], atol=1e-4)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    layers=st.integers(1, 3),
    heads=st.sampled_from([2, 4]),
    d_head=st.sampled_from([8, 16]),
    pct=st.sampled_from([0.25, 0.5, 1.0]),
    parallel=st.booleans(),
    seed=st.integers(0, 1000),
)
def test_drawn_pythia_sizes_match(tmp_path_factory, layers, heads, d_head, pct, parallel, seed):
    folder = tmp_path_factory.mktemp("neox")
    hf = build("gpt_neox", folder, seed=seed, num_hidden_layers=layers, num_attention_heads=heads,
               hidden_size=heads * d_head, use_parallel_residual=parallel,
               rope_parameters={**QUARTER_ROTARY, "partial_rotary_factor": pct})  # fmt: skip
    live = models.load(str(folder))
    assert live.config.rope_dims == int(d_head * pct)
    check_forward(hf, live, list(range(50, 75)))
