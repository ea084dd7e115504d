"""run_ids' attentions write straight into the trace's [L, H, Tq, Tk] arrays (models/core/trace_fill.py, attention()'s
into): the same numbers, bit for bit, as new tensors per layer, and gradients unchanged by the in-place steps."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import models
from models.core.attention import attention, causal
from models.published.hf_tokenizer import _cut


def _out_of_place(q, k, v, mask, scale, bias, cap):
    """attention() as written before the in-place steps: every step a new tensor."""
    scores = (q @ k.transpose(-2, -1)) * scale
    scores = scores if bias is None else scores + bias
    scores = scores if cap is None else torch.tanh(scores / cap) * cap
    scores = scores if mask is None else scores.masked_fill(~mask, float("-inf"))
    weights = torch.nan_to_num(torch.softmax(scores, dim=-1), nan=0.0)
    return weights @ v, weights, scores


MASKS = {
    "none": None,
    "all": torch.ones(9, 9, dtype=torch.bool),
    "causal": causal(9),
    "empty_row": causal(9) & (torch.arange(9)[:, None] > 0),  # query 0 may attend to nothing
}


@pytest.mark.parametrize("group", [1, 2])
@pytest.mark.parametrize("masked", list(MASKS))
def test_attention_into_is_bitwise_the_same(group, masked):
    g = torch.Generator().manual_seed(0)
    q = torch.randn(1, 4, 9, 8, generator=g)
    k, v = torch.randn(1, 4 // group, 9, 8, generator=g), torch.randn(1, 4 // group, 9, 8, generator=g)
    mask, bias = MASKS[masked], torch.randn(4, 9, 9, generator=g)
    for b, cap in ((None, None), (bias, None), (None, 2.0)):
        kv = (k.repeat_interleave(group, 1), v.repeat_interleave(group, 1))
        before = _out_of_place(q, *kv, mask, 0.3, b, cap)
        s_buf, w_buf = torch.full((3, 1, 4, 9, 9), 5.0), torch.full((3, 1, 4, 9, 9), 5.0)
        for got in (attention(q, k, v, mask, 0.3, b, cap), attention(q, k, v, mask, 0.3, b, cap, (s_buf[1], w_buf[1]))):
            assert all(torch.equal(a, c) for a, c in zip(before, got, strict=True))
        assert torch.equal(w_buf[1], before[1]) and torch.equal(s_buf[1], before[2])
        assert (w_buf[[0, 2]] == 5.0).all() and (s_buf[[0, 2]] == 5.0).all()  # only its own layer's slice
        if masked == "empty_row":
            assert (w_buf[1][0, :, 0] == 0).all()  # a fully masked row: weight 0, not NaN


@pytest.mark.parametrize("cap", [None, 3.0])
def test_in_place_steps_keep_gradients(cap):
    grads = []
    for fn in (attention, _out_of_place):
        q = torch.randn(1, 2, 6, 4, generator=torch.Generator().manual_seed(1)).requires_grad_(True)
        out, w, _ = fn(q, q, q, causal(6), 0.5, torch.ones(2, 6, 6), cap)
        (out.sum() + (w * w).sum()).backward()
        grads.append(q.grad)
    assert torch.equal(*grads)


@pytest.mark.parametrize("name", ["decoder", "encoder", "encoder-decoder"])
def test_trace_arrays_are_each_layers_own_numbers(name):
    m = models.load(name)
    tr = m.run("the cat sat on the mat because it was tired", target="le chat" if name == "encoder-decoder" else None)
    key = "decoder.self" if m.config.arch == "decoder" else "encoder.self"
    stack = m.net.decoder if m.config.arch == "decoder" else m.net.encoder
    with torch.inference_mode():  # run_stack without into: each layer's own new tensors
        _, recs, _ = m.net.run_stack(stack, torch.tensor([tr.ids]), torch.from_numpy(tr.masks[key]), m.config.scale)
    assert np.array_equal(tr.attention[key], np.stack([r["self_weights"][0].numpy() for r in recs]))
    assert np.array_equal(tr.scores[key], np.stack([r["self_scores"][0].numpy() for r in recs]))
    assert tr.attention[key].shape[0] == m.config.n_layers and tr.attention[key].flags.c_contiguous


def test_a_stray_byte_ends_the_search_for_its_character():
    assert _cut("é".encode()[:1])  # cut inside a character: the next piece may complete it
    assert not _cut(b"ok") and not _cut("é".encode())  # whole
    assert not _cut(b"\x80abc") and not _cut(b"\xe2\x41")  # a bad byte stays bad whatever follows


@pytest.mark.parametrize("name", ["decoder", "encoder", "encoder-decoder"])
def test_heads_only_runs_give_the_same_trace_without_logits_or_scores(name):
    """run(heads_only=True), the trace loaders' forward (issue 40): bit for bit the same attention, hidden states,
    value norms and masks as a full run, and no vocabulary logits or pre-softmax scores (pages drew neither)."""
    model = models.load(name)
    text = "alice gave bob 12 books . then bob"
    full, slim = model.run(text), model.run(text, heads_only=True)
    for part in ("attention", "hidden", "value_norms", "masks"):
        a, b = getattr(full, part), getattr(slim, part)
        assert a.keys() == b.keys()
        assert all(np.array_equal(np.asarray(a[k]), np.asarray(b[k])) for k in a), part
    assert full.tokens == slim.tokens and full.target_tokens == slim.target_tokens
    assert np.asarray(full.logits).shape[0] == len(full.target_tokens or full.tokens)  # a full run has them
    assert np.asarray(slim.logits).shape == (0, 0) and slim.scores == {}
