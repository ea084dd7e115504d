"""Exact activation patching of every head, fast path against the naive loop, and attribution patching, on a
Qwen2.5-0.5B-shaped model (random weights; our Transformer with Qwen2's config: 24 layers, d 896, 14 heads, 2 K/V
heads, FFN 4864, vocabulary 151,936, tied embeddings) at 16 tokens, float32 and bfloat16. Prints a table; not a test.

Targets (issue 42): the fast map in <= 0.25x the naive loop's time, equal to it within 1% of the largest effect, in
float32; attribution patching in <= 3 forward passes' time (a forward pass: what the naive loop runs per head, the
whole [T, V] logits included). The last line is one JSON object with the numbers.
Usage: python bench/patching_speed.py [--repeat 3] [--tokens 16] [--precisions float32,bfloat16]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.config import ModelConfig
from models.core import precision
from models.core.transformer import Transformer
from models.inspection import patching
from models.inspection.patch_hooks import full_metric, pair

QWEN25_05B = dict(arch="decoder", vocab_size=151936, n_layers=24, d_model=896, n_heads=14, n_kv_heads=2, d_ff=4864,
                  norm_position="pre", norm="rmsnorm", activation="swiglu", positional="rope", max_len=2048,
                  tie_embeddings=True, qkv_bias=True, norm_eps=1e-6, embed_scale=False, rope_base=1e6)  # fmt: skip


def qwen_shaped(dtype: torch.dtype) -> Transformer:
    """Random init (deterministic); bfloat16: the big matrices bfloat16 as a published model loads them."""
    net = Transformer(ModelConfig(**QWEN25_05B)).eval().requires_grad_(False)
    if dtype == torch.bfloat16:
        low = precision.matrix_names(net)
        for name, p in net.named_parameters():
            if name in low:
                p.data = p.data.to(torch.bfloat16)
        precision.mix(net)
    return net


def timed(fn, repeat: int) -> tuple[float, object]:
    """(median seconds, the last result) over `repeat` runs after one warm-up."""
    out = fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def timed_side_by_side(fns, repeat: int) -> tuple[list[float], list[object]]:
    """Median seconds of each of fns, run in turn `repeat` times after one warm-up each: a load that comes and goes
    (another benchmark on the machine) then weighs on all of them alike."""
    outs = [fn() for fn in fns]
    times = [[] for _ in fns]
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            outs[i] = fn()
            times[i].append(time.perf_counter() - t0)
    return [statistics.median(t) for t in times], outs


def prompts(n: int) -> tuple[list[int], list[int]]:
    g = torch.Generator().manual_seed(42)
    clean = torch.randint(1000, 150000, (n,), generator=g).tolist()
    corrupted = list(clean)
    corrupted[2] = 12345  # an early token, as a name swap: little of the prompt is the same in both runs
    return clean, corrupted


def forward(net: Transformer, ids: list[int]) -> float:
    """One forward pass as a researcher's loop runs it: every layer, then the whole [T, V] logits."""
    s, _, _ = pair(net, ids, ids)
    with torch.inference_mode():
        x, _, _ = net.run_stack(net.decoder, torch.tensor([ids]), s.mask, s.scale)
        return full_metric(s, x, 0, 1)


def answer_pair(net: Transformer, clean: list[int], corrupted: list[int]) -> tuple[int, int]:
    """The tokens the corruption moves most (the answer up on the clean prompt, the wrong one on the corrupted)."""
    s, _, _ = pair(net, clean, corrupted)
    with torch.inference_mode():
        last = []
        for ids in (clean, corrupted):
            x, _, _ = net.run_stack(net.decoder, torch.tensor([ids]), s.mask, s.scale)
            last.append(net.logits(net.dec_norm(x))[0, -1].double())
    return int((last[0] - last[1]).argmax()), int((last[1] - last[0]).argmax())


def run(dtype: torch.dtype, n_tokens: int, repeat: int) -> dict:
    net = qwen_shaped(dtype)
    clean, corrupted = prompts(n_tokens)
    a, w = answer_pair(net, clean, corrupted)
    (fwd_s, est_s), (_, est) = timed_side_by_side(
        [lambda: forward(net, clean), lambda: patching.estimate(net, clean, corrupted, a, w)], 3 * repeat
    )
    fast_s, fast = timed(lambda: patching.heads(net, clean, corrupted, a, w), repeat)
    t0 = time.perf_counter()
    naive = patching.naive_heads(net, clean, corrupted, a, w)
    naive_s = time.perf_counter() - t0
    effect = float(abs(naive.patched - naive.corrupted).max())
    diff = float(abs(fast.patched - naive.patched).max())
    return {
        "precision": "bfloat16" if dtype == torch.bfloat16 else "float32",
        "heads": int(fast.patched.size),
        "clean": fast.clean,
        "corrupted": fast.corrupted,
        "fast_s": fast_s,
        "naive_s": naive_s,
        "ratio": fast_s / naive_s,
        "max_abs_diff": diff,
        "max_effect": effect,
        "diff_over_effect": diff / effect,
        "recovered_max_abs_diff": float(abs(fast.recovered - naive.recovered).max()),
        "estimate_s": est_s,
        "forward_s": fwd_s,
        "estimate_forwards": est_s / fwd_s,
        "estimate_vs_exact_max_abs": float(abs(est.patched - naive.patched).max()),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tokens", type=int, default=16)
    ap.add_argument("--precisions", default="float32,bfloat16")
    args = ap.parse_args()
    cap = torch.backends.cpu.get_cpu_capability()
    threads = torch.get_num_threads()
    print(f"CPU capability: {cap}; native bfloat16: {precision.native_bf16()}; torch threads: {threads}")
    print(f"Qwen2.5-0.5B-shaped model (random weights), {args.tokens} tokens, every head's exact map (out = z)\n")
    rows = []
    for name in args.precisions.split(","):
        rows.append(run({"float32": torch.float32, "bfloat16": torch.bfloat16}[name], args.tokens, args.repeat))
    print("| precision | heads | fast s | naive s | fast / naive | max abs diff / max effect | estimate s | "
          "one forward s | estimate / forward |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        diff = f"{r['max_abs_diff']:.2e} / {r['max_effect']:.3f} = {r['diff_over_effect']:.1e}"
        print(f"| {r['precision']} | {r['heads']} | {r['fast_s']:.2f} | {r['naive_s']:.1f} | {r['ratio']:.3f} | "
              f"{diff} | {r['estimate_s']:.3f} | {r['forward_s']:.3f} | {r['estimate_forwards']:.2f} |")  # fmt: skip
    print(json.dumps({"cpu_capability": cap, "tokens": args.tokens, "repeat": args.repeat, "runs": rows}))


if __name__ == "__main__":
    main()
