"""The one Transformer: encoder-only, decoder-only and encoder-decoder from the same Block.

Forward passes are pure functions of (module, ids): they return records instead of storing
anything on the module, because one loaded model is shared by every browser session.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from .attention import MultiHeadAttention
from .blocks import Block, make_norm
from .config import ModelConfig
from .moe import aux_loss
from .positional import rope_inv_freq, sinusoidal_table

# Initial weight spread (GPT-2 / nanoGPT), token embeddings included; output projections are
# further scaled by 1/sqrt(2·n_layers) so the residual stream does not grow with depth (Radford
# et al. 2019, §2.3). A larger embedding init (unit variance after the sqrt(d) factor) made the
# residual stream so large that the decoder took >3x longer to form its induction head.
INIT_STD = 0.02
LEARNED_PE_INIT_STD = 0.1


class Transformer(nn.Module):
    def __init__(self, cfg: ModelConfig, init: bool = True):
        """init=False skips the random initialisation: for a skeleton on the meta device (the module
        tree and parameter count of an 8B-parameter configuration, without allocating it)."""
        super().__init__()
        self.cfg = cfg
        d = cfg.d_model
        self.tok_emb = nn.Embedding(cfg.vocab_size, d)
        self.pos_emb = nn.Embedding(cfg.max_len + cfg.position_offset, d) if cfg.positional == "learned" else None
        if cfg.positional == "sinusoidal":  # fixed, not a parameter: not saved, rebuilt from the formula
            pe = torch.tensor(sinusoidal_table(cfg.max_len, d, layout=cfg.pe_layout), dtype=torch.float32)
            self.register_buffer("pe", pe, persistent=False)
        else:
            self.pe = None
        self.type_emb = nn.Embedding(cfg.type_vocab_size, d) if cfg.type_vocab_size else None
        self.emb_norm = make_norm(cfg) if cfg.embed_norm else None
        has_enc = cfg.arch in ("encoder", "encoder-decoder")
        has_dec = cfg.arch in ("decoder", "encoder-decoder")
        cross = cfg.arch == "encoder-decoder"
        self.encoder = nn.ModuleList(Block(cfg, cross=False) for _ in range(cfg.n_layers)) if has_enc else None
        self.decoder = nn.ModuleList(Block(cfg, cross=cross) for _ in range(cfg.n_layers)) if has_dec else None
        # Pre-norm leaves the residual stream un-normalised, so a final norm precedes the head.
        pre = cfg.norm_position == "pre"
        self.enc_norm = (make_norm(cfg) if pre else nn.Identity()) if has_enc else None
        self.dec_norm = (make_norm(cfg) if pre else nn.Identity()) if has_dec else None
        # BERT/RoBERTa's MLM head first transforms the hidden state: dense -> GELU -> LayerNorm (Devlin et al.)
        self.mlm = (
            nn.Sequential(nn.Linear(d, d), nn.GELU(), nn.LayerNorm(d, eps=cfg.norm_eps or 1e-5))
            if cfg.mlm_head
            else None
        )
        self.head = nn.Linear(d, cfg.vocab_size, bias=cfg.head_bias)
        if init:
            self._init(cfg)
        if cfg.tie_embeddings:
            self.head.weight = self.tok_emb.weight

    def rebuild_fixed(self) -> None:
        """Recompute what is a formula, not a weight (the sinusoidal table, RoPE's frequencies) on the CPU:
        a model built on the meta device and then given loaded weights has neither."""
        cfg = self.cfg
        if self.pe is not None:
            table = sinusoidal_table(cfg.max_len, cfg.d_model, layout=cfg.pe_layout)
            self.pe = torch.tensor(table, dtype=torch.float32)
        for m in self.modules():
            if isinstance(m, MultiHeadAttention) and m.rope:
                m.inv_freq = rope_inv_freq(cfg.rope_dims, cfg.rope_base, cfg.rope_llama3)

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
        if self.pe is not None:
            x = x + self.pe[positions]
        elif self.pos_emb is not None:
            x = x + self.pos_emb(positions + self.cfg.position_offset)
        if self.type_emb is not None:
            x = x + self.type_emb.weight[0]
        if self.emb_norm is not None:
            x = self.emb_norm(x)
        return x

    def logits(self, h: torch.Tensor) -> torch.Tensor:
        """Final hidden states (already through the final norm) -> logits over the vocabulary."""
        return self.head(h if self.mlm is None else self.mlm(h))

    def run_stack(self, blocks, ids, mask, scale, memory=None, cross_mask=None, past=None, start=0, ablate=None):
        """Embed ids (at positions start..) and run them through blocks. ablate = {layer: {head: "zero" |
        "uniform"}} knocks heads out of those layers' self-attention (an argument, never module state).

        Returns (final hidden (B, T, d), per-layer records, residual stream [layers+1] of (B, T, d)).
        """
        positions = torch.arange(start, start + ids.shape[1])  # (T,)
        x = self.embed(ids, positions)
        stream, records = [x], []
        for i, block in enumerate(blocks):
            knock = None if ablate is None else ablate.get(i)
            x, rec = block(x, mask, scale, positions, memory, cross_mask, None if past is None else past[i], knock)
            stream.append(x)
            records.append(rec)
        return x, records, stream

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
