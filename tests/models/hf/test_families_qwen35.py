"""Qwen3.5 (text), loaded by models.load(folder), against transformers' eager forward (the oracle).

Logits, hidden states and the softmax layers' attention within 1e-4; each
Gated DeltaNet layer's implied attention Ã reproduces its output, O = Ã·V, within 1e-5·max|O| per head (against
our recurrence and transformers' recurrent and chunked gated delta rules); greedy generation with the recurrent state
against transformers' per-step logits; parameter counts; the published config layouts.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
import torch

import models
from models.core.linear_attention import gated_delta_rule, implied_attention

from .test_families import check_generation
from .tiny_qwen35 import EXTRA, build_qwen35

pytest.importorskip("transformers")
warnings.filterwarnings("ignore", message=".*token_id.*")
CASES = {
    "qwen35-published": {},  # nested layout; 3 linear layers, then 1 softmax layer (full_attention_interval 4)
    "qwen35-text-mqa-tied": dict(nested=False, num_key_value_heads=1, tie_word_embeddings=True,
                                 layer_types=["full_attention", "linear_attention", "linear_attention",
                                              "full_attention"]),
}  # fmt: skip


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("qwen35")
    return {name: (build_qwen35(root / name, **over), root / name) for name, over in CASES.items()}


def prompt_ids(n=20, seed=0):
    return np.random.default_rng(seed).integers(110, 2000, n).tolist()


def compare(hf, live, ids, atol):
    tr = live.run_ids(ids)
    with torch.no_grad():
        out = hf(torch.tensor([ids]), output_attentions=True, output_hidden_states=True)
    kinds = live.config.layer_types
    soft = [i for i, k in enumerate(kinds) if k == "full_attention"]
    linear = [i for i, k in enumerate(kinds) if k == "linear_attention"]
    assert tr.layer_kinds == kinds and tr.layers == {"decoder.self": soft, "decoder.linear": linear}
    theirs = torch.stack([a[0] for a in out.attentions]).numpy()  # transformers records the softmax layers only
    assert tr.attention["decoder.self"].shape == theirs.shape == (len(soft), 4, len(ids), len(ids))
    np.testing.assert_allclose(tr.attention["decoder.self"], theirs, atol=atol, rtol=0)
    # logits as the hidden states: within atol of their scale (|logit| reaches ~9 in this wide-spread tiny model, where
    # float32 rounding order alone (a norm reducing a contiguous row or a strided one) moves a logit by ~1e-4)
    ref = out.logits[0].numpy()
    assert np.abs(np.asarray(tr.logits) - ref).max() <= atol * max(1.0, np.abs(ref).max()), "logits"
    for i in range(len(out.hidden_states) - 1):  # the last one is after the final norm: compared through the logits
        ours, ref = tr.hidden["decoder"][i], out.hidden_states[i][0].numpy()
        assert np.abs(ours - ref).max() <= atol * max(1.0, np.abs(ref).max()), f"hidden state {i}"
    return tr


@pytest.mark.parametrize("name", list(CASES))
def test_logits_hidden_states_and_softmax_attention_match_transformers(folders, name):
    hf, folder = folders[name]
    live = models.load(str(folder))
    assert live.template[0] == []  # Qwen's tokenizer adds no BOS
    compare(hf, live, prompt_ids(), 1e-4)


def linear_inputs(live, ids):
    """Per linear layer: (recurrent output O [Hv, T, dv] from our recurrence, its record of batch 0)."""
    _, recs, _ = live.net.run_stack(live.net.decoder, torch.tensor([ids]), None, live.config.scale)
    found = []
    for r in recs:
        if "linear" in r:
            d = r["linear"].first()
            group = d.v.shape[0] // d.q.shape[0]
            rq, rk = d.q.repeat_interleave(group, 0), d.k.repeat_interleave(group, 0)
            o, _ = gated_delta_rule(rq[None], rk[None], d.v[None], d.g[None], d.beta[None])
            found.append((o[0], d))
    return found


@pytest.mark.parametrize("n", [24, 256])
def test_implied_attention_reproduces_the_recurrent_output(folders, n):
    """O = Ã·V per linear layer and value head within 1e-5·max|O|, at 256 tokens too (no inf·0 = NaN); and our
    recurrence is transformers' torch_recurrent_gated_delta_rule."""
    from transformers.models.qwen3_5.modeling_qwen3_5 import (
        torch_chunk_gated_delta_rule,
        torch_recurrent_gated_delta_rule,
    )

    folder = folders["qwen35-published"][1]
    live = models.load(str(folder))
    ids = prompt_ids(n, seed=2)
    tr = live.run_ids(ids)
    implied = tr.attention["decoder.linear"]
    assert implied.shape == (3, 4, n, n) and tr.layers["decoder.linear"] == [0, 1, 2]
    for layer, (o, d) in enumerate(linear_inputs(live, ids)):
        a = implied[layer]  # computed now, for this layer only
        assert np.isfinite(a).all() and (np.triu(a, 1) == 0).all()  # causal: nothing above the diagonal
        assert not np.signbit(np.triu(a, 1)).any()  # +0 there, not −0.0 (a cell would read "-0.00")
        v = d.v.to(torch.float64).numpy()
        for head in range(a.shape[0]):
            got = a[head].astype(np.float64) @ v[head]
            ref = o[head].numpy()
            assert np.abs(got - ref).max() <= 1e-5 * np.abs(ref).max(), f"layer {layer} head {head}"
        dk = d.q.shape[-1]
        theirs, _ = torch_recurrent_gated_delta_rule(
            (d.q * dk**0.5).transpose(0, 1)[None], d.k.transpose(0, 1)[None], d.v.transpose(0, 1)[None],
            g=d.g.transpose(0, 1)[None], beta=d.beta.transpose(0, 1)[None])  # fmt: skip
        np.testing.assert_allclose(o.transpose(0, 1).numpy(), theirs[0].numpy(), atol=1e-5 * float(o.abs().max()))
        chunked, _ = torch_chunk_gated_delta_rule(  # what transformers' forward runs on a whole prompt, in float64
            *((x * s).transpose(0, 1)[None].double() for x, s in ((d.q, dk**0.5), (d.k, 1), (d.v, 1))),
            g=d.g.transpose(0, 1)[None].double(), beta=d.beta.transpose(0, 1)[None].double())  # fmt: skip
        exact = np.einsum("hij,hjd->ihd", a.astype(np.float64), v)
        assert np.abs(chunked[0].numpy() - exact).max() <= 1e-5 * np.abs(exact).max()
    full = np.asarray(implied)  # every layer
    assert full.shape == (3, 4, n, n) and np.allclose(full[1], implied[1])
    assert (full < -1e-3).any()  # rows can be negative, and need not sum to 1
    assert np.abs(full.sum(-1) - 1).max() > 1e-2


def test_implied_attention_of_a_known_case():
    """One head, three tokens, orthonormal keys: no interference, Ã_ij = (q_i·k_j)·Γ_ij·β_j."""
    q = torch.tensor([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])
    k = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]])  # k_3 = k_1: the third token overwrites the first
    g, beta = torch.tensor([-0.1, -0.2, -0.3]), torch.tensor([1.0, 0.5, 1.0])
    a = implied_attention(q, k, g, beta).numpy()
    v = torch.randn(3, 4, dtype=torch.float64)
    o, _ = gated_delta_rule(q[None, None].double(), k[None, None].double(), v[None, None], g[None, None].double(),
                            beta[None, None].double())  # fmt: skip
    np.testing.assert_allclose(a @ v.numpy(), o[0, 0].numpy(), atol=1e-12)
    assert a[1, 0] == pytest.approx(0.5 * np.exp(-0.2)) and a[1, 1] == pytest.approx(0.5 * 0.5)
    assert a[2, 0] == pytest.approx(0.0, abs=1e-12)  # β = 1 on the same key: the old value is fully replaced


@pytest.mark.parametrize("name", list(CASES))
def test_greedy_generation_with_the_recurrent_state_matches_transformers_step_by_step(folders, name):
    hf, folder = folders[name]
    live = models.load(str(folder))
    soft = live.config.layer_types.count("full_attention")

    def softmax_layers_only(step, ids):  # each step's attention: the softmax layers only
        assert step.attention["decoder.self"].shape == (soft, 4, len(ids))

    check_generation(hf, live, [300, 301, 302, 303, 304, 305], 12, softmax_layers_only)


@pytest.mark.parametrize("name", list(CASES))
def test_described_configured_and_counted(folders, name):
    from models.analysis import parameter_counts
    from models.published.checkpoints import describe

    hf, folder = folders[name]
    e = describe(folder)
    assert (e.family, e.arch, e.error) == ("Qwen3.5", "decoder", None)
    extra = sum(t.numel() for t in EXTRA.values()) if CASES[name].get("nested", True) else 0
    assert e.params == sum(p.numel() for p in hf.parameters()) + extra  # vision and mtp tensors are in the file
    live = models.load(str(folder))
    cfg = live.config
    assert sum(parameter_counts(cfg).values()) == sum(p.numel() for p in live.net.parameters())
    assert parameter_counts(cfg)["attention.linear"] > 0
    assert cfg.attn_output_gate and cfg.qk_norm and cfg.head_dim == 16 and cfg.rotary_dim == 4
    assert (cfg.linear_key_heads, cfg.linear_value_heads, cfg.linear_key_dim, cfg.linear_value_dim) == (2, 4, 8, 8)
    assert cfg.tie_embeddings == ("tied" in name)
    assert models.config.ModelConfig.from_dict(json.loads(json.dumps(cfg.to_dict()))) == cfg


def test_older_config_layout_reads_the_same(tmp_path, folders):
    """No layer_types (full_attention_interval, default 4, decides), top-level rope_theta and partial_rotary_factor."""
    hf, folder = folders["qwen35-published"]
    old = tmp_path / "old"
    old.mkdir()
    for f in folder.iterdir():
        (old / f.name).write_bytes(f.read_bytes())
    c = json.loads((old / "config.json").read_text())
    for key in ("layer_types", "rope_parameters"):
        c["text_config"].pop(key)
    c["text_config"].update(rope_theta=10000.0, partial_rotary_factor=0.25)
    (old / "config.json").write_text(json.dumps(c))
    live = models.load(str(old))
    assert live.config.layer_types == ("linear_attention",) * 3 + ("full_attention",)
    assert live.config.rotary_dim == 4 and live.config.rope_base == 10000.0
    compare(hf, live, prompt_ids(), 1e-4)


def test_unsupported_settings_are_refused_and_new_fields_are_quiet(folders):
    from models.config import ModelConfig
    from models.published.families import UnsupportedModel, qwen35_config

    c = json.loads((folders["qwen35-published"][1] / "config.json").read_text())
    t = c["text_config"]
    for change, words in [({"attention_bias": True}, "attention_bias"), ({"hidden_act": "gelu"}, "hidden_act"),
                          ({"rope_parameters": {"rope_type": "yarn", "factor": 4.0}}, "yarn"),
                          ({"layer_types": ["sliding_attention"] * 4}, "layer_types")]:  # fmt: skip
        with pytest.raises(UnsupportedModel, match=words):
            qwen35_config({**c, "text_config": {**t, **change}})
    assert not set(ModelConfig().to_dict()) & {"attn_output_gate", "linear_key_heads", "linear_conv_kernel"}
    with pytest.raises(ValueError, match="linear_key_heads"):
        ModelConfig(layer_types=("linear_attention", "full_attention"))
    with pytest.raises(ValueError, match="multiple"):
        ModelConfig(layer_types=("linear_attention", "full_attention"), linear_key_heads=3, linear_value_heads=4,
                    linear_key_dim=8, linear_value_dim=8)  # fmt: skip
