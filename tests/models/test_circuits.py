"""Circuits between heads (issue 43) against a peer: TransformerLens 4.3.0's TransformerBridge around the same tiny
random transformers checkpoint our loader reads, float64. Composition scores after its fold_ln (enable_compatibility_
mode: gains folded, LayerNorm weights centred; it processes weights in float32 even for a float64 model, so the
scores agree to ~1e-8 and are checked within 1e-6), FactoredMatrix's eigenvalues and singular values, and direct path
patching (get_act_patch_direct_path; its k/v are refused on GQA, so the Qwen3 model is checked on q).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import models
from models import circuits

from .hf.tiny import build

pytest.importorskip("transformers")
tl_patching = pytest.importorskip("transformer_lens.patching")
warnings.filterwarnings("ignore", message=".*token_id.*")

CLEAN = [300 + (11 * i) % 89 for i in range(10)]
CORRUPTED = [*CLEAN[:4], 1000, *CLEAN[5:]]
ANSWER, WRONG = 310, 320


def boot(kind: str, folder):
    """(our LiveModel, TransformerLens's bridge with its load-time weight processing), both float64."""
    from transformer_lens.model_bridge import TransformerBridge

    hf = build(kind, folder).double()
    live = models.load(folder)
    live.net.double()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HF_HUB_OFFLINE", "1")
        bridge = TransformerBridge.boot_transformers(str(folder), hf_model=hf, device="cpu", dtype=torch.float64)
    return live, bridge


@pytest.fixture(scope="module")
def gpt2(tmp_path_factory):
    return boot("gpt2", tmp_path_factory.mktemp("circ") / "gpt2")


@pytest.fixture(scope="module")
def qwen3(tmp_path_factory):  # GQA (4 query heads, 2 K/V heads), per-head q/k RMSNorm, RoPE, head_dim 16 on d 32
    return boot("qwen3", tmp_path_factory.mktemp("circ") / "qwen3")


@pytest.fixture(scope="module")
def folded(gpt2, qwen3):
    """Each bridge's composition scores after fold_ln (computed once: processing changes the bridge's weights)."""
    out = {}
    for name, (_, bridge) in (("gpt2", gpt2), ("qwen3", qwen3)):
        bridge.enable_compatibility_mode()
        out[name] = {k: bridge.all_composition_scores(k).scores.detach().numpy() for k in circuits.KINDS}
    return out


@pytest.mark.parametrize("which", ["gpt2", "qwen3"])
def test_composition_matches_transformerlens_all_composition_scores(request, folded, which):
    live, _ = request.getfixturevalue(which)
    for kind in circuits.KINDS:
        ours = circuits.composition(live, kind)
        assert ours.shape == (2, 4, 2, 4)
        np.testing.assert_allclose(ours, folded[which][kind], atol=1e-6, rtol=0)  # TL folds in float32
        assert (ours[1, :, :, :] == 0).all() and (ours[:, :, 0] == 0).all()  # l1 >= l2: zero
        assert (ours[0, :, 1] > 0).all()
    pair = circuits.k_composition_between(live.net, (0, 2), (1, 3))  # the Transformer is accepted too
    for kind in circuits.KINDS:
        assert pair[kind] == pytest.approx(folded[which][kind][0, 2, 1, 3], abs=1e-6)


def test_composition_equals_the_dense_definition(gpt2):
    """The factored computation against the [d, d] products, from the folded weights."""
    live, _ = gpt2
    from models.inspection.circuit_weights import head_weights

    w = head_weights(live)
    ov, qk = w.W_V @ w.W_O, w.W_Q @ w.W_K.transpose(-2, -1)  # [L, H, d, d]
    fro = np.linalg.norm
    for kind, recv in (("K", qk.transpose(-2, -1)), ("Q", qk), ("V", ov)):
        c = circuits.composition(live, kind)
        for h1, h2 in [(0, 0), (1, 3), (3, 2)]:
            a, b = ov[0, h1].numpy(), recv[1, h2].numpy()
            assert c[0, h1, 1, h2] == pytest.approx(fro(a @ b) / fro(a) / fro(b), abs=1e-12)


def test_baseline_is_the_random_matrices_score():
    """Gaussian matrices of the model's shapes score about 1/sqrt(d_model); seeded, so the caption never moves."""
    live = models.load("decoder")
    base = circuits.composition_baseline(live, "K")
    assert base == circuits.composition_baseline(live, "K")
    assert base == pytest.approx(live.config.d_model**-0.5, rel=0.15)


@pytest.mark.parametrize("which", ["gpt2", "qwen3"])
def test_eigenvalues_and_singular_values_match_factored_matrix(request, which):
    from transformer_lens.FactoredMatrix import FactoredMatrix

    live, _ = request.getfixturevalue(which)
    for layer, head in [(0, 1), (1, 3)]:
        ov = circuits.ov_circuit(live, layer, head, k=5)
        wv, wo = circuits.ov_matrix(live, layer, head)
        np.testing.assert_allclose(ov.singular_values, FactoredMatrix(wv, wo).S.numpy(), atol=1e-10, rtol=0)
        from models.inspection.circuit_weights import embedding_matrix, unembedding_matrix

        a, b = embedding_matrix(live.net) @ wv, wo @ unembedding_matrix(live.net, "decoder")
        theirs = FactoredMatrix(a, b).eigenvalues.numpy()
        np.testing.assert_allclose(np.sort_complex(ov.eigenvalues), np.sort_complex(theirs), atol=1e-8, rtol=1e-9)
        assert ov.copying == pytest.approx(float(theirs.sum().real / np.abs(theirs).sum()), abs=1e-10)
        dense = (a @ b).flatten()  # 2048² entries: small enough to check the chunked top-k
        top = torch.topk(dense, 5)
        assert [(i * 2048 + j) for i, j, _ in ov.pairs] == top.indices.tolist()
        np.testing.assert_allclose([v for *_, v in ov.pairs], top.values.numpy(), atol=1e-9, rtol=0)


@pytest.mark.parametrize("which,inputs", [("gpt2", "qkv"), ("qwen3", "q")])
def test_path_patching_matches_get_act_patch_direct_path(request, which, inputs):
    live, bridge = request.getfixturevalue(which)
    bridge = _plain(bridge, which, request)
    corrupted = torch.tensor([CORRUPTED])
    clean_cache = bridge.run_with_cache(torch.tensor([CLEAN]))[1]
    corr_cache = bridge.run_with_cache(corrupted)[1]

    def tl_metric(logits):
        return logits[0, -1, ANSWER] - logits[0, -1, WRONG]

    for component in inputs:
        for head in (0, 3):
            args = (bridge, corrupted, clean_cache, corr_cache, tl_metric, 0, head)
            theirs = tl_patching.get_act_patch_direct_path(*args, component=component, verbose=False).numpy()
            ours = circuits.path_patch(
                live, CLEAN, CORRUPTED, ANSWER, WRONG, sender=(0, head), receiver_input=component
            )
            assert np.isnan(ours.patched[0]).all()
            np.testing.assert_allclose(ours.patched[1:], theirs[1:], atol=1e-5, rtol=0)  # TL keeps float32
            assert np.abs(ours.patched[1] - ours.corrupted).max() > 1e-6  # the path carries something


def _plain(bridge, which, request):
    """A bridge without weight processing (the folded one's writes are centred: the same metric, other weights)."""
    folder = request.getfixturevalue("tmp_path_factory").mktemp("plain") / which
    return boot(which, folder)[1]
