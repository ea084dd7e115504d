"""Every URL parameter of the app in one table: name (= widget key), default, how to parse it.

One table, read before any page runs, so a shared link restores page controls too (a page's
own widgets do not exist yet when the link is first read).
"""

from __future__ import annotations

import models

from .url import BOOL, Param, choice, int_in, text

LANGUAGES = {"en": "English", "zh": "简体中文"}
WEIGHTS = ("trained", "random")
DEFAULT_PROMPT = "the cats that the dog sees are happy ."
ATTENTION_KINDS = ("encoder.self", "decoder.self", "decoder.cross")
VIEWS = ("heatmap", "grid", "lines")
AGGREGATES = ("head", "mean", "rollout")
MAX_LAYERS_OR_HEADS = 64
MAX_PAD = 8


def one_based(default: int = 0) -> Param:
    """Layers, heads and positions are 0-based in code and 1-based for people (and in the URL)."""
    return Param(default, lambda raw: int_in(1, MAX_LAYERS_OR_HEADS)(raw) - 1, lambda v: str(v + 1))


PARAMS: dict[str, Param] = {
    # shared (app.py)
    "lang": Param("en", choice(*LANGUAGES)),
    "model": Param("decoder", choice(*models.SHIPPED)),
    "weights": Param("trained", choice(*WEIGHTS)),
    "present": Param(False, **BOOL),
    "prompt": Param(DEFAULT_PROMPT, text),
    # explorer and masks
    "layer": one_based(),
    "head": one_based(),
    "attn": Param(None, choice(*ATTENTION_KINDS)),
    "view": Param("heatmap", choice(*VIEWS)),
    "agg": Param("head", choice(*AGGREGATES)),
    "autoscale": Param(False, **BOOL),
    "target": Param("", text),
    "prefix": Param(3, int_in(1, 256)),
    "pad": Param(2, int_in(1, MAX_PAD)),
    "pos": Param(3, int_in(0, 255)),
    "word": Param("dog", text),
}
SHARED = ["lang", "model", "weights", "present", "prompt"]
