"""Regenerate tests/models/fixtures/minilm_reference.json from the reference implementation.

Not run by CI. It needs `transformers` (eager attention), which the app never imports: install it
in a throwaway place, for example
    .venv/bin/pip install --target /tmp/tfref --no-deps transformers
    .venv/bin/pip install --target /tmp/tfref huggingface_hub regex pyyaml requests filelock fsspec tqdm packaging
    PYTHONPATH=/tmp/tfref .venv/bin/python scripts/minilm_reference.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import torch
from transformers import BertModel, BertTokenizerFast

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from models.published.pretrained import model_dir  # noqa: E402

SENTENCES = [
    "The cat sat on the mat.",
    "A man is eating a piece of bread.",
    "Attention is all you need, they said; unbelievably, it worked!",
]
HEADS = [(0, 0), (5, 7)]  # (layer, head) whose attention matrices are pinned
HIDDEN_SLICE = (slice(0, 4), slice(0, 8))  # tokens 0..3, dimensions 0..7 of the last hidden state
OUT = ROOT / "tests" / "models" / "fixtures" / "minilm_reference.json"


def main() -> None:
    folder = model_dir()
    tok = BertTokenizerFast.from_pretrained(str(folder))
    model = BertModel.from_pretrained(str(folder), attn_implementation="eager").eval()
    cases = []
    with torch.no_grad():
        for s in SENTENCES:
            enc = tok(s, return_tensors="pt")
            out = model(**enc, output_attentions=True)
            last = out.last_hidden_state[0]
            mean = last.mean(0)
            cases.append(
                {
                    "sentence": s,
                    "ids": enc["input_ids"][0].tolist(),
                    "hidden": last[HIDDEN_SLICE].tolist(),
                    "attention": {f"{la},{h}": out.attentions[la][0, h].tolist() for la, h in HEADS},
                    "embedding": (mean / mean.norm()).tolist(),
                }
            )
    import transformers

    OUT.write_text(json.dumps({"transformers": transformers.__version__, "cases": cases}, indent=0))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
