"""Gated DeltaNet linear attention (Yang, Kautz & Hatamizadeh 2024, arXiv 2412.06464): Qwen3.5's "linear_attention"
layers, in a Block in place of MultiHeadAttention (config.layer_types).

Each value head keeps a state S [d_k, d_v] instead of a KV cache. At every token t (transformers'
`torch_recurrent_gated_delta_rule`; `gated_delta_rule` here, used for one new token, while a prompt runs a chunk
of 64 tokens at a time, `chunk_gated_delta_rule`, as transformers' forward does):
    S ← exp(g_t)·S;   u_t = β_t (v_t − Sᵀk_t);   S ← S + k_t u_tᵀ;   o_t = Sᵀq_t
with q, k, v from one projection through a causal depthwise conv1d and SiLU, q and k L2-normalised (q also
/ √d_k), key heads repeated onto value heads, β = sigmoid(b), decay g = −exp(A_log)·softplus(a + dt_bias). The
output is RMSNorm(o)·SiLU(z) per head (the gated norm, its gain plain w), then out_proj.

The recurrence is linear in v, so O = Ã·V for a [T, T] matrix per value head, its "implied attention"
(`implied_attention`, DeltaNet's UT transform): Ã = (QKᵀ ⊙ Γ ⊙ M)·(I + tril(diag(β)(KKᵀ ⊙ Γ), −1))⁻¹·diag(β),
M = tril(1), Γᵢⱼ = exp(Gᵢ − Gⱼ) (j ≤ i), G the cumulative sum of g. Its rows can be negative and need not sum to 1.
It costs O(T³) a head, so a trace keeps q, k, g, β and computes a layer's Ã when it is read (`LinearLayers`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from ..config import ModelConfig
from .attention import TAP
from .norm_layers import RMSNORM_EPS, RMSNorm

L2_EPS = 1e-6  # inside the root of q, k's L2 norm: x·rsqrt(Σx² + eps), as transformers' (and FLA's) l2norm


def causal_conv(x: torch.Tensor, weight: torch.Tensor, before: torch.Tensor | None = None) -> torch.Tensor:
    """The depthwise causal conv1d (cross-correlation, as F.conv1d) on channels-last input: x (B, T, C), weight (C, K)
    -> (B, T, C), out[t, c] = Σ_j weight[c, j] · x[t + j − (K − 1), c], where x before its start is `before`
    (B, K − 1, C), or zeros. Summed in F.conv1d's order (on the CPU equal to it bit for bit). K shifted multiply-adds
    read the projection where it lies, with no transpose to (B, C, T) and back: Qwen3.5-0.8B's 6,144 channels at 256
    tokens take 2.5 ms against conv1d's 7.9. With zeros before, each tap adds onto the rows it reaches and no
    (B, K − 1 + T, C) copy is made: the zero terms it skips change no sum."""
    t, k = x.shape[1], weight.shape[1]
    w = weight.t().contiguous()  # (K, C): each tap's weights contiguous, as the channels are
    if before is None and x.requires_grad:  # autograd (attribution patching) cannot go through out=: real zeros
        before = x.new_zeros(x.shape[0], k - 1, x.shape[2])
    if before is not None:
        full = torch.cat([before, x], dim=1)
        out = full[:, :t] * w[0]
        for j in range(1, k):
            out.addcmul_(full[:, j : j + t], w[j])
        return out
    out = torch.empty_like(x)
    first = min(k - 1, t)  # tap 0 reaches row k − 1 onwards
    out[:, :first] = 0.0
    torch.mul(x[:, : t - first], w[0], out=out[:, first:])
    for j in range(1, k):
        shift = k - 1 - j  # tap j reads x[t − shift]
        if shift < t:
            out[:, shift:].addcmul_(x[:, : t - shift], w[j])
    return out


def l2norm(x: torch.Tensor) -> torch.Tensor:
    return x * torch.rsqrt((x * x).sum(-1, keepdim=True) + L2_EPS)


@dataclass(frozen=True)
class DeltaRecord:
    """What one linear layer's trace keeps for its implied attention (batch 0 dropped by the caller):
    q (already / √d_k) and k, L2-normalised, [B, Hk, T, dk]; v [B, Hv, T, dv]; g and β [B, Hv, T]."""

    q: torch.Tensor
    k: torch.Tensor
    v: torch.Tensor
    g: torch.Tensor
    beta: torch.Tensor

    def first(self) -> DeltaRecord:
        """The record of batch item 0, each tensor without its batch dimension (what a Trace keeps)."""
        return DeltaRecord(self.q[0], self.k[0], self.v[0], self.g[0], self.beta[0])


def gated_delta_rule(q, k, v, g, beta, state=None):
    """The recurrence, token by token. q, k [B, H, T, dk] (already repeated onto the value heads, q / √d_k),
    v [B, H, T, dv], g, beta [B, H, T]; state [B, H, dk, dv] or None (zeros). Returns (o [B, H, T, dv], state)."""
    b, h, t, dk = k.shape
    s = torch.zeros(b, h, dk, v.shape[-1], dtype=v.dtype, device=v.device) if state is None else state
    out = []
    for i in range(t):
        s = s * g[:, :, i].exp()[..., None, None]
        u = (v[:, :, i] - (s * k[:, :, i, :, None]).sum(-2)) * beta[:, :, i, None]  # (B, H, dv)
        s = s + k[:, :, i, :, None] * u[:, :, None, :]
        out.append((s * q[:, :, i, :, None]).sum(-2))
    return torch.stack(out, dim=2), s


CHUNK = 64  # tokens per chunk of chunk_gated_delta_rule (transformers' torch_chunk_gated_delta_rule default)


def chunk_gated_delta_rule(q, k, v, g, beta, state=None, chunk: int = CHUNK):
    """The same recurrence over a whole prompt, a chunk of tokens at a time (the UT transform within each chunk,
    the state carried between chunks): what transformers' forward runs on a prompt (torch_chunk_gated_delta_rule,
    same steps in the same order), and at 256 tokens many times faster than the token loop. Same arguments and
    return as gated_delta_rule."""
    b, h, t, dk = k.shape
    dv = v.shape[-1]
    pad = (chunk - t % chunk) % chunk
    # contiguous: v arrives as a strided view of the projection, and every product below would read it strided
    q, k, v = (F.pad(x, (0, 0, 0, pad)).contiguous() for x in (q, k, v))
    beta, g = (F.pad(x, (0, pad)) for x in (beta, g))
    n = (t + pad) // chunk
    v_beta, k_beta = v * beta[..., None], k * beta[..., None]
    q, k, k_beta, v_beta = (x.reshape(b, h, n, chunk, x.shape[-1]) for x in (q, k, k_beta, v_beta))
    cum = g.reshape(b, h, n, chunk).cumsum(-1)
    upper = torch.ones(chunk, chunk, dtype=torch.bool, device=q.device).triu(1)
    decay = (cum[..., :, None] - cum[..., None, :]).masked_fill(upper, float("-inf")).exp()  # Γ within a chunk
    ut = (k_beta @ k.transpose(-1, -2)) * decay  # its strict lower part: diag(β)(KKᵀ ⊙ Γ)
    intra = (q @ k.transpose(-1, -2)) * decay
    new_v = torch.linalg.solve_triangular(ut, v_beta, upper=False, unitriangular=True)
    k_cum = torch.linalg.solve_triangular(ut, k_beta * cum.exp()[..., None], upper=False, unitriangular=True)
    s = torch.zeros(b, h, dk, dv, dtype=new_v.dtype, device=q.device) if state is None else state.to(new_v)
    out = torch.zeros_like(new_v)
    q = q * cum.exp()[..., None]
    k = k * (cum[..., -1:] - cum).exp()[..., None]
    chunk_decay = cum[..., -1].exp()[..., None, None]
    for i in range(n):
        v_new = new_v[:, :, i] - k_cum[:, :, i] @ s
        out[:, :, i] = q[:, :, i] @ s + intra[:, :, i] @ v_new
        s = s * chunk_decay[:, :, i] + k[:, :, i].transpose(-1, -2) @ v_new
    return out.reshape(b, h, -1, dv)[:, :, :t], s


def implied_attention(q: torch.Tensor, k: torch.Tensor, g: torch.Tensor, beta: torch.Tensor) -> torch.Tensor:
    """Ã [..., Hv, T, T] with O = Ã·V from a zero state: q (/ √d_k), k [..., Hk, T, dk] L2-normalised, g, beta
    [..., Hv, T]; key head h serves value heads h·group .. (h+1)·group − 1, so QKᵀ and KKᵀ are taken once a key head.

    Those two products run in float32, the activations' own precision (3.7e-7 of max|O| at 256 tokens). Γ, the solve
    and β run in float64: a float32 solve strays 1.4e-5 of max|O| from the recurrence at 256 tokens. One triangular
    solve from the right, X·(I + L) = QKᵀ ⊙ Γ ⊙ M, and no inverse formed: 2.3× faster than inverting. The solve reads
    the strict lower triangle only, so L needs no tril. In place where it can: each [16, 256, 256] float64 temporary
    is 8 MB. The j > i entries of G_i − G_j are set to −∞ before the exp: exp first, then masking, overflows (g < 0,
    so G falls and G_i − G_j for j > i grows with the distance) and inf·0 gives NaN."""
    t = q.shape[-2]
    beta = beta.to(torch.float64)
    cum = g.to(torch.float64).cumsum(-1)
    gamma = cum[..., :, None] - cum[..., None, :]
    above = torch.ones(t, t, dtype=torch.bool, device=q.device).triu_(1)  # not M: j > i
    gamma.masked_fill_(above, float("-inf")).exp_()  # Γ ⊙ M
    qk, kk = q @ k.transpose(-1, -2), k @ k.transpose(-1, -2)
    if q.dim() >= 3 and (group := g.shape[-2] // q.shape[-3]) > 1:
        qk, kk = qk.repeat_interleave(group, dim=-3), kk.repeat_interleave(group, dim=-3)
    qk = qk.to(torch.float64).mul_(gamma)
    strict = kk.to(torch.float64).mul_(gamma).mul_(beta[..., :, None])  # diag(β)(KKᵀ ⊙ Γ); its diagonal is not read
    x = torch.linalg.solve_triangular(strict, qk, upper=False, left=False, unitriangular=True)  # qk·(I + strict)⁻¹
    # · diag(β): column j × β_j; tril_ writes +0 above the diagonal, where a negative q·k times Γ's 0 left −0.0 (a
    # figure's cell text would read "-0.00" on the causal side)
    return x.mul_(beta[..., None, :]).tril_()


class GatedDeltaNet(nn.Module):
    """One Gated DeltaNet layer; forward(x, past) -> (out, DeltaRecord, present). Writes nothing to self."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.hk, self.hv = cfg.linear_key_heads, cfg.linear_value_heads
        self.dk, self.dv = cfg.linear_key_dim, cfg.linear_value_dim
        self.kernel = cfg.linear_conv_kernel
        channels = 2 * self.hk * self.dk + self.hv * self.dv
        self.qkv = nn.Linear(cfg.d_model, channels, bias=False)  # q | k | v, each through the conv
        self.conv = nn.Parameter(torch.zeros(channels, self.kernel))  # depthwise causal conv1d, one filter a channel
        self.z = nn.Linear(cfg.d_model, self.hv * self.dv, bias=False)  # the output gate of the norm
        self.b = nn.Linear(cfg.d_model, self.hv, bias=False)  # β = sigmoid(b)
        self.a = nn.Linear(cfg.d_model, self.hv, bias=False)  # g = −exp(A_log)·softplus(a + dt_bias)
        self.dt_bias = nn.Parameter(torch.ones(self.hv))
        self.A_log = nn.Parameter(torch.zeros(self.hv))
        self.norm = RMSNorm(self.dv, cfg.norm_eps or RMSNORM_EPS)
        self.o = nn.Linear(self.hv * self.dv, cfg.d_model, bias=False)

    def forward(self, x: torch.Tensor, past=None, ablate: dict[int, str] | None = None):
        """x (B, T, d); past = (conv state (B, C, kernel − 1), recurrent state (B, Hv, dk, dv)) of the earlier tokens
        or None. ablate {value head: "zero"} zeroes that head's output before the gated norm ("uniform" has no
        meaning here: this is not a softmax over keys)."""
        bsz, t, _ = x.shape
        mixed = self.qkv(x)  # (B, T, C)
        keep = self.kernel - 1  # the conv state: the last kernel − 1 inputs, kept as (B, C, kernel − 1)
        before = None if past is None else past[0].transpose(1, 2)  # None: the conv reads zeros before the first
        if t >= keep:
            conv_state = mixed[:, t - keep :].transpose(1, 2).contiguous()  # a copy: mixed is not kept alive
        else:
            earlier = before if before is not None else mixed.new_zeros(bsz, keep, mixed.shape[2])
            conv_state = torch.cat([earlier, mixed], dim=1)[:, -keep:].transpose(1, 2).contiguous()
        mixed = F.silu(causal_conv(mixed, self.conv, before), inplace=True)  # (B, T, C)
        kd = self.hk * self.dk
        q, k, v = mixed[..., :kd], mixed[..., kd : 2 * kd], mixed[..., 2 * kd :]
        q = l2norm(q.reshape(bsz, t, self.hk, self.dk).transpose(1, 2)) / self.dk**0.5  # (B, Hk, T, dk)
        k = l2norm(k.reshape(bsz, t, self.hk, self.dk).transpose(1, 2))
        v = v.reshape(bsz, t, self.hv, self.dv).transpose(1, 2)  # (B, Hv, T, dv)
        beta = torch.sigmoid(self.b(x)).transpose(1, 2)  # (B, Hv, T)
        g = (-self.A_log.exp() * F.softplus(self.a(x) + self.dt_bias)).transpose(1, 2)
        group = self.hv // self.hk  # key head h serves value heads h·group .. (h+1)·group − 1
        rq, rk = q.repeat_interleave(group, dim=1), k.repeat_interleave(group, dim=1)
        rule = gated_delta_rule if t == 1 else chunk_gated_delta_rule  # one new token: the step itself
        o, state = rule(rq, rk, v, g, beta, None if past is None else past[1])
        for head, mode in (ablate or {}).items():
            if mode != "zero" or not 0 <= head < self.hv:
                raise ValueError(f"a linear-attention layer knocks out value heads 0..{self.hv - 1} by 'zero' only")
            o = o.clone()
            o[:, head] = 0.0
        o = self.norm(o.transpose(1, 2)) * F.silu(self.z(x).reshape(bsz, t, self.hv, self.dv))  # (B, T, Hv, dv)
        if (tap := TAP.get()) is not None:  # activation patching: each value head's output before out_proj
            o = tap(self, "z", o)
        return self.o(o.reshape(bsz, t, -1)), DeltaRecord(q, k, v, g, beta), (conv_state, state)


def parameter_count(cfg: ModelConfig) -> int:
    """Parameters of one GatedDeltaNet (analysis.parameter_counts' "attention.linear" per linear layer)."""
    channels = 2 * cfg.linear_key_heads * cfg.linear_key_dim + cfg.linear_value_heads * cfg.linear_value_dim
    value = cfg.linear_value_heads * cfg.linear_value_dim
    return (cfg.d_model * channels + channels * cfg.linear_conv_kernel + 2 * cfg.d_model * value
            + 2 * cfg.d_model * cfg.linear_value_heads + 2 * cfg.linear_value_heads + cfg.linear_value_dim)  # fmt: skip


class LinearLayers:
    """Trace.attention["decoder.linear"]: the implied attention [L_linear, Hv, T, T] of a trace's linear layers,
    computed when a layer is read (tr.attention["decoder.linear"][i]: that layer only) and then kept.
    `layers` are their layer numbers in the model. np.asarray(...) computes every layer."""

    def __init__(
        self, records: list[DeltaRecord], layers: list[int], again: Callable[[int], DeltaRecord] | None = None
    ):
        """again (a long trace): layer i's record recomputed from its stored input when the layer is read, so the
        trace holds no q and k (Qwen3.5-0.8B at 2,048 tokens: 576 MB); else each layer's q, k, g, β are kept
        (v is not needed: Ã does not depend on it)."""
        self._again = again
        self._inputs = None if again is not None else [(r.q, r.k, r.g, r.beta) for r in records]
        self.layers = list(layers)
        self._done: dict[int, np.ndarray] = {}
        h, t = records[0].g.shape
        self.shape = (len(records), h, t, t)
        self.ndim, self.dtype = 4, np.dtype(np.float32)

    @property
    def nbytes(self) -> int:
        """Bytes held once every layer is read: the stored q, k, g, β and the [L, Hv, T, T] float32 matrices."""
        stored = sum(x.numel() * x.element_size() for inputs in self._inputs or () for x in inputs)
        return stored + 4 * int(np.prod(self.shape))

    held_bytes = nbytes  # what ui/trace_cache.py counts: it keeps every layer it has computed

    def __len__(self) -> int:
        return self.shape[0]

    def layer(self, i: int) -> np.ndarray:
        """[Hv, T, T] of the i-th linear layer (i indexes `layers`)."""
        if i not in self._done:
            if self._inputs is not None:
                q, k, g, beta = self._inputs[i]
            else:
                r = self._again(i)
                q, k, g, beta = r.q, r.k, r.g, r.beta
            self._done[i] = implied_attention(q, k, g, beta).to(torch.float32).cpu().numpy()
            self._done[i].flags.writeable = False  # shared by every session that reads this trace
        return self._done[i]

    def __getitem__(self, idx):
        if isinstance(idx, tuple):
            first, rest = idx[0], idx[1:]
            return self[first][rest] if isinstance(first, (int, np.integer)) else self[first][(slice(None), *rest)]
        if isinstance(idx, (int, np.integer)):
            return self.layer(int(idx) % len(self))
        return np.stack([self.layer(i) for i in range(len(self))[idx]])

    def __array__(self, dtype=None, copy=None):
        out = self[:]
        return out if dtype is None else out.astype(dtype)

    def __iter__(self):
        return (self.layer(i) for i in range(len(self)))


@torch.inference_mode()
def recompute_record(blocks, rows: list[int], stream: torch.Tensor, mask: torch.Tensor, scale: float, i: int):
    """The DeltaRecord (batch item 0) of Gated DeltaNet layer rows[i], recomputed from its stored input stream[rows[i]]
    [T, d] by the block itself, stopped after that layer's record (a long trace's LinearLayers `again`)."""
    x = stream[rows[i]].to(mask.device, torch.float32)[None]  # (1, T, d): activations run float32
    positions = torch.arange(x.shape[1], device=mask.device)
    _, rec = blocks[rows[i]](x, mask, scale, positions, upto="self")
    return rec["linear"].first()
