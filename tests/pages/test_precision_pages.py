"""Every page with a published model running bfloat16 matmuls (issue 30, models/core/precision.py): it draws or says
why,
with no traceback, and the sidebar says which precision runs. Folder names of their own: the model cache is keyed by
name, and the other page tests load their models float32 (tests/conftest.py)."""

from __future__ import annotations

import pytest

from tests.models.hf.tiny import build
from tests.models.hf.tiny_qwen35 import build_qwen35
from ui import params

from .apptest import open_app
from .test_real_models import PAGES

NAMES = ("bf16-qwen2", "bf16-bert", "bf16-marian", "bf16-qwen35")


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("bf16-models")
    build("qwen2", root / "bf16-qwen2")
    build("bert", root / "bf16-bert")
    build("marian", root / "bf16-marian")
    build_qwen35(root / "bf16-qwen35")
    return root


@pytest.fixture
def local(models_dir, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(models_dir))
    monkeypatch.setenv("ATTENTION_LAB_PRECISION", "bfloat16")
    return params.local_models()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("page", PAGES)
def test_every_page_works_in_bfloat16(local, name, page):
    at = open_app(page, model=name, prompt="小明喜欢猫 and the cat sat .")
    assert not at.exception, [e.value for e in at.exception]


def test_the_sidebar_says_bfloat16_runs(local):
    at = open_app("explorer", model="bf16-qwen2")
    # the session's switch (ui/precision_ui.py) starts on the server's default and says where that comes from
    assert at.segmented_control(key="precision").value == "bfloat16"
    assert any("**bfloat16**" in c.value and "ATTENTION_LAB_PRECISION=bfloat16" in c.value for c in at.sidebar.caption)
