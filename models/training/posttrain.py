"""Post-training the toy decoder: supervised fine-tuning (SFT) on instruction-style pairs, then direct
preference optimisation (DPO, Rafailov et al. 2023) on preference pairs, both from the toy language.

What the toy learns is a pattern in a tiny made-up language, not to chat: after a story like
"alice gave bob a book ." and a question "Q: who gave the book ? A:" (or "who got"), the answer is
one of the story's two names. Pretraining never saw the "Q: … A:" format, so the shipped decoder
cannot answer before SFT; the answer is determined by the prompt, so a held-out prompt (a story with
a name pair and thing never trained on) measures whether the rule, not the examples, was learned.

SFT: cross-entropy on the answer tokens only (the prompt's tokens carry no loss).
DPO: loss = −log σ(β[(log π(y_w|x) − log π_ref(y_w|x)) − (log π(y_l|x) − log π_ref(y_l|x))]), the
reference π_ref the frozen SFT model, β = 0.1, log-probabilities summed over the response tokens.
"""

from __future__ import annotations

import copy
import functools
import random
import time
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from .. import data
from ..core.attention import causal
from ..core.transformer import Transformer
from ..tokenizer import BOS, EOS, PAD, BPETokenizer
from .mlm import IGNORE
from .training import fit

BETA = 0.1  # DPO's β (Rafailov et al. 2023 use 0.1 for most of their experiments)
SEED = 0
QUESTIONS = {"giver": "who gave the {t} ?", "receiver": "who got the {t} ?"}
# Demonstrations are the scarce kind (InstructGPT had ~13k SFT prompts, ~33k comparison prompts). With 64
# demonstrations SFT learns the format and part of the rule; the comparisons then teach which name.
N_SFT, N_DPO, N_HELD = 64, 192, 48  # training demonstrations, training comparisons, held-out comparisons
# Measured on this machine (one core, nice 10, 5 other jobs), seed 0: SFT 150 steps + DPO 150 steps 20-33 s.
# Held-out: preference accuracy base 0.46, SFT 0.71, DPO 0.90; mean margin -0.2, 4.3, 13.3 nats.
RECIPE = {"sft_steps": 150, "sft_lr": 1e-3, "dpo_steps": 150, "dpo_lr": 5e-4, "batch": 16, "warmup": 10}


@dataclass(frozen=True)
class Pair:
    """One prompt with a chosen answer (the correct name) and a rejected one (the story's other name).
    SFT trains on (prompt, chosen); DPO on the comparison; the held-out pairs only measure."""

    prompt: str
    chosen: str
    rejected: str
    story: tuple[str, str, str]  # (giver, receiver, thing): held-out stories share none with training


def story_text(giver: str, receiver: str, thing: str) -> str:
    return f"{giver} gave {receiver} a {thing} ."


def make_pair(giver: str, receiver: str, thing: str, kind: str) -> Pair:
    prompt = f"{story_text(giver, receiver, thing)} Q: {QUESTIONS[kind].format(t=thing)} A:"
    right, wrong = (giver, receiver) if kind == "giver" else (receiver, giver)
    return Pair(prompt, f" {right} .", f" {wrong} .", (giver, receiver, thing))


@functools.cache
def split(seed: int = SEED) -> tuple[list[Pair], list[Pair], list[Pair]]:
    """(SFT demonstrations, DPO training comparisons, held-out comparisons): three disjoint sets of
    stories drawn from the toy language's names and things; each story is asked one question. Cached: the
    page reads it on every rerun (10 ms to build); callers must not mutate the lists."""
    rng = random.Random(seed + 4242)
    stories = [(a, b, t) for a in data.NAMES for b in data.NAMES if a != b for t in data.THINGS]
    rng.shuffle(stories)
    picked = stories[: N_SFT + N_DPO + N_HELD]
    pairs = [make_pair(*s, rng.choice(list(QUESTIONS))) for s in picked]
    return pairs[:N_SFT], pairs[N_SFT : N_SFT + N_DPO], pairs[N_SFT + N_DPO :]


# ------------------------------------------------------------------ log-probabilities


def encode_batch(tok: BPETokenizer, prompts: list[str], answers: list[str]) -> tuple[torch.Tensor, torch.Tensor]:
    """ids [BOS] prompt answer [EOS] (right-padded) and labels: the next token where it is an answer token,
    IGNORE on the prompt (and padding), so a loss or a sum over labels covers the response only."""
    xs, ys = [], []
    for p, a in zip(prompts, answers, strict=True):
        pi, ai = [BOS, *tok.encode(p)], [*tok.encode(a), EOS]  # a response ends with [EOS], as in SFT data
        seq = pi + ai
        xs.append(seq[:-1])
        ys.append([IGNORE] * (len(pi) - 1) + ai)
    width = max(len(x) for x in xs)
    return (
        torch.tensor([x + [PAD] * (width - len(x)) for x in xs]),
        torch.tensor([y + [IGNORE] * (width - len(y)) for y in ys]),
    )


def token_logprobs(net: Transformer, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """log π(y_t | x, y_<t) at each labelled position, 0 elsewhere: (B, T). Padding sits at the right,
    so under the causal mask no real position ever attends to it."""
    logits = net(x, causal(x.shape[1]), net.cfg.scale)
    logp = F.log_softmax(logits, dim=-1)
    keep = y != IGNORE
    picked = logp.gather(-1, y.clamp(min=0).unsqueeze(-1)).squeeze(-1)
    return picked * keep


def sequence_logprob(net: Transformer, tok: BPETokenizer, prompts: list[str], answers: list[str]) -> torch.Tensor:
    """log π(answer | prompt), summed over the answer's tokens: (B,)."""
    x, y = encode_batch(tok, prompts, answers)
    return token_logprobs(net, x, y).sum(-1)


def answer_loss(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy over the answer tokens only: positions labelled IGNORE (the prompt, padding)
    add nothing to the loss, so their logits get no gradient."""
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1), ignore_index=IGNORE)


def sft_loss(net: Transformer, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return answer_loss(net(x, causal(x.shape[1]), net.cfg.scale), y)


def dpo_loss(
    pi_w: torch.Tensor, pi_l: torch.Tensor, ref_w: torch.Tensor, ref_l: torch.Tensor, beta: float = BETA
) -> torch.Tensor:
    """Mean over pairs of −log σ(β[(log π(y_w) − log π_ref(y_w)) − (log π(y_l) − log π_ref(y_l))])
    (Rafailov et al. 2023, eq. 7). Equal policy and reference give log 2 per pair."""
    return -F.logsigmoid(beta * ((pi_w - ref_w) - (pi_l - ref_l))).mean()


# ------------------------------------------------------------------ training


def _fit_recording(net: Transformer, stage: str, steps: int, lr: float, loss_at, warmup: int, after) -> list[float]:
    """Train net in place with training.fit; returns the loss per step (rounded), each also passed on
    as after(stage, step, loss) so the child can report progress."""
    losses = []

    def record(step: int, loss: float) -> None:
        losses.append(round(loss, 5))
        if after is not None:
            after(stage, step, loss)

    net.train()
    fit(net, steps, lr, loss_at, warmup, after=record)
    return losses


def run_sft(net: Transformer, tok: BPETokenizer, pairs: list[Pair], steps: int, lr: float, batch: int, warmup: int,
            seed: int, after=None) -> list[float]:  # fmt: skip
    """Fine-tune net in place on (prompt, chosen) with the answer-only loss; returns the loss per step."""
    rng = random.Random(seed)

    def loss_at(step: int) -> torch.Tensor:
        chosen = rng.sample(pairs, min(batch, len(pairs)))
        return sft_loss(net, *encode_batch(tok, [p.prompt for p in chosen], [p.chosen for p in chosen]))

    return _fit_recording(net, "sft", steps, lr, loss_at, warmup, after)


def run_dpo(policy: Transformer, reference: Transformer, tok: BPETokenizer, pairs: list[Pair], steps: int, lr: float,
            batch: int, warmup: int, seed: int, beta: float = BETA, after=None) -> list[float]:  # fmt: skip
    """DPO on the comparisons, policy in place; the reference is frozen (its log-probabilities are
    computed once, before training). Returns the loss per step."""
    reference.eval()
    with torch.no_grad():
        ref_w = sequence_logprob(reference, tok, [p.prompt for p in pairs], [p.chosen for p in pairs])
        ref_l = sequence_logprob(reference, tok, [p.prompt for p in pairs], [p.rejected for p in pairs])
    rng = random.Random(seed + 1)

    def loss_at(step: int) -> torch.Tensor:
        idx = rng.sample(range(len(pairs)), min(batch, len(pairs)))
        prompts = [pairs[i].prompt for i in idx]
        answers = [pairs[i].chosen for i in idx] + [pairs[i].rejected for i in idx]
        both = sequence_logprob(policy, tok, prompts * 2, answers)  # chosen and rejected in one batch
        return dpo_loss(both[: len(idx)], both[len(idx) :], ref_w[idx], ref_l[idx], beta)

    return _fit_recording(policy, "dpo", steps, lr, loss_at, warmup, after)


@torch.no_grad()
def measure(net: Transformer, tok: BPETokenizer, pairs: list[Pair]) -> dict[str, list[float]]:
    """log π(chosen|x) and log π(rejected|x) of each pair (summed over the response tokens)."""
    net.eval()
    prompts = [p.prompt for p in pairs]
    return {
        "chosen": [round(v, 5) for v in sequence_logprob(net, tok, prompts, [p.chosen for p in pairs]).tolist()],
        "rejected": [round(v, 5) for v in sequence_logprob(net, tok, prompts, [p.rejected for p in pairs]).tolist()],
    }


@torch.no_grad()
def greedy(net: Transformer, tok: BPETokenizer, prompt: str, max_new_tokens: int = 4) -> str:
    """The greedy continuation of a prompt, up to max_new_tokens or [EOS], with a KV cache: the prompt is
    run once, then one token per step (36 ms -> a few ms for a 64-token prompt on this machine)."""
    net.eval()
    ids = [BOS, *tok.encode(prompt)][-(net.cfg.max_len - max_new_tokens) :]
    first = len(ids)
    new, past = torch.tensor([ids]), None
    for _ in range(max_new_tokens):
        start = len(ids) - new.shape[1]
        mask = causal(new.shape[1], len(ids))  # (T_new, T_all)
        x, recs, _ = net.run_stack(net.decoder, new, mask, net.cfg.scale, past=past, start=start)
        past = [r["present"] for r in recs]
        ids.append(int(net.logits(net.dec_norm(x[0, -1])).argmax()))
        if ids[-1] == EOS:
            break
        new = torch.tensor([[ids[-1]]])
    return tok.decode(ids[first:])


STAGES = ("base", "sft", "dpo")
N_SHOWN = 3  # held-out prompts of each question whose greedy answers the page shows


def shown(held: list[Pair]) -> list[Pair]:
    """The first held-out prompts of each question (who gave, then who got), for the examples table."""
    return [p for kind in QUESTIONS.values() for p in [q for q in held if kind[:8] in q.prompt][:N_SHOWN]]


def post_train(base: Transformer, tok: BPETokenizer, seed: int = SEED, recipe: dict | None = None, report=None,
               pause=None):  # fmt: skip
    """SFT from the base weights, then DPO with the frozen SFT model as reference. Returns
    ({"sft": net, "dpo": net}, results): results hold the held-out log-probabilities of every stage,
    the loss curves and greedy answers to the first held-out prompts; base is left untouched.
    pause() is called after every step (the child's jobs.MakeWay: it waits while the server is busy)."""
    rec = {**RECIPE, **(recipe or {})}
    torch.manual_seed(seed)
    sft_pairs, dpo_pairs, held = split(seed)
    t0 = time.time()
    total = rec["sft_steps"] + rec["dpo_steps"]

    def after(stage: str, step: int, loss: float) -> None:
        if pause is not None:
            pause()
        if report is not None and (step % 5 == 0 or step == rec[f"{stage}_steps"] - 1):
            done = step + 1 + (rec["sft_steps"] if stage == "dpo" else 0)
            report({"stage": stage, "step": done, "steps": total, "loss": round(loss, 4),
                    "seconds": round(time.time() - t0, 2)})  # fmt: skip

    sft = copy.deepcopy(base)
    for p in sft.parameters():  # a loaded model is frozen for inference; its copy learns
        p.requires_grad_(True)
    sft_losses = run_sft(sft, tok, sft_pairs, rec["sft_steps"], rec["sft_lr"], rec["batch"], rec["warmup"], seed, after)
    sft.eval()
    reference = copy.deepcopy(sft).eval()
    for p in reference.parameters():
        p.requires_grad_(False)
    dpo = copy.deepcopy(sft)
    dpo_losses = run_dpo(dpo, reference, tok, dpo_pairs, rec["dpo_steps"], rec["dpo_lr"], rec["batch"], rec["warmup"],
                         seed, BETA, after)  # fmt: skip
    dpo.eval()
    nets = {"base": base, "sft": sft, "dpo": dpo}
    results = {
        "beta": BETA,
        "recipe": rec,
        "seed": seed,
        "held": {s: measure(n, tok, held) for s, n in nets.items()},
        "train_dpo": {s: measure(n, tok, dpo_pairs) for s, n in nets.items()},
        "losses": {"sft": sft_losses, "dpo": dpo_losses},
        "generations": {s: [greedy(n, tok, p.prompt) for p in shown(held)] for s, n in nets.items()},
        "seconds": round(time.time() - t0, 2),
    }
    return {"sft": sft, "dpo": dpo}, results


def margins(measured: dict[str, list[float]]) -> list[float]:
    """The margin log π(chosen|x) − log π(rejected|x) of each pair of a measure() result (> 0: the correct name is
    preferred)."""
    return [w - lo for w, lo in zip(measured["chosen"], measured["rejected"], strict=True)]


def summary(results: dict, stage: str, on: str = "held") -> dict[str, float]:
    """Mean log π(chosen), mean log π(rejected), the mean margin and the preference accuracy (share of
    pairs with log π(chosen) > log π(rejected)) of one stage; implicit rewards β·log(π/π_ref) against
    the SFT model for every stage (0 for SFT itself)."""
    got, ref = results[on][stage], results[on]["sft"]
    w, lo = got["chosen"], got["rejected"]
    n, beta = len(w), results["beta"]
    return {
        "chosen": sum(w) / n,
        "rejected": sum(lo) / n,
        "margin": sum(a - b for a, b in zip(w, lo, strict=True)) / n,
        "accuracy": sum(a > b for a, b in zip(w, lo, strict=True)) / n,
        "reward_chosen": beta * sum(a - r for a, r in zip(w, ref["chosen"], strict=True)) / n,
        "reward_rejected": beta * sum(a - r for a, r in zip(lo, ref["rejected"], strict=True)) / n,
    }
