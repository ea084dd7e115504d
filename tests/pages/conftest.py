"""Fixtures the page tests on long prompts share: the tiny 2,048-position Qwen3 folder, built once a session, and
the app's environment that serves it (tests/long_prompts.py)."""

from __future__ import annotations

import pytest

from tests.long_prompts import MAX_TOKENS, build_long_qwen3


@pytest.fixture(scope="session")
def long_models_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("long_models")
    build_long_qwen3(root)
    return root


@pytest.fixture()
def long_env(long_models_dir, monkeypatch):
    """The app serves the tiny long model at its 2,048 positions (and the llama family's own cap lifted to them)."""
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(long_models_dir))
    monkeypatch.setenv("ATTENTION_LAB_MAX_TOKENS", str(MAX_TOKENS))
    import models.published.families.llama as llama  # the family's own cap of 256, where it still has one

    monkeypatch.setattr(llama, "MAX_TOKENS", MAX_TOKENS, raising=False)


@pytest.fixture()
def local(folder, monkeypatch):
    """The app lists the test module's `folder` of tiny published models (each module builds its own)."""
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(folder))
    return folder


@pytest.fixture()
def hf_home(tmp_path, monkeypatch):
    """A throwaway Hugging Face cache (its hub folder yielded): the app lists the models a test lays out in it, and
    scans again after the test, so the next one does not see them."""
    from ui import params

    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    yield tmp_path / "hf" / "hub"
    params.refresh_models()
