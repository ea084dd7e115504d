"""ELECTRA's replaced-token detection (Clark et al. 2020), small and real: `python -m models.electra`.

A small generator (a masked LM) fills 15% masked positions with tokens it samples; a discriminator reads
the corrupted sequence and labels every token original or replaced. Both train together on
L_gen + λ·L_disc with λ = 50 (§2; Appendix A). The generator is trained by maximum likelihood, not adversarially:
no gradient flows from the discriminator into it (sampling is not differentiable), and §3.2 reports
that adversarial training worked worse. A sampled token equal to the original counts as original.

The paper ties the two networks' token embeddings; here each has its own (the generator is narrower),
which keeps them two ordinary encoders of this app. Trained on the toy corpus with the shipped
tokenizer and the one training loop (models/training/training.py); stored in float16 under models/weights/.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from . import data
from .config import ModelConfig
from .core.attention import bidirectional, padding
from .core.transformer import Transformer
from .inspection import probes
from .loading import TOKENIZER_FILE, WEIGHTS_DIR, file_digest, shipped_tokenizer, tokenizer_path
from .tokenizer import CLS, MASK, PAD, SEP, SPECIALS, BPETokenizer
from .training.mlm import bert_count
from .training.training import Sentences, fit, pad

ELECTRA_FILE = "electra.pt"
ELECTRA_TRAIN_COMMAND = "python -m models.electra"
LAMBDA = 50.0  # weight of the discriminator's loss (Clark et al. 2020, §3.1)
SEED = 0
STEPS, BATCH, SEQ_LEN, LR = 500, 32, 48, 2e-3
GENERATOR = ModelConfig(arch="encoder", n_layers=1, d_model=32, n_heads=2, d_ff=64, norm_position="pre",
                        activation="gelu", positional="learned", max_len=128)  # fmt: skip
DISCRIMINATOR = ModelConfig(arch="encoder", n_layers=2, d_model=64, n_heads=4, d_ff=128, norm_position="pre",
                            activation="gelu", positional="learned", max_len=128)  # fmt: skip


class Electra(nn.Module):
    """The pair: generator (an encoder with its tied MLM head) and discriminator (an encoder + a one-logit head)."""

    def __init__(self, gen_cfg: ModelConfig, disc_cfg: ModelConfig):
        super().__init__()
        self.gen = Transformer(gen_cfg)
        self.disc = Transformer(disc_cfg)
        self.disc_head = nn.Linear(disc_cfg.d_model, 1)

    def gen_logits(self, ids: torch.Tensor) -> torch.Tensor:
        """(B, T) -> (B, T, V); specials can never be sampled."""
        logits = self.gen(ids, bidirectional(ids.shape[1]) & padding(ids != PAD), self.gen.cfg.scale)
        logits[..., : len(SPECIALS)] = float("-inf")
        return logits

    def disc_logits(self, ids: torch.Tensor) -> torch.Tensor:
        """(B, T) -> (B, T): the logit of "replaced" per token."""
        d = self.disc
        x, _, _ = d.run_stack(d.encoder, ids, bidirectional(ids.shape[1]) & padding(ids != PAD), d.cfg.scale)
        return self.disc_head(d.enc_norm(x)).squeeze(-1)


def choose(ids: list[int], rng: random.Random) -> list[int]:
    """Positions to mask: BERT's exact count round(0.15·n), at least one, never a special token."""
    cand = [i for i, t in enumerate(ids) if t >= len(SPECIALS)]
    return sorted(rng.sample(cand, bert_count(len(ids), len(cand)))) if cand else []


def corrupt(model: Electra, ids: torch.Tensor, masked: torch.Tensor, gen: torch.Generator | None = None):
    """Mask, let the generator sample, label. Returns (generator logits, corrupted ids, labels):
    labels are 1 where the corrupted token differs from the original (a sample equal to it counts as original)."""
    inp = ids.masked_fill(masked, MASK)
    logits = model.gen_logits(inp)
    corrupted = ids.clone()
    if masked.any():
        with torch.no_grad():  # sampling is not differentiable: no adversarial signal reaches the generator
            probs = torch.softmax(logits[masked].float(), -1)
            corrupted[masked] = torch.multinomial(probs, 1, generator=gen).squeeze(-1)
    return logits, corrupted, (corrupted != ids).float()


def batch_losses(model: Electra, rng: random.Random, pool: Sentences, batch: int = BATCH, seq_len: int = SEQ_LEN):
    """(L_gen over the masked tokens, L_disc over every real token) of one fresh batch."""
    seqs, masks = [], []
    for _ in range(batch):
        body = (
            pool.stream(rng, rng.randint(6, seq_len - 2))
            if rng.random() < 0.5
            else pool.ids[rng.randrange(len(pool.ids))]
        )
        seq = [CLS, *body[: seq_len - 2], SEP]
        pos = set(choose(seq, rng))
        seqs.append(seq)
        masks.append([i in pos for i in range(len(seq))])
    ids = pad(seqs, PAD)
    masked = pad([[int(m) for m in row] for row in masks], 0).bool()
    logits, corrupted, labels = corrupt(model, ids, masked)
    l_gen = F.cross_entropy(logits[masked], ids[masked])
    real = ids != PAD
    l_disc = F.binary_cross_entropy_with_logits(model.disc_logits(corrupted)[real], labels[real])
    return l_gen, l_disc


@dataclass
class Detection:
    tokens: list[str]  # the original tokens, [CLS] ... [SEP]
    masked: list[int]  # positions the seed masked
    corrupted: list[str]  # what the discriminator reads
    replaced: list[bool]  # true labels: the token differs from the original
    p_replaced: np.ndarray  # [T] the discriminator's probability of "replaced"
    gen_top: list[str]  # the generator's most likely token at each masked position


@torch.no_grad()
def detect(model: Electra, tok: BPETokenizer, text: str, seed: int) -> Detection:
    """Run replaced-token detection on one text with a seed (which positions, what the generator samples)."""
    ids = [CLS, *tok.encode(text)[: model.disc.cfg.max_len - 2], SEP]
    masked = choose(ids, random.Random(seed))
    x = torch.tensor([ids])
    m = torch.zeros_like(x, dtype=torch.bool)
    m[0, masked] = True
    logits, corrupted, labels = corrupt(model, x, m, torch.Generator().manual_seed(seed))
    p = torch.sigmoid(model.disc_logits(corrupted))[0].numpy()
    top = logits[0, masked].argmax(-1).tolist()
    return Detection(tok.token_strs(ids), masked, tok.token_strs(corrupted[0].tolist()), labels[0].bool().tolist(),
                     p.astype(np.float64), tok.token_strs(top))  # fmt: skip


def auc(scores: np.ndarray, labels: np.ndarray) -> float:
    """Area under the ROC curve: the chance a random replaced token scores above a random original one."""
    pos, neg = scores[labels], scores[~labels]
    if not len(pos) or not len(neg):
        return float("nan")
    ranks = np.argsort(np.argsort(np.concatenate([pos, neg]))) + 1.0
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def evaluate(model: Electra, tok: BPETokenizer, n: int = 300, seed: int = probes.HELD_OUT_SEED) -> dict:
    """On held-out sentences corrupted by the generator: the discriminator's AUC, accuracy over every real
    token (specials excluded) against the trivial "all original" baseline, and recall on replaced tokens."""
    scores, labels = [], []
    for i, text in enumerate(data.corpus(n, seed)):
        d = detect(model, tok, text, seed + i)
        inner = slice(1, len(d.tokens) - 1)
        scores.append(d.p_replaced[inner])
        labels.append(np.array(d.replaced[inner]))
    s, y = np.concatenate(scores), np.concatenate(labels)
    guess = s > 0.5
    return {
        "auc": auc(s, y),
        "accuracy": float((guess == y).mean()),
        "all_original_accuracy": float(1 - y.mean()),
        "replaced_recall": float(guess[y].mean()),
        "replaced_share": float(y.mean()),
        "tokens": int(y.size),
    }


def train(steps: int = STEPS, seed: int = SEED, tok: BPETokenizer | None = None, log=print) -> tuple[Electra, dict]:
    tok = tok or shipped_tokenizer()
    torch.manual_seed(seed)
    rng = random.Random(seed)
    gen_cfg = ModelConfig(**{**GENERATOR.to_dict(), "vocab_size": tok.vocab_size, "seed": seed})
    disc_cfg = ModelConfig(**{**DISCRIMINATOR.to_dict(), "vocab_size": tok.vocab_size, "seed": seed + 1})
    model = Electra(gen_cfg, disc_cfg).train()
    pool = Sentences(tok, seed, n=20000)
    t0, ema = time.time(), {}

    def loss_at(step: int) -> torch.Tensor:
        l_gen, l_disc = batch_losses(model, rng, pool)
        for k, v in (("gen", l_gen.item()), ("disc", l_disc.item())):
            ema[k] = v if k not in ema else 0.95 * ema[k] + 0.05 * v
        return l_gen + LAMBDA * l_disc

    def after(step: int, loss: float) -> None:
        if step % 100 == 0 or step == steps - 1:
            log(f"step {step + 1}/{steps}  L_gen {ema['gen']:.3f}  L_disc {ema['disc']:.4f}  {time.time() - t0:.0f}s")

    fit(model, steps, LR, loss_at, after=after)
    meta = {"steps": steps, "seed": seed, "seconds": round(time.time() - t0, 1), "lambda": LAMBDA,
            "final_gen_loss": round(ema["gen"], 4), "final_disc_loss": round(ema["disc"], 4)}  # fmt: skip
    return model.eval(), meta


def save(model: Electra, meta: dict, out: Path) -> Path:
    path = Path(out) / ELECTRA_FILE
    state = {
        k: v.half() for k, v in model.state_dict().items() if not k.endswith("head.weight") or k == "disc_head.weight"
    }
    torch.save({"generator": model.gen.cfg.to_dict(), "discriminator": model.disc.cfg.to_dict(), "state_dict": state,
                "meta": meta, "tokenizer_digest": file_digest(Path(out) / TOKENIZER_FILE)}, path)  # fmt: skip
    return path


def load_electra(weights_dir: Path = WEIGHTS_DIR) -> tuple[Electra, dict]:
    """The shipped pair (eval mode, no gradients) and its training report; WeightsError names the fix."""
    from .errors import WeightsError

    path = Path(weights_dir) / ELECTRA_FILE
    if not path.is_file():
        raise WeightsError(f"The weight file {path} is missing. Rebuild it with: {ELECTRA_TRAIN_COMMAND}")
    try:
        ckpt = torch.load(path, map_location="cpu", weights_only=True)
        model = Electra(ModelConfig.from_dict(ckpt["generator"]), ModelConfig.from_dict(ckpt["discriminator"]))
        model.load_state_dict({k: v.float() for k, v in ckpt["state_dict"].items()}, strict=False)
    except Exception as e:
        raise WeightsError(f"The weight file {path} is corrupt. Rebuild it with: {ELECTRA_TRAIN_COMMAND}") from e
    if ckpt.get("tokenizer_digest") != file_digest(tokenizer_path(weights_dir)):
        raise WeightsError(f"{path} was trained with another tokenizer. Rebuild it with: {ELECTRA_TRAIN_COMMAND}")
    return model.eval().requires_grad_(False), ckpt.get("meta", {})


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=STEPS)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--out", type=Path, default=WEIGHTS_DIR, help="a folder holding tokenizer.json")
    args = ap.parse_args(argv)
    tok = shipped_tokenizer(args.out)
    model, meta = train(args.steps, args.seed, tok)
    meta["held_out"] = evaluate(model, tok)
    path = save(model, meta, args.out)
    print(f"saved {path} ({path.stat().st_size / 1e6:.2f} MB): {meta}")


if __name__ == "__main__":
    main()
