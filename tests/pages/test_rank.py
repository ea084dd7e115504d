"""Attention-rank page: the numbers shown are the rank reports of the model's own scores."""

import numpy as np
import pytest

import models
from models import analysis
from tests.pages.apptest import array, open_app, set_prompt, table, titled

PROMPT = "the cats that the dog sees are happy ."


def _scores(name, mask, layer=0, head=0, text=PROMPT):
    tr = models.load(name).run(text, mask=mask)
    key = "decoder.self" if name == "decoder" else "encoder.self"
    return tr.scores[key][layer, head]


@pytest.mark.parametrize("model", ["decoder", "encoder"])
def test_table_shows_the_rank_reports_and_causal_numerical_rank_is_the_length(model):
    at = open_app("rank", prompt=PROMPT, model=model, layer="2", head="2")
    cols = table(at)
    causal, bidir = cols["Causal"], cols["Bidirectional"]
    c = analysis.rank_report(_scores(model, "causal", 1, 1))
    b = analysis.rank_report(_scores(model, "bidirectional", 1, 1))
    assert causal[1] == f"{c.n} / {c.n}"  # float64: full numerical rank, as the theorem says
    assert bidir[1] == f"{b.numerical_rank} / {b.n}"
    assert causal[3].startswith(f"{c.effective_rank:.1f}") and bidir[3].startswith(f"{b.effective_rank:.1f}")
    assert causal[8].startswith(str(c.n)) and bidir[8] != causal[8]  # exact rank: proven only when triangular
    assert not at.warning  # no underflow notice in float64 here


def test_spectra_plot_the_singular_values_with_the_tolerance_line():
    at = open_app("rank", prompt=PROMPT, tol="1e-4")
    fig = titled(at, "Causal")
    y = array(fig["data"][0]["y"])
    w = analysis.softmax(_scores("decoder", "causal"))
    np.testing.assert_allclose(y, np.linalg.svd(w, compute_uv=False), rtol=1e-6)
    assert any(abs(s.get("y0", 0) - 1e-4) < 1e-12 for s in fig["layout"]["shapes"])


def test_a_high_tolerance_lowers_the_numerical_rank_and_says_why():
    at = open_app("rank", prompt=PROMPT, tol="1e-2")
    c = analysis.rank_report(_scores("decoder", "causal"), tol=1e-2)
    assert c.numerical_rank < c.n
    assert table(at)["Causal"][1] == f"{c.numerical_rank} / {c.n}"
    assert at.warning and "still full rank" in at.warning[0].value


def test_sweep_draws_both_masks_for_trained_and_random_weights():
    at = open_app("rank", prompt=PROMPT, samples="2")
    eff = titled(at, "Effective rank")
    lines = [tr for tr in eff["data"] if tr.get("showlegend") is not False and tr.get("name")]
    assert len(lines) == 4
    num = titled(at, "Numerical rank")
    random_causal = next(tr for tr in num["data"] if tr.get("name") == "Causal, random init")
    np.testing.assert_allclose(array(random_causal["y"]), 1.0)  # exact for a random-init causal matrix
    assert list(array(random_causal["x"])) == [8, 16, 32, 64, 128, 256]


def test_toy_rows_follow_the_sliders_and_the_causal_toy_is_always_provably_full_rank():
    at = open_app("rank", prompt=PROMPT, toy_n="3", toy_row="2", toy_sharp="1")
    at.slider(key="toy_l0").set_value(5.0).run()
    weights = array(titled(at, "Weights")["data"][0]["z"])
    assert weights.shape == (3, 3)
    np.testing.assert_allclose(weights.sum(-1), 1.0, atol=1e-9)
    assert weights[1, 0] > 0.95 and weights[1, 2] == 0  # row 2 now puts its weight on key 1; key 3 is masked
    at.slider(key="toy_sharp").set_value(100).run()
    toy = table(at, 2)
    assert all(str(cell).startswith("3") for cell in toy[next(k for k in toy if k == "float32")][-1:])


def test_bidirectional_toy_with_two_equal_rows_loses_rank():
    at = open_app("rank", prompt=PROMPT, toy_n="3", toy_mask="bidirectional", toy_row="2")
    for j in range(3):
        at.slider(key=f"toy_l{j}").set_value(0.5 * j).run()
    at.segmented_control(key="toy_row").set_value(0).run()
    for j in range(3):
        at.slider(key=f"toy_l{j}").set_value(0.5 * j).run()
    toy = table(at, 2)
    assert toy["float64"][0] == "2 / 3"


@pytest.mark.parametrize("text", ["", "x" * 10_000, "小明说小红喜欢苹果。", "🙂🙃 <script>alert(1)</script>"])
def test_hostile_prompts_on_the_rank_page(text):
    at = open_app("rank", prompt=PROMPT)
    set_prompt(at, text)
    if not text:
        assert at.info and "Type a prompt" in at.info[0].value
    else:
        assert table(at)["Causal"][0].isdigit()
    if len(text) > 1000:
        assert any("truncated" in w.value or "only the beginning" in w.value for w in at.warning)


def test_the_float32_pitfall_is_reproduced_and_explained():
    at = open_app("rank", prompt=PROMPT)
    rows = table(at, 1)
    ranks = dict(zip(rows["measure"], rows["numerical rank "], strict=True))
    c32 = int(ranks["Causal, float32"].split(" / ")[0])
    b32 = int(ranks["Bidirectional, float32"].split(" / ")[0])
    assert c32 < b32 <= 64  # the naive check contradicts the theorem...
    assert all(v != "-inf" for v in rows["ln |det A|"])  # ...which the finite determinant settles
    assert "provably full rank" in "\n".join(m.value for m in at.markdown)
    at.select_slider(key="pit_sigma").set_value(0.5).run()
    rows = table(at, 1)
    assert rows["numerical rank "][1] == "64 / 64"  # gentle logits: causal float64 is numerically full rank
