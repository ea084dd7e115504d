"""A published model on the GPU (issue 30 §2): a tiny Qwen3 folder, stored bfloat16 as published ones are, loaded
onto CUDA traces as on the CPU (every attention row within 0.02 in bfloat16), keeps its matrices bfloat16 on the
GPU, and hands back CPU numpy arrays. Marked gpu; skipped where torch sees no CUDA (conftest sets
ATTENTION_LAB_DEVICE=cpu, so these pass device="cuda" themselves)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import models

from .test_precision import ATOL, as_published
from .tiny import build

pytest.importorskip("transformers")
pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU (none visible to torch)"),
]


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gpu") / "qwen3"
    build("qwen3", folder)
    as_published(folder)
    return models.load(folder, precision="float32", device="cpu"), models.load(folder, precision="auto", device="cuda")


def prompt(live, n: int = 24) -> list[int]:
    rng = np.random.default_rng(0)
    return [*live.template[0], *rng.integers(110, 2000, n).tolist()]


def test_weights_are_on_the_gpu_in_bfloat16(pair):
    _, gpu = pair
    assert gpu.meta["device"] == "cuda" and gpu.meta["precision"] == "bfloat16"
    assert {p.device.type for p in gpu.net.parameters()} == {"cuda"}
    assert gpu.net.tok_emb.weight.dtype == torch.bfloat16
    assert gpu.net.decoder[0].self_attn.inv_freq.device.type == "cuda"


def test_the_gpu_trace_matches_the_cpu_trace(pair):
    cpu, gpu = pair
    ids = prompt(cpu)
    a, b = cpu.run_ids(ids), gpu.run_ids(ids)
    assert set(a.attention) == set(b.attention)
    for key in a.attention:
        ours = np.asarray(b.attention[key])
        assert isinstance(ours, np.ndarray) and ours.dtype == np.float32
        gap = np.abs(np.asarray(a.attention[key]) - ours).max()
        assert gap <= ATOL, f"{key}: {gap:.4f}"
    assert all(np.array_equal(a.masks[k], b.masks[k]) for k in a.masks)
    assert np.asarray(b.hidden["decoder"]).shape == np.asarray(a.hidden["decoder"]).shape


def test_generation_runs_on_the_gpu(pair):
    cpu, gpu = pair
    ids = prompt(cpu, 8)
    steps = list(gpu.generate_ids(None, ids, max_new_tokens=4))
    assert len(steps) == 4 and all(isinstance(s.probs, np.ndarray) for s in steps)
    assert abs(float(steps[0].probs.sum()) - 1.0) < 1e-6


def test_a_long_trace_recomputes_its_layers_on_the_gpu(pair, monkeypatch):
    from models.core import long_trace

    cpu, gpu = pair
    monkeypatch.setattr(long_trace, "LAZY_ATTENTION_BYTES", 0)  # every trace is long: layers recomputed when read
    ids = prompt(cpu, 40)
    a, b = cpu.run_ids(ids), gpu.run_ids(ids)
    for layer in range(cpu.config.n_layers):
        gap = np.abs(a.attention["decoder.self"][layer] - b.attention["decoder.self"][layer]).max()
        assert gap <= ATOL, f"layer {layer}: {gap:.4f}"
