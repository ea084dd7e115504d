"""Masks page: each mask beside the attention it produces; changing a token under each mask."""

import numpy as np

import models
from tests.pages.apptest import array, figures, open_app

PROMPT = "the cats that the dog sees are happy ."


def _mask_and_attention(at):
    figs = figures(at)
    return figs[0:10:2], figs[1:10:2]  # causal, sliding, bidirectional, prefix, padding


def _allowed(mask_fig) -> np.ndarray:
    """Rebuild the boolean mask from the 'allowed' trace (its z is 1 where attending is allowed)."""
    allowed = next(t for t in mask_fig["data"] if t["type"] == "heatmap" and "may attend" in t.get("name", ""))
    return np.nan_to_num(array(allowed["z"]).astype(float)) > 0


def test_each_mask_is_drawn_and_blocked_cells_get_zero_weight():
    at = open_app("masks", prompt=PROMPT, prefix="4", window="3")
    n = len(models.load("decoder").run(PROMPT).tokens)
    masks, attention = _mask_and_attention(at)
    causal, sliding, bidir, prefix, padded = (_allowed(f) for f in masks)
    assert (causal == np.tril(np.ones((n, n), bool))).all()
    assert (sliding == np.tril(np.ones((n, n), bool)) & np.triu(np.ones((n, n), bool), -2)).all()  # 3 keys: i-2..i
    assert bidir.all()
    assert prefix[:4, :4].all() and (prefix[4:] == causal[4:]).all()
    assert (padded[:, n:] == False).all() and padded.shape == (n + 2, n + 2)  # noqa: E712
    for m, fig in zip((causal, sliding, bidir, prefix, padded), attention, strict=True):
        z = array(fig["data"][0]["z"])
        assert (z[~m] == 0).all()
        np.testing.assert_allclose(z.sum(-1), 1.0, atol=1e-5)


def test_changing_a_token_moves_nothing_before_it_under_the_causal_mask():
    at = open_app("masks", prompt=PROMPT, pos="5", word="cat")
    bars = [f for f in figures(at) if any(t["type"] == "bar" for t in f["data"])]
    causal, bidir = bars

    def heights(fig):
        return np.concatenate([array(t["y"]) for t in fig["data"] if t["type"] == "bar"])

    def xs(fig):
        return [x for t in fig["data"] if t["type"] == "bar" for x in t["x"]]

    c = dict(zip(xs(causal), heights(causal), strict=True))
    b = dict(zip(xs(bidir), heights(bidir), strict=True))
    before = [k for k in c if int(str(k).split(" ")[0]) < 5]
    assert before and all(c[k] == 0 for k in before)
    assert any(b[k] > 1e-4 for k in before)


def test_masks_page_works_for_every_model():
    for model in models.SHIPPED:
        at = open_app("masks", model=model, prompt="1234" if model == "encoder-decoder" else PROMPT)
        assert len(figures(at)) == 12  # 5 masks x (mask, attention) + the two change bars


def test_an_empty_replacement_word_gives_a_hint():
    at = open_app("masks", prompt=PROMPT)
    at.text_input(key="word").input("").run()
    assert not at.exception
    assert any("replacement word" in i.value for i in at.info)


def test_hostile_prompts_on_the_masks_page():
    for text in ["我喜欢机器学习", "😀", "<script>alert(1)</script>", "a" * 10_000]:
        at = open_app("masks", prompt=text[:2000])
        assert not at.exception
        assert len(figures(at)) == 12  # 5 masks x (mask, attention) + the two change bars
