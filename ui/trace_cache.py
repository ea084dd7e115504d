"""Traces of published models, cached by bytes, not by entry count (issue 21): `cached` is used instead
of st.cache_data by ui/loaders.trace, trace_ids and self_scores.

st.cache_data bounds a cache by its number of entries: right for the toy models (a 256-token trace is
~2.5 MB), but a published model's 256-token trace is ~106 MB (Qwen2.5-0.5B's shape), so 32 entries could
hold 3 GB+. Here the total is capped in bytes (the arrays' and tensors' nbytes), least recently used
first out, shared by every session and every function that uses it.

A hit returns the cached object itself, not a copy (st.cache_data unpickles a copy on every hit: ~100 MB
for such a trace). Its numpy arrays are made read-only, so a page that wrote into one would fail loudly
instead of changing what other sessions see. A value larger than the whole cap is returned uncached.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import inspect
import os
import threading
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np
import streamlit as st
import torch

from models.core.lazy import LazyScores

from .params import local_models

# ATTENTION_LAB_TRACE_CACHE_MB: the bytes all cached published-model traces may take together (default
# 1024 MB: about ten 256-token traces of a 0.5B model, so a class on one prompt and its pages all hit).
TRACE_CACHE_MB = float(os.environ.get("ATTENTION_LAB_TRACE_CACHE_MB", "1024"))


def nbytes(value: Any) -> int:
    """The bytes of the arrays and tensors in value (dataclasses, dicts, lists, tuples walked; strings
    counted by length; anything else counts nothing)."""
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, torch.Tensor):
        return value.numel() * value.element_size()
    if isinstance(value, str | bytes):
        return len(value)
    if hasattr(value, "held_bytes"):  # a long trace's per-layer parts (models/core/long_trace.py): what they can hold
        return int(value.held_bytes)
    if isinstance(value, dict):  # dict.items: never fills a LazyScores (that would run the model again)
        return sum(nbytes(k) + nbytes(v) for k, v in dict.items(value))
    if isinstance(value, list | tuple):
        return sum(nbytes(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = [getattr(value, f.name) for f in dataclasses.fields(value)]
        # A Trace's scores not computed yet (LazyScores) will be the attention's size once read: counted now.
        lazy = sum(
            nbytes(getattr(value, "attention", {})) for v in fields if isinstance(v, LazyScores) and not v.filled
        )
        return sum(nbytes(v) for v in fields) + lazy
    return 0


def freeze(value: Any) -> None:
    """Make the numpy arrays in value read-only (shared by every session from now on)."""
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    elif isinstance(value, dict):
        for v in dict.values(value):  # not LazyScores.values(): it would run the model again
            freeze(v)
    elif isinstance(value, list | tuple):
        for v in value:
            freeze(v)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            freeze(getattr(value, f.name))


class ByteLRU:
    """A thread-safe least-recently-used cache whose entries' nbytes together stay within cap_bytes."""

    def __init__(self, cap_bytes: int):
        self.cap_bytes = int(cap_bytes)
        self._entries: collections.OrderedDict[Hashable, tuple[Any, int]] = collections.OrderedDict()
        self._lock = threading.Lock()
        self.total = 0  # bytes held now

    def get(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """The cached value of key, else compute() (outside the lock: other keys do not wait), kept."""
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key][0]
        value = compute()
        size = nbytes(value)
        freeze(value)
        with self._lock:
            if key in self._entries:  # another thread computed it meanwhile: one copy is kept
                self._entries.move_to_end(key)
                return self._entries[key][0]
            if size <= self.cap_bytes:
                self._entries[key] = (value, size)
                self.total += size
                while self.total > self.cap_bytes:
                    _, (_, freed) = self._entries.popitem(last=False)
                    self.total -= freed
        return value

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._entries

    def order(self) -> list[Hashable]:
        """Least recently used first."""
        with self._lock:
            return list(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.total = 0


TRACES = ByteLRU(int(TRACE_CACHE_MB * 2**20))
# ATTENTION_LAB_TOY_TRACE_CACHE_MB: the same for the shipped toy models' traces (default 16 MB: about 250 short
# prompts' traces, six of 256 tokens; st.cache_data held 64 per loader, about as many bytes). They were in
# st.cache_data, which hashes the arguments and unpickles a copy on every hit and pickles every new trace: a
# twelfth of the Masks page's rerun (bench/rerun_cpu.py, issue 40).
TOY_TRACE_CACHE_MB = float(os.environ.get("ATTENTION_LAB_TOY_TRACE_CACHE_MB", "16"))
TOY_TRACES = ByteLRU(int(TOY_TRACE_CACHE_MB * 2**20))


def cached(max_entries: int) -> Callable[[Callable], Callable]:
    """For a loader whose first argument is a model name: TOY_TRACES for the shipped toy models (keyed by the call
    as written; st.cache_data(max_entries) for arguments that cannot be hashed), TRACES for a published one, keyed
    by its folder too (another folder may reuse a name) and by every argument, defaults applied."""

    def decorate(fn: Callable) -> Callable:
        toy = st.cache_data(show_spinner=False, max_entries=max_entries)(fn)
        signature = inspect.signature(fn)

        def key(name: str, *args, **kwargs) -> tuple | None:
            """The call's key in TRACES (None: a toy model's call, in st.cache_data): ui/long_runs.py puts a trace
            computed elsewhere under it."""
            entry = local_models().get(name)
            if entry is None:
                return None
            bound = signature.bind(name, *args, **kwargs)
            bound.apply_defaults()
            return (fn.__qualname__, str(entry.path), tuple(bound.arguments.items()))

        @functools.wraps(fn)
        def call(name: str, *args, **kwargs):
            at = key(name, *args, **kwargs)
            if at is None:
                toy_key = (fn.__qualname__, name, args, tuple(sorted(kwargs.items())))
                try:
                    hash(toy_key)
                except TypeError:
                    return toy(name, *args, **kwargs)
                return TOY_TRACES.get(toy_key, lambda: fn(name, *args, **kwargs))
            return TRACES.get(at, lambda: fn(name, *args, **kwargs))

        call.clear, call.key = toy.clear, key
        return call

    return decorate
