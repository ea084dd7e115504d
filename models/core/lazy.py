"""Parts of a Trace computed when read, so a published model's trace stays small (models/live.py)."""

from __future__ import annotations

import numpy as np
import torch

# A published model's trace keeps what pages draw and computes the rest on access, so a 256-token trace of
# a 0.5B model is ~110 MB instead of ~355 MB (bench/pretrained_speed.py): logits over a vocabulary larger
# than this are rows computed from the final hidden states when read (and never for unread positions),
LAZY_VOCAB = 8192
# and pre-softmax scores larger than this are recomputed by running the model again when first read. 16 MB, not 32:
# the app's main trace drops its scores unread (ui/loaders._slim), and keeping ELECTRA-small's 25 MB at 256 tokens
# was ~6% of its forward; a toy model's are at most 4 MB (kept); a page reading a published model's pays one more run.
LAZY_SCORES_BYTES = 16 * 2**20


class LazyLogits:
    """Logits [T, V] as the final (normed) hidden states and the model's head: tr.logits[p] computes row p
    exactly as the full matrix would have it; np.asarray(tr.logits) builds all of it. Pickles as a plain array."""

    def __init__(self, final: torch.Tensor, head, width: int | None = None):
        """width: the vocabulary (head is a Sequential, e.g. BERT's MLM transform then the output matrix, that
        has no out_features of its own)."""
        self._final, self._head = final, head  # (T, d)
        width = width if width is not None else getattr(head, "out_features", None)
        self.shape = (final.shape[0], 0 if width is None else int(width))

    def __len__(self) -> int:
        return self.shape[0]

    @torch.inference_mode()
    def __getitem__(self, idx):
        if isinstance(idx, tuple):
            return self[idx[0]][(slice(None), *idx[1:]) if not isinstance(idx[0], int) else idx[1:]]
        return _np(self._head(self._final[idx]))

    def __array__(self, dtype=None, copy=None):
        out = self[:]
        return out if dtype is None else out.astype(dtype)

    def argmax(self, axis=-1):
        return np.asarray(self).argmax(axis)

    def __reduce__(self):
        return (np.array, (np.asarray(self),))


class LazyScores(dict):
    """Trace.scores that runs the model again (the same ids and settings) the first time a key is read."""

    def __init__(self, keys, compute):
        super().__init__()
        self._keys, self._compute = tuple(keys), compute

    @property
    def filled(self) -> bool:
        """Whether the model has been run again for these scores (ui/trace_cache.py counts them until then)."""
        return bool(dict.__len__(self))

    def _fill(self) -> None:
        if not self.filled:
            self.update(self._compute())

    def __getitem__(self, key):
        self._fill()
        return dict.__getitem__(self, key)

    def __iter__(self):
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, key) -> bool:
        return key in self._keys

    def keys(self):
        return list(self._keys)

    def items(self):
        self._fill()
        return dict.items(self)

    def values(self):
        self._fill()
        return dict.values(self)

    def __reduce__(self):
        self._fill()
        return (dict, (dict(dict.items(self)),))


def _np(t: torch.Tensor) -> np.ndarray:
    """float32 numpy of a forward's tensor, brought to the CPU (a GPU model's) for the trace."""
    return t.detach().to(torch.float32).cpu().numpy()


class LayerMasks:
    """Trace.layer_masks[key] of a model whose layers use different masks (Gemma's sliding and full layers): read like
    the [L, Tq, Tk] bool array, stored once per distinct mask (two for Gemma, not one per layer: 72 MB of one
    2,048-token Gemma-3-270m trace become 8). np.asarray builds the whole array."""

    def __init__(self, masks: list[torch.Tensor]):
        distinct, index = [], []
        for m in masks:  # full layers share one tensor; each sliding layer builds its own, equal to the others
            hit = next((i for i, d in enumerate(distinct) if d is m or torch.equal(d, m)), None)
            if hit is None:
                distinct.append(m)
                hit = len(distinct) - 1
            index.append(hit)
        self._distinct = torch.stack(distinct).cpu().numpy()  # [K, Tq, Tk]
        self._distinct.flags.writeable = False  # one layer's mask is another's: nobody writes into it
        self._index = np.array(index)
        self.shape, self.dtype = (len(index), *self._distinct.shape[1:]), self._distinct.dtype

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, idx):
        if isinstance(idx, tuple) and idx and isinstance(idx[0], (int, np.integer)):
            return self._distinct[self._index[idx[0]]][idx[1:]]
        if isinstance(idx, (int, np.integer)):
            return self._distinct[self._index[idx]]
        return np.asarray(self)[idx]

    def __array__(self, dtype=None, copy=None):
        out = self._distinct[self._index]
        return out if dtype is None else out.astype(dtype)
