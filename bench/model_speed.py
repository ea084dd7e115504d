"""Forward + trace time of each shipped model, and load time. Prints a table; not a test.

Targets on the 2-core dev machine: <= 5 ms at 64 tokens, <= 30 ms at 256, load <= 300 ms.
Usage: python bench/model_speed.py [--repeat 30]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import models
from models.tokenizer import load_tokenizer

LENGTHS = (16, 64, 256)


def text_of(m: models.LiveModel, n_tokens: int) -> str:
    """Toy-language text whose input (special tokens included) is n_tokens long, or max_len if shorter."""
    ids = m.tokenizer.encode(" ".join(models.data.corpus(200, seed=123)))
    specials = len(m.source_ids("")[0])
    return m.tokenizer.decode(ids[: max(0, n_tokens - specials)])


def median_ms(fn, repeat: int) -> float:
    for _ in range(3):
        fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args()
    print(f"{'model':16} {'load ms':>8} " + " ".join(f"{f'{n} tok ms':>11}" for n in LENGTHS) + "  notes")
    for name in models.SHIPPED:
        load_tokenizer.cache_clear()
        t0 = time.perf_counter()
        m = models.load(name)
        load_ms = (time.perf_counter() - t0) * 1000
        cells, notes = [], []
        for n in LENGTHS:
            text = text_of(m, n)
            target = "one thousand two hundred thirty four" if m.config.arch == "encoder-decoder" else None
            tr = m.run(text, target=target)
            ms = median_ms(lambda m=m, text=text, target=target: m.run(text, target=target), args.repeat)
            cells.append(f"{ms:11.2f}")
            if len(tr.tokens) != n:
                notes.append(f"{n}->{len(tr.tokens)} tokens (max_len {m.config.max_len})")
        if m.config.arch == "encoder-decoder":
            ms = median_ms(lambda m=m: m.run("1234"), args.repeat)
            notes.append(f"run('1234') with greedy target: {ms:.1f} ms")
        print(f"{name:16} {load_ms:8.1f} " + " ".join(cells) + "  " + "; ".join(notes))
    generation_steps(args.repeat)
    pretrained_model(args.repeat)


def generation_steps(repeat: int) -> None:
    """Per-token cost of decoding with the KV cache after a 64-token prompt (the Generate lesson's
    target: one step with its figures <= 100 ms; this is the model's share)."""
    m = models.load("decoder")
    text = text_of(m, 64)
    for new in (1, 16):
        ms = median_ms(lambda new=new: list(m.generate(text, new)), repeat)
        print(f"decoder generate {new:2} token(s) after 64: {ms:6.2f} ms ({ms / new:.2f} ms/token incl. prefill)")


def pretrained_model(repeat: int) -> None:
    """MiniLM (issue targets: load <= 1.5 s once, forward + trace <= 40 ms at 64 tokens)."""
    from models.published.pretrained import MissingPretrained, load_minilm

    try:
        t0 = time.perf_counter()
        m = load_minilm()
        load_ms = (time.perf_counter() - t0) * 1000
    except MissingPretrained as e:
        print(f"minilm: {e}")
        return
    text = " ".join(["the quick brown fox jumps over the lazy dog ."] * 40)
    cells = []
    for n in LENGTHS:
        ids = m.tokenizer.encode(text)[: n - 2]
        ids = [m.tokenizer.cls_id, *ids, m.tokenizer.sep_id]
        cells.append(f"{median_ms(lambda ids=ids: m.run_ids(ids), repeat):11.2f}")
    print(f"{'minilm':16} {load_ms:8.1f} " + " ".join(cells) + "  pretrained, 6 layers x 12 heads, d=384")


if __name__ == "__main__":
    main()
