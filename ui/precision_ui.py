"""The sidebar's line saying which precision published models run in (issue 30, models/precision.py).

The precision is the process's ($ATTENTION_LAB_PRECISION, default auto), resolved once: every session shares one
loaded model (st.cache_resource), so a per-session switch would need the precision in every published model's cache
key (get_model and each loader keyed by (name, weights)); until then it is set where the app is started.
"""

from __future__ import annotations

import torch

from models import precision

from .i18n import t


def running() -> tuple[str, str]:
    """(the dtype's name, the why-key) for this process, as models.load resolves it; a bad $ATTENTION_LAB_PRECISION
    reads as float32 here (the loader names the error)."""
    try:
        value, dtype = precision.choice(), precision.resolve()
    except ValueError:
        return "float32", "set"
    why = ("auto_native" if dtype == torch.bfloat16 else "auto_plain") if value == "auto" else "set"
    return ("bfloat16" if dtype == torch.bfloat16 else "float32"), why


def line() -> str:
    """One line for the sidebar, under the model picker, in this run's language."""
    name, why = running()
    reason = t(f"model.precision.why.{why}", env=precision.ENV)
    return t(f"model.precision.{name}", why=reason, env=precision.ENV)
