"""Tensors over a trace's arrays without copying them. A published model's cached trace is shared by
every session and its arrays are read-only (ui/trace_cache.py); torch warns on a tensor over a read-only
array because writing to it would be undefined. The functions that use this only read it."""

from __future__ import annotations

import warnings

import numpy as np
import torch


def tensor(a, dtype=None) -> torch.Tensor:
    """torch.from_numpy(a) (a view, no copy) for an array that is only read, then cast to `dtype` if given."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The given NumPy array is not writable")
        out = torch.from_numpy(np.ascontiguousarray(a))
    return out if dtype is None else out.to(dtype)
