"""Real-size models through our Transformer beside transformers, on the same weights: a table, then JSON.

    .venv/bin/python bench/pretrained_speed.py                    # GPT-2 small, Qwen2.5-0.5B, Llama-3.2-1B
    .venv/bin/python bench/pretrained_speed.py --models gpt2 --rounds 3
    .venv/bin/python bench/pretrained_speed.py --models qwen2.5-0.5b --tokens 64 --precision float32,bfloat16
    .venv/bin/python bench/pretrained_speed.py --device cuda --models qwen2.5-7b --tokens 256 --precision auto

--device cuda (default cpu; issue 30 §2): ours and transformers on the same GPU, both bfloat16 with --precision auto
(or bfloat16), torch.cuda.synchronize() around each timing; ours' time includes bringing its trace's arrays back to
the CPU (what the app keeps), transformers' keeps them on the GPU. Qwen2.5-7B's folder is ~15 GB of random bfloat16
weights (written once, on the CPU).

No download: each model is written once to bench/out/models/ as a folder in its published layout
(config.json with the published hyper-parameters, bfloat16 safetensors as published, random weights
in the real shapes) with the app's own tokenizer.json. Then, per model: our load time; forward +
trace at 16/64/256 tokens at 1 thread (the app's setting, ui/loaders.py) and at 2; the same work in
transformers (eager attention, output_attentions=True and output_hidden_states=True, Granite's router logits;
float32 beside our float32, bfloat16 beside our bfloat16/auto), interleaved round by round; ours reads every
logit of its trace (LazyLogits) as transformers computes them (in bfloat16 transformers' logits are then cast to
float32, as ours are: numpy has no bfloat16); the trace's bytes and the process RSS. The ratio is
ours / transformers (median of the per-round ratios); "best" is the fastest round of ours over transformers' fastest
(timeit's estimator: a slower round is the machine's interference, not the code's). max_logit_diff (JSON only) is the
largest |ours − transformers| over the logits of one more run: both sides ran the same weights. The last line is one
JSON object with every row.
The newer families (T5, ALBERT, ELECTRA, Gemma 3, Granite MoE, Qwen3.5) are in bench/pretrained_families.py;
the row qwen3.5-0.8b+implied also reads every Gated DeltaNet layer's implied matrix. transformers has none: on its
side the row computes each from the q, k, g, β transformers hands its delta rule, by the formula written plainly
(pretrained_families.with_implied), so both sides do the same work.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import models
from bench import pretrained_families as families
from models import live
from models.loading import tokenizer_path

OUT = Path(__file__).resolve().parent / "out" / "models"
PUBLISHED = {  # hyper-parameters as in each model's published config.json
    "gpt2": {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "vocab_size": 50257, "n_positions": 1024,
             "n_embd": 768, "n_layer": 12, "n_head": 12, "activation_function": "gelu_new",
             "layer_norm_epsilon": 1e-5, "tie_word_embeddings": True},
    "qwen2.5-0.5b": {"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "vocab_size": 151936,
                     "hidden_size": 896, "intermediate_size": 4864, "num_hidden_layers": 24,
                     "num_attention_heads": 14, "num_key_value_heads": 2, "max_position_embeddings": 32768,
                     "rms_norm_eps": 1e-6, "rope_theta": 1000000.0, "tie_word_embeddings": True,
                     "hidden_act": "silu", "use_sliding_window": False},
    "llama-3.2-1b": {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "vocab_size": 128256,
                     "hidden_size": 2048, "intermediate_size": 8192, "num_hidden_layers": 16,
                     "num_attention_heads": 32, "num_key_value_heads": 8, "max_position_embeddings": 131072,
                     "rms_norm_eps": 1e-5, "rope_theta": 500000.0, "tie_word_embeddings": True, "hidden_act": "silu",
                     "rope_scaling": {"factor": 32.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                                      "original_max_position_embeddings": 8192, "rope_type": "llama3"}},
    "qwen3-0.6b": {"model_type": "qwen3", "architectures": ["Qwen3ForCausalLM"], "vocab_size": 151936,
                   "hidden_size": 1024, "intermediate_size": 3072, "num_hidden_layers": 28, "num_attention_heads": 16,
                   "num_key_value_heads": 8, "head_dim": 128, "max_position_embeddings": 40960, "rms_norm_eps": 1e-6,
                   "rope_theta": 1000000.0, "tie_word_embeddings": True, "hidden_act": "silu"},
    "qwen2.5-7b": {"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "vocab_size": 152064,
                   "hidden_size": 3584, "intermediate_size": 18944, "num_hidden_layers": 28,
                   "num_attention_heads": 28, "num_key_value_heads": 4, "max_position_embeddings": 131072,
                   "rms_norm_eps": 1e-6, "rope_theta": 1000000.0, "tie_word_embeddings": False,
                   "hidden_act": "silu", "use_sliding_window": False},
}  # fmt: skip
DEFAULT_MODELS = ("gpt2", "qwen2.5-0.5b", "llama-3.2-1b", "qwen3-0.6b")  # qwen2.5-7b only when asked (a GPU row)


def make_folder(name: str) -> Path:
    """Write the model once: its published config and bfloat16 random weights in transformers' names."""
    import transformers as tf
    from safetensors.torch import save_file

    folder = OUT / name
    if (folder / "model.safetensors").is_file():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    c = PUBLISHED[name]
    cfg = tf.AutoConfig.for_model(**c)
    with torch.device("meta"):
        skeleton = tf.AutoModelForCausalLM.from_config(cfg)
    g = torch.Generator().manual_seed(0)
    tensors = {}
    for k, v in skeleton.state_dict().items():
        if k == "lm_head.weight" and c.get("tie_word_embeddings"):
            continue
        if (v.dim() == 1 and "norm" in k) or k.endswith(("ln_1.weight", "ln_2.weight", "ln_f.weight")):
            t = torch.ones(v.shape)
        else:
            t = torch.randn(v.shape, generator=g) * 0.02
        tensors[k] = t.to(torch.bfloat16)
    save_file(tensors, folder / "model.safetensors", metadata={"format": "pt"})
    (folder / "config.json").write_text(json.dumps({**c, "torch_dtype": "bfloat16"}, indent=2))
    (folder / "tokenizer.json").write_bytes(tokenizer_path().read_bytes())
    return folder


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def trace_bytes(tr) -> int:
    """What the trace holds: lazy parts count as what they keep (final hidden states; scores not yet read)."""
    logits = tr.logits._final.numpy() if isinstance(tr.logits, live.LazyLogits) else tr.logits
    arrays = [
        *tr.attention.values(),
        *dict.values(tr.scores),
        *tr.hidden.values(),
        logits,
        *tr.masks.values(),
        *tr.value_norms.values(),
        *tr.router.values(),
    ]
    return sum(getattr(a, "held_bytes", a.nbytes) for a in arrays)  # long traces: models/core/long_trace.py


def timed(fn, cuda: bool = False) -> float:
    """Milliseconds of fn(); on the GPU, queued work is finished before the clock starts and before it stops."""
    if cuda:
        torch.cuda.synchronize()
    t0 = time.perf_counter()
    fn()
    if cuda:
        torch.cuda.synchronize()
    return (time.perf_counter() - t0) * 1000


def read_all(tr, implied: bool = False):
    """The trace's work done: every logit row (LazyLogits computes them when read) and, if implied, every
    Gated DeltaNet layer's implied matrix (Qwen3.5's decoder.linear, computed when read)."""
    np.asarray(tr.logits)
    if implied:
        np.asarray(tr.attention["decoder.linear"])
    return tr


def measure(name: str, args, precision: str = "float32") -> list[dict]:
    """Every row of one model: load once, then each thread count and length, ours and transformers interleaved.
    precision: our matmuls' (models/core/precision.py); transformers runs float32 beside float32, else bfloat16."""
    stem, implied = families.ROWS.get(name, (name, False))
    folder = families.make_folder(stem, OUT) if stem in families.PUBLISHED else make_folder(name)
    gc.collect()
    cuda = args.device == "cuda"
    t0 = time.perf_counter()
    ours = models.load(folder, precision=precision, device=args.device)
    if cuda:
        torch.cuda.synchronize()
    load_s = time.perf_counter() - t0
    ours_rss = rss_mb()  # the whole process after loading (before transformers loads its copy)
    ref = None
    dtype = torch.float32 if ours.meta["precision"] == "float32" else torch.bfloat16
    if not args.no_reference and stem in families.PUBLISHED:
        ref = families.reference(stem, folder, dtype)
    elif not args.no_reference:
        import transformers as tf

        ref = tf.AutoModelForCausalLM.from_pretrained(folder, dtype=dtype, attn_implementation="eager").eval()
        ref = ref.to(args.device)
    rng = np.random.default_rng(0)
    rows = []
    for threads in (int(x) for x in args.threads.split(",")):
        torch.set_num_threads(threads)
        for n in (int(x) for x in args.tokens.split(",")):
            ids = rng.integers(10, 2000, n).tolist()
            tgt = families.target_ids(stem, ids)  # T5's decoder input, the same on both sides

            def theirs(ids=ids):
                if stem in families.PUBLISHED:
                    return families.reference_call(stem, ref, ids, implied)()
                src = torch.tensor([ids], device=args.device)
                out = ref(src, output_attentions=True, output_hidden_states=True)
                return out.logits.float()  # bfloat16: as ours, float32 logits (what a page's softmax reads)

            read_all(ours.run_ids(ids, tgt), implied)  # warm-up
            if ref is not None:
                with torch.inference_mode():
                    theirs()
            o, r = [], []
            for _ in range(args.rounds):
                o.append(timed(lambda ids=ids, tgt=tgt: read_all(ours.run_ids(ids, tgt), implied), cuda))
                if ref is not None:
                    with torch.inference_mode():
                        r.append(timed(theirs, cuda))
            tr = read_all(ours.run_ids(ids, tgt), implied)
            agree = None  # both sides ran the same weights: ours' logits beside transformers', max |difference|
            if ref is not None:
                with torch.inference_mode():
                    out = theirs()
                theirs_logits = getattr(out, "logits", out).float().cpu().numpy().reshape(-1)
                agree = float(np.abs(np.asarray(tr.logits, dtype=np.float32).reshape(-1) - theirs_logits).max())
            ratio = statistics.median(a / b for a, b in zip(o, r, strict=True)) if r else None
            rows.append({"model": name, "device": args.device, "precision": ours.meta["precision"],
                         "params": ours.meta["params"],
                         "threads": threads, "tokens": n,
                         "load_s": round(load_s, 2), "ours_ms": round(statistics.median(o), 1),
                         "transformers_ms": round(statistics.median(r), 1) if r else None,
                         "ratio": round(ratio, 3) if ratio else None,
                         "ratio_best": round(min(o) / min(r), 3) if r else None,
                         "trace_mb": round(trace_bytes(tr) / 2**20, 1), "max_logit_diff": agree,
                         "model_rss_mb": round(ours_rss)})  # fmt: skip
            print(json.dumps(rows[-1]), file=sys.stderr)
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default=",".join(DEFAULT_MODELS), help=f"of {', '.join([*PUBLISHED, *families.ROWS])}")
    ap.add_argument("--tokens", default="16,64,256")
    ap.add_argument("--threads", default=None, help="CPU threads, comma-separated (default 1,2; 1 with --device cuda)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-reference", action="store_true", help="skip transformers (ours only)")
    ap.add_argument("--precision", default="float32", help="ours: float32, bfloat16 and/or auto, comma-separated")
    ap.add_argument("--device", default="cpu", choices=("cpu", "cuda"), help="where both run (default cpu)")
    args = ap.parse_args(argv)
    args.threads = args.threads or ("1" if args.device == "cuda" else "1,2")
    if args.device == "cuda" and not torch.cuda.is_available():
        sys.exit("pretrained_speed: --device cuda, but torch sees no CUDA GPU on this machine (run without it for CPU)")
    if args.device == "cuda" and (odd := [m for m in args.models.split(",") if m not in PUBLISHED]):
        sys.exit(f"pretrained_speed: --device cuda runs {', '.join(PUBLISHED)} only, not {', '.join(odd)}")
    rows = []
    for name in args.models.split(","):
        for precision in args.precision.split(","):
            rows += measure(name, args, precision)
            gc.collect()
    print(f"\n{'model':20} {'prec':>8} {'params':>6} {'thr':>3} {'tok':>4} {'load s':>6} {'ours ms':>8} {'HF ms':>8} "
          f"{'ratio':>6} {'best':>6} {'trace MB':>8} {'RSS MB':>7}")  # fmt: skip
    for r in rows:
        hf = f"{r['transformers_ms']:8.1f}" if r["transformers_ms"] else f"{'-':>8}"
        ratio = f"{r['ratio']:6.2f} {r['ratio_best']:6.2f}" if r["ratio"] else f"{'-':>6} {'-':>6}"
        print(f"{r['model']:20} {r['precision']:>8} {r['params'] / 1e6:5.0f}M {r['threads']:3} {r['tokens']:4} "
              f"{r['load_s']:6.2f} {r['ours_ms']:8.1f} {hf} {ratio} {r['trace_mb']:8.1f} "
              f"{r['model_rss_mb']:7}")  # fmt: skip
    print(json.dumps({"rows": rows}))


if __name__ == "__main__":
    main()
