"""Published models' traces are cached by bytes (ui/trace_cache.py, issue 21): the cache never holds more
than its cap, drops the least recently used first, computes a key once under threads, and the pages work
with it (a published model's trace comes from it, the toy models' from st.cache_data as before)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import models
from tests.models.hf.tiny import build
from ui import params, trace_cache
from ui.trace_cache import ByteLRU, nbytes

from .apptest import heatmaps, open_app

PROMPTS = [f"the cats that the dog {w} are happy ." for w in ("sees", "likes", "finds", "sees not", "hears")]


@pytest.fixture(scope="module")
def traces():
    model = models.load("decoder")
    return [model.run(p) for p in PROMPTS]


def test_the_cache_never_holds_more_than_its_cap(traces):
    sizes = [nbytes(tr) for tr in traces]
    assert min(sizes) > 100_000  # real arrays are counted (attention, hidden states, ...)
    cache = ByteLRU(int(2.5 * max(sizes)))  # room for two of these traces, not three
    for i, tr in enumerate(traces):
        assert cache.get(i, lambda tr=tr: tr) is tr
        kept = cache.order()
        assert cache.total == sum(sizes[k] for k in kept) <= cache.cap_bytes
        assert kept[-1] == i and len(kept) == min(i + 1, 2)


def test_the_least_recently_used_goes_first(traces):
    cache = ByteLRU(3 * max(nbytes(tr) for tr in traces))
    for i in range(3):
        cache.get(i, lambda i=i: traces[i])
    cache.get(0, lambda: pytest.fail("a hit must not recompute"))  # 0 is now the most recent
    cache.get(3, lambda: traces[3])
    assert cache.order() == [2, 0, 3]  # 1, the least recently used, went


def test_a_value_larger_than_the_cap_is_returned_but_not_kept(traces):
    cache = ByteLRU(nbytes(traces[0]) // 2)
    assert cache.get("big", lambda: traces[0]) is traces[0]
    assert cache.order() == [] and cache.total == 0


def test_a_kept_value_is_read_only_for_every_session():
    cache = ByteLRU(1 << 20)
    value = cache.get("k", lambda: {"a": np.zeros(4), "b": (np.ones(2),)})
    with pytest.raises(ValueError, match="read-only"):
        value["a"][0] = 1.0
    assert not value["b"][0].flags.writeable


def test_threads_compute_a_key_once_kept_and_stay_within_the_cap():
    cache, lock, computed = ByteLRU(10 * 8000), threading.Lock(), []
    barrier = threading.Barrier(8)

    def compute(k):
        with lock:
            computed.append(k)
        return np.full(1000, k, np.float64)  # 8,000 bytes

    def work(t):
        barrier.wait()
        for k in range(40):
            got = cache.get(k % 20, lambda k=k: compute(k % 20))
            assert got[0] == k % 20
            assert cache.total <= cache.cap_bytes

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert cache.total == 8000 * len(cache.order()) <= cache.cap_bytes
    assert len(set(cache.order())) == len(cache.order()) == 10


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    build("qwen2", root / "tiny-qwen2")
    return root


def test_the_explorer_draws_a_published_model_from_the_byte_cache(models_dir, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(models_dir))
    trace_cache.TRACES.clear()
    at = open_app("explorer", model="tiny-qwen2", prompt="the cats sit .")
    assert heatmaps(at) and not at.exception
    path = str(params.local_models()["tiny-qwen2"].path)
    (key,) = [k for k in trace_cache.TRACES.order() if k[0] == "trace"]
    assert key[1] == path and 0 < trace_cache.TRACES.total <= trace_cache.TRACES.cap_bytes
    monkeypatch.setattr(trace_cache.TRACES, "cap_bytes", 1)  # nothing fits: computed on every run, still drawn
    trace_cache.TRACES.clear()
    at.text_input(key="prompt").input("the dogs sit .").run()
    assert heatmaps(at) and not at.exception and trace_cache.TRACES.order() == []


def test_the_toy_models_do_not_use_it():
    trace_cache.TRACES.clear()
    at = open_app("explorer", prompt="the cats sit .")
    assert heatmaps(at) and trace_cache.TRACES.order() == []


def test_caching_a_trace_does_not_run_the_model_again_for_its_lazy_scores():
    """A published model's long trace leaves its pre-softmax scores to be computed when read (LazyScores):
    keeping it (nbytes, freeze) must not read them, and counts them as the attention's size meanwhile."""
    model = models.load("decoder")
    ids = model.tokenizer.encode(PROMPTS[0])
    lazy, full = model.run_ids(ids, scores=False), model.run_ids(ids, scores=True)
    assert not lazy.scores.filled
    cache = ByteLRU(10 * nbytes(full))
    assert cache.get("k", lambda: lazy) is lazy
    assert not lazy.scores.filled  # not run again by caching
    assert cache.total == nbytes(full)  # counted at the size it will have
    np.testing.assert_allclose(lazy.scores["decoder.self"], full.scores["decoder.self"], rtol=1e-5, atol=1e-5)


def test_a_toy_models_trace_is_shared_not_copied():
    """Issue 40: a toy model's trace is kept once (TOY_TRACES) and every hit returns it, read-only, instead of
    st.cache_data's unpickled copy; a published model's traces stay in TRACES alone."""
    from ui import loaders

    trace_cache.TOY_TRACES.clear()
    trace_cache.TRACES.clear()
    first = loaders.trace("decoder", "trained", "the cats sit .")
    again = loaders.trace("decoder", "trained", "the cats sit .")
    assert again is first and not first.attention["decoder.self"].flags.writeable
    assert loaders.trace("decoder", "trained", "the dogs sit .") is not first
    assert 0 < trace_cache.TOY_TRACES.total <= trace_cache.TOY_TRACES.cap_bytes and trace_cache.TRACES.order() == []
