"""A bad model folder is a WeightsError naming the file and what to do, never a traceback from deep inside."""

from __future__ import annotations

import json
import shutil

import pytest

import models

from .tiny import build


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    folder = tmp_path_factory.mktemp("good") / "qwen"
    build("qwen2", folder)
    return folder


def copy(good, tmp_path):
    dst = tmp_path / "m"
    shutil.copytree(good, dst)
    return dst


def test_not_a_model_folder(tmp_path):
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(models.WeightsError, match=r"no config\.json"):
        models.load(tmp_path)


def test_unknown_model_type(good, tmp_path):
    d = copy(good, tmp_path)
    c = json.loads((d / "config.json").read_text())
    (d / "config.json").write_text(json.dumps({**c, "model_type": "falcon"}))
    with pytest.raises(models.WeightsError, match=r"config.json.*'falcon' is not supported"):
        models.load(d)


def test_missing_weights_and_tokenizer(good, tmp_path):
    d = copy(good, tmp_path)
    (d / "tokenizer.json").unlink()
    with pytest.raises(models.WeightsError, match=r"no tokenizer\.json"):
        models.load(d)
    (d / "model.safetensors").unlink()
    with pytest.raises(models.WeightsError, match=r"no model\.safetensors"):
        models.load(d)


def test_truncated_safetensors_names_the_file(good, tmp_path):
    d = copy(good, tmp_path)
    f = d / "model.safetensors"
    f.write_bytes(f.read_bytes()[:-1000])
    with pytest.raises(models.WeightsError, match=r"model.safetensors.*truncated"):
        models.load(d)
    f.write_bytes(b"\x00garbage" * 10)
    with pytest.raises(models.WeightsError, match=r"model\.safetensors"):
        models.load(d)


def test_shape_that_does_not_match_its_config(good, tmp_path):
    d = copy(good, tmp_path)
    c = json.loads((d / "config.json").read_text())
    (d / "config.json").write_text(json.dumps({**c, "intermediate_size": 64}))
    with pytest.raises(models.WeightsError, match=r"shape .* config.json implies"):
        models.load(d)


def test_sharded_checkpoint_reads_like_a_single_file(good, tmp_path):
    """A sharded folder (index + shards) gives the same model; a missing shard is named."""
    from safetensors.torch import load_file, save_file

    d = copy(good, tmp_path)
    tensors = load_file(d / "model.safetensors")
    names = sorted(tensors)
    half = len(names) // 2
    shards = {"model-00001-of-00002.safetensors": names[:half], "model-00002-of-00002.safetensors": names[half:]}
    for file, part in shards.items():
        save_file({n: tensors[n] for n in part}, d / file, metadata={"format": "pt"})
    (d / "model.safetensors").unlink()
    weight_map = {n: f for f, part in shards.items() for n in part}
    (d / "model.safetensors.index.json").write_text(json.dumps({"metadata": {}, "weight_map": weight_map}))
    a, b = models.load(good).run_ids([5, 6, 7]), models.load(d).run_ids([5, 6, 7])
    assert (a.logits == b.logits).all()
    (d / "model-00002-of-00002.safetensors").unlink()
    with pytest.raises(models.WeightsError, match="model-00002-of-00002"):
        models.load(d)


def test_weights_do_not_depend_on_the_file_after_loading(good, tmp_path):
    """Copied out of the memory map: truncating the file afterwards changes nothing and crashes nothing."""
    d = copy(good, tmp_path)
    live = models.load(d)
    before = live.run_ids([5, 6, 7]).logits
    (d / "model.safetensors").write_bytes(b"")
    assert (live.run_ids([5, 6, 7]).logits == before).all()


def test_chinese_pieces_show_as_whole_characters(good):
    live = models.load(good)
    tr = live.run("小明喜欢猫 and dogs 鼹鼠")
    text = "".join(t.rstrip("₀₁₂₃₄₅₆₇₈₉") for t in tr.tokens)
    assert "\ufffd" not in text and "<" not in text
    for ch in "小明喜欢猫":
        assert any(t.startswith(ch) for t in tr.tokens)
    assert "␣and" in tr.tokens
    # 鼹 is not in the vocabulary: byte-level BPE splits it into 3 byte pieces, labelled 鼹₁ 鼹₂ 鼹₃
    assert tr.tokens[-6:] == ["鼹₁", "鼹₂", "鼹₃", "鼠₁", "鼠₂", "鼠₃"]
