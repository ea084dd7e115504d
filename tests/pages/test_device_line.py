"""The sidebar says which device runs a published model (issue 30 §2, ui/device_ui.py), in English and Chinese, on a
tiny published Qwen2 folder: "float32 on the CPU" here (no GPU), the fallback notice where ATTENTION_LAB_DEVICE=cuda
finds none, and a bad ATTENTION_LAB_DEVICE as a message, not a traceback. (tests/conftest.py sets
ATTENTION_LAB_DEVICE=cpu and ATTENTION_LAB_PRECISION=float32; each test sets what it needs.)"""

from __future__ import annotations

import pytest
import torch

from tests.models.hf.tiny import build

from .apptest import open_app

NAME = "p30-device-qwen2"
PROMPT = "the cat sat on the mat"


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("p30-device")
    build("qwen2", root / NAME)
    return root


@pytest.fixture
def local(models_dir, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(models_dir))
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)  # as on this machine, and on a GPU one too


def sidebar_text(at) -> str:
    return " ".join(c.value for c in at.sidebar.caption)


def test_the_sidebar_says_float32_on_the_cpu(local, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_DEVICE", "auto")
    at = open_app("explorer", model=NAME, prompt=PROMPT)
    assert "Device: **float32** on the CPU." in sidebar_text(at)
    assert "GPU" not in sidebar_text(at)
    zh = open_app("explorer", model=NAME, prompt=PROMPT, lang="zh")
    assert "设备：**float32**，在 CPU 上运行。" in sidebar_text(zh)


def test_cuda_without_a_gpu_is_a_notice_and_the_cpu_runs(local, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_DEVICE", "cuda")
    at = open_app("explorer", model=NAME, prompt=PROMPT)
    text = sidebar_text(at)
    assert "Device: **float32** on the CPU." in text
    assert "`ATTENTION_LAB_DEVICE=cuda`, but no CUDA GPU is visible to torch here" in text
    assert at.get("plotly_chart"), "the model still runs (on the CPU) and draws"
    zh = open_app("explorer", model=NAME, prompt=PROMPT, lang="zh")
    assert "torch 在这里看不到 CUDA 显卡（GPU）" in sidebar_text(zh)


def test_a_bad_device_is_a_message_not_a_traceback(tmp_path, monkeypatch):
    """A folder list of its own: the picker's scan is cached per $ATTENTION_LAB_MODELS (a server's device is fixed)."""
    build("qwen2", tmp_path / "p30-bad-device")
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(tmp_path))
    monkeypatch.setenv("ATTENTION_LAB_DEVICE", "tpu")
    at = open_app("explorer", model="p30-bad-device", prompt=PROMPT)  # open_app asserts no exception
    assert "`ATTENTION_LAB_DEVICE` is set to 'tpu', which is not one of auto, cpu, cuda" in sidebar_text(at)
    errors = " ".join(e.value for e in at.error)
    assert "device 'tpu' is not one of auto, cpu, cuda" in errors and "too large" not in errors


CARD = "NVIDIA H100 80GB HBM3"


@pytest.mark.parametrize(
    ("code", "want"),
    [
        ("en", f"Device: **bfloat16** on the GPU ({CARD})."),
        ("zh", f"设备：**bfloat16**，在显卡（GPU，{CARD}）上运行。"),
    ],
)
def test_the_gpu_line_names_the_card(monkeypatch, code, want):
    """Where a GPU runs the models (faked here: this machine has none), the line names it, and auto's reason is the
    GPU, not this CPU's bfloat16."""
    from models.core import device
    from ui import device_ui

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda _d=None: CARD)
    monkeypatch.setenv("ATTENTION_LAB_DEVICE", "auto")
    monkeypatch.setattr("ui.i18n.lang", lambda: code)
    assert device_ui.on_gpu() and device.label(device.resolve()) == ("gpu", CARD)
    assert device_ui.line("bfloat16") == want
