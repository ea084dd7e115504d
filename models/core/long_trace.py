"""Long traces (issue 30 §3): a whole paragraph's attention is computed one layer at a time, when a page reads it.

At 2,048 tokens Qwen3-0.6B's attention is 28 layers × 16 heads × 2,048² floats = 7.5 GB, and the scores as much
again. Above LAZY_ATTENTION_BYTES a trace therefore keeps each block's input (the residual stream, which it keeps
anyway as Trace.hidden) and its forward runs fused attention that returns no weights (attention.fused_attention).
tr.attention[key][l] then runs block l again from its stored input, through the block's own forward up to that
attention (Block.forward(upto=...)): the same norm, projections, q/k norms, RoPE, masks (Gemma's sliding layers),
T5's bias and soft-capping as the eager path, so a layer reads exactly as an eager trace's would. A small LRU
(LAYER_CACHE_BYTES, shared by a trace's keys) keeps the last layers read; np.asarray(...) builds all of them.
"""

from __future__ import annotations

import collections
import threading

import numpy as np
import torch

from . import readonly

# A key whose [L, H, Tq, Tk] float32 weights would exceed this is computed layer by layer (tests monkeypatch it).
LAZY_ATTENTION_BYTES = 64 * 2**20
# The computed layers a trace keeps, for all its keys together (at least the last one read): a 2,048-token layer of
# a 16-head model is 256 MB, so one stays; at 512 tokens, 24.
LAYER_CACHE_BYTES = 384 * 2**20


def is_long(n_layers: int, n_heads: int, n_keys: int) -> bool:
    """Whether a trace over n_keys positions keeps its attention per layer instead of whole."""
    return n_layers * n_heads * n_keys * n_keys * 4 > LAZY_ATTENTION_BYTES


class LayerCache:
    """Least recently used layers by bytes, thread-safe (a cached trace is shared by every session). A layer is
    computed under the lock: two sessions asking for the same layer compute it once."""

    def __init__(self, cap_bytes: int | None = None):
        self.cap_bytes = LAYER_CACHE_BYTES if cap_bytes is None else int(cap_bytes)
        self._entries: collections.OrderedDict = collections.OrderedDict()
        self._lock = threading.Lock()
        self.total = 0  # bytes held now
        self.largest = 0  # the largest entry asked for so far (held_bytes' bound)

    def get(self, key, compute) -> np.ndarray:
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
            value = compute()
            value.flags.writeable = False  # shared by every session that reads this trace
            self._entries[key] = value
            self.total += value.nbytes
            self.largest = max(self.largest, value.nbytes)
            while self.total > self.cap_bytes and len(self._entries) > 1:
                _, old = self._entries.popitem(last=False)
                self.total -= old.nbytes
            return value

    def peek(self, key):
        """The entry if held (not computed, not moved up)."""
        with self._lock:
            return self._entries.get(key)

    def bound(self, entry_bytes: int) -> int:
        """The most this cache can hold when its entries are entry_bytes each: the cap, or one entry above it."""
        return max(self.cap_bytes, entry_bytes)


class Layers:
    """A lazy [L, ...] array whose layer i is `layer(i)` (a read-only array): the interface of Trace.attention's
    values (as linear_attention.LinearLayers) for pages that index, slice, iterate or np.asarray it."""

    shape: tuple[int, ...]
    ndim = 4
    dtype = np.dtype(np.float32)

    def layer(self, i: int) -> np.ndarray:  # pragma: no cover - every subclass has its own
        raise NotImplementedError

    def layer_head(self, i: int, h: int) -> np.ndarray:
        """[Tq, Tk] of head h of layer i (a recomputed trace computes that head only: Recompute.get)."""
        return self.layer(i)[h]

    @property
    def nbytes(self) -> int:
        """The bytes of np.asarray(self), every layer (what it holds: held_bytes)."""
        return 4 * int(np.prod(self.shape))

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, idx):
        if isinstance(idx, tuple):
            first, rest = idx[0], idx[1:]
            if isinstance(first, (int, np.integer)) and rest and isinstance(rest[0], (int, np.integer)):
                i, h = int(first) % len(self), int(rest[0]) % self.shape[1]  # one head: [l, h, ...]
                return self.layer_head(i, h)[rest[1:]]
            return self[first][rest] if isinstance(first, (int, np.integer)) else self[first][(slice(None), *rest)]
        if isinstance(idx, (int, np.integer)):
            if not -len(self) <= idx < len(self):
                raise IndexError(f"layer {idx} of {len(self)}")
            return self.layer(int(idx) % len(self))
        rows = range(len(self))[idx]
        if not len(rows):
            return np.zeros((0, *self.shape[1:]), np.float32)
        return np.stack([self.layer(i) for i in rows])

    def __array__(self, dtype=None, copy=None):
        out = self[:]
        return out if dtype is None else out.astype(dtype)

    def __iter__(self):
        return (self.layer(i) for i in range(len(self)))

    def __reduce__(self):  # pickles as the plain array (as LazyLogits)
        return (np.array, (np.asarray(self),))


class Recompute:
    """One attention key of a long trace: layer i (the model's layer rows[i] of `stack`) recomputed from its
    stored input stream[rows[i]] by the block's own forward, stopped after that attention (part "self" | "cross").
    mask: the stack's self-attention mask [Tq, Tk]; memory, cross_mask: the encoder output and the cross mask."""

    def __init__(self, net, stack, rows, stream, part, mask, scale, cache, memory=None, cross_mask=None):
        self.net, self.stack, self.rows, self.stream, self.part = net, stack, list(rows), stream, part
        self.mask, self.scale, self.cache, self.memory, self.cross_mask = mask, scale, cache, memory, cross_mask
        block = stack[self.rows[0]]  # (Qwen3.5: a softmax layer)
        heads = block.self_attn.n_heads if part == "self" else block.cross_attn.n_heads
        n_keys = stream.shape[1] if part == "self" else memory.shape[1]
        self.shape = (len(self.rows), heads, stream.shape[1], n_keys)

    @torch.inference_mode()
    def _record(self, i: int, head: int | None = None) -> dict:
        row = self.rows[i]
        block = self.stack[row]
        dev = self.mask.device if self.mask is not None else self.net.tok_emb.weight.device
        # (1, T, d): activations run float32 (models/core/precision.py)
        x = self.stream[row].to(dev, torch.float32)[None]
        t = x.shape[1]
        bias = self.net.position_bias(self.stack, t)  # T5: the stack's relative bias (None elsewhere)
        positions = torch.arange(t, device=dev)
        _, rec = block(x, self.mask, self.scale, positions, self.memory, self.cross_mask, bias=bias, upto=self.part,
                       head=head)  # fmt: skip
        return rec

    def get(self, i: int, what: str, head: int | None = None) -> np.ndarray:
        """[H, Tq, Tk] float32 of layer i: what = "weights" | "scores" (masked entries -inf); with head, that head's
        [Tq, Tk] only, sliced from the layer when it is held, else computed alone (a page showing one head of a
        2,048-token layer: a sixteenth of the attention's work)."""
        if head is None or self.part != "self":
            whole = self.cache.get((id(self), what, i), lambda: _np(self._record(i)[f"{self.part}_{what}"][0]))
            return whole if head is None else whole[head]
        held = self.cache.peek((id(self), what, i))
        if held is not None:
            return held[head]
        return self.cache.get((id(self), what, i, head), lambda: _np(self._record(i, head)[f"self_{what}"][0, 0]))


class AttentionLayers(Layers):
    """Trace.attention[key] (what="weights") or Trace.scores[key] (what="scores") of a long trace, [L, H, Tq, Tk]."""

    def __init__(self, source: Recompute, what: str, owner: bool = False):
        """owner: this one counts the trace's layer cache and the encoder output in held_bytes (once per trace)."""
        self._source, self._what, self._owner = source, what, owner
        self.shape = source.shape

    def layer(self, i: int) -> np.ndarray:
        return self._source.get(i, self._what)

    def layer_head(self, i: int, h: int) -> np.ndarray:
        return self._source.get(i, self._what, h)

    @property
    def held_bytes(self) -> int:
        """What it can hold beyond the trace's residual stream (counted in Trace.hidden): ui/trace_cache.py."""
        if not self._owner:
            return 0
        memory = self._source.memory
        extra = 0 if memory is None else memory.numel() * memory.element_size()
        return extra + self._source.cache.bound(4 * int(np.prod(self.shape[1:])))


class Weighted(Layers):
    """Trace.norms[key] of a long trace: α_ij‖f_h(x_j)‖ per layer (models/core/value_norms.py), computed when read."""

    def __init__(self, attention: Layers, value_norms: np.ndarray):
        self._attention, self._norms = attention, value_norms
        self.shape = attention.shape

    def layer(self, i: int) -> np.ndarray:
        return self._attention.layer(i) * self._norms[i][:, None, :]

    def layer_head(self, i: int, h: int) -> np.ndarray:
        return self._attention.layer_head(i, h) * self._norms[i][h][None, :]


class Stream:
    """A long bfloat16 trace's residual stream [L+1, T, d] kept bfloat16 (half the bytes); read as float32 numpy
    (tr.hidden[key][l], slices, np.asarray)."""

    def __init__(self, tensor: torch.Tensor):
        self.tensor = tensor
        self.shape, self.ndim, self.dtype = tuple(tensor.shape), tensor.dim(), np.dtype(np.float32)

    @property
    def held_bytes(self) -> int:
        return self.tensor.numel() * self.tensor.element_size()

    @property
    def nbytes(self) -> int:
        return 4 * self.tensor.numel()

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, idx) -> np.ndarray:
        out = _np(self.tensor[idx])
        out.flags.writeable = False
        return out

    def __array__(self, dtype=None, copy=None):
        out = _np(self.tensor)
        return out if dtype is None else out.astype(dtype)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __reduce__(self):
        return (np.array, (np.asarray(self),))


def keep_stream(stream: list[torch.Tensor], bfloat16: bool) -> tuple[np.ndarray | Stream, torch.Tensor]:
    """(what Trace.hidden keeps, the tensor layers are recomputed from) of a run_stack stream (batch item 0):
    float32 numpy and a view of it, or bfloat16 when the model's matrices are (the stream it recomputes from is the
    same bfloat16 one, so a layer read is what that rounding of its input gives)."""
    stacked = torch.stack([h[0] for h in stream])  # [L+1, T, d]
    if bfloat16:
        t = stacked.to(torch.bfloat16)
        return Stream(t), t
    arr = _np(stacked)
    return arr, readonly.tensor(arr)


def _np(t: torch.Tensor) -> np.ndarray:
    """float32 numpy of a forward's tensor, brought to the CPU (a GPU model's) for the trace."""
    return t.detach().to(torch.float32).cpu().numpy()
