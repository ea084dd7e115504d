"""Experiments the lesson pages run on a live model: the rank sweep and the shuffle (no-PE) test.

Pure functions of a LiveModel and numbers, so tests run exactly what the page shows.
"""

from __future__ import annotations

import random

import numpy as np
import torch

from .. import data
from ..core import readonly
from ..live import LiveModel, Trace
from ..numerics import softmax
from ..tokenizer import BOS, EOS, MASK, SPECIALS
from .probes import HELD_OUT_SEED, random_span
from .rank_stats import effective_rank_of, singular_values

SWEEP_LENGTHS = (8, 16, 32, 64, 128, 256)
SWEEP_MANY_HEADS = 16  # above this many heads in all, the sweep stops at 128 tokens (MiniLM: 72 heads)


def sweep_lengths(model: LiveModel) -> list[int]:
    """The sweep's lengths for this model: up to its max_len, and up to 128 for a model with many
    heads (72 SVDs of 256 x 256 per input take about 0.3 s: the first run would take 10 s)."""
    top = 128 if model.config.n_layers * model.config.n_heads > SWEEP_MANY_HEADS else model.config.max_len
    return [n for n in SWEEP_LENGTHS if n <= top]


SWEEP_MASKS = ("causal", "bidirectional")
SWEEP_INPUTS = ("random", "text")


def self_key(model: LiveModel) -> str:
    """The main self-attention of a model: the decoder's, or the encoder's for the other two."""
    return "decoder.self" if model.config.arch == "decoder" else "encoder.self"


def sweep_ids(model: LiveModel, n: int, inputs: str, rng: random.Random) -> list[int]:
    """n token ids: uniformly random tokens, or held-out toy-language text cut to n tokens."""
    tok = model.tokenizer
    if inputs == "random":  # no special tokens (a pretrained vocabulary has them at other ids than ours)
        ids = random_span(rng, model.config.vocab_size, n)
        return [i if i not in tok.special_ids else rng.randrange(len(SPECIALS), model.config.vocab_size) for i in ids]
    numbers, sentences = data.split_numbers()[1], []
    while len(ids := tok.encode(" ".join(sentences))) < n:  # encoded as one text, as a student would type it
        sentences.append(data.sentence(rng, numbers))
    return ids[:n]


def sweep_verdict(run: dict[str, np.ndarray]) -> tuple[bool, dict[str, float]]:
    """Does the sweep show the notes' claim? (bidirectional matrices keep full numerical rank but a lower
    effective rank than causal ones, True/False; and the four means it rests on: bn, cn, be, ce)."""
    means = {
        "bn": float(run["bidirectional.numerical"].mean()),
        "cn": float(run["causal.numerical"].mean()),
        "be": float(run["bidirectional.effective"].mean()),
        "ce": float(run["causal.effective"].mean()),
    }
    return means["bn"] >= 0.99 and means["be"] < means["ce"], means


def rank_sweep(
    model: LiveModel,
    lengths=None,
    n_samples: int = 4,
    inputs: str = "random",
    seed: int = HELD_OUT_SEED,
) -> dict[str, np.ndarray]:
    """Effective and numerical rank (float64 SVD, numpy's default tolerance), divided by the length,
    of every head's self-attention under the causal and the bidirectional mask, same weights.

    Returns {"lengths": [N]} and, per mask, "<mask>.effective" / "<mask>.numerical": [N, samples]
    (mean over all layers and heads of one input). Lengths above max_len are dropped.
    """
    if inputs not in SWEEP_INPUTS:
        raise ValueError(f"inputs must be one of {SWEEP_INPUTS}, got {inputs!r}")
    lengths = [n for n in (sweep_lengths(model) if lengths is None else lengths) if 2 <= n <= model.config.max_len]
    out: dict[str, np.ndarray] = {"lengths": np.array(lengths)}
    for kind in SWEEP_MASKS:
        out[f"{kind}.effective"] = np.zeros((len(lengths), n_samples))
        out[f"{kind}.numerical"] = np.zeros((len(lengths), n_samples))
    key = self_key(model)
    for i, n in enumerate(lengths):
        rng = random.Random(seed + n)  # the same inputs for every model and mask
        for j in range(n_samples):
            ids = sweep_ids(model, n, inputs, rng)
            for kind in SWEEP_MASKS:
                att = model.run_ids(ids, mask=kind).attention[key]  # [L, H, n, n]
                s = singular_values(att)  # [L, H, n] float64, all heads in one stacked call
                tol = s.max(-1, keepdims=True) * n * np.finfo(np.float64).eps
                out[f"{kind}.effective"][i, j] = effective_rank_of(s).mean() / n
                out[f"{kind}.numerical"][i, j] = (s > tol).sum(-1).mean() / n
    return out


def content_positions(model: LiveModel, ids: list[int]) -> list[int]:
    """Positions that hold text, not the architecture's special tokens ([BOS], [CLS], [SEP], [EOS])."""
    special = model.tokenizer.special_ids - {model.tokenizer.mask_id}  # [MASK] stands for a word
    return [i for i, t in enumerate(ids) if t not in special]


def shuffle_order(model: LiveModel, ids: list[int], seed: int = 0) -> list[int]:
    """A permutation σ of positions that shuffles the text tokens and keeps special tokens in place
    (σ differs from the identity whenever there are two or more distinct text tokens)."""
    pos = content_positions(model, ids)
    rng = random.Random(seed)
    for _ in range(100):
        new = pos[:]
        rng.shuffle(new)
        if [ids[p] for p in new] != [ids[p] for p in pos] or len(set(ids[p] for p in pos)) < 2:
            break
    order = list(range(len(ids)))
    for p, q in zip(pos, new, strict=True):
        order[p] = q
    return order


def shuffle_test(model: LiveModel, ids: list[int], order: list[int], mask: str) -> np.ndarray:
    """[T] max |h'(i) - h(σ(i))| over d_model, last layer, where h' is the output for the shuffled
    input x'(i) = x(σ(i)). Zero at every position means "the same outputs, only permuted": attention
    without positional information is permutation-equivariant under a bidirectional mask."""
    key = self_key(model).split(".")[0]
    shuffled = [ids[p] for p in order]
    before = model.run_ids(ids, mask=mask).hidden[key][-1]
    after = model.run_ids(shuffled, mask=mask).hidden[key][-1]
    return np.abs(after - before[order]).max(-1)


# ----------------------------------------------------------------- what each architecture is for


def kv_dot_products(n_layers: int, n_heads: int, prompt_len: int, steps: int) -> tuple[np.ndarray, np.ndarray]:
    """q·k dot products spent on each of `steps` new tokens: (with a KV cache, without), both [steps].

    Step t (0-based) reads a context of L = prompt_len + t tokens. Without a cache every query is
    recomputed: a causal L×L matrix holds L(L+1)/2 products per head and layer. With the cache,
    step 0 is the same prefill, and every later step computes only the new query against L keys.
    """
    lengths = prompt_len + np.arange(steps)
    per = n_layers * n_heads
    without = per * lengths * (lengths + 1) // 2
    with_cache = per * lengths
    with_cache[:1] = without[:1]  # prefill: the prompt's own pass is the same either way
    return with_cache, without


def top_probs(model: LiveModel, probs: np.ndarray, k: int = 10) -> tuple[np.ndarray, list[str], np.ndarray]:
    """(ids, token strings, probabilities) of the k most likely tokens of a distribution [V]
    (ties in vocabulary order, so a chart and a test list them the same way)."""
    best = np.argsort(-np.asarray(probs), kind="stable")[:k]
    return best, model.tokenizer.token_strs(int(i) for i in best), np.asarray(probs)[best]


def top_tokens(model: LiveModel, logits: np.ndarray, k: int = 10) -> tuple[list[str], np.ndarray]:
    """The k most likely tokens of one row of logits, with their softmax probabilities."""
    _, tokens, p = top_probs(model, softmax(logits), k)
    return tokens, p


def attention_sides(model: LiveModel, ids: list[int], row: np.ndarray, pos: int) -> dict[str, float]:
    """Where one query's attention row [T] goes: words left of pos, words right of it, the
    architecture's special tokens ([CLS], [SEP], ...; other [MASK]s count as words), and pos itself."""
    tok = model.tokenizer
    special = np.array([t in tok.special_ids and t != tok.mask_id for t in ids])
    word = ~special
    word[pos] = False
    before = np.arange(len(ids)) < pos
    row = np.asarray(row, dtype=np.float64)
    return {
        "left": float(row[word & before].sum()),
        "right": float(row[word & ~before].sum()),
        "special": float(row[special & (np.arange(len(ids)) != pos)].sum()),
        "self": float(row[pos]),
    }


def target_probabilities(model: LiveModel, source: str, target: str) -> dict:
    """Teacher forcing on an encoder-decoder: for each token of the typed target (and the final
    [EOS]) the probability the model gives it after the typed prefix, and the model's own first choice."""
    tr = model.run(source, target=target)
    start = len(model.start_ids)  # the decoder's first input ([BOS]; Marian: its decoder_start_token_id)
    ids = [*tr.target_ids[start:], min(model.eos_ids, default=EOS)]  # what should follow each decoder position
    p = softmax(tr.logits)  # [T, V]
    best = p.argmax(-1)
    tok = model.tokenizer
    return {
        "trace": tr,
        "tokens": tok.token_strs(ids),
        "probs": p[np.arange(len(ids)), ids],
        "best": tok.token_strs(int(b) for b in best),
        "best_probs": p.max(-1),
    }


def mask_positions(ids: list[int], mask_id: int = MASK) -> list[int]:
    return [i for i, t in enumerate(ids) if t == mask_id]


def left_context_logits(decoder: LiveModel, encoder_ids: list[int], pos: int) -> np.ndarray:
    """What a decoder-only model predicts for position pos of an encoder input ([CLS] ... [SEP]):
    its next-token logits after [BOS] and the tokens left of pos. Nothing to the right can count."""
    left = [BOS, *encoder_ids[1:pos]]
    return decoder.run_ids(left).logits[-1]


# ----------------------------------------------------------------- architecture lab


@torch.inference_mode()
def head_keys(model: LiveModel, trace: Trace) -> np.ndarray:
    """[L, H, T, d_head]: the keys each *query* head compares against in the main self-attention,
    recomputed from the traced residual stream (RoPE applied). Under GQA/MQA one K projection
    serves a group of query heads, so their rows here are identical: the saving made visible."""
    net, cfg = model.net, model.config
    stack, key = (net.decoder, "decoder") if cfg.arch == "decoder" else (net.encoder, "encoder")
    dev = net.tok_emb.weight.device  # the model's (a GPU's); the keys come back to the CPU
    hidden = readonly.tensor(trace.hidden[key]).to(dev)  # [L+1, T, d]
    positions = torch.arange(hidden.shape[1], device=dev)
    out = []
    for layer, block in enumerate(stack):
        x = hidden[layer][None]  # (1, T, d): the block's input
        h = block.norm_self(x) if block.pre else x
        attn = block.self_attn
        k = attn._split(attn.project_k(h), attn.n_kv_heads)  # (1, Hkv, T, dh); OLMo 2: normalised over all of k
        _, k = attn.prepare_qk(k, k, positions)  # the model's per-head norm (if any) and RoPE (its θ base)
        out.append(k.repeat_interleave(attn.n_heads // attn.n_kv_heads, dim=1)[0].cpu().numpy())  # (H, T, dh)
    return np.stack(out)


def key_gaps(keys: np.ndarray) -> np.ndarray:
    """[L, H, H] largest |k_i − k_j| between the keys of query heads i and j (0: the same K/V head)."""
    return np.abs(keys[:, :, None] - keys[:, None, :]).max(axis=(-1, -2))
