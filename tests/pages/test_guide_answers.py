"""The right answers of the shipped lessons' predict questions, recomputed on the live models with the app's own
code (ui.loaders, models.*, the pages themselves for the softmax demos), and the goals reached exactly in the
states the lessons ask for. A retrained model that changes the truth fails here, naming the step to rewrite."""

from __future__ import annotations

import re

import numpy as np
import pytest

import models
from models import data
from models.inspection import experiments
from tests.pages.apptest import open_app, table
from ui import goal_checks, guides
from ui import loaders as L
from ui.pages import LESSONS
from ui.params import DEFAULT_PROMPT, PARAMS

GUIDES = guides.load_all([guides.SHIPPED_DIR], {lesson.name for lesson in LESSONS})[0]
AB = "alice met bob at the park . then alice gave bob a"


def step(guide: str, n: int):
    """Step n (1-based, as the step bar counts) of a shipped guide."""
    return next(g for gid, g in GUIDES.items() if gid.startswith(guide)).steps[n - 1]


def predict(guide: str, n: int):
    p = step(guide, n).predict
    assert p is not None, f"{guide} step {n} has no predict question"
    return p


def assert_choice(guide: str, n: int, index: int) -> None:
    """The computed truth is choice `index` (0-based); the lesson's answer must be it."""
    p = predict(guide, n)
    assert p.is_right(str(index)), (
        f"{guide} step {n}: the model now says choice {index + 1} ({p.choices[index]['en']!r}), "
        f"the lesson says {int(p.answer) + 1}"
    )


def assert_number(guide: str, n: int, value: float) -> None:
    p = predict(guide, n)
    assert not p.choices and p.is_right(str(value)), f"{guide} step {n}: computed {value}, lesson says {p.answer}"


def assert_why_says(guide: str, n: int, *numbers: str) -> None:
    """The numbers quoted in the explanation (both languages) are the computed ones."""
    why = predict(guide, n).why
    for lang in ("en", "zh"):
        for number in numbers:
            assert number in why[lang], f"{guide} step {n} ({lang}): {number!r} not in {why[lang]!r}"


def choice_index(guide: str, n: int, needle: str) -> int:
    """The 0-based index of the only choice whose English text contains needle."""
    hits = [i for i, c in enumerate(predict(guide, n).choices) if needle in c["en"]]
    assert len(hits) == 1, (guide, n, needle, hits)
    return hits[0]


def goal(guide: str, n: int, **state) -> goal_checks.Outcome:
    """The step's goal in the step's preset state with these changes (the state's names are session keys)."""
    s = step(guide, n)
    assert s.goal is not None, f"{guide} step {n} has no goal"
    return goal_checks.evaluate(s.goal.check, s.goal.args, {**s.params, **state})


def state_of(guide: str, n: int, name: str):
    value = step(guide, n).params.get(name)
    return PARAMS[name].default if value is None else value


def attention(name: str, weights: str, text: str) -> tuple[list[str], np.ndarray]:
    tr = L.trace(name, weights, text)
    return tr.tokens, tr.attention["decoder.self" if name == "decoder" else "encoder.self"]


def head_name(layer: int, head: int) -> str:
    return f"Layer {layer + 1}, head {head + 1}"


def assert_goal_only_at(guide: str, n: int, name: str, weights: str, text: str, query: str, key: str) -> None:
    """An attention_at goal: reached exactly on the heads where query → key is ≥ its min (computed here), there
    is exactly one such head, and the step's preset head is not it."""
    tokens, att = attention(name, weights, text)
    rows = [i for i, tok in enumerate(tokens) if tok.lstrip("␣") == query]
    cols = [j for j, tok in enumerate(tokens) if tok.lstrip("␣") == key]
    share = att[:, :, rows][:, :, :, cols].max(axis=(2, 3))  # [L, H]
    wanted = step(guide, n).goal.args["min"]
    assert (share >= wanted).sum() == 1, (guide, n, share.round(3))
    for layer, head in np.ndindex(share.shape):
        assert goal(guide, n, layer=layer, head=head).reached == (share[layer, head] >= wanted)
    assert not goal(guide, n).reached


# ---------------------------------------------------------------- 01 the three architectures


def test_01_the_first_causal_row_has_one_cell_of_weight_one():
    tokens, att = attention("decoder", "trained", DEFAULT_PROMPT)
    assert tokens[0] == "[BOS]" and np.allclose(att[:, :, 0, 0], 1.0)
    assert all((att[:, :, i, : i + 1] > 0).sum(-1).min() >= 2 for i in range(1, len(tokens)))
    assert_choice("01", 1, choice_index("01", 1, "first row"))


def test_01_the_head_where_cats_reads_are():
    tokens, att = attention("encoder", "trained", DEFAULT_PROMPT)
    share = att[:, :, tokens.index("␣cats"), tokens.index("␣are")]  # [L, H]
    layer, head = np.unravel_index(int(share.argmax()), share.shape)
    assert predict("01", 2).read and state_of("01", 2, "view") == "grid"  # asked with every head in view
    assert_choice("01", 2, choice_index("01", 2, head_name(layer, head)))
    assert_why_says("01", 2, f"{share.max():.2f}", f"{share[0, 0]:.2f}", f"{share[0, 2]:.2f}")
    assert_goal_only_at("01", 2, "encoder", "trained", DEFAULT_PROMPT, "cats", "are")


def test_01_the_best_aligning_head_writing_thousand():
    share, _ = L.alignment_heads("trained")
    layer, head = np.unravel_index(int(share.argmax()), share.shape)
    steps = L.translation("trained", state_of("01", 3, "source"))
    # the step opens where the question is: the encoder-decoder, writing “thousand”, in the best-aligning head
    assert state_of("01", 3, "model") == "encoder-decoder"
    assert steps[state_of("01", 3, "tr_step") - 1].token == "␣thousand"
    assert (state_of("01", 3, "layer"), state_of("01", 3, "head")) == (layer, head)
    row = next(s for s in steps if s.token == "␣thousand").attention["decoder.cross"][layer, head]
    source = L.get_model("encoder-decoder").tokenizer.token_strs(L.get_model("encoder-decoder").source_ids("1234")[0])
    top = source[int(row.argmax())]
    assert_choice("01", 3, choice_index("01", 3, f"“{top}”"))
    assert_why_says("01", 3, f"{np.sort(row)[-1]:.2f}", f"{np.sort(row)[-2]:.2f}")
    assert f"layer {layer + 1}, head {head + 1}" in predict("01", 3).why["en"]


def test_01_the_masks_goal_is_reached_by_a_late_change_only():
    early = goal("01", 4, pos=3)  # the preset change is too early in the sentence: the status says where to go
    assert not early.reached and early.detail.startswith("You are changing the token at position 3. Pick position 5")
    late = goal("01", 4, pos=5, word="cat")
    assert late.reached
    assert late.detail == ("Causal mask: you changed the token at position 5; 0 of the 5 positions before it changed "
                           "their output (the goal: none).")  # fmt: skip


# ---------------------------------------------------------------- 02 queries, keys and values


def test_02_the_row_of_are_in_layer_2_head_3():
    s = step("02", 1)
    tokens, att = attention("encoder", "trained", DEFAULT_PROMPT)
    row = att[s.params["layer"], s.params["head"], tokens.index("␣are")]
    top = tokens[int(row.argmax())]
    assert_choice("02", 1, choice_index("02", 1, top))
    assert_why_says("02", 1, f"{row.max():.2f}", f"{1 - row.max():.2f}")


def test_02_the_strongest_lines_of_are_in_layer_2():
    tokens, att = attention("encoder", "trained", DEFAULT_PROMPT)
    tops = [tokens[int(att[1, h, tokens.index("␣are")].argmax())] for h in range(att.shape[1])]
    assert tops.count("␣cats") == 3 and "␣sees" in tops
    assert_choice("02", 4, choice_index("02", 4, "Three to ␣cats"))
    assert_goal_only_at("02", 4, "encoder", "trained", DEFAULT_PROMPT, "are", "cats")


def test_02_and_04_the_one_row_demo_on_the_page():
    """Softmax page, one row under a scale: the numbers it prints at s = 1, 1/√d_k and 1/(2√d_k) (d_k = 256)."""
    seen = {}
    for log2s in (0.0, -4.0, -5.0):
        at = open_app("softmax", dk="256", sm_log2s=str(log2s))
        text = "\n".join(m.value for m in at.markdown)
        pmax = float(re.search(r"max weight \*\*([0-9.]+)\*\*", text).group(1))
        jac = float(re.search(r"Jacobian norm \*\*([0-9.e-]+)\*\*", text).group(1))
        seen[log2s] = (pmax, jac)
    (p1, j1), (p4, j4), (p5, j5) = seen[0.0], seen[-4.0], seen[-5.0]
    assert p1 > p4 > p5 and j4 > j1 and j5 < j4  # the max weight falls; the Jacobian peaks in between
    assert_choice("04", 2, 0)
    assert_why_says("04", 2, f"{p1:.3f}", f"{p4:.3f}", f"{p5:.3f}", f"{j1:.3f}", f"{j4:.3f}", f"{j5:.3f}")
    assert goal("04", 2, sm_log2s=-4.0).reached and not goal("04", 2).reached
    # 02 step 2: towards s = 1 the largest bar grows and the entropy falls (d_k = 64, its default scale 2^-3)
    at = open_app("softmax")
    text = "\n".join(m.value for m in at.markdown)
    p_default = float(re.search(r"max weight \*\*([0-9.]+)\*\*", text).group(1))
    h_default = float(re.search(r"entropy \*\*([0-9.]+)\*\*", text).group(1))
    at = open_app("softmax", sm_log2s="0")
    text = "\n".join(m.value for m in at.markdown)
    assert float(re.search(r"max weight \*\*([0-9.]+)\*\*", text).group(1)) > p_default
    assert float(re.search(r"entropy \*\*([0-9.]+)\*\*", text).group(1)) < h_default
    assert_choice("02", 2, 0)
    assert goal("02", 2, sm_log2s=0.0).reached
    # 02 step 3: the five keys' table on the same page
    cols = next(c for c in (table(at, i) for i in range(len(at.table))) if "cos θ" in c)
    cosines = [float(v) for v in cols["cos θ"]]
    lengths = [float(v) for v in cols["‖k‖"]]
    weights = [float(v) for v in next(v for k, v in cols.items() if k.startswith("softmax("))]
    best_cos, best_weight = int(np.argmax(cosines)) + 1, int(np.argmax(weights)) + 1
    assert (best_cos, best_weight) == (1, 2)
    # the question gives k1's and k2's angles and lengths, as the table has them: a prediction, not a guess
    q = predict("02", 3).question["en"]
    assert [round(float(np.degrees(np.arccos(c)))) for c in cosines[:2]] == [10, 40] and "10°" in q and "40°" in q
    assert abs(lengths[1] / lengths[0] - 4) < 0.01 and "four times as long" in q
    assert_choice("02", 3, choice_index("02", 3, f"k{best_weight}:"))
    assert_why_says("02", 3, f"{cosines[0]:.3f}", f"{weights[1]:.2f}")


# ---------------------------------------------------------------- 03 multi-head attention


def test_03_the_previous_token_goal_is_one_head_and_not_the_preset():
    scores = models.head_scores(L.get_model("decoder"))["previous_token"]
    best = np.unravel_index(int(scores.argmax()), scores.shape)
    assert not goal("03", 1).reached
    for layer, head in np.ndindex(scores.shape):
        assert goal("03", 1, layer=layer, head=head).reached == ((layer, head) == best)


def test_03_the_rows_that_break_the_previous_token_pattern():
    tokens, att = attention("decoder", "trained", AB)
    head = att[0, 0]
    broken = [i for i in range(1, len(tokens)) if head[i].argmax() != i - 1]
    assert broken == [3, 4, 5]
    assert head[3].argmax() == 3  # the first ␣bob reads itself
    assert_choice("03", 2, choice_index("03", 2, "Itself"))
    assert_why_says("03", 2, f"{head[3, 3]:.2f}", f"{head[5, 5]:.2f}")


def test_03_the_second_alice_in_the_induction_style_head():
    tokens, att = attention("decoder", "trained", AB)
    i = len(tokens) - 1 - tokens[::-1].index("␣alice")
    row = att[1, 3, i]
    assert tokens[1] == "alice" != "␣alice"  # the first alice is another token
    top = tokens[int(row.argmax())]
    assert_choice("03", 3, choice_index("03", 3, top) if top != "␣met" else 0)
    assert_why_says("03", 3, f"{row.max():.2f}", f"{row[tokens.index('␣met')]:.2f}")


def test_03_random_weights_spread_by_the_mask_alone():
    tokens, att = attention("decoder", "random", AB)
    n = len(tokens)
    even = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]
    assert np.abs(att - even).max() < 0.05
    assert_choice("03", 4, choice_index("03", 4, "causal mask"))


def test_03_the_heads_disagree_on_gave():
    tokens, att = attention("decoder", "trained", AB)
    rows = att[0, :, tokens.index("␣gave")]
    tops = [tokens[int(r.argmax())] for r in rows]
    assert len(set(tops)) == 4
    assert_choice("03", 5, choice_index("03", 5, "None"))
    assert_why_says("03", 5, *tops, *(f"{r.max():.2f}" for r in rows))
    assert "␣bob" not in tops  # no layer-1 head looks at the name to come (the goal's second hint)
    assert_goal_only_at("03", 5, "decoder", "trained", AB, "gave", "bob")


# ---------------------------------------------------------------- 04 sqrt d_k


def test_04_eight_times_the_scale_keeps_the_top_token_and_reorders_the_rest():
    dec = L.get_model("decoder")
    one = L.scaled_run("decoder", "trained", DEFAULT_PROMPT, dec.config.scale)["next"][0][:5]
    eight = L.scaled_run("decoder", "trained", DEFAULT_PROMPT, 8 * dec.config.scale)["next"][0][:5]
    assert one[0] == eight[0] and list(one) != list(eight)
    assert_choice("04", 3, choice_index("04", 3, "top token stays"))
    assert list(one).index("␣thousand") == 3 and list(eight).index("␣thousand") == 1


def test_04_sharp_at_eight_flat_at_an_eighth():
    dec = L.get_model("decoder")
    runs = {c: L.scaled_run("decoder", "trained", DEFAULT_PROMPT, c * dec.config.scale) for c in (8, 0.125)}
    sharp, flat = runs[8]["attention"][0, 0], runs[0.125]["attention"][0, 0]
    assert sharp.max(-1).mean() > 0.99 > flat.max(-1).mean()
    assert_choice("04", 4, choice_index("04", 4, "×8 like an argmax"))
    assert_why_says("04", 4, f"{runs[8]['entropy'][0, 0]:.2f}", f"{runs[0.125]['entropy'][0, 0]:.2f}",
                    f"{flat.max(-1).mean():.2f}")  # fmt: skip


# ---------------------------------------------------------------- 05 positional encodings


def test_05_period_of_dimension_62_and_the_diagonal():
    d, base, n = PARAMS["pe_d"].default, PARAMS["pe_base"].default, PARAMS["pe_n"].default
    period = 2 * np.pi * base ** (2 * (62 // 2) / d)
    assert 10_000 < period < 100_000
    assert_choice("05", 1, choice_index("05", 1, "47 000"))
    assert_why_says("05", 1, f"{period:,.0f}".replace(",", " "))
    pe = models.sinusoidal_table(n, d)
    diag = (np.asarray(pe) ** 2).sum(-1)
    assert np.allclose(diag, d / 2)
    assert_number("05", 2, float(diag[0]))


def test_05_and_06_the_shuffle_test():
    d = L.shuffle_deltas("encoder", DEFAULT_PROMPT, state_of("05", 5, "shuf"))
    assert d["none.bidirectional"].max() < 1e-4 < d["none.causal"].max()
    assert_choice("05", 5, choice_index("05", 5, "only permuted"))
    d = L.shuffle_deltas("decoder", DEFAULT_PROMPT, state_of("06", 4, "shuf"))
    same = [i for i, v in enumerate(d["none.causal"]) if v < 1e-6]
    assert same == [0] and d["tokens"][0] == "[BOS]"
    stayed = [d["tokens"][i] for i, j in enumerate(d["order"]) if i == j and i > 0]
    assert stayed == ["␣the", "␣dog"]  # in place, yet their outputs move: the choice the lesson rules out
    assert_choice("06", 4, choice_index("06", 4, "Only [BOS]"))


# ---------------------------------------------------------------- 06 masks and decoder-only


def moved_before(mask: str, pos: int, word: str) -> int:
    dec = L.get_model("decoder")
    base = L.trace("decoder", "trained", DEFAULT_PROMPT)
    changed = list(base.ids)
    changed[pos] = dec.tokenizer.encode(" " + word)[0]
    before = L.trace_ids("decoder", "trained", tuple(base.ids), mask).hidden["decoder"][-1]
    after = L.trace_ids("decoder", "trained", tuple(changed), mask).hidden["decoder"][-1]
    return int((np.abs(after - before).max(-1)[:pos] > 1e-6).sum())


def test_06_one_changed_token_under_both_masks():
    s = step("06", 1)
    pos, word = s.params["pos"], s.params["word"]
    causal, bidirectional = moved_before("causal", pos, word), moved_before("bidirectional", pos, word)
    assert_choice("06", 1, choice_index("06", 1, f"Causal {causal}, bidirectional {bidirectional}"))
    assert not goal("06", 1).reached and goal("06", 1, pos=5).reached


def test_06_float32_drops_the_causal_rank_but_not_the_exact_one():
    s = step("06", 2)
    args = ("encoder", "trained", DEFAULT_PROMPT, "causal", s.params["layer"], s.params["head"])
    r64, r32 = L.head_rank_report(*args, "float64", None), L.head_rank_report(*args, "float32", None)
    assert r64.numerical_rank == r64.n and r32.numerical_rank < r32.n
    assert_choice("06", 2, choice_index("06", 2, "No: its determinant"))
    assert_why_says("06", 2, f"n = {r32.n}")
    assert f"{r32.numerical_rank} in float32" in predict("06", 2).why["en"]
    assert goal("06", 2, dtype="float32").reached and not goal("06", 2).reached


def test_06_the_sweep_verdict_differs_for_the_trained_decoder():
    samples, inputs = PARAMS["samples"].default, PARAMS["sweep_in"].default
    low, means = experiments.sweep_verdict(L.rank_sweep("decoder", "trained", inputs, samples))
    encoder_low, encoder = experiments.sweep_verdict(L.rank_sweep("encoder", "trained", inputs, samples))
    assert encoder_low and not low
    assert state_of("06", 3, "model") == "decoder"  # the reveal shows the model the question asks about
    assert_choice("06", 3, choice_index("06", 3, "No:"))
    assert_why_says("06", 3, f"{means['be']:.0%}", f"{means['ce']:.0%}", f"{encoder['be']:.0%}", f"{encoder['ce']:.0%}")
    assert goal("06", 3, model="encoder").reached and not goal("06", 3).reached  # then compare with the encoder


def test_06_the_kv_cache_grows_by_layers_times_heads():
    cfg = L.get_model("decoder").config
    with_cache, without = experiments.kv_dot_products(cfg.n_layers, cfg.n_heads, 10, 5)
    growth = set(np.diff(with_cache[1:]).tolist())
    assert growth == {cfg.n_layers * cfg.n_heads} and np.all(np.diff(np.diff(without)) > 0)
    assert f"{cfg.n_layers} layers of {cfg.n_heads} heads" in predict("06", 5).question["en"]
    assert_number("06", 5, growth.pop())


# ---------------------------------------------------------------- 07 BERT's masked language model


def test_07_the_mask_reads_more_to_the_right():
    enc = L.get_model("encoder")
    s = step("07", 1)
    ids = enc.source_ids(DEFAULT_PROMPT)[0]
    pos = s.params["picked"][0]
    masked = [enc.tokenizer.mask_id if i == pos else x for i, x in enumerate(ids)]
    run = L.masked_run("trained", tuple(masked))
    sides = experiments.attention_sides(enc, masked, run["attention"][s.params["layer"], :, pos].mean(0), pos)
    assert sides["right"] > 2 * sides["left"]
    assert_choice("07", 1, choice_index("07", 1, "Mostly on the right"))
    assert_why_says("07", 1, *(f"{sides[k]:.0%}" for k in ("left", "right", "special", "self")))


@pytest.mark.parametrize(("n", "plural"), [(2, True), (3, False)])
def test_07_the_encoder_guesses_follow_the_verb(n, plural):
    enc = L.get_model("encoder")
    ids = enc.source_ids(step("07", n).params["prompt"])[0]
    pos = experiments.mask_positions(ids, enc.tokenizer.mask_id)[0]
    guesses = [g.lstrip("␣") for g in L.masked_run("trained", tuple(ids))["top"][pos][0][:5]]
    forms = {word: number for pair in data.NOUNS for number, word in enumerate(pair)}  # 0 singular, 1 plural
    assert sum(forms.get(g) == int(plural) for g in guesses) >= 4, guesses
    if plural:
        assert_choice("07", 2, choice_index("07", 2, "Plural, because of ␣are"))
        assert_why_says("07", 2, *(f"␣{g}" for g in guesses))


def test_07_the_recipe_chooses_one_and_a_third_tokens_per_draw():
    enc = L.get_model("encoder")
    ids = enc.source_ids(DEFAULT_PROMPT)[0]
    counts = L.recipe_counts(tuple(ids), 10_000, state_of("07", 4, "recipe_seed"))
    eligible = sum(t not in enc.tokenizer.special_ids for t in ids)
    assert eligible == 9
    chosen, masked = counts["chosen"][-1] / 10_000, counts["mask"][-1] / 10_000
    assert_number("07", 4, chosen)
    assert abs(masked - 1.08) < 0.05
