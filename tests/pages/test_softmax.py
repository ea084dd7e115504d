"""Softmax and √d_k page: measured variances match d_k·σ⁴, entropy falls as the scale grows,
the live model's heads sharpen with the factor, and the cosine table makes its point."""

import numpy as np
import pytest

import models
from models import analysis
from tests.pages.apptest import array, figures, markdown_text, open_app, set_prompt, table, titled

PROMPT = "the cats that the dog sees are happy ."


@pytest.mark.parametrize("dk,sigma", [("256", "1.0"), ("1024", "0.5"), ("4", "2.0")])
def test_measured_variance_is_within_ten_percent_of_dk_sigma4(dk, sigma):
    at = open_app("softmax", dk=dk, sigma=sigma)
    d, s = int(dk), float(sigma)
    text = markdown_text(at)
    measured = float(text.split("Var(q·k) measures **")[1].split("**")[0])
    assert measured == pytest.approx(d * s**4, rel=0.1)
    scaled = float(text.split("the variance is **")[1].split("**")[0])
    assert scaled == pytest.approx(s**4, rel=0.1)
    curve = titled(at, "Variance against d_k")
    emp = array(curve["data"][0]["y"])
    np.testing.assert_allclose(emp, np.array([2**i for i in range(11)]) * s**4, rtol=0.15)


def test_histograms_are_densities_of_the_two_score_distributions():
    at = open_app("softmax", dk="64")
    fig = titled(at, "samples")
    for bars in fig["data"]:
        area = (array(bars["y"]) * array(bars["width"])).sum() if "width" in bars else None
        if area is not None:
            assert area == pytest.approx(1.0, abs=1e-6)
    assert fig["data"][0]["name"].startswith("q·k (Var")


def test_entropy_falls_as_the_scale_grows():
    at = open_app("softmax", dk="64")
    curves = titled(at, "across scales")
    entropy = array(curves["data"][0]["y"])
    assert entropy[0] > entropy[-1] and (np.diff(entropy) <= 1e-9).all()
    before = array(titled(at, "softmax(s")["data"][0]["y"])
    at.slider(key="sm_log2s").set_value(0.0).run()  # unscaled
    after = array(titled(at, "softmax(s")["data"][0]["y"])
    assert analysis.row_entropy(after) < analysis.row_entropy(before)
    assert after.max() > before.max()
    np.testing.assert_allclose(after.sum(), 1.0, atol=1e-9)


def test_the_default_scale_is_one_over_sqrt_dk():
    at = open_app("softmax", dk="256")
    assert at.slider(key="sm_log2s").value == pytest.approx(-4.0)
    assert "s = 0.0625" in markdown_text(at)


def test_live_factor_sharpens_every_head_and_changes_the_next_token_distribution():
    at = open_app("softmax", prompt=PROMPT)
    curve = array(titled(at, "Mean attention entropy")["data"][0]["y"])
    assert curve[0] > curve[3] > curve[-1]  # ×0.125 > ×1 > ×8
    base = array(titled(at, "Top 10 next tokens")["data"][0]["y"])
    assert (np.diff(base) <= 0).all() and base.sum() <= 1 + 1e-6
    tr = models.load("decoder").run(PROMPT)
    np.testing.assert_allclose(base[0], analysis.softmax(tr.logits[-1]).max(), rtol=1e-4)
    at.select_slider(key="live_c").set_value(8.0).run()
    sharp = array(titled(at, "Top 10 next tokens")["data"][0]["y"])
    assert not np.allclose(sharp, base)
    att = array(titled(at, "at ×8")["data"][0]["z"])
    want = models.load("decoder").run(PROMPT, attn_scale=8 * tr.attn_scale).attention["decoder.self"][0, 0]
    np.testing.assert_allclose(att, want, atol=1e-6)


def test_encoder_has_no_next_token_chart_but_everything_else():
    at = open_app("softmax", prompt=PROMPT, model="encoder")
    titled(at, "Mean attention entropy")
    assert any("decoder-only" in c.value for c in at.caption)


def test_cosine_table_the_closest_direction_is_not_the_largest_weight():
    at = open_app("softmax")
    cols = table(at)
    cos = [float(v) for v in cols["cos θ"]]
    dot = [float(v) for v in cols["q·k"]]
    norms = [float(v) for v in cols["‖k‖"]]
    assert int(np.argmax(cos)) != int(np.argmax(dot))
    assert pytest.approx(sorted(cos, reverse=True)[0], abs=1e-3) == np.cos(np.radians(10))
    assert norms[int(np.argmax(dot))] > norms[int(np.argmax(cos))]


@pytest.mark.parametrize("text", ["", "x" * 10_000, "小明说小红喜欢苹果。", "🙂🙃"])
def test_hostile_prompts_on_the_softmax_page(text):
    at = open_app("softmax")
    set_prompt(at, text)
    titled(at, "Variance against d_k")  # the prompt-free sections always draw
    if not text:
        assert any("Type a prompt" in i.value for i in at.info)
    else:
        titled(at, "Mean attention entropy")


def test_nonsense_lesson_parameters_fall_back_with_a_notice():
    at = open_app(None, dk="3", sigma="inf", sm_log2s="nan", live_c="-1", q_norm="9", pe_dims="1,x", pe_d="63")
    assert at.warning and "ignored" in at.warning[0].value
    for name in ("dk", "sigma", "sm_log2s", "live_c", "q_norm", "pe_dims", "pe_d"):
        assert name in at.warning[0].value.replace("\\", "")
    at.switch_page("lessons/softmax.py").run()
    assert not at.exception
    assert at.select_slider(key="dk").value == 64


def test_a_shared_scale_survives_the_first_load_and_a_new_dk_resets_it():
    at = open_app("softmax", sm_log2s="0.0")
    assert at.slider(key="sm_log2s").value == 0.0  # the link's unscaled softmax, not 1/sqrt(d_k)
    at.select_slider(key="dk").set_value(16).run()
    assert at.slider(key="sm_log2s").value == -2.0  # a new d_k starts at its own 1/sqrt(d_k)


def test_jacobian_text_never_claims_a_bound_the_numbers_break():
    at = open_app("softmax", dk="64")
    for v in (-8.0, -3.0, -1.0, 0.0):
        at.slider(key="sm_log2s").set_value(v).run()
        text = markdown_text(at)
        jac = float(text.split("Jacobian norm **")[1].split("**")[0])
        assert 0 <= jac <= 0.5


def test_an_empty_prompt_hides_only_the_live_section_and_keeps_its_box():
    """The prompt box is in the live model's section, last on the page (issue 40): an empty prompt stops that section
    after its box and hint, and the sections above, which do not read the prompt, are all drawn."""
    at = open_app("softmax")
    at.text_input(key="prompt").set_value("").run()
    assert not at.exception
    assert [h.value for h in at.header] == [
        "Why divide by √d_k: the variance argument",
        "One row of scores under a scale",
        "q·k is not cosine similarity",
        "The trained model under another scale",
    ]
    assert at.text_input(key="prompt").value == "" and any("Type a prompt" in i.value for i in at.info)
    titles = [str(f["layout"].get("title", {}).get("text", "")) for f in figures(at)]
    assert at.table and not [x for x in titles if "Mean attention entropy" in x or " at ×" in x], titles
