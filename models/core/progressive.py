"""A long prompt's first layer drawn before its forward is done (issue 30 §3).

At 2,048 tokens a 0.6B model's forward takes 13 s or more here, and a long trace only keeps each layer's input (the
residual stream) anyway: layer l's attention is recomputed from stream[l] when read (models/core/long_trace.py). So
Progressive runs LiveModel.run_ids in a thread of its own, through a forward that tells each layer's input as soon as
the stack has computed it (Transformer.steps, the same blocks and code as every forward), and `layer(l)` waits only
until stream[l] exists, then recomputes layer l from it with long_trace.Recompute: the same input (rounded to
bfloat16 where the trace keeps it so), mask, scale and block code as the finished trace's, so the layer is the
finished trace's bit for bit. When the forward ends, `trace` is the ordinary Trace. Thread-safe: one Progressive is
shared by every session that asks for the same prompt (ui/long_runs.py).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import numpy as np
import torch

from . import precision
from .long_trace import LayerCache, Layers, Recompute, is_long


def eligible(model, n_ids: int) -> bool:
    """A decoder-only model whose trace of n_ids tokens is a long one (per layer), with softmax layers only (Qwen3.5's
    hybrid draws its own page)."""
    cfg = model.config
    linear = "linear_attention" in (cfg.layer_types or ())
    return cfg.arch == "decoder" and not linear and is_long(cfg.n_layers, cfg.n_heads, n_ids)


def forward_flops(model, n_ids: int) -> float:
    """About what a decoder's forward over n_ids tokens computes: 2·params·n for the blocks' matrices, 4·L·H·d·n² for
    q·kᵀ and the weights times v (Qwen3-0.6B at 2,048 tokens: ~2.8 TFLOP). ui/long_runs.py decides by it."""
    cfg = model.config
    params = sum(p.numel() for p in model.net.decoder.parameters())
    return 2.0 * params * n_ids + 4.0 * cfg.n_layers * cfg.n_heads * cfg.d_head * n_ids * n_ids


class Abandoned(RuntimeError):
    """No session looked at this forward for a while (`alive` said so): it stopped between two layers."""


class _Inputs:
    """The stack's inputs so far, [L+1, T, d] as Recompute reads them: item l waits until the forward has it."""

    def __init__(self, owner: Progressive, shape: tuple[int, int, int]):
        self._owner, self.shape = owner, shape

    def __getitem__(self, row: int) -> torch.Tensor:
        return self._owner._input(row)


class Progressive:
    """LiveModel.run_ids(ids) running in a background thread. `layer(l)` [H, T, T] float32 as soon as layer l's
    input is computed; `done` (layers), `trace` (None until the forward ends), `error` (what it raised, if it did)."""

    def __init__(self, model, ids: list[int], truncated: bool = False, setup: Callable[[], None] | None = None,
                 on_done: Callable[[Progressive], None] | None = None,
                 alive: Callable[[Progressive], bool] | None = None):  # fmt: skip
        """setup: called first in the thread (ui: a lower CPU priority); on_done: called in the thread at the end,
        with the trace or the error set; alive: asked after setup and between layers, False stops the forward
        (error Abandoned: a prompt nobody waits for any more gives its turn to the next one)."""
        cfg = model.config
        self.model, self.ids, self.truncated = model, list(ids), truncated
        self.n_layers = cfg.n_layers
        self.tokens: list[str] = model.tokenizer.token_strs(self.ids)
        self.target_tokens = None  # what controls.axis_tokens reads of a Trace
        self.trace = None
        self.error: BaseException | None = None
        self._bf16 = precision.running(model.net) == "bfloat16"  # the finished trace keeps its stream so
        self._cond = threading.Condition()
        self._inputs: list[torch.Tensor] = []
        self._again: Recompute | None = None
        self._setup, self._on_done, self._alive = setup, on_done, alive
        self.seen = time.monotonic()  # when a session last asked for this forward (touch)
        self._thread = threading.Thread(target=self._run, name="progressive-trace", daemon=True)
        self._thread.start()

    def touch(self) -> None:
        """A session still waits for this forward (ui/long_runs.py: each run and each progress poll)."""
        self.seen = time.monotonic()

    def _check(self) -> None:
        if self._alive is not None and not self._alive(self):
            raise Abandoned(f"no session waited for this {len(self.ids)}-token forward")

    @property
    def done(self) -> int:
        """How many blocks have run (the progress line's k of L); layers 0..done can be drawn now."""
        with self._cond:
            return self.n_layers if self.trace is not None else max(len(self._inputs) - 1, 0)

    def ready(self, i: int, timeout: float = 0.0) -> bool:
        """Whether layer i can be read without waiting for the forward (its input is computed), waiting up to timeout
        seconds for it."""
        with self._cond:
            return self._cond.wait_for(lambda: self.finished or len(self._inputs) > i, timeout) and (
                self.trace is not None or len(self._inputs) > i
            )

    @property
    def finished(self) -> bool:
        return self.trace is not None or self.error is not None

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the forward to end; whether it did."""
        self._thread.join(timeout)
        return self.finished

    def layer(self, i: int, what: str = "weights") -> np.ndarray:
        """Layer i's [H, T, T] weights (or scores), waiting only until the forward has computed its input."""
        if self.trace is not None:  # done: the trace's own (its layer cache is shared with every page)
            return (self.trace.attention if what == "weights" else self.trace.scores)["decoder.self"][i]
        self._input(i)  # waits; raises the forward's error
        with self._cond:
            again = self._again
        return again.get(i, what)

    def layer_head(self, i: int, h: int, what: str = "weights") -> np.ndarray:
        """Head h of layer i, [T, T]: that head alone recomputed (long_trace.Recompute.get)."""
        if self.trace is not None:
            return (self.trace.attention if what == "weights" else self.trace.scores)["decoder.self"][i, h]
        self._input(i)
        with self._cond:
            again = self._again
        return again.get(i, what, h)

    @property
    def attention(self) -> dict[str, Layers]:
        """{"decoder.self": [L, H, T, T]} whose layer l waits for layer l only (what a page indexes in a Trace)."""
        return {"decoder.self": _Partial(self)}

    @property
    def value_norms(self) -> dict[str, _Finished]:
        """{"decoder.self": the finished trace's [L, H, T] value norms}, waiting for it when indexed (the pages draw no
        value-weighted view from a Progressive: ui/long_runs.draw_partial)."""
        return {"decoder.self": _Finished(self)}

    # ------------------------------------------------------------- the thread
    def _input(self, row: int) -> torch.Tensor:
        with self._cond:
            while len(self._inputs) <= row and self.error is None and self.trace is None:
                self._cond.wait()
            if len(self._inputs) > row:
                return self._inputs[row]
            if self.error is not None:
                raise self.error
        return self.trace.hidden["decoder"]  # pragma: no cover - a row past the stack

    def _run(self) -> None:
        try:
            if self._setup is not None:
                self._setup()
            self._check()  # abandoned while it waited for its turn
            trace = self.model.run_ids(self.ids, truncated=self.truncated, forward=self._forward)
            with self._cond:
                self.trace = trace
                self._cond.notify_all()
        except BaseException as e:  # told to every reader, and raised where one reads
            with self._cond:
                self.error = e
                self._cond.notify_all()
        finally:
            if self._on_done is not None:
                self._on_done(self)

    def _forward(self, net, blocks, ids, mask, scale, scores=None, long=True):
        """trace_fill.run_filled(..., long=True) (a long trace keeps no weights), telling each layer's input."""
        assert long, "Progressive runs long traces only"
        shape = (len(blocks) + 1, ids.shape[1], net.cfg.d_model)
        again = Recompute(net, blocks, range(len(blocks)), _Inputs(self, shape), "self", mask, scale, LayerCache())
        with self._cond:
            self._again = again
        stream, records = [], []
        for x, rec in net.steps(blocks, ids, mask, scale, need_weights=False):
            stream.append(x)
            if rec is not None:
                records.append(rec)
            kept = x[0].to(torch.bfloat16) if self._bf16 else x[0]  # as long_trace.keep_stream keeps it
            with self._cond:
                self._inputs.append(kept)
                self._cond.notify_all()
            self._check()
        return x, records, stream, {}


class _Partial(Layers):
    """Progressive.attention's value: layer l of the main self-attention, waiting for layer l only."""

    def __init__(self, owner: Progressive):
        self._owner = owner
        t = len(owner.ids)
        self.shape = (owner.n_layers, owner.model.config.n_heads, t, t)

    def layer(self, i: int) -> np.ndarray:
        return self._owner.layer(i)

    def layer_head(self, i: int, h: int) -> np.ndarray:
        return self._owner.layer_head(i, h)


class _Finished:
    """Progressive.value_norms' value: indexing it waits for the whole trace."""

    def __init__(self, owner: Progressive):
        self._owner = owner

    def __getitem__(self, idx):
        self._owner.wait()
        if self._owner.error is not None:
            raise self._owner.error
        return self._owner.trace.value_norms["decoder.self"][idx]
