"""Which device runs a published model (issue 30 §2): the GPU when there is one, else the CPU.

$ATTENTION_LAB_DEVICE = auto | cpu | cuda (auto: CUDA when torch sees it). The toy models always stay on the CPU.
On the GPU a published model's weights go from the safetensors file to the GPU in bfloat16
(models/published/checkpoints.py)
and precision auto resolves to bfloat16 (models/core/precision.py); arrays come back to the CPU only for what a trace
keeps and a page draws. `cuda` on a machine without CUDA falls back to the CPU with a notice, never a traceback.
"""

from __future__ import annotations

import os

import torch

ENV = "ATTENTION_LAB_DEVICE"
CHOICES = ("auto", "cpu", "cuda")
DEFAULT = "auto"
BYTES_PER_PARAM = 2  # bfloat16 weights on the GPU
HEADROOM = 0.15  # of the free GPU memory kept for activations, the trace and the CUDA context
HEADROOM_MIN = 2 * 2**30  # and at least this much


def choice(device: str | None = None) -> str:
    """The requested setting: device, else $ATTENTION_LAB_DEVICE, else auto (ValueError for another word)."""
    value = (device or os.environ.get(ENV) or DEFAULT).strip().lower()
    if value not in CHOICES:
        raise ValueError(f"device {value!r} is not one of {', '.join(CHOICES)} (set {ENV} to one of them)")
    return value


def cuda_ok() -> bool:
    """Whether torch sees a usable CUDA device (False where the driver or the build lacks it)."""
    try:
        return bool(torch.cuda.is_available())
    except Exception:  # a broken driver install raises instead of answering
        return False


def resolve_with_notice(device: str | None = None) -> tuple[torch.device, str | None]:
    """(the device a published model runs on, a notice when `cuda` was asked for but none is present: the CPU
    runs it instead). ValueError for a word that is not a device."""
    value = choice(device)
    if value == "cpu":
        return torch.device("cpu"), None
    if cuda_ok():
        return torch.device("cuda"), None
    if value == "cuda":
        return torch.device("cpu"), f"{ENV}=cuda, but torch sees no CUDA GPU here: the CPU runs the models"
    return torch.device("cpu"), None


def resolve(device: str | None = None) -> torch.device:
    """resolve_with_notice without the notice."""
    return resolve_with_notice(device)[0]


def on_gpu(device: torch.device | str | None) -> bool:
    return torch.device(device).type == "cuda" if device is not None else False


def gpu_name(device: torch.device | str | None = None) -> str:
    """ "NVIDIA H100 80GB HBM3" and the like; "" when it cannot be asked."""
    try:
        return torch.cuda.get_device_name(device) if cuda_ok() else ""
    except Exception:
        return ""


def gpu_free_bytes(device: torch.device | str | None = None) -> int | None:
    """Free bytes on the GPU (torch.cuda.mem_get_info), None without one."""
    if not cuda_ok():
        return None
    try:
        return int(torch.cuda.mem_get_info(device)[0])
    except Exception:
        return None


def gpu_max_params(free_bytes: int, bytes_per_param: int = BYTES_PER_PARAM) -> int:
    """The most parameters free_bytes of GPU memory holds in bfloat16, beside a headroom for the forward and its
    trace (HEADROOM of it, at least HEADROOM_MIN): an 80 GB GPU (≈79 GiB free) holds ≈36B, so Llama-3.1-8B and
    Qwen2.5-7B fit; a pure function, tested with given numbers."""
    usable = free_bytes - max(int(free_bytes * HEADROOM), HEADROOM_MIN)
    return max(0, usable // bytes_per_param)


def default_max_params(cpu_default: int) -> int:
    """$ATTENTION_LAB_MAX_PARAMS' default: what the GPU's free memory holds in bfloat16 where a GPU runs the
    published models, else cpu_default (models/checkpoints.DEFAULT_MAX_PARAMS)."""
    try:
        dev = resolve()
    except ValueError:  # a bad $ATTENTION_LAB_DEVICE: the CPU's default (load_folder names the bad word)
        return cpu_default
    free = gpu_free_bytes(dev) if on_gpu(dev) else None
    return cpu_default if free is None else gpu_max_params(free)


def free_bytes(device: torch.device | str | None) -> int | None:
    """What the "too large" check compares a model's bytes with: the GPU's free memory where it runs on the GPU,
    None (the caller reads the host's MemAvailable) on the CPU."""
    return gpu_free_bytes(device) if on_gpu(device) else None


def label(device: torch.device | str | None) -> tuple[str, str]:
    """("gpu", "NVIDIA H100 …") or ("cpu", ""): what the page says runs a published model."""
    return ("gpu", gpu_name(device)) if on_gpu(device) else ("cpu", "")


def of(module: torch.nn.Module) -> torch.device:
    """The device a model's weights are on (the CPU for a parameterless module)."""
    for p in module.parameters():
        return p.device
    return torch.device("cpu")
