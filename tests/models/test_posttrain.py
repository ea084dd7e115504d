"""Post-training (models/training/posttrain.py): DPO's loss against a hand computation, SFT's answer-only loss,
held-out pairs disjoint from training ones, and short runs that move the held-out numbers as claimed."""

from __future__ import annotations

import copy
import math

import pytest
import torch

import models
from models import posttrain_run
from models.training import posttrain as P
from models.training.mlm import IGNORE


@pytest.fixture(scope="module")
def base():
    return models.load("decoder")


def test_dpo_loss_matches_a_hand_computation_with_beta_0_1():
    pi_w, pi_l = torch.tensor([-1.0, -5.0]), torch.tensor([-3.0, -2.0])
    ref_w, ref_l = torch.tensor([-2.0, -4.0]), torch.tensor([-2.0, -2.5])
    # pair 1: 0.1·((−1+2) − (−3+2)) = 0.2; pair 2: 0.1·((−5+4) − (−2+2.5)) = −0.15
    by_hand = (math.log(1 + math.exp(-0.2)) + math.log(1 + math.exp(0.15))) / 2
    assert P.BETA == 0.1
    assert P.dpo_loss(pi_w, pi_l, ref_w, ref_l).item() == pytest.approx(by_hand, rel=1e-6)


def test_dpo_loss_is_log_2_when_the_policy_is_the_reference():
    lp_w, lp_l = torch.tensor([-1.3, -7.0, -0.2]), torch.tensor([-4.0, -2.0, -9.0])
    assert P.dpo_loss(lp_w, lp_l, lp_w.clone(), lp_l.clone()).item() == pytest.approx(math.log(2), rel=1e-6)


def test_sft_gradients_are_zero_on_prompt_tokens(base):
    pairs = P.split()[0][:3]
    x, y = P.encode_batch(base.tokenizer, [p.prompt for p in pairs], [p.chosen for p in pairs])
    logits = base.net(x, models.causal(x.shape[1]), base.config.scale).detach().requires_grad_(True)
    P.answer_loss(logits, y).backward()
    per_position = logits.grad.abs().sum(-1)  # (B, T)
    assert (per_position[y == IGNORE] == 0).all()
    assert (per_position[y != IGNORE] > 0).all()
    # the labels cover exactly the answer: its tokens and [EOS]
    for row, p in zip(y, pairs, strict=True):
        assert row[row != IGNORE].tolist() == [*base.tokenizer.encode(p.chosen), models.tokenizer.EOS]


def test_held_out_pairs_are_disjoint_from_training_pairs():
    sft, dpo, held = P.split()
    assert (len(sft), len(dpo), len(held)) == (P.N_SFT, P.N_DPO, P.N_HELD)
    stories = [{p.story for p in s} for s in (sft, dpo, held)]
    assert not (stories[2] & stories[0]) and not (stories[2] & stories[1]) and not (stories[0] & stories[1])
    assert not {p.prompt for p in held} & {p.prompt for p in sft + dpo}
    for p in held:  # the answer is determined by the prompt: chosen and rejected are the story's two names
        giver, receiver, _ = p.story
        assert {p.chosen.split()[0], p.rejected.split()[0]} == {giver, receiver}
        assert p.chosen.split()[0] == (giver if "who gave" in p.prompt else receiver)


def _mean(xs):
    return sum(xs) / len(xs)


def test_short_sft_raises_the_answer_logprob_on_held_out_prompts(base):
    sft_pairs, _, held = P.split()
    net = copy.deepcopy(base.net).requires_grad_(True)
    before = P.measure(net, base.tokenizer, held)
    P.run_sft(net, base.tokenizer, sft_pairs, steps=30, lr=1e-3, batch=16, warmup=5, seed=0)
    after = P.measure(net, base.tokenizer, held)
    assert _mean(after["chosen"]) > _mean(before["chosen"]) + 10  # measured: −40.6 -> about −5 nats


def test_dpo_raises_the_held_out_margin_over_its_sft_reference(base):
    sft_pairs, dpo_pairs, held = P.split()
    sft = copy.deepcopy(base.net).requires_grad_(True)
    P.run_sft(sft, base.tokenizer, sft_pairs, steps=60, lr=1e-3, batch=16, warmup=5, seed=0)
    reference = copy.deepcopy(sft).eval().requires_grad_(False)
    frozen = {k: v.clone() for k, v in reference.state_dict().items()}
    policy = copy.deepcopy(sft)
    losses = P.run_dpo(policy, reference, base.tokenizer, dpo_pairs, steps=60, lr=5e-4, batch=16, warmup=5, seed=0)
    assert losses[0] == pytest.approx(math.log(2), abs=1e-4)  # policy = reference at step 1
    assert all(torch.equal(v, reference.state_dict()[k]) for k, v in frozen.items())  # the reference stays frozen
    ref, got = P.measure(reference, base.tokenizer, held), P.measure(policy, base.tokenizer, held)

    def margin(m):
        return _mean([w - lo for w, lo in zip(m["chosen"], m["rejected"], strict=True)])

    assert margin(got) > margin(ref) + 1.0


def test_summary_reads_margin_accuracy_and_implicit_reward():
    results = {"beta": 0.1, "held": {
        "sft": {"chosen": [-1.0, -2.0], "rejected": [-3.0, -1.0]},
        "dpo": {"chosen": [-2.0, -1.0], "rejected": [-8.0, -4.0]},
    }}  # fmt: skip
    s = P.summary(results, "dpo")
    assert s["margin"] == pytest.approx((6 + 3) / 2) and s["accuracy"] == 1.0
    assert s["reward_chosen"] == pytest.approx(0.1 * ((-2 + 1) + (-1 + 2)) / 2)
    assert s["reward_rejected"] == pytest.approx(0.1 * ((-8 + 3) + (-4 + 1)) / 2)
    assert P.summary(results, "sft")["accuracy"] == 0.5 and P.summary(results, "sft")["reward_chosen"] == 0


def test_an_entry_round_trips_and_a_corrupt_one_is_deleted(base, tmp_path):
    nets, results = P.post_train(base.net, base.tokenizer, recipe={"sft_steps": 2, "dpo_steps": 2})
    path = posttrain_run.save(nets, results, posttrain_run.entry_path("k", tmp_path))
    got, loaded = posttrain_run.load_entry(path, base.net)
    assert got["held"] == results["held"]
    assert all(torch.equal(loaded["dpo"].state_dict()[k], v) for k, v in nets["dpo"].state_dict().items())
    path.write_bytes(b"not a checkpoint")
    with pytest.raises(posttrain_run.CorruptEntry):
        posttrain_run.load_entry(path, base.net)
    assert not path.exists()


def test_an_unwritable_cache_folder_is_reported(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert posttrain_run.writable(blocker) is not None  # a folder cannot be made under a file
    assert posttrain_run.writable(tmp_path) is None


def test_greedy_with_the_kv_cache_matches_full_forward_passes(base):
    prompt = P.split()[2][0].prompt
    ids = [models.tokenizer.BOS, *base.tokenizer.encode(prompt)]
    for _ in range(4):  # no cache: the whole sequence each step
        x = torch.tensor([ids])
        ids.append(int(base.net(x, models.causal(x.shape[1]), base.config.scale)[0, -1].argmax()))
        if ids[-1] == models.tokenizer.EOS:
            break
    n_prompt = 1 + len(base.tokenizer.encode(prompt))
    assert P.greedy(base.net, base.tokenizer, prompt) == base.tokenizer.decode(ids[n_prompt:])
