"""The one Transformer: encoder-only, decoder-only and encoder-decoder from the same Block.

Forward passes are pure functions of (module, ids): they return records instead of storing
anything on the module, because one loaded model is shared by every browser session.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from ..config import ModelConfig
from .attention import MultiHeadAttention
from .blocks import Block, make_norm
from .encoder_parts import layer_stack, output_head
from .moe import aux_loss
from .positional import relative_bucket, rope_inv_freq, sinusoidal_table

# Initial weight spread (GPT-2 / nanoGPT), token embeddings included; output projections are
# further scaled by 1/sqrt(2·n_layers) so the residual stream does not grow with depth (Radford
# et al. 2019, §2.3). A larger embedding init (unit variance after the sqrt(d) factor) made the
# residual stream so large that the decoder took >3x longer to form its induction head.
INIT_STD = 0.02
LEARNED_PE_INIT_STD = 0.1


class SoftCap(nn.Module):
    """cap·tanh(head(h) / cap): Gemma 2's final-logit soft-capping around an output head (its out_features kept)."""

    def __init__(self, head: nn.Module, cap: float):
        super().__init__()
        self.head, self.cap = head, cap
        self.out_features = getattr(head, "out_features", 0)

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        return torch.tanh(self.head(h) / self.cap) * self.cap


class Transformer(nn.Module):
    def __init__(self, cfg: ModelConfig, init: bool = True):
        """init=False skips the random initialisation: for a skeleton on the meta device (the module
        tree and parameter count of an 8B-parameter configuration, without allocating it)."""
        super().__init__()
        self.cfg = cfg
        d = cfg.d_model
        e = cfg.embedding_size or d  # ALBERT, ELECTRA: embeddings E wide, projected to d (emb_proj)
        self.tok_emb = nn.Embedding(cfg.vocab_size, e)
        self.pos_emb = nn.Embedding(cfg.max_len + cfg.position_offset, e) if cfg.positional == "learned" else None
        if cfg.positional == "sinusoidal":  # fixed, not a parameter: not saved, rebuilt from the formula
            pe = torch.tensor(sinusoidal_table(cfg.max_len, d, layout=cfg.pe_layout), dtype=torch.float32)
            self.register_buffer("pe", pe, persistent=False)
        else:
            self.pe = None
        self.type_emb = nn.Embedding(cfg.type_vocab_size, e) if cfg.type_vocab_size else None
        self.emb_norm = make_norm(cfg, e) if cfg.embed_norm else None
        self.emb_proj = nn.Linear(e, d) if cfg.embedding_size is not None else None
        has_enc = cfg.arch in ("encoder", "encoder-decoder")
        has_dec = cfg.arch in ("decoder", "encoder-decoder")
        cross = cfg.arch == "encoder-decoder"
        # ALBERT's shared_layers: one Block, n_layers times (encoder_parts.layer_stack)
        self.encoder = layer_stack(cfg, lambda i: Block(cfg, False, i)) if has_enc else None
        self.decoder = layer_stack(cfg, lambda i: Block(cfg, cross, i)) if has_dec else None
        # Pre-norm leaves the residual stream un-normalised, so a final norm precedes the head (OLMo 2's post_sub too).
        pre = cfg.norm_position in ("pre", "post_sub", "sandwich")  # Gemma's sandwich too
        self.enc_norm = (make_norm(cfg) if pre else nn.Identity()) if has_enc else None
        self.dec_norm = (make_norm(cfg) if pre else nn.Identity()) if has_dec else None
        # T5 (positional="relative"): one learned [buckets, heads] table per stack, shared by all its layers
        rel = cfg.positional == "relative"
        self.enc_rel_bias = nn.Embedding(cfg.rel_buckets, cfg.n_heads) if rel and has_enc else None
        self.dec_rel_bias = nn.Embedding(cfg.rel_buckets, cfg.n_heads) if rel and has_dec else None
        # BERT/RoBERTa's MLM head first transforms the hidden state: dense -> GELU -> LayerNorm (Devlin et al.);
        # ELECTRA's discriminator: dense -> activation -> one logit per token (encoder_parts.output_head)
        self.mlm, self.head = output_head(cfg)
        if init:
            self._init(cfg)
        if cfg.tie_embeddings:
            self.head.weight = self.tok_emb.weight

    def rebuild_fixed(self, device: torch.device | str = "cpu") -> None:
        """Recompute what is a formula, not a weight (the sinusoidal table, RoPE's frequencies) on `device` (where
        the weights are): a model built on the meta device and then given loaded weights has neither."""
        cfg = self.cfg
        if self.pe is not None:
            table = sinusoidal_table(cfg.max_len, cfg.d_model, layout=cfg.pe_layout)
            self.pe = torch.tensor(table, dtype=torch.float32, device=device)
        for m in self.modules():
            if isinstance(m, MultiHeadAttention) and m.rope:  # Gemma 3: θ per layer
                m.inv_freq = rope_inv_freq(cfg.rope_dims, m.rope_base, cfg.rope_llama3).to(device)

    def _init(self, cfg: ModelConfig) -> None:
        g = torch.Generator().manual_seed(cfg.seed)
        for name, p in self.named_parameters():
            if p.dim() < 2:
                if name.endswith("bias"):
                    with torch.no_grad():
                        p.zero_()  # biases start at 0 (BERT, GPT-2); norm gains stay 1
                continue
            if name.startswith("pos_emb"):
                std = LEARNED_PE_INIT_STD
            elif name.endswith(("o.weight", "w2.weight")):
                std = INIT_STD / math.sqrt(2 * cfg.n_layers)
            else:
                std = INIT_STD
            with torch.no_grad():
                p.copy_(torch.randn(p.shape, generator=g) * std)

    def embed(self, ids: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        """Token embedding · sqrt(d_model) (Vaswani §3.4) plus the additive PE, if any. ids: (B, T).
        BERT instead adds word + position + segment-0 embeddings unscaled, then a LayerNorm."""
        x = self.tok_emb(ids)  # (B, T, d)
        if self.cfg.embed_scale:
            x = x * math.sqrt(self.cfg.d_model)
        if self.cfg.embed_multiplier is not None:  # Granite: embedding_multiplier
            x = x * self.cfg.embed_multiplier
        if self.pe is not None:
            x = x + self.pe[positions]
        elif self.pos_emb is not None:
            x = x + self.pos_emb(positions + self.cfg.position_offset)
        if self.type_emb is not None:
            x = x + self.type_emb.weight[0]
        if self.emb_norm is not None:
            x = self.emb_norm(x)
        if self.emb_proj is not None:
            x = self.emb_proj(x)  # (B, T, E) -> (B, T, d)
        return x

    def logits(self, h: torch.Tensor) -> torch.Tensor:
        """Final hidden states (already through the final norm) -> logits over the vocabulary."""
        h = self.head_input(h)
        out = self.head(h if self.mlm is None else self.mlm(h))
        cap = self.cfg.final_softcap  # Gemma 2: logits soft-capped to ±cap
        return out if cap is None else torch.tanh(out / cap) * cap

    def capped(self, head: nn.Module) -> nn.Module:
        """The output head as logits() applies it: wrapped in Gemma 2's final soft-capping when the config has one
        (LazyLogits computes its rows with this)."""
        return head if self.cfg.final_softcap is None else SoftCap(head, self.cfg.final_softcap)

    def head_input(self, h: torch.Tensor) -> torch.Tensor:
        """What the head reads: T5 (head_rescale) scales the final hidden state by d_model^-0.5 before its tied head.
        Granite's logits / logits_divisor is applied here as head(h / s): the same for a linear head without a bias
        (config.py checks), and LazyLogits' rows get it too."""
        if self.cfg.logits_divisor is not None:
            h = h / self.cfg.logits_divisor
        return h * self.cfg.d_model**-0.5 if self.cfg.head_rescale else h

    def position_bias(self, blocks, n_queries: int, start: int = 0) -> torch.Tensor | None:
        """T5's relative position bias of a stack (None without one): (H, Tq, Tk) for the queries at positions
        start.. over the keys 0..start+n_queries-1 (with a KV cache the earlier keys are cached). The encoder's
        buckets look both ways, the decoder's only at the past (models/positional.relative_bucket)."""
        encoder = blocks is self.encoder
        table = self.enc_rel_bias if encoder else self.dec_rel_bias
        if table is None:
            return None
        dev = table.weight.device
        query = torch.arange(start, start + n_queries, device=dev)[:, None]  # (Tq, 1) absolute positions
        key = torch.arange(start + n_queries, device=dev)[None, :]  # (1, Tk)
        buckets = relative_bucket(key - query, encoder, self.cfg.rel_buckets, self.cfg.rel_max_distance)
        return table(buckets).permute(2, 0, 1)  # (H, Tq, Tk)

    def run_stack(
        self, blocks, ids, mask, scale, memory=None, cross_mask=None, past=None, start=0, ablate=None,
        need_weights=True, into=None,
    ):  # fmt: skip
        """Embed ids (at positions start..) and run them through blocks. ablate = {layer: {head: "zero" |
        "uniform"}} knocks heads out of those layers' self-attention (an argument, never module state).
        need_weights=False: no layer keeps its [B, H, Tq, Tk] weights and scores (records hold None; a long trace).
        into: per layer, what its attentions write their scores and weights into (Block's into; None: new tensors).

        Returns (final hidden (B, T, d), per-layer records, residual stream [layers+1] of (B, T, d)).
        """
        stream, records = [], []
        for x, rec in self.steps(blocks, ids, mask, scale, memory, cross_mask, past, start, ablate, need_weights, into):
            stream.append(x)
            if rec is not None:
                records.append(rec)
        return x, records, stream

    def steps(
        self, blocks, ids, mask, scale, memory=None, cross_mask=None, past=None, start=0, ablate=None,
        need_weights=True, into=None,
    ):  # fmt: skip
        """run_stack one layer at a time: yields (the embedded input, None), then (block i's output, its record) per
        block, so a caller can use the stream so far before the last layer is done (models/core/progressive.py)."""
        positions = torch.arange(start, start + ids.shape[1], device=ids.device)  # (T,)
        x = self.embed(ids, positions)
        bias = self.position_bias(blocks, ids.shape[1], start)  # T5: one table per stack, every layer adds it
        yield x, None
        for i, block in enumerate(blocks):
            knock = None if ablate is None else ablate.get(i)
            cache = None if past is None else past[i]
            sink = None if into is None else into[i]
            x, rec = block(x, mask, scale, positions, memory, cross_mask, cache, knock, bias, need_weights, into=sink)
            yield x, rec

    def forward(self, ids, mask, scale, tgt_ids=None, tgt_mask=None, cross_mask=None, with_aux=False):
        """Logits for training: (B, T, V) of the decoder (or encoder for arch='encoder'). with_aux=True
        returns (logits, the mean MoE load-balancing loss over the layers; 0 for a dense model)."""
        if self.cfg.arch == "decoder":
            x, recs, _ = self.run_stack(self.decoder, ids, mask, scale)
            logits = self.logits(self.dec_norm(x))
        else:
            x, recs, _ = self.run_stack(self.encoder, ids, mask, scale)
            memory = self.enc_norm(x)
            if self.cfg.arch == "encoder":
                logits = self.logits(memory)
            else:
                y, drecs, _ = self.run_stack(self.decoder, tgt_ids, tgt_mask, scale, memory, cross_mask)
                logits, recs = self.logits(self.dec_norm(y)), recs + drecs
        return (logits, aux_loss(recs)) if with_aux else logits
