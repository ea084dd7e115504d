"""A class on long prompts (issue 30 §5): bench/load.py --model … --tokens N. The model sessions type a new
English text of about N tokens (as the model's own tokenizer counts them, special tokens included) at each prompt
action; head and layer changes keep it. Split from bench/load.py to keep that file readable.

Why a new text per prompt action: the trace cache would answer a repeated prompt, and the bench would then time
the cache, not the forward. Whether a head or layer change was answered from the cache the client cannot see
directly: it is one drawn without ui/long_runs.py's progress line (the forward was not running) in under half a new
prompt's time in its slot (CACHE_HIT_SHARE).

Why the words are short: the prompt box holds MAX_PROMPT_CHARS (10,000) characters, and a real English
tokenizer reads about one token a word, so 2,048 tokens must average under 4.9 characters a token.

The toy sessions are also measured alone, on a fresh server, before the run with the model (--alone-seconds,
default --seconds): the check is the toy pages' p95 with the model sessions within ALONE_RATIO of it alone."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

import bench.browser_latency as bl
from bench.st_client import Session
from models.published.families.common import MAX_TOKENS_ENV, max_tokens
from models.teaching.token_stats import folder_tokenizer
from ui.url import MAX_PROMPT_CHARS

SUBJECTS = ["the cat", "a dog", "my aunt", "our team", "the boy", "her son", "the old man", "a girl", "we", "they",
            "he", "she", "the cook", "his dad", "a small fox", "the kids"]  # fmt: skip
VERBS = ["saw", "met", "took", "gave up", "made", "found", "left", "got", "had", "fed", "put down", "ran to", "sat by",
         "came to", "went to", "read", "hid", "lost", "won", "sold"]  # fmt: skip
OBJECTS = ["the box", "a red cup", "the bus", "his hat", "a map", "the sun", "our car", "a key", "the sea", "her pen",
           "a new toy", "the bed", "a big tree", "the old shop", "a book", "the hill"]  # fmt: skip
TAILS = ["", " at noon", " in the rain", " by the door", " on the way home", " all day", " at last", " for a while",
         " with a smile", " and then we ate", ", but it was late", ", so we sang"]  # fmt: skip
CAPTION = re.compile(r"reads the prompt: (\d+) tokens")  # lessons/explorer_view.py, English
PARTIAL = re.compile(r"Computing the layers of this long prompt: (\d+) of \d+")  # ui/long_runs.py's progress line
MODEL_TIMEOUT_S = 600  # a model session's run that takes longer is an error (a queue of 9 forwards of ~15 s fits)
CACHE_HIT_SHARE = 0.5  # a head/layer change whose time in its slot is under this share of a new prompt's: a hit
ALONE_RATIO = 1.5  # the target: toy p95 with the model sessions <= this x toy p95 alone


def sentence(rng) -> str:
    """One plain English sentence of short words (≈ 8–14 tokens)."""
    return f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)}{rng.choice(TAILS)}.".capitalize()


def long_text(n: int, count: Callable[[str], int], rng, max_chars: int = MAX_PROMPT_CHARS) -> str:
    """Sentences until count(text) (the tokens the model reads) reaches n, then the longest run of its first words
    that counts at most n (a bisection): n minus one word's tokens or so. ValueError when that passes max_chars."""
    sentences = [sentence(rng) for _ in range(4)]
    while (have := count(" ".join(sentences))) < n:  # each count is ~1 ms for 10,000 characters
        more = (n - have) / max(1.0, have / len(sentences))  # sentences still needed, at this text's rate
        sentences += [sentence(rng) for _ in range(max(1, int(0.9 * more)))]
        if len(" ".join(sentences)) > 2 * max_chars:
            break
    words = " ".join(sentences).split(" ")
    lo, hi = 0, len(words) + 1  # count(words[:lo]) <= n; count(words[:hi]) > n (or hi past the end)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if count(" ".join(words[:mid])) <= n else (lo, mid)
    text = " ".join(words[:lo])
    if len(text) > max_chars:
        raise ValueError(f"{n} tokens of plain English take {len(text)} characters with this tokenizer, more than "
                         f"the prompt box's {max_chars}")  # fmt: skip
    return text


def token_counter(folder: Path) -> Callable[[str], int]:
    """How many tokens the app's model reads for a text: its tokenizer.json plus its special tokens (Llama's BOS,
    BERT's [CLS] … [SEP]), as models.live.LiveModel.source_ids puts them."""
    tok = folder_tokenizer(folder)
    if tok is None:
        raise ValueError(f"{folder} has no tokenizer.json: --tokens needs one to build prompts of N tokens")
    before, after = tok.template
    return lambda text: len(before) + len(tok.encode(text)) + len(after)


class LongSession(Session):
    """A model session typing a new ≈N-token text at each prompt action; its runs logged, the deadline kept."""

    timeout = None  # bench/load.py: no outer limit, act() keeps MODEL_TIMEOUT_S and the deadline itself
    prompts: ClassVar[set[str]] = set()  # every text sent by any session (a repeat could be a cache hit)

    def __init__(self, port: int, query: str, seed: int, n: int, count: Callable[[str], int], deadline: float):
        super().__init__(port, "explorer", query, seed)
        self.n, self.count, self.deadline = n, count, deadline
        self.typed_long = False
        self.expected = 0  # the tokens the last text has, as counted here
        self.repeats = 0
        self.log: list[dict] = []  # one per finished run: end time, action, ms, waited ms, tokens counted / said

    def type_more(self) -> str:
        text = long_text(self.n, self.count, self.rng)
        self.repeats += text in LongSession.prompts
        LongSession.prompts.add(text)
        self.expected = self.count(text)
        return text

    async def _act(self) -> tuple[str, float, list[str]]:
        if not self.typed_long and "prompt" in self.widgets:  # the first action types the long text
            self.typed_long = True
            return "prompt", *await self.rerun((self.move("prompt"),))
        return await super().act()

    async def act(self) -> tuple[str, float, list[str]]:
        """One action, or ("unfinished", ms, []) when the deadline (the end of the measured time) comes first."""
        t0 = time.monotonic()
        limit = min(MODEL_TIMEOUT_S, self.deadline - t0)
        try:
            action, ms, errors = await asyncio.wait_for(self._act(), max(limit, 0.1))
        except TimeoutError:
            if limit >= MODEL_TIMEOUT_S:
                raise
            return "unfinished", (time.monotonic() - t0) * 1000, []
        said = [int(m[1]) for text in self.texts if (m := CAPTION.search(text))]
        partial = any(PARTIAL.search(text) for text in self.texts)  # drawn while the forward still ran
        self.log.append(dict(end=time.monotonic(), action=action, ms=ms, waited=max(self.waited_ms, 0.0),
                             counted=self.expected, said=said[-1] if said else None, partial=partial,
                             failed=bool(errors)))  # fmt: skip
        return action, ms, errors


def prepare(args: argparse.Namespace) -> None:
    """Check --tokens against the model (before any server starts) and raise the server's token limit to it."""
    args.counter, args.long_sessions = None, []
    if args.tokens is None:
        return
    if args.model is None:
        raise SystemExit("--tokens N needs --model (the model sessions type the long prompts)")
    context = json.loads((args.model / "config.json").read_text()).get("max_position_embeddings")
    if args.tokens < 8 or (context and args.tokens > context):
        raise SystemExit(f"--tokens {args.tokens}: give 8 to {context or 'the model context'}")
    try:
        args.counter = token_counter(args.model)
        long_text(args.tokens, args.counter, random.Random(0))  # fits the prompt box?
    except ValueError as e:
        raise SystemExit(f"--tokens {args.tokens}: {e}") from None
    os.environ[MAX_TOKENS_ENV] = str(max(args.tokens, max_tokens()))  # the server's environment (server_proc)
    args.alone_seconds = args.seconds if args.alone_seconds is None else args.alone_seconds


def model_session(args: argparse.Namespace, port: int, query: str, i: int, deadline: float) -> Session:
    """A model session: as today, or (--tokens) one typing long texts."""
    if args.tokens is None:
        return Session(port, "explorer", query, i)
    s = LongSession(port, query, i, args.tokens, args.counter, deadline)
    args.long_sessions.append(s)
    return s


def alone_args(args: argparse.Namespace) -> argparse.Namespace:
    """The same toy sessions without the model, for the baseline run."""
    return argparse.Namespace(**{**vars(args), "model": None, "seconds": args.alone_seconds, "long_sessions": []})


def p95(xs: list[float]) -> float:
    return bl.p95(xs) if len(xs) > 1 else float("nan")


def stats(xs: list[float]) -> str:
    if not xs:
        return "– | – | –"
    return f"{statistics.median(xs):.0f} | {p95(xs):.0f} | {max(xs):.0f}".replace("nan", "–")


def report(args: argparse.Namespace, r: dict, alone: dict | None) -> bool:
    """The long-prompt section: toy p95 alone vs with the model sessions (PASS/FAIL), then the model sessions'
    round trips, queue waits, cache hits (by time) and the tokens the page said it read. Returns PASS."""
    toy = [m for _, _, m in r["measured"]]
    print(f"\n## A class on long prompts: {args.model_sessions} sessions on {args.model.name} typing "
          f"≈{args.tokens}-token texts beside {args.sessions} on the toy pages\n")  # fmt: skip
    ok = True
    if alone is not None:
        solo = [m for _, _, m in alone["measured"]]
        ratio = p95(toy) / p95(solo) if len(solo) > 1 and len(toy) > 1 else float("nan")
        ok = ratio <= ALONE_RATIO
        print("| toy sessions | duration s | reruns | errors | median ms | p95 ms | max ms | load avg start, end |\n|"
              " --- |" + " ---: |" * 7)  # fmt: skip
        for name, x, xs in (("alone (fresh server)", alone, solo), (f"+ {args.model_sessions} on the model", r, toy)):
            print(f"| {name} | {x['wall']:.0f} | {len(xs)} | {len(x['errors'])} | {stats(xs)} "
                  f"| {x['loadavg'][0]:.2f}, {x['loadavg'][1]:.2f} |")  # fmt: skip
        print(f"\n{'PASS' if ok else 'FAIL'}: toy p95 within {ALONE_RATIO:g}x alone ({p95(toy):.0f} ms vs "
              f"{p95(solo):.0f} ms = {ratio:.2f}x)")  # fmt: skip
    else:
        print("No baseline (--alone-seconds 0): compare with `bench/load.py` without --model, same --sessions.")
    runs = [e for s in args.long_sessions for e in s.log if e["end"] >= r["t_measure"]]
    unfinished = sum(1 for action, _, _ in r["heavy"] if action == "unfinished")
    timeouts = sum("TimeoutError" in e for e in r["heavy_errors"])
    print(f"\nModel sessions ({args.model}): a run's time from the rerun sent to script_finished; the queue wait "
          f"until its slot (ATTENTION_LAB_HEAVY_SLOTS {os.environ.get('ATTENTION_LAB_HEAVY_SLOTS', '1 (default)')}); "
          f"in slot = the rest.\n")  # fmt: skip
    print("| action | runs | median ms | p95 ms | max ms | waited (queue) median / p95 / max ms | in slot median ms "
          "| drawn while the forward ran | with an error |\n| --- |" + " ---: |" * 8)  # fmt: skip
    for action in ("prompt", "head", "layer", "rerun"):
        xs = [e for e in runs if e["action"] == action]
        if xs:
            waits, slot = [e["waited"] for e in xs], [e["ms"] - e["waited"] for e in xs]
            print(f"| {action} | {len(xs)} | {stats([e['ms'] for e in xs])} | {stats(waits).replace(' |', ' /')} "
                  f"| {statistics.median(slot):.0f} | {sum(e['partial'] for e in xs)} | {sum(e['failed'] for e in xs)} "
                  "|")  # fmt: skip
    forward = [e["ms"] - e["waited"] for e in runs if e["action"] == "prompt"]
    same = [e for e in runs if e["action"] in ("head", "layer") and not e["failed"]]
    quick = CACHE_HIT_SHARE * statistics.median(forward) if forward else 0.0
    hits = sum(not e["partial"] and e["ms"] - e["waited"] < quick for e in same)
    said = [e["said"] for e in runs if e["action"] == "prompt"]
    counted = [e["counted"] for e in runs if e["action"] == "prompt"]
    print(f"\nPrompt actions: {len(forward)}, each a new text ({sum(s.repeats for s in args.long_sessions)} repeats "
          f"in all sessions), so none is a cache hit. Head/layer changes on the same text (without an error) answered "
          f"from the trace cache (no progress line, and in slot under {CACHE_HIT_SHARE:g}x a new prompt's median): "
          f"{hits} of {len(same)}." if forward else "\nNo prompt action finished in the measured time.")  # fmt: skip
    if said:
        match = sum(s == c for s, c in zip(said, counted, strict=True))
        print(f"Tokens the page says it read (\"reads the prompt: N tokens\"): {min(filter(None, said), default=0)}–"
              f"{max(filter(None, said), default=0)}; this bench's count {min(counted)}–{max(counted)}; equal in "
              f"{match} of {len(said)}.")  # fmt: skip
    print(f"Runs cut by the end of the measured time: {unfinished}; timeouts ({MODEL_TIMEOUT_S} s): {timeouts}; "
          f"other errors: {len(r['heavy_errors']) - timeouts}.")  # fmt: skip
    for e in sorted(set(r["heavy_errors"]), key=r["heavy_errors"].count, reverse=True)[:4]:
        print(f"model session error ({r['heavy_errors'].count(e)}x): {e}")
    return ok
