"""Generate page: the steps shown are LiveModel.generate's, probabilities are real distributions,
and the KV-cache numbers follow the formula."""

import numpy as np
import pytest

import models
from tests.pages.apptest import array, markdown_text, open_app, set_prompt, titled

PROMPT = "alice met bob at the park . then alice gave bob a"


def _chosen(at) -> str:
    caption = next(c.value for c in at.caption if c.value.startswith("Chosen"))
    return caption.split(": ", 1)[1].split(", probability")[0]


def _step_through(at, n):
    tokens = [_chosen(at)]
    for _ in range(n - 1):
        at.button(key="step_next").click().run()
        assert not at.exception
        tokens.append(_chosen(at))
    return tokens


def test_stepping_shows_the_same_tokens_as_generate_with_the_same_seed():
    at = open_app("generate", prompt=PROMPT, decoding="sample", seed="3", temp="1.3", top_k="20", max_new="6")
    shown = _step_through(at, 6)
    want = [
        s.token for s in models.load("decoder").generate(PROMPT, 6, greedy=False, temperature=1.3, top_k=20, seed=3)
    ]
    assert shown == want


def test_greedy_is_deterministic_and_takes_the_argmax():
    a = _step_through(open_app("generate", prompt=PROMPT, max_new="5"), 5)
    b = _step_through(open_app("generate", prompt=PROMPT, max_new="5"), 5)
    assert a == b
    model = models.load("decoder")
    ids = model.source_ids(PROMPT)[0]
    for tok in a:  # each greedy token is the argmax of the model's logits after the tokens before it
        best = int(model.run_ids(ids).logits[-1].argmax())
        assert model.tokenizer.token_str(best) == tok
        ids.append(best)


def test_bars_are_the_distribution_used_and_the_temperature_one_reference():
    at = open_app("generate", prompt=PROMPT, decoding="sample", temp="2.0", seed="1")
    fig = titled(at, "top 10 next tokens")
    used, raw = array(fig["data"][0]["y"]), array(fig["data"][1]["y"])
    step = next(models.load("decoder").generate(PROMPT, 1, greedy=False, temperature=2.0, seed=1))
    assert abs(step.probs.sum() - 1) < 1e-4
    order = np.argsort(-step.probs, kind="stable")[:10]
    np.testing.assert_allclose(used, step.probs[order], rtol=1e-6)
    p1 = np.exp(step.logits - step.logits.max())
    np.testing.assert_allclose(raw, (p1 / p1.sum())[order], rtol=1e-5)
    assert used[0] < raw[0]  # T = 2 flattens: the top token loses probability


def test_attention_row_of_the_new_token_sums_to_one_over_the_context():
    at = open_app("generate", prompt=PROMPT, step="3", max_new="8")
    fig = titled(at, "new token's query")
    z = array(fig["data"][0]["z"])
    n_prompt = len(models.load("decoder").source_ids(PROMPT)[0])
    assert z.shape == (4, n_prompt + 2)  # heads × (prompt + the two tokens generated before step 3)
    np.testing.assert_allclose(z.sum(-1), 1.0, atol=1e-5)


def test_kv_cache_numbers_follow_the_formula():
    at = open_app("generate", prompt=PROMPT, step="4", max_new="8")
    cfg = models.load("decoder").config
    p = len(models.load("decoder").source_ids(PROMPT)[0])
    length = p + 3
    per = cfg.n_layers * cfg.n_heads
    text = markdown_text(at)
    assert f"{per * length:,} with the cache, {per * length * (length + 1) // 2:,} without" in text
    kv = titled(at, "Keys and values in the cache at step 4")
    z = array(kv["data"][0]["z"])
    assert z.shape == (2 * cfg.n_layers, length) and (z[:, -1] == 1).all() and (z[:, :-1] == 0).all()


def test_back_and_reset_buttons():
    at = open_app("generate", prompt=PROMPT, step="3")
    at.button(key="step_back").click().run()
    assert "Step 2 of" in markdown_text(at)
    at.button(key="step_reset").click().run()
    assert "Step 1 of" in markdown_text(at)


@pytest.mark.parametrize("text", ["", "x" * 10_000, "小明说小红喜欢", "🙂🙃", "[MASK]"])
def test_hostile_prompts_on_the_generate_page(text):
    at = open_app("generate")
    set_prompt(at, text)
    if not text:
        assert any("Type a prompt" in i.value for i in at.info)
    elif len(text) > 1000:
        assert any("only the beginning" in w.value for w in at.warning)
        assert "Step 1 of 1" in markdown_text(at)  # a full context still predicts one token, then stops
    else:
        titled(at, "top 10 next tokens")
