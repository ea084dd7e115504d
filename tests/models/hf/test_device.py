"""Which device runs a published model (issue 30 §2, models/core/device.py), on the CPU: $ATTENTION_LAB_DEVICE's values,
a bad value's message, `cuda` without CUDA falling back to the CPU with a notice, the GPU's default size limit from
given numbers, and a tiny published folder on device="cpu" tracing exactly as the default load (bit for bit).
The GPU itself: tests/models/hf/test_device_gpu.py (marked gpu, skipped without CUDA)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import models
from models.core import device
from models.errors import WeightsError
from models.published import checkpoints

from .tiny import build

pytest.importorskip("transformers")
GIB = 2**30
LLAMA_31_8B, QWEN25_7B = 8_030_261_248, 7_615_616_512  # their safetensors headers' parameter counts


@pytest.fixture
def no_cuda(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)


@pytest.fixture(scope="module")
def qwen3(tmp_path_factory):
    folder = tmp_path_factory.mktemp("device") / "qwen3"
    build("qwen3", folder)
    return folder


@pytest.mark.parametrize(("value", "want"), [("cpu", "cpu"), (" CPU ", "cpu"), ("auto", "cpu"), ("", "cpu")])
def test_env_values_resolve_on_a_machine_without_cuda(monkeypatch, no_cuda, value, want):
    monkeypatch.setenv(device.ENV, value)
    assert device.resolve_with_notice() == (torch.device(want), None)


def test_auto_picks_cuda_where_torch_sees_it_and_cpu_stays_cpu(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert device.resolve("auto") == torch.device("cuda") and device.resolve("cuda") == torch.device("cuda")
    assert device.resolve("cpu") == torch.device("cpu")
    monkeypatch.delenv(device.ENV, raising=False)
    assert device.resolve() == torch.device("cuda")


def test_a_bad_value_says_what_is_allowed(monkeypatch):
    monkeypatch.setenv(device.ENV, "gpu0")
    with pytest.raises(ValueError, match=r"'gpu0' is not one of auto, cpu, cuda \(set ATTENTION_LAB_DEVICE"):
        device.resolve()


def test_cuda_without_cuda_falls_back_to_the_cpu_with_a_notice(no_cuda):
    dev, notice = device.resolve_with_notice("cuda")
    assert dev == torch.device("cpu")
    assert notice is not None and "ATTENTION_LAB_DEVICE=cuda" in notice and "CPU runs the models" in notice


def test_a_broken_cuda_install_reads_as_no_cuda(monkeypatch):
    def boom():
        raise RuntimeError("driver too old")

    monkeypatch.setattr(torch.cuda, "is_available", boom)
    assert device.resolve_with_notice("auto") == (torch.device("cpu"), None)


def test_gpu_max_params_from_given_numbers():
    # an 80 GB GPU with ~79 GiB free: 15% kept as headroom, 2 bytes a parameter
    free = 79 * GIB
    n = device.gpu_max_params(free)
    assert n == (free - int(free * device.HEADROOM)) // 2
    assert n > LLAMA_31_8B and n > QWEN25_7B and 36.0e9 < n < 36.1e9
    # a small GPU: the 2 GiB floor of headroom rules
    assert device.gpu_max_params(6 * GIB) == 2 * GIB
    assert device.gpu_max_params(GIB) == 0 and device.gpu_max_params(0) == 0
    # a 24 GB card holds a 7B model in bfloat16, not a 14B one
    assert QWEN25_7B < device.gpu_max_params(23 * GIB) < 14e9


def test_max_params_default_is_the_gpus_where_a_gpu_runs(monkeypatch):
    monkeypatch.delenv(checkpoints.MAX_PARAMS_ENV, raising=False)
    monkeypatch.setenv(device.ENV, "auto")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert checkpoints.max_params() == checkpoints.DEFAULT_MAX_PARAMS  # the CPU's default, unchanged
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(device, "gpu_free_bytes", lambda _d=None: 79 * GIB)
    assert checkpoints.max_params() == device.gpu_max_params(79 * GIB)
    assert checkpoints.too_large(LLAMA_31_8B, 2, torch.device("cuda")) is None  # the GPU's memory, not the host's
    monkeypatch.setattr(device, "gpu_free_bytes", lambda _d=None: 12 * GIB)
    reason = checkpoints.too_large(QWEN25_7B, 2, torch.device("cuda"))
    assert reason is not None and "ATTENTION_LAB_MAX_PARAMS" in reason
    monkeypatch.setenv(checkpoints.MAX_PARAMS_ENV, "3e9")  # an explicit setting wins
    assert checkpoints.max_params() == 3_000_000_000
    monkeypatch.setenv(device.ENV, "cpu")
    monkeypatch.delenv(checkpoints.MAX_PARAMS_ENV)
    assert checkpoints.max_params() == checkpoints.DEFAULT_MAX_PARAMS  # cpu asked for: the GPU's size is not used


def test_a_bad_device_is_a_weights_error_and_a_picker_reason(monkeypatch, qwen3):
    monkeypatch.setenv(device.ENV, "tpu")
    with pytest.raises(WeightsError, match="'tpu' is not one of auto, cpu, cuda"):
        models.load(qwen3)
    entry = checkpoints.describe(qwen3)
    assert entry.error is not None and "'tpu' is not one of auto, cpu, cuda" in entry.error


def _same(a, b) -> None:
    """Every array of two traces equal bit for bit."""
    assert a.tokens == b.tokens and set(a.attention) == set(b.attention)
    for name in ("attention", "scores", "hidden", "masks", "value_norms"):
        x, y = getattr(a, name), getattr(b, name)
        assert set(x) == set(y), name
        for key in x:
            assert np.array_equal(np.asarray(x[key]), np.asarray(y[key])), f"{name}[{key}]"
    assert np.array_equal(np.asarray(a.logits), np.asarray(b.logits))


def test_device_cpu_traces_bit_for_bit_as_the_default_load(monkeypatch, no_cuda, qwen3):
    monkeypatch.delenv(device.ENV, raising=False)
    plain = models.load(qwen3)  # auto on a machine without CUDA: the CPU, as before issue 30 §2
    on_cpu = models.load(qwen3, device="cpu")
    fallback = models.load(qwen3, device="cuda")  # no CUDA here: the CPU, with a notice in meta
    assert {p.device.type for m in (plain, on_cpu, fallback) for p in m.net.parameters()} == {"cpu"}
    assert on_cpu.meta["device"] == "cpu" and "device_notice" not in on_cpu.meta
    assert "ATTENTION_LAB_DEVICE=cuda" in fallback.meta["device_notice"]
    ids = [*plain.template[0], *range(120, 136)]
    for other in (on_cpu, fallback):
        _same(plain.run_ids(ids), other.run_ids(ids))
        a, b = list(plain.generate_ids(None, ids, max_new_tokens=4)), list(other.generate_ids(None, ids, 4))
        assert [s.token_id for s in a] == [s.token_id for s in b]
        assert all(np.array_equal(x.probs, y.probs) for x, y in zip(a, b, strict=True))


def test_the_precision_follows_the_device(monkeypatch, no_cuda, qwen3):
    """auto is bfloat16 where a GPU runs the model, whatever this CPU has; a model on the CPU keeps the CPU's rule."""
    from models.core import precision

    monkeypatch.setattr(precision, "native_bf16", lambda: False)
    assert precision.resolve("auto", gpu=True) == torch.bfloat16
    assert precision.resolve("auto", gpu=False) == torch.float32
    assert precision.resolve("float32", gpu=True) == torch.float32
    live = models.load(qwen3, precision="auto", device="cpu")
    assert live.meta["precision"] == "float32"
