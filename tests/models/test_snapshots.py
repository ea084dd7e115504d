"""Snapshots of a lab variant: they replay (the last one's attention is the final model's, also after a
round trip through the cache), their scores are stored once, and the induction-forming recipe grows an
induction head (Olsson et al. 2022) that the snapshots show appearing."""

import numpy as np
import pytest
import torch

from models import ModelConfig, variants
from models.loading import shipped_tokenizer
from models.training import snapshots

PROMPT = "alice met bob at the park . then alice gave bob a book ."


@pytest.fixture(scope="module")
def tok():
    return shipped_tokenizer()


def small(tok, **kw):
    return ModelConfig(arch="decoder", vocab_size=tok.vocab_size, n_layers=2, d_model=32, n_heads=2, d_ff=64,
                       max_len=128, **kw)  # fmt: skip


def test_schedule_is_log_spaced_then_every_tenth():
    assert snapshots.schedule(1000) == [0, 1, 3, 10, 30, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]
    assert snapshots.schedule(30) == [0, 1, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30]
    assert snapshots.schedule(5)[0] == 0 and snapshots.schedule(5)[-1] == 5


def test_snapshots_replay_and_survive_the_cache(tok, tmp_path):
    cfg = small(tok)
    net, hist = variants.train(cfg, tok, seed=0, steps=30)
    steps = [s for s, _ in hist.states]
    assert steps == snapshots.schedule(30) and hist.snapshots["step"] == steps
    assert np.array(hist.snapshots["induction"]).shape == (len(steps), 2, 2)
    path = variants.save(net, hist, 0, variants.entry_path("k", tmp_path))
    final = variants.load(path, cfg, tok)
    want = final.run(PROMPT).attention["decoder.self"]
    last = snapshots.replay(cfg, tok, hist.states[-1][1]).run(PROMPT).attention["decoder.self"]
    np.testing.assert_array_equal(last, want)
    first = snapshots.replay(cfg, tok, hist.states[0][1]).run(PROMPT).attention["decoder.self"]
    assert not np.allclose(first, want)  # training changed the attention
    stored = snapshots.load(path)
    assert [s for s, _ in stored] == steps
    for (_, a), (_, b) in zip(stored, hist.states, strict=True):
        again = snapshots.replay(cfg, tok, a).run(PROMPT).attention["decoder.self"]
        np.testing.assert_array_equal(again, snapshots.replay(cfg, tok, b).run(PROMPT).attention["decoder.self"])
    assert final.meta["history"]["snapshots"] == hist.snapshots  # the scores come back with the entry
    assert all(v.dtype == torch.float16 for _, st in stored for v in st.values())  # small: half precision,
    assert not any(k.startswith("head.") for k in stored[0][1])  # without the output head
    assert snapshots.path_of(path).stat().st_size < 1.1 * sum(snapshots.nbytes(st) for _, st in stored)


def test_thin_keeps_first_and_last_within_the_budget(tok):
    _, hist = variants.train(small(tok), tok, seed=0, steps=10)
    size = snapshots.nbytes(hist.states[0][1])
    kept = snapshots.thin(hist.states, budget=5 * size)
    assert len(kept) == 5 and kept[0][0] == 0 and kept[-1][0] == 10


def test_forming_step():
    per_head = [[[0.1, 0.0]], [[0.2, 0.6]], [[0.9, 0.1]]]
    assert snapshots.forming_step([0, 10, 100], per_head) == 10
    assert snapshots.forming_step([0, 10, 100], per_head, threshold=0.95) is None


@pytest.mark.slow
def test_the_induction_recipe_forms_an_induction_head(tok):
    """The lab's "Induction head forms" preset (A with tied embeddings, the induction-forming recipe), built
    as the lab builds it: about 40 s."""
    from lessons.lab_controls import lab_config
    from ui.params import LAB_PRESET_RECIPES, LAB_PRESETS

    cfg = lab_config(LAB_PRESETS["induction"], tok.vocab_size)
    assert cfg.tie_embeddings and cfg.positional == "rope"
    _, hist = variants.train(cfg, tok, seed=cfg.seed, recipe=LAB_PRESET_RECIPES["induction"])
    best = snapshots.best(hist.snapshots["induction"])
    assert best[-1] >= 0.5 and best[-1] >= 3 * best[0], best
