"""LiveModel: a Transformer plus its tokenizer, run on text, returning a Trace of everything.

`run()` and `generate()` are read-only: the model is loaded once and shared by every session.
Where models come from (shipped files, pretrained folders) is models/loading.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import torch

from .config import ModelConfig
from .core import device as device_
from .core import precision
from .core.attention import bidirectional, causal, make_mask, sliding

# the lazy parts moved to lazy.py; still importable from here (tests monkeypatch live.LAZY_VOCAB)
from .core.lazy import LAZY_SCORES_BYTES, LAZY_VOCAB, LayerMasks, LazyLogits, LazyScores, _np
from .core.linear_attention import LinearLayers, recompute_record
from .core.long_trace import AttentionLayers, LayerCache, Recompute, is_long, keep_stream
from .core.sampling import choose, next_token_probs
from .core.trace_fill import gathered, run_filled
from .core.transformer import Transformer
from .core.value_norms import ValueWeighted, layer_value_norms
from .tokenizer import BOS, EOS, BPETokenizer


@dataclass(frozen=True)
class Trace:
    """Everything one forward pass computed, as numpy (docs/architecture.md lists the keys and shapes)."""

    tokens: list[str]  # readable token strings of the (source) input
    target_tokens: list[str] | None  # encoder-decoder: the decoder-side tokens
    attention: dict[str, np.ndarray]  # "encoder.self" | "decoder.self" | "decoder.cross": [L, H, Tq, Tk]
    scores: dict[str, np.ndarray]  # same keys: scaled q·k before softmax, masked entries -inf (maybe LazyScores)
    hidden: dict[str, np.ndarray]  # "encoder" | "decoder": residual stream [L+1, T, d_model]
    logits: np.ndarray  # [T, V]: LM head (decoder side) or MLM head (encoder); LazyLogits for big vocabularies
    # (ELECTRA's discriminator, config.detector_head: [T, 1], one replaced-token logit: LiveModel.replaced_prob)
    truncated: bool  # the input was cut to max_len
    ids: list[int]
    target_ids: list[int] | None
    masks: dict[str, np.ndarray]  # the exact boolean mask each attention used [Tq, Tk], True = may attend
    mask: str  # the mask kind of the main self-attention: causal | bidirectional | prefix
    prefix_len: int | None
    attn_scale: float  # the factor on q·k actually used
    value_norms: dict[str, np.ndarray] = field(default_factory=dict)  # same keys: ‖f_h(x_j)‖ [L, H, Tk]
    # mixture of experts (models/core/moe.py): "encoder" | "decoder" -> router probabilities [L, T, n_experts]
    router: dict[str, np.ndarray] = field(default_factory=dict)
    # Gemma 2/3 (config.layer_types): "decoder.self" -> the mask of every layer [L, Tq, Tk], its sliding layers
    # narrowed to their window; masks[key] is then what the full layers used. Empty where every layer uses masks[key].
    layer_masks: dict[str, LayerMasks] = field(default_factory=dict)
    # Qwen3.5 (config.layer_types with "linear_attention"): attention["decoder.self"] holds its softmax layers only and
    # attention["decoder.linear"] the Gated DeltaNet layers' implied attention [L_linear, H_v, T, T] (a LinearLayers,
    # each layer computed when read; rows can be negative and need not sum to 1). layers[key] names the model's layer
    # number of each row; empty where attention[key] has every layer in order. layer_kinds: config.layer_types.
    layers: dict[str, list[int]] = field(default_factory=dict)
    layer_kinds: tuple[str, ...] | None = None

    @property
    def norms(self) -> ValueWeighted:
        """Value-weighted attention α_ij‖f_h(x_j)‖ (Kobayashi et al. 2020), same keys and shapes as
        `attention`, computed when read (models/core/value_norms.py)."""
        return ValueWeighted(self.attention, self.value_norms)


@dataclass(frozen=True)
class Step:
    """One generated token. `attention` holds the row of the query that produced it (the last
    position of the context), per layer and head: "decoder.self" [L, H, Tk] (+ "decoder.cross")."""

    index: int  # 0 for the first generated token
    token_id: int
    token: str
    probs: np.ndarray  # [V] float64, the distribution it was chosen from (after temperature/top-k/top-p)
    logits: np.ndarray  # [V] raw logits
    attention: dict[str, np.ndarray]
    ids: list[int]  # the decoder-side ids after this step


class LiveModel:
    def __init__(self, net: Transformer, tokenizer: BPETokenizer, meta: dict | None = None):
        cfg = net.cfg
        if cfg.vocab_size != tokenizer.vocab_size and not getattr(tokenizer, "pretrained", False):
            raise ValueError(
                f"vocab_size={cfg.vocab_size} but the tokenizer has {tokenizer.vocab_size} tokens; "
                f"use ModelConfig(vocab_size={tokenizer.vocab_size}, ...)"
            )
        self.net = net.eval().requires_grad_(False)
        self.config: ModelConfig = cfg
        self.tokenizer = tokenizer
        self.meta = meta or {}  # training report of a shipped model (steps, metrics)

    # ------------------------------------------------------------- inputs
    def source_ids(self, text: str) -> tuple[list[int], bool]:
        """Text -> (ids with the architecture's special tokens, cut to max_len; was it cut?).

        Decoder: [BOS] text (so the first word has a position to attend to and a prediction).
        Encoder: [CLS] text [SEP] (BERT). Encoder-decoder source: text [EOS]."""
        tok = self.tokenizer
        ids = self.without_space_before_mask(tok.encode(text))
        before, after = self.template
        room = self.config.max_len - len(before) - len(after)
        return [*before, *ids[:room], *after], len(ids) > room

    @property
    def template(self) -> tuple[list[int], list[int]]:
        """The special tokens put (before, after) a text: a pretrained tokenizer says its own (Llama: BOS;
        GPT-2 and Qwen base: none; BERT: [CLS] ... [SEP]); the toy models use ours."""
        if hasattr(self.tokenizer, "template"):
            return self.tokenizer.template
        tok = self.tokenizer
        return {"decoder": ([BOS], []), "encoder": ([tok.cls_id], [tok.sep_id]), "encoder-decoder": ([], [EOS])}[
            self.config.arch
        ]

    @property
    def eos_ids(self) -> frozenset[int]:
        """Generation stops at any of these (a pretrained model may name several)."""
        return getattr(self.tokenizer, "eos_ids", frozenset({EOS}))

    @property
    def start_ids(self) -> list[int]:
        """What the encoder-decoder's decoder starts from (ours: [BOS]; Marian: its decoder_start_token_id)."""
        return list(getattr(self.tokenizer, "start_ids", [BOS]))

    def self_mask(self, n_queries: int, n_keys: int | None = None) -> torch.Tensor:
        """A decoder's self-attention mask: causal, or causal within the sliding window (Mistral); on the model's
        device."""
        w = self.config.sliding_window if self.config.default_mask == "sliding" else None  # Gemma: its layers narrow
        dev = device_.of(self.net)
        return causal(n_queries, n_keys, device=dev) if w is None else sliding(n_queries, w, n_keys, device=dev)

    def without_space_before_mask(self, ids: list[int]) -> list[int]:
        """ "the [MASK] that" encodes as the ␣ [MASK] ␣that, but in training [MASK] replaced a whole
        token, its space included ("␣cats"): the lone space token right before a [MASK] is dropped."""
        mask = self.tokenizer.mask_id
        if mask is None or getattr(self.tokenizer, "pretrained", False):
            return ids  # a pretrained tokenizer puts [MASK]'s space where its training did
        space = self.tokenizer.encode(" ")
        if len(space) != 1:
            return ids
        return [t for i, t in enumerate(ids) if not (t == space[0] and i + 1 < len(ids) and ids[i + 1] == mask)]

    def target_ids(self, target: str) -> tuple[list[int], bool]:
        encode = getattr(self.tokenizer, "encode_target", self.tokenizer.encode)  # Marian: its target vocabulary
        ids = [*self.start_ids, *encode(target)]
        return ids[: self.config.max_len], len(ids) > self.config.max_len

    # ------------------------------------------------------------- forward with a trace
    def run(
        self,
        text: str,
        target: str | None = None,
        mask: str | None = None,
        prefix_len: int | None = None,
        attn_scale: float | None = None,
        pad: int = 0,
        window: int | None = None,
        heads_only: bool = False,
    ) -> Trace:
        """Run on text. For the encoder-decoder, target=None means the model's own greedy output.
        mask overrides the self-attention mask of the encoder (or of the decoder-only model);
        prefix_len counts positions of tr.tokens, special tokens included. pad appends that many
        [PAD] tokens to the (source) input and masks them as keys, as when this text shares a batch
        with a longer one (the pad positions still get rows: their outputs are simply ignored).
        window is the sliding window of mask="sliding" (default: the model's own, Mistral's).
        heads_only: no vocabulary logits and no pre-softmax scores in the trace (empty), for pages that draw neither
        (ui/loaders.trace): the output head was a fifth of a toy model's forward (issue 40)."""
        ids, truncated = self.source_ids(text)
        tgt = None
        if self.config.arch == "encoder-decoder":
            if target is None:
                tgt = [*self.start_ids, *self.greedy_ids(ids)][: self.config.max_len]
            else:
                tgt, cut = self.target_ids(target)
                truncated = truncated or cut
        pad = max(0, min(pad, self.config.max_len - len(ids)))
        filler = self.tokenizer.pad_id if self.tokenizer.pad_id is not None else min(self.eos_ids, default=0)
        ids = ids + [filler] * pad  # Llama 3 has no pad token: any id will do, the mask hides it
        return self.run_ids(
            ids,
            tgt,
            mask=mask,
            prefix_len=prefix_len,
            attn_scale=attn_scale,
            truncated=truncated,
            pad=pad,
            window=window,
            scores=False if heads_only else None,
            keep_logits=not heads_only,
        )

    @torch.inference_mode()
    def run_ids(
        self,
        ids,
        target_ids=None,
        mask=None,
        prefix_len=None,
        attn_scale=None,
        truncated=False,
        pad=0,
        scores=None,
        window=None,
        forward=None,
        keep_logits=True,
    ) -> Trace:
        """The core of run(): ids already carry their special tokens; the last `pad` are padding.
        forward: what runs a decoder-only model's stack instead of trace_fill.run_filled, with its arguments
        (models/core/progressive.py: the same forward, telling each layer as it is done).
        scores=None keeps them when they are small (LAZY_SCORES_BYTES), True always, False never. keep_logits=False:
        none ([0, 0]), and with scores=False no scores either (run()'s heads_only).
        A long input (long_trace.LAZY_ATTENTION_BYTES) keeps attention and scores per layer, computed when read."""
        cfg, net = self.config, self.net
        n_keys = len(ids) + (len(target_ids) if target_ids is not None else 0)
        long = is_long(cfg.n_layers, cfg.n_heads, n_keys)
        cache = LayerCache() if long else None  # a long trace's layers read, shared by its keys
        bf16 = long and precision.running(net) == "bfloat16"  # a long stream is kept as the matrices run
        if scores is None:
            scores = 2 * cfg.n_layers * cfg.n_heads * n_keys * n_keys * 4 <= LAZY_SCORES_BYTES
        kind = mask or cfg.default_mask
        scale = cfg.scale if attn_scale is None else float(attn_scale)
        if not scale > 0:
            raise ValueError(f"attn_scale must be > 0, got {attn_scale}")
        dev = device_.of(net)  # a published model's GPU, else the CPU; arrays come back for the trace only
        src = torch.tensor([ids], dtype=torch.long, device=dev)  # (1, T)
        main_mask = make_mask(kind, len(ids), prefix_len, window or cfg.sliding_window or len(ids), device=dev)
        if pad:
            main_mask = main_mask & (torch.arange(len(ids), device=dev) < len(ids) - pad)  # padding keys are masked
        att, sco, hid, used, vnorm, router = {}, {}, {}, {}, {}, {}
        layer_masks = {}  # Gemma: per-layer masks (Trace.layer_masks)
        numbers = {}  # Qwen3.5: the layer numbers of attention["decoder.self"] and ["decoder.linear"] (Trace.layers)

        def keep(key, records, part, blocks, memory=None, stream=None, masks=None, bufs=None):
            """stream (long traces): the stack's stored input [L+1, T, d]; masks: (self mask, cross mask);
            bufs: run_filled's buffers, which the records' weights (and scores) were written into."""
            buf_s, buf_w = (bufs or {}).get(part, (None, None))
            stack, rows = blocks, list(range(len(records)))
            if part == "self" and any("linear" in r for r in records):  # Qwen3.5: softmax layers only under key
                soft = [i for i, r in enumerate(records) if "linear" not in r]
                linear = [i for i, r in enumerate(records) if "linear" in r]
                again = partial(recompute_record, stack, linear, stream, masks[0], scale) if long else None
                att["decoder.linear"] = LinearLayers([records[i]["linear"].first() for i in linear], linear, again)
                numbers[key], numbers["decoder.linear"] = soft, linear
                records, blocks, rows = [records[i] for i in soft], [blocks[i] for i in soft], soft
            if long:  # per layer, recomputed from the stored stream when read (models/core/long_trace.py)
                again = Recompute(net, stack, rows, stream, part, masks[0], scale, cache, memory, masks[1])
                first = not any(isinstance(a, AttentionLayers) for a in att.values())  # counts the cache
                att[key] = AttentionLayers(again, "weights", owner=first)
                sco[key] = AttentionLayers(again, "scores")
            else:
                att[key] = _np(gathered(records, f"{part}_weights", buf_w))  # [L, H, Tq, Tk]
            if scores and not long:
                sco[key] = _np(gathered(records, f"{part}_scores", buf_s))
            vnorm[key] = _np(layer_value_norms(records, blocks, part))  # [L, H, Tk]
            if records and "moe" in records[0]:
                router[key.split(".")[0]] = _np(torch.stack([r["moe"].probs[0] for r in records]))  # [L, T, n]
            if part == "self" and any("self_mask" in r for r in records):  # Gemma's sliding layers
                per_mask = [r.get("self_mask", main_mask).expand(main_mask.shape[-2:]) for r in records]
                layer_masks[key] = LayerMasks(per_mask)  # [L, Tq, Tk], each distinct mask stored once

        def kept(stream):  # Trace.hidden's value, and (long traces) the tensor layers are recomputed from
            return keep_stream(stream, bf16) if long else (_np(torch.stack([h[0] for h in stream])), None)

        if cfg.arch == "decoder":
            stack = forward or run_filled
            x, recs, stream, bufs = stack(net, net.decoder, src, main_mask, scale, scores=scores, long=long)
            hid["decoder"], inputs = kept(stream)
            keep("decoder.self", recs, "self", net.decoder, stream=inputs, masks=(main_mask, None), bufs=bufs)
            used["decoder.self"] = main_mask
            final = net.dec_norm(x)
        else:
            x, recs, stream, bufs = run_filled(net, net.encoder, src, main_mask, scale, scores=scores, long=long)
            hid["encoder"], inputs = kept(stream)
            keep("encoder.self", recs, "self", net.encoder, stream=inputs, masks=(main_mask, None), bufs=bufs)
            used["encoder.self"] = main_mask
            memory = net.enc_norm(x)
            final = memory
            if cfg.arch == "encoder-decoder":
                tgt_ids = target_ids if target_ids is not None else self.start_ids
                tgt = torch.tensor([tgt_ids], dtype=torch.long, device=dev)
                tmask = causal(len(tgt_ids), device=dev)
                real = torch.arange(len(ids), device=dev) < len(ids) - pad
                cmask = bidirectional(len(tgt_ids), len(ids), device=dev) & real
                y, drecs, dstream, bufs = run_filled(net, net.decoder, tgt, tmask, scale, memory, cmask, scores, long)
                hid["decoder"], inputs = kept(dstream)
                keep("decoder.self", drecs, "self", net.decoder, stream=inputs, masks=(tmask, None), bufs=bufs)
                keep("decoder.cross", drecs, "cross", net.decoder, memory, inputs, (tmask, cmask), bufs)
                used["decoder.self"], used["decoder.cross"] = tmask, cmask
                final = net.dec_norm(y)
                target_ids = tgt_ids
        if not keep_logits:
            logits = np.zeros((0, 0), np.float32)
        elif net.head.out_features > LAZY_VOCAB:  # ELECTRA's discriminator: [T, 1], never lazy
            logits = LazyLogits(
                net.head_input(final[0]).clone(),
                net.capped(net.head if net.mlm is None else torch.nn.Sequential(net.mlm, net.head)),  # Gemma 2: capped
                net.head.out_features,
            )
        else:
            logits = _np(net.logits(final)[0])
        if not scores and not long and not keep_logits:
            sco = {}
        elif not scores and not long:
            again = dict(
                target_ids=target_ids, mask=mask, prefix_len=prefix_len, attn_scale=attn_scale, pad=pad, window=window
            )
            sco = LazyScores(vnorm, lambda: self.run_ids(ids, scores=True, **again).scores)  # softmax keys only
        tok = self.tokenizer
        return Trace(
            tokens=tok.token_strs(ids),
            target_tokens=tok.token_strs(target_ids) if target_ids is not None else None,
            attention=att,
            scores=sco,
            hidden=hid,
            logits=logits,
            truncated=truncated,
            ids=list(ids),
            target_ids=list(target_ids) if target_ids is not None else None,
            masks={k: v.cpu().numpy() for k, v in used.items()},
            mask=kind,
            prefix_len=prefix_len if kind == "prefix" else None,
            attn_scale=scale,
            value_norms=vnorm,
            router=router,
            layer_masks=layer_masks,
            layers=numbers,
            layer_kinds=cfg.layer_types,
        )

    def replaced_prob(self, trace: Trace) -> np.ndarray:
        """ELECTRA's discriminator (config.detector_head): [T] probability that each token was replaced,
        sigmoid of its one logit (Clark et al. 2020)."""
        if not self.config.detector_head:
            raise ValueError("only a replaced-token detector (ELECTRA's discriminator) gives replaced probabilities")
        z = np.asarray(trace.logits, dtype=np.float64)[:, 0]
        return 1.0 / (1.0 + np.exp(-z))

    # ------------------------------------------------------------- generation with a KV cache
    def greedy_ids(self, src_ids: list[int]) -> list[int]:
        """The encoder-decoder's greedy output for source ids, without [BOS]/[EOS]."""
        steps = self.generate_ids(src_ids, self.start_ids, max_new_tokens=self.config.max_len)
        return [s.token_id for s in steps if s.token_id not in self.eos_ids]

    def translate(self, text: str) -> str:
        """The encoder-decoder's own greedy translation of text."""
        return self.tokenizer.decode(self.greedy_ids(self.source_ids(text)[0]))

    def generate(
        self,
        text: str,
        max_new_tokens: int = 32,
        greedy: bool = True,
        temperature: float = 1.0,
        top_k: int | None = None,
        top_p: float | None = None,
        seed: int = 0,
        target: str = "",
    ) -> Iterator[Step]:
        """Yield one Step per new token until [EOS], max_new_tokens or max_len.

        Decoder: continues text. Encoder-decoder: translates text, continuing from `target`.
        """
        if self.config.arch == "encoder":
            raise ValueError("an encoder-only model does not generate; use run() and read its MLM logits")
        ids, _ = self.source_ids(text)
        if self.config.arch == "decoder":
            return self.generate_ids(None, ids, max_new_tokens, greedy, temperature, top_k, top_p, seed)
        start = self.target_ids(target)[0]
        return self.generate_ids(ids, start, max_new_tokens, greedy, temperature, top_k, top_p, seed)

    @torch.inference_mode()
    def generate_ids(
        self, src_ids, prompt_ids, max_new_tokens=32, greedy=True, temperature=1.0, top_k=None, top_p=None, seed=0
    ) -> Iterator[Step]:
        net, cfg = self.net, self.config
        scale, dev = cfg.scale, device_.of(net)
        memory, cmask = None, None
        if src_ids is not None:  # the encoder runs once; its output is reused at every step
            src = torch.tensor([src_ids], device=dev)
            x, _, _ = net.run_stack(net.encoder, src, bidirectional(len(src_ids), device=dev), scale)
            memory = net.enc_norm(x)
        gen = torch.Generator().manual_seed(seed)
        ids = list(prompt_ids)[: cfg.max_len]
        new = torch.tensor([ids], device=dev)  # first pass: the whole prompt (prefill); later: one token
        past = None
        for index in range(max_new_tokens):
            if len(ids) > cfg.max_len:
                return
            start = len(ids) - new.shape[1]
            mask = self.self_mask(new.shape[1], len(ids))  # (T_new, T_all)
            if memory is not None:
                cmask = bidirectional(new.shape[1], memory.shape[1], device=dev)
            x, recs, _ = net.run_stack(net.decoder, new, mask, scale, memory, cmask, past, start)
            past = [r["present"] for r in recs]  # the KV cache: keys/values of every position so far
            logits = net.logits(net.dec_norm(x[0, -1])).cpu()  # (V,); sampled on the CPU (its seeded generator)
            probs = next_token_probs(logits, temperature, top_k, top_p)
            token = choose(probs, greedy, gen)
            ids.append(token)
            rows = {"decoder.self": np.stack([_np(r["self_weights"][0, :, -1]) for r in recs if "self_weights" in r])}
            if memory is not None:
                rows["decoder.cross"] = np.stack([_np(r["cross_weights"][0, :, -1]) for r in recs])
            yield Step(index, token, self.tokenizer.token_str(token), probs.cpu().numpy(), _np(logits), rows, list(ids))
            if token in self.eos_ids:
                return
            new = torch.tensor([[token]], device=dev)
