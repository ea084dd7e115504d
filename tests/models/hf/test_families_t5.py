"""T5 (t5-small's relu FFN, tied and rescaled head) and Flan-T5 (gated-gelu, d_kv 16 on a 32-wide stream, its own
lm_head) through the one Transformer, against transformers' eager forward: encoder self-, decoder self- and
cross-attention of every layer and head, logits and hidden states within 1e-4; the relative position bias
(encoder both ways, decoder the past only, one table per stack); greedy generation with our KV cache step by step
and token for token as transformers' generate. A tiny random T5 does not translate: only the numbers are checked.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import models
from models.analysis import parameter_counts
from models.core.positional import relative_bucket
from models.published.checkpoints import describe
from models.published.families import UnsupportedModel, t5_config

from .tiny_t5 import EOS, PAD, build_t5, config_json

pytest.importorskip("transformers")
warnings.filterwarnings("ignore", message=".*token_id.*")
CASES = {"t5": ("t5", "published"), "flan": ("flan", "published"), "flan-saved": ("flan", "transformers")}
TEXT = "the pilot is tired and the dog sleeps on the mat for a long time"


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("t5")
    return {name: (build_t5(root / name, v, layout=layout), root / name) for name, (v, layout) in CASES.items()}


def oracle(hf, src, tgt):
    with torch.no_grad():
        return hf(input_ids=torch.tensor([src]), decoder_input_ids=torch.tensor([tgt]), output_attentions=True,
                  output_hidden_states=True)  # fmt: skip


@pytest.mark.parametrize("name", list(CASES))
def test_attention_logits_and_hidden_states_match_transformers(folders, name):
    hf, folder = folders[name]
    live = models.load(folder)
    src, _ = live.source_ids(TEXT)
    assert src[-1] == EOS and live.start_ids == [PAD]  # text </s>; the decoder starts from pad
    tgt = [PAD, *np.random.default_rng(1).integers(100, 2000, 18).tolist()]  # past the flan's 16-position range
    tr = live.run_ids(src, tgt)
    out = oracle(hf, src, tgt)
    for key, theirs in (("encoder.self", out.encoder_attentions), ("decoder.self", out.decoder_attentions),
                        ("decoder.cross", out.cross_attentions)):  # fmt: skip
        ref = torch.stack([a[0] for a in theirs]).numpy()  # [L, H, Tq, Tk]
        assert tr.attention[key].shape == ref.shape
        np.testing.assert_allclose(tr.attention[key], ref, atol=1e-4, rtol=0, err_msg=key)
    np.testing.assert_allclose(np.asarray(tr.logits), out.logits[0].numpy(), atol=1e-4, rtol=0)
    # transformers' last hidden state of each stack is after its final norm; ours is the raw stream
    net = live.net
    for side, theirs, final in (("encoder", out.encoder_hidden_states, net.enc_norm),
                                ("decoder", out.decoder_hidden_states, net.dec_norm)):  # fmt: skip
        ours = tr.hidden[side]
        for i, ref in enumerate(theirs[:-1]):
            np.testing.assert_allclose(ours[i], ref[0].numpy(), atol=1e-4 * max(1.0, float(ref.abs().max())), rtol=0)
        last = final(torch.from_numpy(ours[-1])).numpy()
        np.testing.assert_allclose(last, theirs[-1][0].numpy(), atol=1e-4, rtol=0)


def test_published_configs_map_as_transformers_reads_them(folders):
    t5, flan, saved = (models.load(folders[n][1]).config for n in CASES)
    assert (t5.activation, t5.tie_embeddings, t5.head_rescale, t5.head_dim) == ("relu", True, True, None)
    assert (t5.rel_buckets, t5.rel_max_distance, t5.positional, t5.attn_scale) == (32, 128, "relative", 1.0)
    assert (t5.norm, t5.norm_position, t5.bias, t5.embed_scale) == ("rmsnorm", "pre", False, False)
    assert (flan.activation, flan.tie_embeddings, flan.head_rescale, flan.head_dim) == ("geglu", False, False, 16)
    assert (flan.rel_buckets, flan.rel_max_distance, flan.d_head, flan.d_model) == (8, 16, 16, 32)
    # as transformers 5 saves a Flan-T5: tie flag true, scale_decoder_outputs false, no lm_head in the file
    assert config_json(folders["flan-saved"][1])["scale_decoder_outputs"] is False
    assert (saved.tie_embeddings, saved.head_rescale) == (True, False)
    for name, (hf, _) in folders.items():  # the oracle agrees on both switches
        tied = hf.lm_head.weight.data_ptr() == hf.shared.weight.data_ptr()
        cfg = models.load(folders[name][1]).config
        assert (cfg.tie_embeddings, cfg.head_rescale) == (tied, hf.config.scale_decoder_outputs)


def test_position_bias_is_one_table_per_stack_bucketed_as_transformers(folders):
    hf, folder = folders["flan"]
    net = models.load(folder).net
    enc_attn = hf.encoder.block[0].layer[0].SelfAttention
    dec_attn = hf.decoder.block[0].layer[0].SelfAttention
    rel = torch.arange(-40, 41)
    for bidirectional in (True, False):
        ours = relative_bucket(rel, bidirectional, 8, 16)
        theirs = enc_attn._relative_position_bucket(rel, bidirectional=bidirectional, num_buckets=8, max_distance=16)
        assert torch.equal(ours, theirs)
    with torch.no_grad():
        np.testing.assert_allclose(net.position_bias(net.encoder, 30)[None], enc_attn.compute_bias(30, 30), atol=0)
        np.testing.assert_allclose(net.position_bias(net.decoder, 30)[None], dec_attn.compute_bias(30, 30), atol=0)
        # with a KV cache: the new query at position 24 over keys 0..24 is the last row of the full bias
        full, step = net.position_bias(net.decoder, 25), net.position_bias(net.decoder, 1, start=24)
        assert torch.equal(step, full[:, -1:])


@pytest.mark.parametrize("name", list(CASES))
def test_greedy_generation_with_kv_cache_matches_transformers(folders, name):
    hf, folder = folders[name]
    live = models.load(folder)
    src, _ = live.source_ids(TEXT)
    ids = [PAD]
    steps = list(live.generate_ids(src, [PAD], max_new_tokens=20))
    for step in steps:  # each step's logits as transformers' full forward on the prefix
        with torch.no_grad():
            ref = hf(input_ids=torch.tensor([src]), decoder_input_ids=torch.tensor([ids])).logits[0, -1].numpy()
        np.testing.assert_allclose(step.logits, ref, atol=1e-4, rtol=0)
        ids.append(step.token_id)
    with torch.no_grad():
        theirs = hf.generate(torch.tensor([src]), do_sample=False, num_beams=1, max_new_tokens=20)[0].tolist()
    assert [PAD, *[s.token_id for s in steps]] == theirs[: len(steps) + 1] and len(theirs) == len(steps) + 1


@pytest.mark.parametrize("name", list(CASES))
def test_parameter_counts_and_description(folders, name):
    hf, folder = folders[name]
    live = models.load(folder)
    built = sum(p.numel() for p in live.net.parameters())  # tied matrices counted once
    assert sum(parameter_counts(live.config).values()) == built == sum(p.numel() for p in hf.parameters())
    e = describe(folder)
    assert (e.family, e.arch, e.error, e.params) == ("T5", "encoder-decoder", None, built)
    assert live.meta["family"] == "T5"


def test_run_and_translate_go_through_the_encoder_decoder_path(folders):
    live = models.load(folders["t5"][1])
    tr = live.run(TEXT)  # target None: the model's own greedy output
    assert tr.target_ids[0] == PAD and tr.tokens[-1] == "[EOS]"
    assert set(tr.attention) == {"encoder.self", "decoder.self", "decoder.cross"}
    assert isinstance(live.translate(TEXT), str)


def test_different_encoder_and_decoder_depths_are_refused(folders):
    c = config_json(folders["t5"][1])
    with pytest.raises(UnsupportedModel, match="num_decoder_layers"):
        t5_config({**c, "num_decoder_layers": 3})
    with pytest.raises(UnsupportedModel, match="feed_forward_proj"):
        t5_config({**c, "feed_forward_proj": "gated-relu"})
    assert t5_config({**c, "feed_forward_proj": "gated-silu"}).activation == "swiglu"
