"""Which precision a published model's matmuls run in (issue 30): float32, or bfloat16 where the CPU has it natively.

Many published checkpoints are stored in bfloat16 (Llama, Qwen, Gemma; GPT-2 and BERT in float32, Pythia in
float16). On a CPU with Intel AMX or AVX512-BF16, torch's bfloat16 matmul is several times faster than float32 (a
64×896 @ 896×4864 matmul: 143 GFLOP/s float32, 489 bfloat16 on a 2-core machine). In bfloat16 mode only the big
matrices are bfloat16 (every nn.Linear's weight and the token embedding): each matmul casts its input to bfloat16 and
widens its output, rounded to bfloat16, back to float32, so everything between them (softmax, attention weights and
scores, norms' statistics, residual stream, biases, everything a page draws) stays float32.
The toy models always run float32.
"""

from __future__ import annotations

import os

import torch
import torch.nn.functional as F
from torch import nn

ENV = "ATTENTION_LAB_PRECISION"
CHOICES = ("auto", "float32", "bfloat16")
DEFAULT = "auto"
BF16_FLAGS = ("amx_bf16", "avx512_bf16")  # keys of torch.cpu.get_capabilities() (torch 2.13)


def native_bf16() -> bool:
    """Whether this CPU multiplies bfloat16 natively (AMX or AVX512-BF16). get_cpu_capability() only says "AVX512"."""
    try:
        caps = torch.cpu.get_capabilities()
    except (AttributeError, RuntimeError):  # an older torch: no per-flag report
        return False
    return any(bool(caps.get(flag)) for flag in BF16_FLAGS)


def choice(precision: str | None = None) -> str:
    """The requested setting: precision, else $ATTENTION_LAB_PRECISION, else auto (ValueError for another word)."""
    value = (precision or os.environ.get(ENV) or DEFAULT).strip().lower()
    if value not in CHOICES:
        raise ValueError(f"precision {value!r} is not one of {', '.join(CHOICES)} (set {ENV} to one of them)")
    return value


def resolve(precision: str | None = None, gpu: bool | None = None) -> torch.dtype:
    """The dtype a published model's matrices are kept in: auto = bfloat16 where the CPU has it natively (or a GPU
    runs the model), float32 elsewhere, whatever dtype the checkpoint was stored in. gpu: whether a GPU runs it
    (models/core/device.py; None: whether torch sees one)."""
    value = choice(precision)
    if value == "auto":
        gpu = torch.cuda.is_available() if gpu is None else gpu
        return torch.bfloat16 if native_bf16() or gpu else torch.float32
    return torch.bfloat16 if value == "bfloat16" else torch.float32


def bytes_per_param(dtype: torch.dtype) -> int:
    """What the "too large" check counts in host memory: float32 weights (4 bytes) and about as much again for a
    forward with its trace; bfloat16 weights take 2 bytes."""
    return 2 if dtype == torch.bfloat16 else 8


class MixedLinear(nn.Linear):
    """An nn.Linear whose weight is bfloat16: x is cast to it for the matmul, the product back to x's float dtype
    (float32), and the bias (kept float32) added after."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out_dtype = torch.float32 if x.dtype == self.weight.dtype else x.dtype
        y = F.linear(x.to(self.weight.dtype), self.weight).to(out_dtype)
        return y if self.bias is None else y + self.bias

    def product(self, x: torch.Tensor) -> torch.Tensor:
        """x·Wᵀ left in bfloat16 (no bias; with one, forward's float32): for the FFN's hidden activations, which
        go straight into another bfloat16 matmul (FeedForward)."""
        return F.linear(x.to(self.weight.dtype), self.weight) if self.bias is None else self(x)


class MixedEmbedding(nn.Embedding):
    """A bfloat16 table whose looked-up rows come back float32 (a lossless widening)."""

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return super().forward(ids).to(torch.float32)


def matmul_input(x: torch.Tensor, lin: nn.Linear) -> torch.Tensor:
    """x cast once for several projections of it (SwiGLU's gate and up): bfloat16 before a MixedLinear (which
    then returns float32), else x itself."""
    return x.to(lin.weight.dtype) if isinstance(lin, MixedLinear) else x


def product(lin: nn.Linear, x: torch.Tensor) -> torch.Tensor:
    """lin(x), or for a MixedLinear its bfloat16 product (MixedLinear.product)."""
    return lin.product(x) if isinstance(lin, MixedLinear) else lin(x)


def matrix_names(net: nn.Module) -> set[str]:
    """State-dict names that bfloat16 mode keeps in bfloat16: every nn.Linear's weight and the token embedding."""
    names = {f"{n}.weight" for n, m in net.named_modules() if isinstance(m, nn.Linear)}
    return names | ({"tok_emb.weight"} if isinstance(getattr(net, "tok_emb", None), nn.Embedding) else set())


def mix(net: nn.Module) -> None:
    """Give the modules whose weight is bfloat16 (loaded so) the mixed forward; biases and everything else float32."""
    for m in net.modules():
        if type(m) is nn.Linear and m.weight.dtype == torch.bfloat16:
            m.__class__ = MixedLinear
        elif type(m) is nn.Embedding and m.weight.dtype == torch.bfloat16:
            m.__class__ = MixedEmbedding


def running(net: nn.Module) -> str:
    """What runs: "bfloat16" when any matrix of the model is bfloat16, else "float32" (what the page says)."""
    return "bfloat16" if any(p.dtype == torch.bfloat16 for p in net.parameters()) else "float32"


def activations(dtype: torch.dtype) -> torch.dtype:
    """The dtype activations run in beside weights of `dtype`: float32 beside bfloat16 matrices, else the same."""
    return torch.float32 if dtype == torch.bfloat16 else dtype
