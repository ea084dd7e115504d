"""The sidebar's line saying which device runs this session's published model (issue 30 §2, models/core/device.py):
"bfloat16 on the GPU (NVIDIA …)" or "float32 on the CPU", beside the precision line (ui/precision_ui.py).

A bad $ATTENTION_LAB_DEVICE and `cuda` without a GPU are said here as messages, never a traceback.
"""

from __future__ import annotations

import os

from models.core import device

from .i18n import t


def on_gpu() -> bool:
    """Whether a GPU runs this server's published models ($ATTENTION_LAB_DEVICE resolved; a bad value: no)."""
    try:
        return device.on_gpu(device.resolve())
    except ValueError:
        return False


def line(dtype: str, setting: str | None = None) -> str:
    """One line in this run's language: the dtype (what the precision line resolved) and the device it runs on,
    plus why the CPU runs it where `cuda` was asked for without a GPU. setting: None reads $ATTENTION_LAB_DEVICE."""
    try:
        dev, notice = device.resolve_with_notice(setting)
    except ValueError:
        value = (setting or os.environ.get(device.ENV) or "").strip()
        return t("model.device.bad", env=device.ENV, value=value)
    kind, name = device.label(dev)
    said = t(f"model.device.{kind}", dtype=dtype, name=name or "CUDA")
    return said if notice is None else f"{said} {t('model.device.fallback', env=device.ENV)}"
