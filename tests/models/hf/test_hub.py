"""Models by name: `python -m models.fetch` against a local server that answers the Hub's endpoints, through the
real huggingface_hub client, then `models.load("org/name")` from the cache with no network call."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

import models
from models.published import hub
from tests.hub_server import HubServer

from .tiny import build

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    src = tmp_path_factory.mktemp("repos")
    build("qwen2", src / "qwen")
    build("gpt2", src / "step1000", seed=1)
    build("gpt2", src / "step3000", seed=2)
    pickled = src / "pickled"
    pickled.mkdir()
    (pickled / "config.json").write_text((src / "qwen" / "config.json").read_text())
    (pickled / "pytorch_model.bin").write_bytes(b"not unpickled" * 100)
    (pickled / "tokenizer.json").write_text((src / "qwen" / "tokenizer.json").read_text())
    odd = src / "odd"
    odd.mkdir()
    for f in ("model.safetensors", "tokenizer.json"):
        (odd / f).write_bytes((src / "qwen" / f).read_bytes())
    (odd / "config.json").write_text(json.dumps({"model_type": "bloom", "vocab_size": 2048}))
    big = src / "big"  # 24 MB: huggingface_hub writes 10 MiB chunks, so a drop at 12 MB leaves one on disk
    big.mkdir()
    from safetensors.torch import load_file, save_file

    tensors = load_file(src / "qwen" / "model.safetensors")
    save_file({**tensors, "extra.padding": torch.zeros(6_000_000)}, big / "model.safetensors", {"format": "pt"})
    for f in ("config.json", "tokenizer.json"):
        (big / f).write_bytes((src / "qwen" / f).read_bytes())
    with HubServer() as h:
        h.add("Qwen/tiny-qwen", src / "qwen")
        h.add("Qwen/tiny-big", big)
        h.add("EleutherAI/tiny-pythia", src / "step1000", "step1000")
        h.add("EleutherAI/tiny-pythia", src / "step3000", "step3000")
        h.add("meta-llama/tiny-gated", src / "qwen", gated=True)
        h.add("old/pickled-only", pickled)
        h.add("bigscience/tiny-bloom", odd)
        yield h


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("HF_TOKEN", raising=False)
    return tmp_path / "hf" / "hub"


def fetch(server, *args, **env):
    e = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    e.update({"HF_HOME": os.environ["HF_HOME"], "HF_ENDPOINT": server.url, "PYTHONPATH": str(ROOT), **env})
    r = subprocess.run([sys.executable, "-m", "models.fetch", *args], env=e, capture_output=True, text=True,
                       cwd=ROOT, timeout=120)  # fmt: skip
    assert "Traceback" not in r.stderr + r.stdout
    return r


def test_download_then_load_by_name_offline(server, home):
    r = fetch(server, "Qwen/tiny-qwen")
    assert r.returncode == 0, r.stderr
    assert "model.safetensors" in r.stdout and "Qwen2 decoder" in r.stdout and "ready: Qwen/tiny-qwen" in r.stdout
    assert "100%" in r.stderr and "/s" in r.stderr  # the bar: bytes, rate, time left
    before = len(server.log)
    live = models.load("Qwen/tiny-qwen")  # from the cache: not a single request
    assert len(server.log) == before
    assert live.meta["name"] == "Qwen/tiny-qwen" and live.meta["family"] == "Qwen2"
    ref = models.load(Path(live.meta["source"]))
    ids = list(range(120, 140))
    np.testing.assert_array_equal(live.run_ids(ids).logits, ref.run_ids(ids).logits)
    files = {p.name for p in (home / "models--Qwen--tiny-qwen" / "snapshots").glob("*/*")}
    assert files == {"config.json", "model.safetensors", "tokenizer.json"}  # only what the loader reads


def test_two_revisions_are_two_entries_and_load_as_asked(server, home):
    for rev in ("step1000", "step3000"):
        assert fetch(server, "EleutherAI/tiny-pythia", "--revision", rev).returncode == 0
    names = [e.name for e in hub.cached()]
    assert names == ["EleutherAI/tiny-pythia@step1000", "EleutherAI/tiny-pythia@step3000"]
    a = models.load("EleutherAI/tiny-pythia@step1000")
    b = models.load("EleutherAI/tiny-pythia", revision="step3000")
    assert not np.allclose(a.run_ids([5, 6, 7]).logits, b.run_ids([5, 6, 7]).logits)
    with pytest.raises(
        models.WeightsError, match=r"not in the Hugging Face cache.*models\.fetch EleutherAI/tiny-pythia"
    ):
        models.load("EleutherAI/tiny-pythia")  # main was never downloaded


def test_too_large_is_refused_with_the_numbers_before_any_weight_moves(server, home):
    r = fetch(server, "Qwen/tiny-qwen", ATTENTION_LAB_MAX_PARAMS="1000")
    assert r.returncode == 6
    assert (
        "147K parameters is more than ATTENTION_LAB_MAX_PARAMS=1.0K" in r.stderr
        and "Nothing was downloaded" in r.stderr
    )
    assert not list(home.glob("**/*.safetensors"))


def test_check_only_downloads_nothing(server, home):
    n = len(server.log)
    r = fetch(server, "Qwen/tiny-qwen", "--check")
    assert r.returncode == 0 and "fits" in r.stdout and "total" in r.stdout
    assert not any(m == "GET" and p.endswith("model.safetensors") and rng is None for m, p, rng in server.log[n:])
    assert hub.cached() == []


@pytest.mark.parametrize(
    ("args", "env", "code", "words"),
    [
        (["meta-llama/tiny-gated"], {}, 4, "is gated"),
        (["no-org/no-model"], {}, 3, "was not found"),
        (["Qwen/tiny-qwen", "--revision", "step9"], {}, 3, "has no revision 'step9'"),
        (["old/pickled-only"], {}, 5, "never unpickles"),
        (["bigscience/tiny-bloom"], {}, 5, "model_type 'bloom' is not supported"),
        (["not a name"], {}, 2, "is not a Hub id"),
        (["Qwen/tiny-qwen"], {"HF_HUB_OFFLINE": "1"}, 3, "HF_HUB_OFFLINE=1 is set"),
    ],
)
def test_each_failure_is_one_paragraph_and_its_exit_status(server, home, args, env, code, words):
    r = fetch(server, *args, **env)
    assert r.returncode == code, r.stderr
    assert words in r.stderr
    assert not any(p.endswith("pytorch_model.bin") and m == "GET" for m, p, _ in server.log)


def test_gated_repo_downloads_with_a_token(server, home):
    assert fetch(server, "meta-llama/tiny-gated", HF_TOKEN=server.token).returncode == 0
    assert [e.name for e in hub.cached()] == ["meta-llama/tiny-gated"]


def test_no_network_says_so_and_offline_mode_reads_the_cache(server, home):
    r = fetch(server, "Qwen/tiny-qwen", HF_ENDPOINT="http://127.0.0.1:9")
    assert r.returncode == 7 and "could not be reached" in r.stderr and "HF_ENDPOINT" in r.stderr
    assert fetch(server, "Qwen/tiny-qwen").returncode == 0
    r = fetch(server, "Qwen/tiny-qwen", HF_HUB_OFFLINE="1", HF_ENDPOINT="http://127.0.0.1:9")
    assert r.returncode == 0 and "ready: Qwen/tiny-qwen" in r.stdout


def test_a_dropped_connection_resumes_where_it_stopped(server, home, tmp_path):
    server.drop["model.safetensors"] = 12_000_000
    n = len(server.log)
    r = fetch(server, "Qwen/tiny-big", "--status", str(tmp_path / "s.json"))
    assert r.returncode == 0, r.stderr
    assert "Trying to resume" in r.stderr
    ranges = [rng for m, p, rng in server.log[n:] if m == "GET" and p.endswith("model.safetensors") and rng]
    assert f"bytes={10 * 2**20}-" in ranges, ranges  # the first 10 MiB were kept, not fetched again
    snap = hub.snapshot("Qwen/tiny-big")
    src = server.repos["Qwen/tiny-big"].revisions["main"].files["model.safetensors"]
    assert (snap / "model.safetensors").read_bytes() == src
    status = json.loads((tmp_path / "s.json").read_text())
    assert status["state"] in ("ready", "error")


def test_status_file_reports_ready_with_the_total(server, home, tmp_path):
    r = fetch(server, "Qwen/tiny-qwen", "--status", str(tmp_path / "s.json"))
    assert r.returncode == 0
    s = json.loads((tmp_path / "s.json").read_text())
    files = server.repos["Qwen/tiny-qwen"].revisions["main"].files
    total = sum(len(files[f]) for f in hub.wanted(list(files)))
    assert s["state"] == "ready" and s["done"] == s["total"] == total and s["name"] == "Qwen/tiny-qwen"


def test_cache_lists_unreadable_models_with_the_reason_and_skips_cut_downloads(server, home):
    assert fetch(server, "Qwen/tiny-qwen").returncode == 0
    snap = hub.snapshot("Qwen/tiny-qwen")
    cut = home / "models--cut--short" / "snapshots" / ("a" * 40)
    cut.mkdir(parents=True)
    (cut / "model.safetensors").write_bytes(b"12345")  # no config.json: a download cut short
    broken = home / "models--broken--model" / "snapshots" / ("b" * 40)
    broken.mkdir(parents=True)
    (broken / "config.json").write_text((snap / "config.json").read_text())
    entries = {e.name: e for e in hub.cached()}
    assert set(entries) == {"Qwen/tiny-qwen", "broken/model@bbbbbbbbbbbb"}
    assert entries["Qwen/tiny-qwen"].error is None
    assert "no model.safetensors" in entries["broken/model@bbbbbbbbbbbb"].error


def test_hub_ids_are_told_apart_from_names_and_paths():
    assert hub.parse("Qwen/Qwen3-0.6B") == ("Qwen/Qwen3-0.6B", None)
    assert hub.parse("EleutherAI/pythia-70m@step3000") == ("EleutherAI/pythia-70m", "step3000")
    for bad in ("decoder", "/tmp/x/y", "../a/b", "a/b/c", "", "<script>/x", "a b/c"):
        assert hub.parse(bad) is None
    assert hub.wanted(["config.json", "model.safetensors", "pytorch_model.bin", "onnx/model.onnx",
                       "model-00001-of-00002.safetensors", "consolidated.safetensors", "tokenizer.json",
                       "model.safetensors.index.json", "modeling_x.py"]) == [
        "config.json", "model.safetensors", "model-00001-of-00002.safetensors", "tokenizer.json",
        "model.safetensors.index.json"]  # fmt: skip
