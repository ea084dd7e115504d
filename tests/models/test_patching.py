"""Activation patching against a peer's implementation (TransformerLens 4.3.0, its TransformerBridge around the same
transformers model our loader reads) and against identities that need no peer. Float64 throughout the oracle tests:
TransformerLens stores its maps in float32, so they agree to ~1e-7 and are checked within 1e-5.
"""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
import torch

import models
from models import patching
from models.inspection.patch_hooks import Capture, Cells, metric, pair, stream_of

from .hf.tiny import build

pytest.importorskip("transformers")
tl_patching = pytest.importorskip("transformer_lens.patching")
warnings.filterwarnings("ignore", message=".*token_id.*")

CLEAN = [300 + (11 * i) % 89 for i in range(10)]
CORRUPTED = [*CLEAN[:4], 1000, *CLEAN[5:]]  # one token differs, at position 4
ANSWER, WRONG = 310, 320
FIVE = ("out", "q", "k", "v", "pattern")


def boot(kind: str, folder, **over):
    """(our LiveModel, TransformerLens's bridge) around one tiny random checkpoint, both float64."""
    from transformer_lens.model_bridge import TransformerBridge

    hf = build(kind, folder, **over).double()
    live = models.load(folder)
    live.net.double()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HF_HUB_OFFLINE", "1")  # the model is given: nothing to download
        bridge = TransformerBridge.boot_transformers(str(folder), hf_model=hf, device="cpu", dtype=torch.float64)
    return live, bridge


@pytest.fixture(scope="module")
def gpt2(tmp_path_factory):
    return boot("gpt2", tmp_path_factory.mktemp("tl") / "gpt2")


@pytest.fixture(scope="module")
def gqa(tmp_path_factory):  # 4 query heads sharing 2 K/V heads (TransformerLens #980 crashed on its k/v maps)
    return boot("qwen2", tmp_path_factory.mktemp("tl") / "qwen2")


def tl_metric(logits):
    return logits[0, -1, ANSWER] - logits[0, -1, WRONG]


def clean_cache(bridge):
    return bridge.run_with_cache(torch.tensor([CLEAN]))[1]


@pytest.mark.parametrize("which", ["gpt2", "gqa"])
def test_head_maps_match_transformerlens(request, which):
    """Every head, all positions and by position, for the five things patched (out = z, q, k, v, pattern)."""
    live, bridge = request.getfixturevalue(which)
    corrupted, cache = torch.tensor([CORRUPTED]), clean_cache(bridge)
    theirs = tl_patching.get_act_patch_attn_head_out_all_pos(bridge, corrupted, cache, tl_metric).numpy()
    ours = patching.heads(live, CLEAN, CORRUPTED, ANSWER, WRONG)
    np.testing.assert_allclose(ours.patched, theirs, atol=1e-5, rtol=0)
    every = tl_patching.get_act_patch_attn_head_all_pos_every(bridge, corrupted, cache, tl_metric).numpy()
    by_pos = tl_patching.get_act_patch_attn_head_by_pos_every(bridge, corrupted, cache, tl_metric).numpy()
    for i, (what, mine) in enumerate(patching.every(live, CLEAN, CORRUPTED, ANSWER, WRONG).items()):
        assert what == FIVE[i]
        width = live.config.kv_heads if what in ("k", "v") else live.config.n_heads
        assert mine.patched.shape == (live.config.n_layers, width)  # k, v: [L, H_kv]
        np.testing.assert_allclose(mine.patched, every[i][:, :width], atol=1e-5, rtol=0)  # theirs zero-padded
        pos = patching.heads(live, CLEAN, CORRUPTED, ANSWER, WRONG, what=what, by_position=True)
        np.testing.assert_allclose(pos.patched, by_pos[i].transpose(0, 2, 1)[:, :width], atol=1e-5, rtol=0)


def test_residual_map_matches_transformerlens(gpt2):
    live, bridge = gpt2
    theirs = tl_patching.get_act_patch_resid_pre(bridge, torch.tensor([CORRUPTED]), clean_cache(bridge), tl_metric)
    ours = patching.residual(live, CLEAN, CORRUPTED, ANSWER, WRONG)
    assert ours.patched.shape == (live.config.n_layers, len(CLEAN))
    np.testing.assert_allclose(ours.patched, theirs.numpy(), atol=1e-5, rtol=0)


@pytest.mark.parametrize("which", ["gpt2", "gqa"])
def test_estimate_matches_attribution_patching_with_transformerlens_hooks(request, which):
    """Σ_pos (z_clean − z_corr)·∂metric/∂z on the corrupted run, the gradient from TransformerLens's backward hooks."""
    live, bridge = request.getfixturevalue(which)
    cache = clean_cache(bridge)
    acts, grads = {}, {}

    def is_z(name):
        return name.endswith("attn.hook_z")

    def keep(act, hook):
        acts[hook.name] = act.detach()

    def keep_grad(grad, hook):
        grads[hook.name] = grad.detach()

    bridge.reset_hooks()
    bridge.add_hook(is_z, keep, "fwd")
    bridge.add_hook(is_z, keep_grad, "bwd")
    try:
        tl_metric(bridge(torch.tensor([CORRUPTED]))).backward()
    finally:
        bridge.reset_hooks()
    names = sorted(acts, key=lambda n: int(n.split(".")[1]))  # hook_z's canonical name: blocks.{l}.attn.o.hook_in
    assert len(names) == live.config.n_layers
    theirs = np.stack([((cache[n] - acts[n]) * grads[n]).sum((0, 1, 3)).numpy() for n in names])
    est = patching.estimate(live, CLEAN, CORRUPTED, ANSWER, WRONG)
    np.testing.assert_allclose(est.effect, theirs, atol=1e-5, rtol=0)
    exact = patching.heads(live, CLEAN, CORRUPTED, ANSWER, WRONG)
    assert (est.clean, est.corrupted) == pytest.approx((exact.clean, exact.corrupted), abs=1e-9)
    np.testing.assert_allclose(est.patched, est.corrupted + est.effect)


# ---------------------------------------------------------------- identities


def test_residual_layer_0_patched_where_the_prompts_differ_recovers_everything(gpt2):
    """Only position 4 differs, so patching it at block 0's input is patching every position: the clean run (R = 1).
    Positions before it are the same in both runs (causality): nothing to patch, R = 0, reported as unchanged."""
    live, _ = gpt2
    r = patching.residual(live, CLEAN, CORRUPTED, ANSWER, WRONG)
    assert r.recovered[0, 4] == pytest.approx(1.0, abs=1e-9)
    assert r.unchanged[:, :4].all() and (r.recovered[:, :4] == 0).all()
    assert not r.unchanged[0, 4] and r.unchanged[0, 5:].all()  # block 0's input: each position's own token
    assert not r.unchanged[1:, 4:].any()  # after block 0 the difference has spread to every later position
    pos = patching.heads(live, CLEAN, CORRUPTED, ANSWER, WRONG, by_position=True)
    assert pos.unchanged[:, :, :4].all() and (pos.recovered[:, :, :4] == 0).all()


def test_a_head_whose_output_matrix_is_zero_recovers_nothing(tmp_path):
    build("llama", tmp_path / "llama")
    live = models.load(tmp_path / "llama")
    live.net.double()  # float64: the batched run and the base run then agree to ~1e-15, whatever their sum order
    layer, head, dh = 1, 2, live.config.d_head
    with torch.no_grad():
        live.net.decoder[layer].self_attn.o.weight[:, head * dh : (head + 1) * dh] = 0.0
    r = patching.heads(live, CLEAN, CORRUPTED, ANSWER, WRONG)
    assert abs(patching.naive_heads(live, CLEAN, CORRUPTED, ANSWER, WRONG).recovered[layer, head]) < 1e-12
    assert abs(r.recovered[layer, head]) < 1e-12
    assert np.abs(np.delete(r.recovered.ravel(), layer * live.config.n_heads + head)).max() > 1e-3


def test_estimate_converges_to_the_finite_difference(gpt2):
    """Patching z_corr + ε(z_clean − z_corr) for one head: (metric(ε) − metric(0))/ε → the estimate as ε → 0."""
    live, _ = gpt2
    s, clean, corrupted = pair(live, CLEAN, CORRUPTED)
    est = patching.estimate(live, CLEAN, CORRUPTED, ANSWER, WRONG).effect
    with torch.no_grad():
        cap_clean = Capture(s, ["z"])
        stream_of(s, clean, cap_clean)
        cap_corr = Capture(s, ["z"])
        base = float(metric(s, stream_of(s, corrupted, cap_corr)[-1][:, -1], ANSWER, WRONG)[0])
        for layer, head in [(0, 1), (1, 3)]:
            z0, z1 = cap_corr.acts["z"][layer], cap_clean.acts["z"][layer]
            errors = []
            for eps in (1e-1, 1e-2, 1e-3, 1e-4):
                x = stream_of(s, corrupted, Cells(s.attn[layer], "z", z0 + eps * (z1 - z0), [head]))[-1]
                errors.append(abs((float(metric(s, x[:, -1], ANSWER, WRONG)[0]) - base) / eps - est[layer, head]))
            assert errors[-1] < 1e-3 * max(1.0, abs(est[layer, head]))
            assert errors[-1] < errors[0] / 100  # first order: the error shrinks with ε


# ---------------------------------------------------------------- bad input, modes, progress


def test_bad_input_is_a_message(gpt2, tmp_path):
    live, _ = gpt2
    with pytest.raises(ValueError, match=r"10 tokens.*9"):
        patching.heads(live, CLEAN, CORRUPTED[:9], ANSWER, WRONG)
    with pytest.raises(ValueError, match=r"10 tokens.*11"):
        patching.estimate(live, CLEAN, [*CORRUPTED, 5], ANSWER, WRONG)
    same = patching.heads(live, CLEAN, torch.tensor([CLEAN]), [ANSWER, 7], WRONG)  # [1, T]; a word's first token
    assert not same.disagree and "agree" in same.message and np.isnan(same.recovered).all()
    assert same.unchanged.all() and (same.patched == same.corrupted).all() and same.answer_id == ANSWER
    with pytest.raises(ValueError, match="vocabulary"):
        patching.heads(live, CLEAN, CORRUPTED, 10**6, WRONG)
    with pytest.raises(ValueError, match="mode"):
        patching.heads(live, CLEAN, CORRUPTED, ANSWER, WRONG, mode="swap")
    with pytest.raises(ValueError, match="prompts"):
        patching.heads(live, CLEAN, CORRUPTED, ANSWER, WRONG, mode="mean")
    build("bert", tmp_path / "bert")
    with pytest.raises(ValueError, match=r"decoder-only.*encoder-only"):
        patching.heads(models.load(tmp_path / "bert"), CLEAN, CORRUPTED, ANSWER, WRONG)
    with pytest.raises(ValueError, match="encoder-decoder"):
        patching.residual(models.load("encoder-decoder"), CLEAN, CORRUPTED, ANSWER, WRONG)


def test_noising_and_ablations_fast_equal_naive(gpt2):
    live, _ = gpt2
    others = [[400 + (5 * i + j) % 50 for i in range(10)] for j in range(3)]
    for kw in (dict(mode="noise"), dict(mode="zero"), dict(mode="mean", prompts=others),
               dict(mode="resample", prompts=others[:2]), dict(mode="zero", what="v", by_position=True)):  # fmt: skip
        fast, slow = (patching.heads(live, CLEAN, CORRUPTED, ANSWER, WRONG, fast=f, **kw) for f in (True, False))
        np.testing.assert_allclose(fast.patched, slow.patched, atol=1e-9, rtol=0)
    noise = patching.heads(live, CLEAN, CORRUPTED, ANSWER, WRONG, mode="noise")  # the clean run, one head corrupted
    assert noise.mode == "noise" and np.abs(noise.patched - noise.clean).max() > 1e-3


def test_a_transformer_is_accepted_as_its_live_model(gpt2):
    live, _ = gpt2
    for fn in (patching.heads, patching.residual, patching.estimate):
        a, b = fn(live, CLEAN, CORRUPTED, ANSWER, WRONG), fn(live.net, CLEAN, CORRUPTED, ANSWER, WRONG)
        np.testing.assert_array_equal(a.patched, b.patched)


def test_progress_draws_layer_by_layer_and_cancel_stops(gpt2):
    live, _ = gpt2
    seen = []
    r = patching.heads(live, CLEAN, CORRUPTED, ANSWER, WRONG, on_layer=lambda i, m: seen.append((i, m)))
    assert [i for i, _ in seen] == [0, 1] and np.isnan(seen[0][1][1]).all() and not r.cancelled
    np.testing.assert_array_equal(seen[-1][1], r.patched)
    stopped = patching.heads(live, CLEAN, CORRUPTED, ANSWER, WRONG, cancel=lambda: True)
    assert stopped.cancelled and np.isfinite(stopped.patched[0]).all() and np.isnan(stopped.patched[1]).all()


def test_the_toy_decoders_induction_heads_carry_the_answer():
    """[BOS] R R[:k]: the answer is R[k], copied from the first span; the corruption changes the last token to
    R[j], which makes R[j+1] the copy. The heads that recover most are the field guide's induction heads."""
    model = models.load("decoder")
    labels = models.label_heads(models.head_scores(model))
    induction = labels == "induction"
    assert induction.any()
    rng = random.Random(3)
    total = np.zeros(labels.shape)
    for _ in range(4):
        span = rng.sample(range(10, model.config.vocab_size), 12)
        clean = [model.template[0][0], *span, *span[:7]]
        corrupted = [*clean[:-1], span[2]]
        r = patching.heads(model, clean, corrupted, span[7], span[3])
        assert r.disagree
        total += r.recovered / 4
    top = np.argsort(-total.ravel())[: int(induction.sum())]
    assert induction.ravel()[top].mean() >= 0.75, (labels, total.round(2))
    assert total[induction].mean() > total[~induction].mean() + 0.1
