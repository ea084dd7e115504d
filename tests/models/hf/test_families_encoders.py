"""ALBERT, DistilBERT and ELECTRA, loaded by models.load(folder), against transformers' eager forward.

Attention of every layer and head, logits and hidden states within 1e-4 (test_families.check_forward); ALBERT's
one shared layer, the factorised embeddings (E != d), ELECTRA's per-token replaced logit; parameter counts.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
import torch

import models

from .test_families import check_forward, oracle
from .tiny_encoders import build_encoder

pytest.importorskip("transformers")
warnings.filterwarnings("ignore", message=".*token_id.*")
CASES = {
    "albert-mlm": ("albert", {}),  # E = 16 under d = 32, gelu_new, 3 layers of one block
    "albert-square": ("albert", {"embedding_size": 32, "hidden_act": "relu"}),  # E = d: the mapping is still there
    "distilbert-mlm": ("distilbert", {}),
    "distilbert-sinusoidal": ("distilbert", {"activation": "relu", "sinusoidal_pos_embds": True}),
    "electra-discriminator": ("electra-discriminator", {}),  # E = 16, d = 32: embeddings_project
    "electra-discriminator-square": ("electra-discriminator", {"embedding_size": 32}),  # E = d: no projection
    "electra-generator": ("electra-generator", {"hidden_act": "gelu_new"}),  # its head: exact GELU regardless
}
FAMILY = {"albert": "ALBERT", "distilbert": "DistilBERT", "electra-discriminator": "ELECTRA",
          "electra-generator": "ELECTRA"}  # fmt: skip


class PerTokenLogit:
    """ElectraForPreTraining squeezes its one logit per token to [B, T]; ours is [T, 1] like any head's [T, V]."""

    def __init__(self, hf):
        self.hf = hf

    def __call__(self, *args, **kwargs):
        out = self.hf(*args, **kwargs)
        out.logits = out.logits.unsqueeze(-1)
        return out


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("hf_encoders")
    return {name: (build_encoder(kind, root / name, **over), root / name) for name, (kind, over) in CASES.items()}


def _ids(live, n=20, seed=0):
    return [*live.template[0], *np.random.default_rng(seed).integers(110, 2000, n).tolist(), *live.template[1]]


@pytest.mark.parametrize("name", list(CASES))
def test_attention_logits_and_hidden_states_match_transformers(folders, name):
    hf, folder = folders[name]
    live = models.load(str(folder))
    check_forward(PerTokenLogit(hf) if "discriminator" in name else hf, live, _ids(live))


@pytest.mark.parametrize("name", list(CASES))
def test_parameter_counts_and_description(folders, name):
    from models.analysis import parameter_counts
    from models.published.checkpoints import describe

    hf, folder = folders[name]
    live = models.load(str(folder))
    built = sum(p.numel() for p in live.net.parameters())  # a shared block and tied matrices counted once
    assert built == sum(p.numel() for p in hf.parameters())
    assert sum(parameter_counts(live.config).values()) == built
    e = describe(folder)
    assert (e.family, e.arch, e.error) == (FAMILY[CASES[name][0]], "encoder", None)
    assert e.params == built


def test_albert_runs_one_block_in_every_layer(folders):
    live = models.load(str(folders["albert-mlm"][1]))
    cfg, net = live.config, live.net
    assert cfg.shared_layers and cfg.embedding_size == 16 and cfg.d_model == 32 and cfg.activation == "gelu_tanh"
    assert len(net.encoder) == 3 and all(b is net.encoder[0] for b in net.encoder)
    assert net.tok_emb.weight.shape == (30522, 16) and net.head.weight is net.tok_emb.weight
    tr = live.run("the cat sat on the mat")
    assert tr.attention["encoder.self"].shape[0] == 3 and tr.hidden["encoder"].shape[1:] == (len(tr.ids), 32)
    # the layers differ in what they read, not in their weights: their attention is not the same
    assert not np.allclose(tr.attention["encoder.self"][0], tr.attention["encoder.self"][2])


def test_albert_base_has_its_published_size():
    """albert-base-v2's config: 12 layers of one 768-wide block on 128-wide embeddings, 11.2M parameters with the
    MLM head (11.7M quoted for AlbertModel counts its pooler instead), module and arithmetic alike."""
    from models.analysis import parameter_counts
    from models.core.transformer import Transformer
    from models.published.families.encoders import albert_config

    c = {"model_type": "albert", "architectures": ["AlbertForMaskedLM"], "vocab_size": 30000, "embedding_size": 128,
         "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12, "intermediate_size": 3072,
         "hidden_act": "gelu_new", "max_position_embeddings": 512, "type_vocab_size": 2}  # fmt: skip
    cfg = albert_config(c)
    with torch.device("meta"):
        built = sum(p.numel() for p in Transformer(cfg, init=False).parameters())
    assert built == sum(parameter_counts(cfg).values()) == 11_221_680


def test_electra_discriminator_gives_one_replaced_logit_per_token(folders):
    hf, folder = folders["electra-discriminator"]
    live = models.load(str(folder))
    assert live.config.detector_head and live.config.embedding_size == 16 and not live.config.tie_embeddings
    ids = _ids(live, 30, seed=3)
    tr = live.run_ids(ids)
    theirs = oracle(hf, ids).logits[0]  # [T]
    assert tr.logits.shape == (len(ids), 1)
    np.testing.assert_allclose(tr.logits[:, 0], theirs.numpy(), atol=1e-4, rtol=0)
    np.testing.assert_allclose(live.replaced_prob(tr), torch.sigmoid(theirs).numpy(), atol=1e-5, rtol=0)
    with pytest.raises(ValueError, match="detector"):
        models.load(str(folders["electra-generator"][1])).replaced_prob(tr)


def test_electra_generator_predicts_words_through_e(folders):
    live = models.load(str(folders["electra-generator"][1]))
    cfg = live.config
    assert cfg.mlm_head and not cfg.detector_head and cfg.embedding_size == 16 and cfg.mlm_activation is None
    assert live.net.head.weight is live.net.tok_emb.weight and live.net.head.weight.shape == (30522, 16)


@pytest.mark.parametrize(
    ("kind", "changes", "match"),
    [
        ("albert", {"num_hidden_groups": 2}, "num_hidden_groups"),
        ("albert", {"inner_group_num": 2}, "inner_group_num"),
        ("albert", {"architectures": ["AlbertModel"]}, "AlbertForMaskedLM"),
        ("electra-discriminator", {"architectures": ["ElectraModel"]}, "ElectraForPreTraining"),
        ("electra-discriminator", {"position_embedding_type": "relative_key"}, "absolute"),
    ],
)
def test_unsupported_settings_are_named(tmp_path, kind, changes, match):
    build_encoder(kind, tmp_path / "m")
    path = tmp_path / "m" / "config.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **changes}))
    with pytest.raises(models.WeightsError, match=match):
        models.load(str(tmp_path / "m"))


def test_distilbert_sinusoidal_table_is_read_as_stored(folders):
    """sinusoidal_pos_embds: the table is a stored weight; transformers' from_pretrained reads it back as stored."""
    import transformers as tf

    folder = folders["distilbert-sinusoidal"][1]
    again = tf.DistilBertForMaskedLM.from_pretrained(folder, attn_implementation="eager").eval()
    live = models.load(str(folder))
    assert live.config.type_vocab_size == 0 and live.config.mlm_activation == "relu"
    check_forward(again, live, _ids(live))


SENTENCES = ["The cat sat on the [MASK].", "Héllo, WORLD!! naïve Café déjà-vu", "中文字符 and 日本語 🙂 tokens",
             "unaffable running tokenization's end", "  multiple   spaces\tand\nnewlines ", "x" * 120,
             "Numbers 3.14, 1,000 and $5 (ok?)"]  # fmt: skip


def _vocab_folder(folder, lower: bool):
    """vocab.txt (the shipped WordPiece vocabulary, line = id) and tokenizer_config.json, no tokenizer.json."""
    from models.published.pretrained import model_dir

    folder.mkdir(parents=True, exist_ok=True)
    vocab = json.loads((model_dir() / "tokenizer.json").read_text())["model"]["vocab"]
    (folder / "vocab.txt").write_text("".join(t + "\n" for t in sorted(vocab, key=vocab.get)), encoding="utf-8")
    (folder / "tokenizer_config.json").write_text(json.dumps({"do_lower_case": lower}))


@pytest.mark.parametrize("lower", [True, False])
def test_wordpiece_from_vocab_txt_matches_bert_tokenizer(tmp_path, lower):
    import transformers as tf
    from transformers.models.bert.tokenization_bert_legacy import BertTokenizerLegacy

    from models.published.wordpiece_vocab import wordpiece_from_vocab

    _vocab_folder(tmp_path, lower)
    ours = wordpiece_from_vocab(tmp_path)
    fast = tf.BertTokenizer.from_pretrained(str(tmp_path))
    legacy = BertTokenizerLegacy(str(tmp_path / "vocab.txt"), do_lower_case=lower)
    for text in SENTENCES:
        ids = ours.encode(text).ids
        assert ids == fast(text)["input_ids"] == legacy(text)["input_ids"], text


def test_a_folder_with_only_vocab_txt_loads(tmp_path, folders):
    """ELECTRA's own uploads ship vocab.txt without tokenizer.json: the loader builds the WordPiece tokenizer."""
    src = folders["electra-generator"][1]
    folder = tmp_path / "vocab-only"
    _vocab_folder(folder, lower=True)
    for f in ("config.json", "model.safetensors"):
        (folder / f).write_bytes((src / f).read_bytes())
    live = models.load(str(folder))
    tr = live.run("The cat sat on the [MASK].")
    assert tr.tokens[0] == "[CLS]" and tr.tokens[-1] == "[SEP]" and "[MASK]" in tr.tokens
    assert live.tokenizer.kind == "wordpiece" and live.tokenizer.mask_id == tr.ids[tr.tokens.index("[MASK]")]
