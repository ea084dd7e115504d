"""ModelConfig's options for later published families: head_dim, qk_norm, rotary_dim, parallel_residual.

Their defaults change nothing (a config's dict and so its hash are as before); each is validated with a
message that names it; the parameter counts follow the built module; a model with all of them trains.
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest
import torch

from models import ModelConfig, analysis
from models.config import MOE_FIELDS, QUIET_DEFAULTS
from models.core.attention import causal
from models.core.transformer import Transformer

# a toy decoder with every new option: 4 heads of 12 on a 32-wide stream, q/k norm, RoPE on 4 of 12 dims
ALL = dict(d_model=32, n_heads=4, head_dim=12, qk_norm=True, positional="rope", rotary_dim=4, parallel_residual=True)


def test_defaults_leave_the_dict_as_it_was():
    before = {f.name for f in dataclasses.fields(ModelConfig)} - set(MOE_FIELDS) - set(QUIET_DEFAULTS)
    assert set(ModelConfig().to_dict()) == before
    cfg = ModelConfig(**ALL)
    shown = [k for k in QUIET_DEFAULTS if k in ALL]  # later families' quiet fields are tested in their own files
    assert {k: cfg.to_dict()[k] for k in shown} == {k: ALL[k] for k in shown}
    assert ModelConfig.from_dict(cfg.to_dict()) == cfg
    assert ModelConfig(d_model=64, n_heads=4).d_head == 16 and ModelConfig(head_dim=24).d_head == 24


@pytest.mark.parametrize(
    ("overrides", "named"),
    [
        (dict(head_dim=0), "head_dim"),
        (dict(head_dim=2.5), "head_dim"),
        (dict(d_model=30, n_heads=4), "head_dim"),  # the message says head_dim is the way out
        (dict(head_dim=7, positional="rope"), "head_dim = 7"),
        (dict(rotary_dim=4), "positional='rope'"),
        (dict(positional="rope", rotary_dim=3), "rotary_dim"),
        (dict(positional="rope", rotary_dim=0), "rotary_dim"),
        (dict(positional="rope", d_model=32, n_heads=4, rotary_dim=10), "more than d_head=8"),
        (dict(parallel_residual=True, norm_position="post"), "parallel_residual"),
        (dict(parallel_residual=True, arch="encoder-decoder"), "parallel_residual"),
        (dict(qk_norm="yes"), "qk_norm"),
    ],
)
def test_new_fields_are_validated_with_a_message_naming_them(overrides, named):
    with pytest.raises(ValueError, match=named.replace("(", r"\(").replace(")", r"\)")):
        ModelConfig(**overrides)


def test_d_model_need_not_divide_by_heads_when_head_dim_is_set():
    cfg = ModelConfig(d_model=30, n_heads=4, head_dim=8, positional="rope", rotary_dim=2)
    assert cfg.d_head == 8 and cfg.rope_dims == 2


@pytest.mark.parametrize(
    ("arch", "norm", "qk_norm", "parallel"),
    [(a, n, q, p) for a, n, q, p in itertools.product(("encoder", "decoder", "encoder-decoder"),
                                                      ("layernorm", "rmsnorm"), (False, True), (False, True))
     if not (p and a == "encoder-decoder")],
)  # fmt: skip
def test_parameter_counts_follow_the_module(arch, norm, qk_norm, parallel):
    cfg = ModelConfig(arch=arch, norm=norm, d_model=32, n_heads=4, head_dim=12, qk_norm=qk_norm, positional="rope",
                      rotary_dim=6, parallel_residual=parallel, bias=True, vocab_size=50)  # fmt: skip
    built = sum(p.numel() for p in Transformer(cfg).parameters())
    assert sum(analysis.parameter_counts(cfg).values()) == built


def test_a_model_with_every_option_runs_and_learns():
    cfg = ModelConfig(**ALL, vocab_size=40, n_layers=2, d_ff=48, max_len=16)
    net = Transformer(cfg)
    block = net.decoder[0].self_attn
    assert block.q.weight.shape == (48, 32) and block.o.weight.shape == (32, 48) and block.q_norm is not None
    assert block.inv_freq.shape == (2,)  # two rotated pairs
    ids = torch.randint(0, 40, (3, 12))
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    losses = []
    for _ in range(30):
        logits = net(ids, causal(12), cfg.scale)
        loss = torch.nn.functional.cross_entropy(logits[:, :-1].reshape(-1, 40), ids[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.5 * losses[0]
