"""Whole paragraphs for the long-prompt tests (issue 30): a 2,015-token English text and a 1,500-character Chinese
one (1,882 tokens) in a tiny random Qwen3 folder whose positions allow 2,048 tokens (tests/models/hf/tiny.py)."""

from __future__ import annotations

from pathlib import Path

EN_PARAGRAPH = (
    "The little mole lived under the old oak tree at the edge of the village. Every morning she dug a new tunnel "
    "toward the river, and every evening she counted the worms she had found. "
)  # 65 tokens of the tiny models' byte-level BPE
ZH_PARAGRAPH = "小明喜欢鼹鼠。每天早上，他都会去村子边上的老橡树下看看鼹鼠挖的新隧道。晚上，他把看到的一切写进日记里。"
ENGLISH = EN_PARAGRAPH * 31  # 2,015 tokens, 5,611 characters
CHINESE = (ZH_PARAGRAPH * 30)[:1500]  # 1,500 characters, 1,882 tokens
MAX_TOKENS = 2048
NAME = "tiny-qwen3-long"


def build_long_qwen3(root: Path) -> Path:
    """root/tiny-qwen3-long: the tiny Qwen3 with 2,048 positions."""
    from tests.models.hf.tiny import build

    build("qwen3", root / NAME, max_position_embeddings=MAX_TOKENS)
    return root / NAME
