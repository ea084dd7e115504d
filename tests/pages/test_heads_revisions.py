"""'What each head does' → heads forming during training (lessons/heads_revisions.py): with two or more revisions
of one Hub model in the (throwaway) Hugging Face cache the page draws every checkpoint's scores; with none it says
how to fetch Pythia's checkpoints. English and Chinese."""

from __future__ import annotations

import numpy as np
import pytest

import models
from models.inspection import revisions
from tests.models.hf.tiny import build
from tests.models.test_revisions import lay_out
from ui import params

from .apptest import array, figures, markdown_text, open_app

TITLE = {"en": "Previous-token and induction scores over training", "zh": "训练过程中的前一词元分数与归纳分数"}
FETCH = "python -m models.fetch EleutherAI/pythia-70m --revision step1000"


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    src = tmp_path_factory.mktemp("checkpoints")
    for seed in (1, 2):
        build("gpt2", src / f"seed{seed}", seed=seed)
    return src


def _figure(at, lang: str) -> dict:
    found = [f for f in figures(at) if TITLE[lang] in str(f["layout"].get("title", {}).get("text", ""))]
    assert len(found) == 1, [f["layout"].get("title") for f in figures(at)]
    return found[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_two_checkpoints_are_drawn_with_their_scores(hf_home, sources, lang):
    lay_out(hf_home, "EleutherAI/tiny-pythia", {"step1000": sources / "seed1", "step3000": sources / "seed2"})
    params.refresh_models()
    at = open_app("heads", lang=lang, prompt="the cat sat on the mat")
    assert not at.exception, [e.value for e in at.exception]
    fig = _figure(at, lang)
    best = [tr for tr in fig["data"] if tr.get("showlegend", True)]
    assert len(fig["data"]) == 2 * 2 * 4 + 2 and len(best) == 2  # every head of 2 layers x 4 heads, per role
    np.testing.assert_array_equal(array(best[0]["x"]), [1001, 3001])
    want = [models.head_scores(models.load(f"EleutherAI/tiny-pythia@step{s}")) for s in (1000, 3000)]
    np.testing.assert_allclose(array(best[1]["y"]), [w["induction"].max() for w in want])
    assert [s["y0"] for s in fig["layout"]["shapes"] if s["y0"] == s["y1"]] == [0.4, 0.3]
    text = markdown_text(at)
    assert ("first passes 0.30" in text or "No head's induction score passes 0.30" in text) if lang == "en" else (
        "首次超过 0.30" in text or "没有哪个头的归纳分数超过 0.30" in text)  # fmt: skip
    assert "Olsson" in " ".join(c.value for c in at.caption) and not at.warning
    assert any("tiny-pythia" in str(s.options) for s in at.selectbox)


def test_duplicate_weights_are_named_not_drawn(hf_home, sources):
    lay_out(hf_home, "EleutherAI/tiny-pythia", {"step1000": sources / "seed1", "step2000": sources / "seed2",
                                                 "main": sources / "seed1"})  # fmt: skip
    params.refresh_models()
    at = open_app("heads", prompt="the cat sat on the mat")
    assert not at.exception, [e.value for e in at.exception]
    best = [tr for tr in _figure(at, "en")["data"] if tr.get("showlegend", True)]
    np.testing.assert_array_equal(array(best[0]["x"]), [1001, 2001])  # main = step1000: one point, not two
    (warning,) = at.warning
    assert "#195" in warning.value and "identical weights to" in warning.value and "step1000" in warning.value


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_without_checkpoints_the_page_says_how_to_get_them(hf_home, lang):
    params.refresh_models()
    assert revisions.groups(params.local_models().values()) == {}
    at = open_app("heads", lang=lang, prompt="the cat sat on the mat")
    assert not at.exception, [e.value for e in at.exception]
    info = " ".join(i.value for i in at.info)
    assert FETCH in info and "pythia-160m" in info and "pythia-410m" in info and "Olsson" in info
    assert not [f for f in figures(at) if TITLE[lang] in str(f["layout"].get("title", {}))]


def test_a_rerun_loads_no_checkpoint(hf_home, sources, monkeypatch):
    lay_out(hf_home, "EleutherAI/tiny-pythia", {"step1000": sources / "seed1", "step3000": sources / "seed2"})
    params.refresh_models()
    at = open_app("heads", prompt="the cat sat on the mat")
    _figure(at, "en")

    def no_load(*args, **kwargs):
        raise AssertionError("a rerun loaded a model")

    monkeypatch.setattr(models, "load", no_load)
    monkeypatch.setattr(revisions, "weights_digest", no_load)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    _figure(at, "en")
