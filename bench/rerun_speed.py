"""Server-side time of one rerun of each page, via AppTest: a prompt change (every figure rebuilt,
no cache hits) and, for the lesson pages, moving one of their own controls.

Not a test; prints a table. The browser adds the websocket round trip and Plotly drawing on top
(bench/browser_latency.py measures that end to end).
Usage: python bench/rerun_speed.py [--repeat 10] [--pages explorer,masks,rank,positional,softmax]
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

import models  # noqa: E402

WORDS = "the cats that the dog sees are happy . alice met bob at the park . then alice gave bob a book ."

# page -> (query parameters, [(label, widget kind, key, values to cycle through)])
PAGES = {
    "explorer": [({"view": v}, []) for v in ("heatmap", "grid", "lines")]
    + [({"model": "minilm", "view": v}, []) for v in ("heatmap", "grid")]
    + [({"view": v, "weighting": "norm"}, []) for v in ("heatmap", "grid", "lines")],  # value-weighted
    "masks": [({}, [])],
    "rank": [({}, [("head", "segmented_control", "head", [1, 2, 3, 0]),
                   ("float32", "segmented_control", "dtype", ["float32", "float64"]),
                   ("toy logit", "slider", "toy_l0", [1.0, 2.0, 3.0, -1.0])])],
    "positional": [({}, [("d_model", "select_slider", "pe_d", [128, 256, 512, 64]),
                         ("offset k", "slider", "pe_k", [7, 20, 33, 5]),
                         ("rope m", "slider", "rope_m", [4, 9, 30, 2])])],
    "softmax": [({}, [("d_k", "select_slider", "dk", [128, 256, 1024, 64]),
                      ("row scale", "slider", "sm_log2s", [-2.0, -1.0, 0.0, -3.0]),
                      ("live factor", "select_slider", "live_c", [2.0, 4.0, 0.5, 1.0])])],
    "generate": [({"max_new": "64"}, [("next token", "button", "step_next", [None]),
                                      ("temperature", "slider", "temp", [0.5, 1.5, 2.0, 1.0])])],
    "translate": [({}, [("next token", "button", "tr_step_next", [None]),
                        ("typed target", "text_input", "typed", ["one", "one thousand", "two", "nine"])])],
    "mlm": [({}, [("recipe seed", "number_input", "recipe_seed", [1, 2, 3, 4]),
                  ("recipe rule", "segmented_control", "recipe_rule", ["exact", "bernoulli"])])],
    # lab: a new seed builds and runs a new model every time (no cache hits); the other toggles cycle
    # through their options, so after the first round they hit the caches, as flipping back and forth does
    "lab": [({}, [("new seed", "number_input", "a_seed", list(range(1, 40))),
                  ("activation", "selectbox", "a_activation", ["relu", "gelu", "swiglu"]),
                  ("kv heads", "selectbox", "a_n_kv_heads", [1, 4, 2]),
                  ("positional", "selectbox", "a_positional", ["sinusoidal", "learned", "none", "rope"]),
                  ("norm", "selectbox", "a_norm", ["layernorm", "rmsnorm"]),
                  ("pre/post", "selectbox", "a_norm_position", ["post", "pre"]),
                  ("d_model", "select_slider", "a_d_model", [128, 256, 32, 64]),
                  ("layers", "select_slider", "a_n_layers", [3, 4, 1, 2]),
                  ("architecture", "selectbox", "a_arch", ["encoder", "encoder-decoder", "decoder"])])],
    # lab with side A trained (a short run pre-built in a temporary cache): the snapshot slider replays a step
    "lab-snap": [({"a_seed": "5"}, [("snapshot step", "select_slider", "a_snap", [0, 1, 3, 6, 30])])],
    # lab with mixture-of-experts sides (8 experts top-2, 4 experts top-1): the router section on every rerun
    "lab-moe": [({"a_n_experts": "8", "b_n_experts": "4", "b_experts_top_k": "1"},
                 [("moe new seed", "number_input", "a_seed", list(range(1, 40))),
                  ("moe experts", "select_slider", "a_n_experts", [4, 8])])],
    "scaling": [({}, [("model", "selectbox", "cat", ["BERT-base", "GPT-2 XL", "Qwen2.5-7B", "Llama-3.1-8B"]),
                      ("new budget", "select_slider", "budget", [round(19 + 0.13 * i, 2) for i in range(60)]),
                      ("timeline budget x", "select_slider", "tl_factor", [100, 1000, 2, 10]),
                      ("moe experts", "select_slider", "moe_n", [16, 64, 1, 8])])],
    "lens": [({}, [("ko heads", "pills", "ko_heads", [[0, 1], [0, 1, 2, 3], [2], [0]]),
                   ("ko mode", "segmented_control", "ko_mode", ["uniform", "zero"]),
                   ("lens window", "slider", "lens_from", [10, 30, 48, 0])])],
    # heads: head_scores is cached per model (bench/head_scores_speed.py times it); a head's q/k map per prompt
    "heads": [({}, [("head", "segmented_control", "head", [1, 2, 3, 0]),
                    ("layer", "segmented_control", "layer", [1, 0]),
                    ("qk colour", "segmented_control", "qk_color", ["kind", "position"])]),
              ({"model": "encoder"}, [])],
    # block: the gradient experiment and the timings are computed once per process; a prompt reruns the norms
    "block": [({}, [("head", "segmented_control", "head", [1, 2, 3, 0]),
                    ("layer", "segmented_control", "layer", [1, 0])])],
    # tokens: the BPE replay per prompt; the vocabulary sweep trains once per process (timed in the page's table)
    "tokens": [({}, [("merge step", "slider", "tok_step", [5, 10, 20, 0])])],
    # posttrain: a pre-built entry (a short run in a temporary cache); its own prompt box, greedy answers of 3 models
    "posttrain": [({}, [])],
    # objectives: a new seed re-masks, re-samples the ELECTRA generator and re-runs the discriminator (no cache hit)
    "objectives": [({}, [("seed", "number_input", "obj_seed", list(range(2, 40)))])],
}  # fmt: skip


TOKENIZER = models.load("decoder").tokenizer


def prompt_of(n_tokens: int, salt: str) -> str:
    tok = TOKENIZER
    ids = tok.encode((WORDS + " ") * 40)[: n_tokens - 2]
    return tok.decode(ids) + " " + salt


def timed(action, repeat: int) -> tuple[float, float]:
    times = []
    for i in range(repeat + 2):
        t0 = time.perf_counter()
        at = action(i)
        times.append((time.perf_counter() - t0) * 1000)
        assert not at.exception, at.exception
    times = sorted(times[2:])  # the first two warm caches up
    return statistics.median(times), times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]


def trained_lab_entry(seed: int = 5, steps: int = 30) -> None:
    """Side A of the lab (default fields, this seed) trained for a few steps, in a temporary cache."""
    import os
    import tempfile

    from lessons.lab_controls import lab_config
    from models import variants
    from ui.params import LAB_DEFAULTS

    os.environ[variants.CACHE_ENV] = tempfile.mkdtemp(prefix="bench-lab-")
    cfg = lab_config({**LAB_DEFAULTS["a"], "seed": seed}, TOKENIZER.vocab_size)
    net, hist = variants.train(cfg, TOKENIZER, seed, steps)
    variants.save(net, hist, seed, variants.entry_path(variants.variant_key(cfg, seed), variants.cache_root()))


def trained_posttrain_entry() -> None:
    """The post-training page's entry from a short run (4 + 4 steps), in a temporary cache."""
    import os
    import tempfile

    from models import posttrain_run, variants
    from models.training import posttrain

    os.environ.setdefault(variants.CACHE_ENV, tempfile.mkdtemp(prefix="bench-posttrain-"))
    base = models.load("decoder")
    nets, results = posttrain.post_train(base.net, TOKENIZER, recipe={"sft_steps": 4, "dpo_steps": 4})
    posttrain_run.save(nets, results, posttrain_run.entry_path(posttrain_run.entry_key(), variants.cache_root()))


def open_page(page: str, query: dict, prompt: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for k, v in {**query, "prompt": prompt}.items():
        at.query_params[k] = v
    at.run()
    at.switch_page(f"lessons/{page.split('-')[0]}.py").run()
    assert not at.exception, at.exception
    return at


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--pages", default=",".join(PAGES))
    args = ap.parse_args()
    print(f"{'page':11} {'change':14} {'tokens':>6} {'median ms':>10} {'p95 ms':>8}")
    if "lab-snap" in args.pages.split(","):
        trained_lab_entry()
    if "posttrain" in args.pages.split(","):
        trained_posttrain_entry()
    for page in args.pages.split(","):
        for query, controls in PAGES[page]:
            label = " ".join(v for k, v in query.items() if k in ("model", "view", "weighting")) or "prompt"
            lengths = (16,) if page == "translate" else (64,) if page == "posttrain" else (16, 64, 256)
            for n in () if page in ("scaling", "lab-snap") else lengths:
                at = open_page(page, query, prompt_of(n, "x"))

                prompts = [prompt_of(n, f"x{i}") for i in range(args.repeat + 2)]  # new every time: no cache hits
                box = "prompt"
                if page == "translate":  # its own source box; numbers, not text (the length does not apply)
                    prompts, box = [str(1000 + 37 * i) for i in range(args.repeat + 2)], "source"
                if page == "posttrain":  # its own prompt box (no shared one)
                    box = "pt_prompt"

                def new_prompt(i, at=at, prompts=prompts, box=box):
                    return at.text_input(key=box).input(prompts[i]).run()

                med, p95 = timed(new_prompt, args.repeat)
                print(f"{page:11} {label:14} {n:6} {med:10.1f} {p95:8.1f}")
            for name, kind, key, values in controls:
                at = open_page(page, query, prompt_of(64, "y"))
                cycle = itertools.cycle(values)

                def move(_, at=at, kind=kind, key=key, cycle=cycle):
                    widget = getattr(at, kind)(key=key)
                    if kind == "button":
                        if widget.disabled:  # the last step: start over (a short translation has 7 steps)
                            widget = at.button(key=key.replace("_next", "_reset"))
                        return widget.click().run()
                    if kind == "text_input":
                        return widget.input(next(cycle)).run()
                    return widget.set_value(next(cycle)).run()

                med, p95 = timed(move, args.repeat)
                print(f"{page:11} {name:14} {64:6} {med:10.1f} {p95:8.1f}")


if __name__ == "__main__":
    main()
