"""Shared fixtures for the model tests.

The machine has two cores and a training job may be running: one torch thread keeps these tiny
models fast and the timings stable (the default thread pool thrashes against the other job).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable

import pytest
import torch

import models
from models.loading import shipped_tokenizer
from models.tokenizer import BPETokenizer
from tests import apptest_speed

apptest_speed.install()  # AppTest's runs compile each script once and wait for their end without polling

# numpy's BLAS too (as app.py sets it for the app): set here before pytest-xdist starts its workers, so that each
# worker and every server a test starts has one BLAS thread, not one per core spinning beside the other workers.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
torch.set_num_threads(1)
# Variants trained by the tests (and by the app servers the browser tests start) go to a throwaway
# directory, never the user's cache: one per pytest-xdist worker (`make test` runs several), since a worker inherits
# the controller's environment and two workers' lab tests must not see each other's variants.
if os.environ.get("PYTEST_XDIST_WORKER") or "ATTENTION_LAB_CACHE" not in os.environ:
    os.environ["ATTENTION_LAB_CACHE"] = tempfile.mkdtemp(prefix="attention-lab-test-")
# AppTest runs one session's scripts back to back, as a client firing reruns would: no per-session
# share in the tests (ui/slots.py); tests/test_abuse.py turns it on for the server it starts.
os.environ.setdefault("ATTENTION_LAB_SESSION_SHARE", "0")
# Published models run float32 in the tests (the 1e-4 reference tests); bfloat16 mode (issue 30, on CPUs with native
# bfloat16 the app's default "auto") is tested against float32 in tests/models/hf/test_precision.py.
os.environ["ATTENTION_LAB_PRECISION"] = "float32"
# ... and on the CPU, on a GPU machine too: the GPU tests (tests/models/hf/test_device_gpu.py) pass device="cuda".
os.environ["ATTENTION_LAB_DEVICE"] = "cpu"
# The Hugging Face cache the app lists (models/published/hub.py) is a throwaway one: a developer's own downloads must
# not
# change what the tests' pickers show, and a test that downloads must not write to the user's cache.
os.environ["HF_HOME"] = tempfile.mkdtemp(prefix="attention-lab-hf-")
os.environ.pop("HF_HUB_CACHE", None)

# Small enough to run in milliseconds; vocab_size stays the default (2048) because build()
# attaches the shipped tokenizer, which has exactly that many tokens.
SMALL = dict(n_layers=2, d_model=32, n_heads=4, d_ff=64, max_len=64)


@pytest.fixture(scope="session")
def tok() -> BPETokenizer:
    return shipped_tokenizer()


@pytest.fixture(scope="session")
def small_cfg() -> Callable[..., models.ModelConfig]:
    """small_cfg(arch="decoder", **overrides) -> a small ModelConfig."""

    def make(arch: str = "decoder", **overrides) -> models.ModelConfig:
        return models.ModelConfig(arch=arch, **{**SMALL, **overrides})

    return make


@pytest.fixture(scope="session")
def small_model(small_cfg) -> Callable[..., models.LiveModel]:
    """small_model(arch="decoder", **overrides) -> a random-init LiveModel (deterministic from seed)."""

    def make(arch: str = "decoder", **overrides) -> models.LiveModel:
        return models.build(small_cfg(arch, **overrides))

    return make


# The files that take longest, longest first (seconds on 3 workers, AVX-512, 2 cores; issue 41). pytest-xdist hands
# out whole files (--dist loadfile), one more to each worker that runs short, in collection order with
# --no-loadscope-reorder (make test; by default it sorts them by their number of tests, and the 3-test sidebar walk,
# 160 s, started last and kept one worker busy after the others had finished). First, they overlap the rest; the
# files handed out last are the short ones. Only the order of files changes: each file's tests stay together, in order.
LONGEST_FIRST = (
    "tests/e2e/test_first_figure.py",  # 188
    "tests/e2e/test_sidebar_walk.py",  # 135
    "tests/models/test_variants.py",  # 110
    "tests/e2e/test_browser.py",  # 90
    "tests/pages/test_page_walk.py",  # 78
    "tests/e2e/test_add_model.py",  # 58
    "tests/e2e/test_lessons.py",  # 54
    "tests/models/test_snapshots.py",  # 53
    "tests/models/hf/test_hub.py",  # 53
    "tests/pages/test_real_models.py",  # 46
    "tests/pages/test_precision_pages.py",  # 43
    "tests/e2e/test_class.py",  # 41
    "tests/test_abuse.py",  # 40
    "tests/test_replicas.py",  # 39
    "tests/pages/test_guides.py",  # 36
    "tests/e2e/test_heatmap_margins.py",  # 34
    "tests/e2e/test_progressive_prompt.py",  # 33
    "tests/e2e/test_dark_theme.py",  # 32
    "tests/pages/test_lab.py",  # 27
    "tests/test_bench_faults.py",  # 23
    "tests/e2e/test_real_models.py",  # 23
    "tests/pages/test_explorer_compare.py",  # 23
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """LONGEST_FIRST's files first, the others after them as collected (a stable sort by file)."""
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))
