"""A published T5 (tiny random, relu and Flan's gated-gelu) on the pages: the Positional page draws its learned
relative position bias per bucket and head and at every offset, exactly the loaded tables; Translate runs it."""

import numpy as np
import pytest
import torch

import models
from models.core.positional import relative_bucket
from tests.models.hf.tiny_t5 import build_t5
from tests.pages.apptest import array, figures, markdown_text, open_app, titled
from ui import params

pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def models_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    build_t5(root / "tiny-t5", "t5")
    build_t5(root / "tiny-flan", "flan")
    return root


@pytest.mark.parametrize("name", ["tiny-t5", "tiny-flan"])
def test_positional_page_draws_the_loaded_bias_tables(models_dir, monkeypatch, name):
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(models_dir))
    params.local_models()
    at = open_app("positional", model=name)
    net = models.load(params.local_models()[name].path).net
    cfg = net.cfg
    for stack, table, both in (("encoder", net.enc_rel_bias, True), ("decoder", net.dec_rel_bias, False)):
        weight = table.weight.detach().numpy()  # [buckets, heads]
        z = array(titled(at, f"Learned bias of the {stack} per bucket and head")["data"][0]["z"])
        np.testing.assert_allclose(z, weight.T, atol=1e-6)
        lines = titled(at, f"Bias the {stack} adds at each offset")["data"]
        assert len(lines) == cfg.n_heads
        offsets = array(lines[0]["x"]).astype(int)
        assert offsets[-1] == (cfg.rel_max_distance + 16 if both else 0)
        buckets = relative_bucket(torch.from_numpy(offsets), both, cfg.rel_buckets, cfg.rel_max_distance).numpy()
        for h, line in enumerate(lines):
            np.testing.assert_allclose(array(line["y"]), weight[buckets, h], atol=1e-6)
    assert "T5 adds no position vector" in markdown_text(at)


def test_the_toy_models_show_no_t5_section():
    at = open_app("positional")
    assert not any("Learned bias of the" in str(f.get("layout", {}).get("title", "")) for f in figures(at))


def test_translate_runs_a_published_t5(models_dir, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(models_dir))
    params.local_models()
    at = open_app("translate", model="tiny-flan", source="the cat sat")
    row = array(titled(at, "Cross-attention of")["data"][0]["z"])
    np.testing.assert_allclose(row.sum(-1), 1.0, atol=1e-5)
