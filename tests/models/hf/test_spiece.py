"""ALBERT and T5 repos that publish spiece.model and no tokenizer.json: the loader reads it with sentencepiece.

The oracle is transformers' AlbertTokenizer / T5Tokenizer read from the same folder (spiece.model converted by
transformers itself): the same ids for English in mixed case, Chinese, emoji, accents and typed special tokens,
with ALBERT's lower-casing and accent rules as tokenizer_config.json says. The models then run on those ids
and match transformers' logits; a damaged spiece.model is a WeightsError that names the file.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import models
from models.published.spiece_tokenizer import SpieceTokenizer

from .tiny_spiece import EXTRA_IDS, build_albert_spiece, build_t5_spiece, tokenizer_config, train_spiece

tf = pytest.importorskip("transformers")
TEXTS = [
    "The Cat sat on the MAT.",
    "小猫坐在垫子上。",
    "Attention 😀 is all you need",
    "mixed Case 注意力 and  spaces ",
    "Café naïve ``quoted'' 3,14",
    "the [MASK] sat.",
    "pilot <extra_id_0> tired <extra_id_1>",
    "",
    "   ",
]
CONFIGS = [dict(do_lower_case=True, keep_accents=False), dict(do_lower_case=False, keep_accents=True)]


def ours_full(tok: SpieceTokenizer, text: str) -> list[int]:
    before, after = tok.template
    return [*before, *tok.encode(text), *after]


@pytest.mark.parametrize("conf", CONFIGS, ids=["lower", "cased"])
def test_albert_ids_match_albert_tokenizer(tmp_path, conf):
    train_spiece(tmp_path, "albert")
    tokenizer_config(tmp_path, **conf)
    ours = SpieceTokenizer(tmp_path, "albert", 200)
    theirs = tf.AlbertTokenizer.from_pretrained(str(tmp_path))
    for text in TEXTS:
        assert ours_full(ours, text) == theirs(text)["input_ids"], text
    assert ours.token_strs(ours_full(ours, "the [MASK]"))[0] == "[CLS]" and ours.mask_id == 4
    cat = "".join(ours.token_strs(ours.encode("Cat")))
    assert (cat == cat.lower()) == conf["do_lower_case"]  # lower-cased only where the config says


def test_t5_ids_match_t5_tokenizer_with_eos_and_sentinels(tmp_path):
    n = train_spiece(tmp_path, "t5")
    tokenizer_config(tmp_path, extra_ids=EXTRA_IDS)
    ours = SpieceTokenizer(tmp_path, "t5", n + EXTRA_IDS)
    theirs = tf.T5Tokenizer.from_pretrained(str(tmp_path))
    for text in TEXTS:
        assert ours_full(ours, text) == theirs(text)["input_ids"], text
    ids = ours_full(ours, "The Cat <extra_id_0>")
    assert ids[-1] == 1 and ours.token_strs(ids)[-1] == "</s>" and ours.eos_ids == {1}
    assert ids[-2] == n + EXTRA_IDS - 1  # <extra_id_0> is the last id
    assert "C" in "".join(ours.token_strs(ids))  # T5 keeps case
    assert ours.decode(ours.encode("小猫坐在垫子上。")) == "小猫坐在垫子上。"


def test_albert_folder_without_tokenizer_json_loads_and_matches_transformers(tmp_path):
    hf = build_albert_spiece(tmp_path / "albert")
    live = models.load(str(tmp_path / "albert"))
    oracle = tf.AlbertTokenizer.from_pretrained(str(tmp_path / "albert"))
    for text in ("The Cat sat on the [MASK].", "小猫坐在垫子上 😀"):
        ids, _ = live.source_ids(text)
        assert ids == oracle(text)["input_ids"], text
        tr = live.run_ids(ids)
        assert tr.tokens[0] == "[CLS]" and tr.tokens[-1] == "[SEP]"
        with torch.no_grad():
            ref = hf(input_ids=torch.tensor([ids])).logits[0].numpy()
        np.testing.assert_allclose(np.asarray(tr.logits), ref, atol=1e-4, rtol=0)
    assert live.tokenizer.mask_id in live.source_ids("the [MASK].")[0]


def test_t5_folder_without_tokenizer_json_translates_with_eos(tmp_path):
    hf = build_t5_spiece(tmp_path / "t5")
    live = models.load(str(tmp_path / "t5"))
    oracle = tf.T5Tokenizer.from_pretrained(str(tmp_path / "t5"))
    text = "The pilot is tired 😀 小猫"
    src, _ = live.source_ids(text)
    assert src == oracle(text)["input_ids"] and live.tokenizer.token_strs(src)[-1] == "</s>"
    tgt = [0, *oracle("the dog")["input_ids"][:-1]]
    tr = live.run_ids(src, tgt)
    with torch.no_grad():
        ref = hf(input_ids=torch.tensor([src]), decoder_input_ids=torch.tensor([tgt])).logits[0].numpy()
    np.testing.assert_allclose(np.asarray(tr.logits), ref, atol=1e-4, rtol=0)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty"])
def test_a_damaged_spiece_model_is_a_clear_weights_error(tmp_path, damage):
    folder = tmp_path / "albert"
    build_albert_spiece(folder)
    data = (folder / "spiece.model").read_bytes()
    bad = {"garbage": b"\x00not a sentencepiece model" * 20, "truncated": data[: len(data) // 3], "empty": b""}
    (folder / "spiece.model").write_bytes(bad[damage])
    with pytest.raises(models.WeightsError, match=r"spiece\.model \(the SentencePiece tokenizer\) cannot be read"):
        models.load(str(folder))
