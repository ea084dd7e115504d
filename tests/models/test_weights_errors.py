"""Missing or corrupt weight files give an error that names the command to rebuild them."""

import shutil

import pytest

import models
from models.loading import WEIGHTS_DIR
from models.tokenizer import load_tokenizer


@pytest.fixture
def weights(tmp_path):
    for f in WEIGHTS_DIR.iterdir():
        shutil.copy(f, tmp_path / f.name)
    load_tokenizer.cache_clear()
    yield tmp_path
    load_tokenizer.cache_clear()


def test_missing_weight_file_names_the_rebuild_command(weights):
    (weights / "decoder.pt").unlink()
    with pytest.raises(models.WeightsError, match=r"python -m models\.train --arch decoder"):
        models.load("decoder", weights)


def test_corrupt_weight_file_names_the_rebuild_command(weights):
    (weights / "encoder.pt").write_bytes(b"\x00not a checkpoint" * 10)
    with pytest.raises(models.WeightsError, match=r"corrupt.*python -m models\.train --arch encoder"):
        models.load("encoder", weights)


def test_truncated_weight_file_is_reported_as_corrupt(weights):
    path = weights / "encoder-decoder.pt"
    path.write_bytes(path.read_bytes()[:5000])
    with pytest.raises(models.WeightsError, match=r"python -m models\.train"):
        models.load("encoder-decoder", weights)


def test_missing_tokenizer_names_the_rebuild_command(weights):
    (weights / "tokenizer.json").unlink()
    with pytest.raises(models.WeightsError, match=r"tokenizer.*python -m models\.train"):
        models.load("decoder", weights)


def test_corrupt_tokenizer_names_the_rebuild_command(weights):
    (weights / "tokenizer.json").write_text("{ not json")
    with pytest.raises(models.WeightsError, match=r"corrupt.*python -m models\.train"):
        models.load("decoder", weights)


def test_a_retrained_tokenizer_invalidates_old_weights(weights):
    path = weights / "tokenizer.json"
    path.write_text(path.read_text().replace('"[SEP]"', '"[SEQ]"', 1))
    with pytest.raises(models.WeightsError, match=r"different tokenizer.*python -m models\.train"):
        models.load("decoder", weights)


def test_unknown_model_name_lists_the_shipped_ones():
    with pytest.raises(ValueError, match="encoder-decoder"):
        models.load("gpt-5")
