"""The goal checks on real app states of the toy models: each one is reached and fails where the page's own
number says so, and the number in its detail is the one the model gives when computed here independently."""

import numpy as np
import pytest

import models
from models import analysis
from ui import goal_checks
from ui.params import DEFAULT_PROMPT


def state(**kw) -> dict:
    return {"model": "decoder", "weights": "trained", "prompt": DEFAULT_PROMPT, "layer": 0, "head": 0} | kw


def check(name: str, args: dict, st: dict) -> goal_checks.Outcome:
    return goal_checks.evaluate(name, goal_checks.validate(name, args), st)


@pytest.fixture(scope="module")
def decoder():
    return models.load("decoder")


def test_head_role_reads_the_selected_heads_score(decoder):
    scores = models.head_scores(decoder)["previous_token"]
    best, worst = np.unravel_index(scores.argmax(), scores.shape), np.unravel_index(scores.argmin(), scores.shape)
    top = check("head_role", {"role": "previous_token"}, state(layer=int(best[0]), head=int(best[1])))
    assert top.reached and scores[best] >= 0.4  # the role's own threshold
    assert f"Layer {best[0] + 1}, head {best[1] + 1}: its previous token score is {scores[best]:.2f}" in top.detail
    low = check("head_role", {"role": "previous_token", "min": 0.4}, state(layer=int(worst[0]), head=int(worst[1])))
    assert not low.reached and f"{scores[worst]:.2f}" in low.detail and "0.40" in low.detail


def _moved_before(model, ids: list[int], pos: int, new: int, mask: str) -> int:
    changed = list(ids)
    changed[pos] = new
    before, after = (model.run_ids(x, mask=mask).hidden["decoder"][-1] for x in (ids, changed))
    return int((np.abs(after - before).max(-1)[:pos] > goal_checks.MOVED).sum())


def test_prompt_changes_position_counts_the_outputs_before_the_change(decoder):
    ids = decoder.run(DEFAULT_PROMPT).ids
    new = decoder.tokenizer.encode(" cat")[0]
    pos = 4
    moved = {m: _moved_before(decoder, ids, pos, new, m) for m in ("causal", "bidirectional")}
    assert moved == {"causal": 0, "bidirectional": pos}  # what the Masks page shows
    here = state(pos=pos, word="cat")
    causal = check("prompt_changes_position", {"mask": "causal", "max_before": 0, "min_pos": 2}, here)
    assert causal.reached and f"0 of the {pos} positions" in causal.detail
    both = check("prompt_changes_position", {"mask": "bidirectional", "min_before": 3}, here)
    assert both.reached and f"{pos} of the {pos} positions" in both.detail
    assert not check("prompt_changes_position", {"mask": "bidirectional", "max_before": 0}, here).reached
    early = check("prompt_changes_position", {"mask": "causal", "min_pos": 5}, here)
    assert not early.reached and "Pick position 5 or later" in early.detail  # too early: where to go, not a count
    same = decoder.run(DEFAULT_PROMPT).tokens[pos].lstrip("␣")
    unchanged = check("prompt_changes_position", {"mask": "causal"}, state(pos=pos, word=same))
    assert not unchanged.reached and "different word" in unchanged.detail


def test_rank_below_n_is_the_rank_pages_numerical_rank(decoder):
    text = " ".join(["the cats that the dog sees are happy ."] * 6)
    tr = decoder.run(text, mask="causal")
    layer, head = 1, 2
    for dtype in ("float32", "float64"):
        report = analysis.rank_report(tr.scores["decoder.self"][layer, head], np.dtype(dtype), None)
        out = check("rank_below_n", {"precision": dtype}, state(prompt=text, layer=layer, head=head, dtype=dtype,
                                                                  tol="auto"))  # fmt: skip
        assert f"numerical rank {report.numerical_rank} for {report.n} tokens" in out.detail
        assert out.reached == (report.numerical_rank < report.n)
    assert out.reached  # this head loses rank at both precisions on 55 tokens
    full = analysis.rank_report(decoder.run(DEFAULT_PROMPT, mask="causal").scores["decoder.self"][0, 0],
                                np.dtype("float64"), None)  # fmt: skip
    assert full.numerical_rank == full.n  # a short prompt: full rank, the goal not reached
    assert not check("rank_below_n", {"precision": "float64"}, state(dtype="float64", tol="auto")).reached
    wrong_dtype = check("rank_below_n", {"precision": "float32"}, state(prompt=text, dtype="float64"))
    assert not wrong_dtype.reached
    loose = check("rank_below_n", {"precision": "float64"}, state(prompt=text, dtype="float64", tol="1e-2"))
    report = analysis.rank_report(tr.scores["decoder.self"][0, 0], np.dtype("float64"), 1e-2)
    assert loose.reached == (report.numerical_rank < report.n) and f"rank {report.numerical_rank} " in loose.detail
    short = check("rank_below_n", {"precision": "float64", "min_tokens": 200}, state(prompt="the cat", dtype="float64"))
    assert not short.reached and "at least 200 tokens" in short.detail


def test_param_is_compares_as_the_app_parses():
    assert check("param_is", {"name": "layer", "value": 2}, state(layer=1)).reached  # files count from 1
    miss = check("param_is", {"name": "layer", "value": 2}, state(layer=0))
    assert not miss.reached and miss.detail == "1 now; the goal is 2."
    model = check("param_is", {"name": "model", "value": "encoder"}, state(model="decoder"))
    assert model.detail == "Decoder-only (GPT-style) now; the goal is Encoder-only (BERT-style)."  # as the sidebar
    assert check("param_is", {"name": "dtype", "value": "float32"}, state(dtype="float32")).reached
    assert not check("param_is", {"name": "dtype", "value": "float32"}, state()).reached  # the default, float64


def test_prompt_tokens_counts_with_the_models_tokenizer(decoder):
    n = len(decoder.tokenizer.encode(DEFAULT_PROMPT))
    assert check("prompt_tokens", {"min": n, "max": n}, state()).reached
    out = check("prompt_tokens", {"min": n + 1}, state())
    assert not out.reached and out.detail == f"The prompt has {n} tokens; the goal is at least {n + 1}."


def test_attention_at_reads_the_weight_between_two_typed_words():
    enc = models.load("encoder")
    tr = enc.run(DEFAULT_PROMPT)
    att = tr.attention["encoder.self"]
    i, j = tr.tokens.index("␣cats"), tr.tokens.index("␣are")
    share = att[:, :, i, j]
    best = np.unravel_index(int(share.argmax()), share.shape)
    here = state(model="encoder", layer=int(best[0]), head=int(best[1]))
    top = check("attention_at", {"query": "cats", "key": "are", "min": float(share.max()) - 0.01}, here)
    assert top.reached and f"␣cats gives {share.max():.2f} of its attention to ␣are" in top.detail
    assert check("attention_at", {"query": "␣CATS", "key": "␣are", "min": float(share.max()) - 0.01}, here).reached
    for layer, head in np.ndindex(share.shape):  # only the best head reaches its own weight
        out = check("attention_at", {"query": "cats", "key": "are", "min": float(share.max())},
                    state(model="encoder", layer=layer, head=head))  # fmt: skip
        assert out.reached == ((layer, head) == best) and f"{share[layer, head]:.2f}" in out.detail
    # "the" appears twice: the larger of its pairs counts
    the = [k for k, tok in enumerate(tr.tokens) if tok.lstrip("␣") == "the"]
    most = max(float(att[0, 0, a, b]) for a in the for b in the)
    assert (
        f"{most:.2f}"
        in check("attention_at", {"query": "the", "key": "the", "min": 0.0}, state(model="encoder")).detail
    )
    missing = check("attention_at", {"query": "cats", "key": "zebra", "min": 0.0}, state(model="encoder"))
    assert not missing.reached and "zebra" in missing.detail


def test_attention_at_follows_the_decoders_mask(decoder):
    tr = decoder.run(DEFAULT_PROMPT)
    later = check("attention_at", {"query": "cats", "key": "are", "min": 0.0001}, state())
    assert not later.reached and "0.00" in later.detail  # a causal head never reads a later token
    i, j = tr.tokens.index("␣are"), tr.tokens.index("␣cats")
    weight = float(tr.attention["decoder.self"][1, 2, i, j])
    out = check("attention_at", {"query": "are", "key": "cats", "min": weight}, state(layer=1, head=2))
    assert out.reached and f"Layer 2, head 3: ␣are gives {weight:.2f} of its attention to ␣cats" in out.detail


def test_attention_at_refuses_bad_arguments():
    for args in ({"query": "", "key": "are", "min": 0.5}, {"query": "cats", "key": "are"},
                 {"query": "cats", "key": 3, "min": 0.5}, {"query": "cats", "key": "are", "min": 2}):  # fmt: skip
        with pytest.raises(ValueError):
            goal_checks.validate("attention_at", args)


def test_lab_trained_needs_the_sides_variant_trained_and_shown():
    from models import variants
    from ui import loaders
    from ui.lab_configs import lab_config, side_values

    cfg = lab_config(side_values("b", {}), loaders.shipped_tokenizer().vocab_size)
    key = variants.variant_key(cfg, cfg.seed, recipe="default")
    jobs = loaders.training_jobs()
    had = key in jobs.trained
    jobs.trained.discard(key)
    try:
        out = check("lab_trained", {"side": "b"}, state())
        assert not out.reached and "no trained weights" in out.detail
        jobs.trained.add(key)  # as the registry has it once a training run saved the variant
        assert check("lab_trained", {"side": "b"}, state()).reached
        shown_random = check("lab_trained", {"side": "b"}, state(weights="random"))
        assert not shown_random.reached and "random weights" in shown_random.detail
        assert not check("lab_trained", {"side": "b"}, state(b_n_layers=cfg.n_layers + 1)).reached  # another variant
        assert not check("lab_trained", {"side": "a"}, state()).reached or side_values("a", {}) == side_values("b", {})
    finally:
        if not had:
            jobs.trained.discard(key)
    with pytest.raises(ValueError):
        goal_checks.validate("lab_trained", {"side": "c"})
