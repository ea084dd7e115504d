"""Fetching an ALBERT or T5 repo: spiece.model comes down only where the repo has no tokenizer.json, and the
model then loads from the cache by name (the local Hub server of test_hub.py, the real huggingface_hub client)."""

from __future__ import annotations

import numpy as np
import pytest

import models
from models.published import hub
from tests.hub_server import HubServer

from .test_hub import fetch, home  # noqa: F401  (the fixture: an empty HF_HOME)
from .tiny_spiece import build_albert_spiece, build_t5_spiece


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    src = tmp_path_factory.mktemp("spiece-repos")
    build_albert_spiece(src / "albert")
    build_t5_spiece(src / "t5")
    both = src / "both"  # a T5 repo with both files, as t5-small has: tokenizer.json is read, spiece.model not fetched
    both.mkdir()
    from .tiny_t5 import t5_tokenizer

    for f in ("config.json", "model.safetensors", "spiece.model"):
        (both / f).write_bytes((src / "t5" / f).read_bytes())
    t5_tokenizer(both)
    with HubServer() as h:
        h.add("albert/tiny-albert-spiece", src / "albert")
        h.add("google-t5/tiny-t5-spiece", src / "t5")
        h.add("google-t5/tiny-t5-both", both)
        yield h


def test_wanted_takes_spiece_model_only_without_tokenizer_json():
    base = ["config.json", "model.safetensors", "spiece.model", "tokenizer_config.json", "pytorch_model.bin"]
    assert hub.wanted(base) == ["config.json", "model.safetensors", "spiece.model", "tokenizer_config.json"]
    assert "spiece.model" not in hub.wanted([*base, "tokenizer.json"])


@pytest.mark.parametrize("repo", ["albert/tiny-albert-spiece", "google-t5/tiny-t5-spiece"])
def test_a_repo_with_only_spiece_model_downloads_it_and_loads_offline(server, home, repo):  # noqa: F811
    r = fetch(server, repo)
    assert r.returncode == 0, r.stdout + r.stderr
    files = {p.name for p in (home / f"models--{repo.replace('/', '--')}" / "snapshots").glob("*/*")}
    assert files == {"config.json", "model.safetensors", "spiece.model", "tokenizer_config.json"}
    before = len(server.log)
    live = models.load(repo)
    assert len(server.log) == before  # from the cache, not a request
    ids, _ = live.source_ids("The cat 小猫")
    special = ("[CLS]", "[SEP]") if "albert" in repo else (None, "</s>")
    tokens = live.tokenizer.token_strs(ids)
    assert tokens[-1] == special[1] and (special[0] is None or tokens[0] == special[0])
    assert np.isfinite(np.asarray(live.run_ids(ids, [0] if "t5" in repo else None).logits)).all()


def test_a_repo_with_tokenizer_json_does_not_fetch_spiece_model(server, home):  # noqa: F811
    assert fetch(server, "google-t5/tiny-t5-both").returncode == 0
    files = {p.name for p in (home / "models--google-t5--tiny-t5-both" / "snapshots").glob("*/*")}
    assert files == {"config.json", "model.safetensors", "tokenizer.json"}
    assert type(models.load("google-t5/tiny-t5-both").tokenizer).__name__ == "HFTokenizer"
