"""bench/long_prompts.py (issue 30 §5, bench/load.py --tokens N): the texts the model sessions type have N tokens, or
a word's worth fewer, as the app's own model reads them (special tokens included), fit the prompt box, and differ
from one action to the next; the caption the bench reads the page's count from is the app's."""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import models
from bench.long_prompts import CAPTION, PARTIAL, LongSession, long_text, token_counter
from tests import aio
from tests.long_prompts import build_long_qwen3
from tests.models.hf.tiny import build
from ui.strings.explorer import STRINGS
from ui.strings.explorer_long import STRINGS as LONG
from ui.url import MAX_PROMPT_CHARS

SLACK = 4  # the text stops at a word: at most one word's tokens short of n


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    """Three tokenizers: Qwen's (none added), Llama's (BOS first) on the app's byte-level BPE, and BERT's real
    English WordPiece ([CLS] … [SEP])."""
    root = tmp_path_factory.mktemp("long-prompts")
    build("llama", root / "llama", max_position_embeddings=2048)
    build("bert", root / "bert", max_position_embeddings=512)
    return {"qwen3": build_long_qwen3(root), "llama": root / "llama", "bert": root / "bert"}


@pytest.mark.parametrize(("kind", "n"), [("qwen3", 2048), ("qwen3", 256), ("llama", 1000), ("bert", 500)])
def test_the_model_reads_n_tokens(folders, kind, n):
    model = models.load(str(folders[kind]))
    count = token_counter(folders[kind])
    for seed in range(3):
        text = long_text(n, count, random.Random(seed))
        ids, cut = model.source_ids(text)
        assert not cut and len(ids) == count(text), "the bench counts what the app's model reads, specials included"
        assert n - SLACK <= len(ids) <= n
        assert len(text) <= MAX_PROMPT_CHARS
        assert text[0].isupper() and text.split(". ")[1][0].isupper(), "plain sentences"


def test_a_real_english_vocabulary_fits_2048_tokens_in_the_prompt_box(folders):
    """WordPiece reads about a token a word: 2,048 tokens must average under 4.9 characters a token."""
    count = token_counter(folders["bert"])
    text = long_text(2048, count, random.Random(1))
    assert 2048 - SLACK <= count(text) <= 2048
    assert len(text) <= MAX_PROMPT_CHARS


def test_each_action_types_a_new_text(folders):
    count, rng = token_counter(folders["qwen3"]), random.Random(7)
    texts = [long_text(512, count, rng) for _ in range(20)]
    assert len(set(texts)) == 20, "a repeated text would be answered by the trace cache"


def test_too_long_for_the_box_is_a_clear_error(folders):
    with pytest.raises(ValueError, match="more than the prompt box's 500"):
        long_text(2048, token_counter(folders["qwen3"]), random.Random(0), max_chars=500)


def test_the_caption_the_bench_reads_is_the_apps():
    for key in ("explorer.tokens", "explorer.tokens_sentencepiece", "explorer.tokens_wordpiece"):
        shown = STRINGS[key]["en"].format(n=2048)
        assert int(CAPTION.search(f":small[:gray[{shown}]] `The`")[1]) == 2048


def test_the_progress_line_the_bench_reads_is_the_apps():
    """A run drawn while the long forward still ran (ui/long_runs.py) is never counted as a cache hit."""
    assert int(PARTIAL.search(LONG["explorer_long.computing"]["en"].format(k=3, n=28))[1]) == 3


def test_a_run_still_waiting_at_the_end_is_unfinished_not_a_timeout():
    """A model session's run still queued when the measured time ends is cut and counted apart (bench/load.py
    would otherwise wait for a 10-deep queue of 2,048-token forwards, or call it a timeout)."""

    class Stuck(LongSession):
        async def _act(self):
            await asyncio.sleep(30)

    s = Stuck(0, "", 0, 64, len, deadline=time.monotonic() + 0.2)
    action, ms, errors = aio.run(s.act())
    assert (action, errors, s.log) == ("unfinished", [], []) and 150 <= ms < 5000
