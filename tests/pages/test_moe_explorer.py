"""A published mixture of experts (a tiny random Mixtral) on the Explorer: its router section draws which experts
each token goes to, from the trace's router probabilities, in English and Chinese; dense models show no such section."""

from __future__ import annotations

import numpy as np
import pytest

import models
from models.core import moe
from tests.models.hf.test_families_moe import build_mixtral
from ui import params

from .apptest import figures, open_app


@pytest.fixture(scope="module")
def mixtral_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("moe")
    build_mixtral(root / "tiny-mixtral", k=2)
    return root


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_router_section_draws_the_traces_choices(mixtral_dir, monkeypatch, lang):
    monkeypatch.setenv("ATTENTION_LAB_MODELS", str(mixtral_dir))
    assert "tiny-mixtral" in params.local_models()
    at = open_app("explorer", model="tiny-mixtral", prompt="the cat sat on the mat", lang=lang)
    title = {"en": "Mixture of experts: the router", "zh": "混合专家：路由器"}[lang]
    assert title in [h.value for h in at.subheader]
    live = models.load(mixtral_dir / "tiny-mixtral")
    probs = live.run("the cat sat on the mat").router["decoder"]
    chosen, _ = moe.route(probs, 2, renormalize=True)
    heat = [tr for fig in figures(at) for tr in fig["data"] if tr.get("type") == "heatmap"]
    assert heat, "no figure"
    texts = " ".join(str(fig.get("layout", {}).get("title", "")) for fig in figures(at))
    assert ("router" in texts) if lang == "en" else ("路由" in texts)
    assert chosen.shape[:2] == (2, len(live.run("the cat sat on the mat").tokens))
    assert np.isfinite(probs).all()


def test_dense_models_have_no_router_section():
    at = open_app("explorer")
    assert "Mixture of experts: the router" not in [h.value for h in at.subheader]
