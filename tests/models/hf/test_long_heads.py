"""A long trace read one head at a time (issue 30 §4: another head or layer within 400 ms at 2,048 tokens): tr.attention
[key][l, h] recomputes head h of layer l alone (long_trace.Recompute.get(head=...): a sixteenth of a 16-head layer's
attention) and equals the eager trace's head, for every family the long traces cover; a layer already held is sliced,
not recomputed."""

from __future__ import annotations

import numpy as np
import pytest

from models.core import long_trace

from .test_long_trace import CASES, TEXT, attention, eager_fused, loaded  # noqa: F401 (loaded: a fixture)

pytest.importorskip("transformers")


@pytest.mark.parametrize("name", [n for n in CASES if n != "qwen35"])
def test_each_head_alone_reads_as_the_eager_trace(loaded, name, monkeypatch):  # noqa: F811
    model = loaded[name]
    target = "the dog" if model.config.arch == "encoder-decoder" else None
    eager = model.run(TEXT, target=target)
    monkeypatch.setattr(long_trace, "LAZY_ATTENTION_BYTES", 0)
    monkeypatch.setattr(attention, "fused_attention", eager_fused)
    for key, full in eager.attention.items():
        for layer in range(len(full)):
            for head in range(full.shape[1]):
                lazy = model.run(TEXT, target=target)  # a new trace: nothing held, the head computed alone
                got = lazy.attention[key][layer, head]
                assert got.shape == full.shape[2:] and not got.flags.writeable
                np.testing.assert_allclose(got, full[layer, head], atol=1e-6, rtol=0)
                scores, want = lazy.scores[key][layer, head], eager.scores[key][layer, head]
                np.testing.assert_array_equal(np.isneginf(scores), np.isneginf(want))
                finite = np.isfinite(want)
                np.testing.assert_allclose(scores[finite], want[finite], atol=1e-5, rtol=1e-5)
                np.testing.assert_allclose(lazy.norms[key][layer, head], eager.norms[key][layer, head], atol=1e-5)


def test_a_head_alone_costs_one_head_and_a_held_layer_is_sliced(loaded, monkeypatch):  # noqa: F811
    model = loaded["qwen3"]
    monkeypatch.setattr(long_trace, "LAZY_ATTENTION_BYTES", 0)
    tr = model.run(TEXT)
    att = tr.attention["decoder.self"]
    cache = att._source.cache
    one = att[1, 2]
    assert cache.total == one.nbytes  # one [T, T] head held, not the [H, T, T] layer
    whole = att[1]
    np.testing.assert_array_equal(whole[2], one)
    before = cache.total
    np.testing.assert_array_equal(att[1, 3], whole[3])  # sliced from the held layer: nothing new computed
    assert cache.total == before
    np.testing.assert_array_equal(att[-1, -1], att[len(att) - 1][att.shape[1] - 1])
