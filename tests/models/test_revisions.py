"""Heads forming during training in a real model (models/inspection/revisions.py): several revisions of one Hub repo
laid out
by hand as a Hugging Face cache (models--org--name/{blobs,refs,snapshots}), grouped by training step, checked for
identical weights (EleutherAI/pythia issues #195, #205), and scored as the field guide scores them."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

import models
from models.inspection import revisions
from models.published import hub
from models.published.checkpoints import Entry

from .hf.tiny import build


def lay_out(hub_dir: Path, repo: str, revs: dict[str, Path], links: bool = True) -> None:
    """repo's revisions in the cache as huggingface_hub leaves them: refs/<rev> holds a commit hash,
    snapshots/<commit>/<file> links to blobs/<sha256> (or, links=False, is a plain copy)."""
    root = hub_dir / f"models--{repo.replace('/', '--')}"
    for rev, src in revs.items():
        commit = hashlib.sha1(f"{repo}@{rev}".encode()).hexdigest()
        (root / "refs").mkdir(parents=True, exist_ok=True)
        (root / "refs" / rev).write_text(commit)
        snap = root / "snapshots" / commit
        snap.mkdir(parents=True, exist_ok=True)
        for f in sorted(src.iterdir()):
            if not links:
                shutil.copy(f, snap / f.name)
                continue
            blob = root / "blobs" / hashlib.sha256(f.read_bytes()).hexdigest()
            blob.parent.mkdir(parents=True, exist_ok=True)
            if not blob.exists():
                shutil.copy(f, blob)
            os.symlink(os.path.relpath(blob, snap), snap / f.name)


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    src = tmp_path_factory.mktemp("revisions")
    for seed in (1, 2, 3):
        build("gpt2", src / f"seed{seed}", seed=seed)
    return src


@pytest.fixture
def cache(tmp_path, monkeypatch, sources):
    """EleutherAI/tiny-pythia at step1000, step3000 (same weights as main) and main; a single-revision repo."""
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    hub_dir = tmp_path / "hf" / "hub"
    lay_out(hub_dir, "EleutherAI/tiny-pythia",
            {"step1000": sources / "seed1", "step3000": sources / "seed2", "step143000": sources / "seed3",
             "main": sources / "seed3"})  # fmt: skip
    lay_out(hub_dir, "Other/single", {"main": sources / "seed1"})
    return hub_dir


def test_groups_orders_by_step_and_leaves_single_revisions_out(cache):
    found = revisions.groups(hub.cached())
    assert list(found) == ["EleutherAI/tiny-pythia"]
    names = [e.name for e in found["EleutherAI/tiny-pythia"]]
    assert names == [f"EleutherAI/tiny-pythia@step{n}" for n in (1000, 3000, 143000)] + ["EleutherAI/tiny-pythia"]


def test_groups_skips_unloadable_and_stepless_revisions(tmp_path):
    def entry(name, error=None):
        return Entry(tmp_path, name, "GPT-2", "decoder", 1, error)

    entries = [entry("a/b@step10"), entry("a/b@v1"), entry("a/b@0123456789ab"), entry("a/b@step2", "too large"),
               entry("c/d@step5"), entry("c/d@step0"), entry("decoder")]  # fmt: skip
    found = revisions.groups(entries)
    assert list(found) == ["c/d"] and [e.name for e in found["c/d"]] == ["c/d@step0", "c/d@step5"]
    assert revisions.step_of("step143000") == 143000 and revisions.step_of("main") is None


def test_weights_digest_is_the_blob_name_or_the_files_sha256(cache, sources, tmp_path):
    want = hashlib.sha256((sources / "seed1" / "model.safetensors").read_bytes()).hexdigest()
    linked = hub.snapshot("EleutherAI/tiny-pythia", "step1000")
    assert os.path.islink(linked / "model.safetensors")
    assert revisions.weights_digest(linked) == want
    assert revisions.weights_digest(sources / "seed1") == want  # a plain folder: hashed in chunks
    lay_out(tmp_path / "copies", "x/y", {"step1": sources / "seed2"}, links=False)
    (copied,) = (tmp_path / "copies" / "models--x--y" / "snapshots").iterdir()
    assert revisions.weights_digest(copied) == revisions.weights_digest(sources / "seed2")
    assert revisions.weights_digest(sources / "seed1") != revisions.weights_digest(sources / "seed2")


def test_replay_scores_every_revision_and_names_duplicates(cache):
    (entries,) = revisions.groups(hub.cached()).values()
    loaded = []

    def load(name):
        loaded.append(name)
        return models.load(name)

    result = revisions.replay(entries, load=load)
    revs = result["revisions"]
    assert [r["revision"] for r in revs] == ["step1000", "step3000", "main", "step143000"]
    assert [r["step"] for r in revs] == [1000, 3000, 143000, 143000]  # main takes the step it is identical to
    assert result["duplicates"] == {"EleutherAI/tiny-pythia": "EleutherAI/tiny-pythia@step143000"}
    assert revs[2]["duplicate_of"] == "EleutherAI/tiny-pythia@step143000" and revs[2]["digest"] == revs[3]["digest"]
    assert len(loaded) == 3  # identical weights are scored once
    assert revisions.suspicious(result) == {}  # main = the last step: expected
    for r in revs:
        want = models.head_scores(models.load(r["name"]))
        assert set(r["scores"]) == {"previous_token", "induction"}
        for role, s in r["scores"].items():
            assert s.shape == (2, 4)
            np.testing.assert_array_equal(s, want[role])
    assert [r["revision"] for r in revisions.plotted(result)] == ["step1000", "step3000", "step143000"]
    assert revisions.per_head(revisions.plotted(result), "induction").shape == (3, 2, 4)


def test_a_step_branch_with_mains_weights_is_suspicious(tmp_path, monkeypatch, sources):
    """Pythia issues #195/#205: early step branches that serve the final weights."""
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    lay_out(tmp_path / "hf" / "hub", "EleutherAI/tiny-pythia",
            {"step1000": sources / "seed3", "step2000": sources / "seed1", "main": sources / "seed3"})  # fmt: skip
    (entries,) = revisions.groups(hub.cached()).values()
    result = revisions.replay(entries, score=lambda e, d: {"previous_token": np.zeros((2, 4)),
                                                           "induction": np.zeros((2, 4))})  # fmt: skip
    # main takes the step it is identical to, and is that step's duplicate: not a second point (no flat line)
    assert result["duplicates"] == {"EleutherAI/tiny-pythia": "EleutherAI/tiny-pythia@step1000"}
    assert revisions.suspicious(result) == result["duplicates"]  # not the last step: a publishing error
    assert [(r["revision"], r["step"]) for r in revisions.plotted(result)] == [("step1000", 1000), ("step2000", 2000)]


def test_forming_names_the_first_step_and_head_over_the_threshold():
    def rev(step, best):
        s = np.zeros((2, 3))
        s[1, 2] = best
        return dict(name=f"r@step{step}", revision=f"step{step}", step=step, digest=str(step),
                    scores={"induction": s, "previous_token": s}, duplicate_of=None)  # fmt: skip

    result = {"revisions": [rev(0, 0.01), rev(1000, 0.1), rev(3000, 0.6), rev(143000, 0.8)], "duplicates": {}}
    assert revisions.forming(result) == (3000, 1, 2)
    assert revisions.forming(result, threshold=0.9) is None
