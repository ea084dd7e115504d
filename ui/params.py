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
# rank lesson
DTYPES = ("float64", "float32")
TOLERANCES = ("auto", "1e-2", "1e-4", "1e-6", "1e-8", "1e-10", "1e-12", "1e-14")
SWEEP_INPUTS = ("random", "text")
TOY_MASKS = ("causal", "bidirectional")
PIT_SIGMAS = (0.5, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0)
# positional lesson
PE_DIMS = (4, 8, 16, 32, 64, 128, 256, 512)
PE_BASES = (10, 100, 1000, 10000, 100000)
# softmax lesson
SIGMAS = (0.25, 0.5, 1.0, 2.0)
DKS = tuple(2**i for i in range(11))  # 1 .. 1024
LOG2_SCALE = (-8.0, 0.0)  # the one-row demo's scale s = 2^x
LIVE_FACTORS = (0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)  # × the model's own 1/sqrt(d_k)
# generation, translation, masked tokens
DECODING = ("greedy", "sample")
MAX_NEW = 64


def number_in(options) -> Param:
    """A number from a fixed list (sliders over powers of two, bases); the default is options' own."""

    def parse(raw: str):
        try:
            value = type(options[0])(float(raw))
        except OverflowError as e:  # "inf"
            raise ValueError(raw) from e
        if value not in options:
            raise ValueError(raw)
        return value

    return parse


def int_list(low: int, high: int, most: int = 8):
    """ "0,1,10" -> [0, 1, 10] (multiselect values), each in [low, high]."""

    def parse(raw: str) -> list[int]:
        values = [int_in(low, high)(v) for v in raw.split(",") if v != ""]  # "" is the empty list
        if len(values) > most:
            raise ValueError(raw)
        return values

    return parse


def float_in(low: float, high: float):
    def parse(raw: str) -> float:
        value = float(raw)
        if not low <= value <= high:  # also rejects nan
            raise ValueError(raw)
        return value

    return parse


def one_based(default: int = 0) -> Param:
    """Layers, heads and positions are 0-based in code and 1-based for people (and in the URL)."""
    return Param(default, lambda raw: int_in(1, MAX_LAYERS_OR_HEADS)(raw) - 1, lambda v: str(v + 1))


PARAMS: dict[str, Param] = {
    # shared (app.py)
    "lang": Param("en", choice(*LANGUAGES)),
    "model": Param("decoder", choice(*models.AVAILABLE)),
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
    "sink_tables": Param(False, **BOOL),
    "target": Param("", text),
    "prefix": Param(3, int_in(1, 256)),
    "pad": Param(2, int_in(1, MAX_PAD)),
    "pos": Param(3, int_in(0, 255)),
    "word": Param("dog", text),
    # rank
    "dtype": Param("float64", choice(*DTYPES)),
    "tol": Param("auto", choice(*TOLERANCES)),
    "sweep_in": Param("random", choice(*SWEEP_INPUTS)),
    "samples": Param(4, int_in(2, 16)),
    "toy_n": Param(4, int_in(2, 6)),
    "toy_mask": Param("causal", choice(*TOY_MASKS)),
    "toy_row": one_based(3),
    "toy_sharp": Param(1, int_in(1, 100)),
    "toy_seed": Param(0, int_in(0, 999)),
    "pit_n": Param(64, int_in(4, 256)),
    "pit_d": Param(8, int_in(1, 64)),
    "pit_sigma": Param(3.0, number_in(PIT_SIGMAS)),
    # positional
    "pe_d": Param(64, number_in(PE_DIMS)),
    "pe_base": Param(10000, number_in(PE_BASES)),
    "pe_n": Param(128, int_in(16, 512)),
    "pe_dims": Param([0, 1, 10, 30], int_list(0, 511), lambda v: ",".join(map(str, v))),
    "pe_k": Param(5, int_in(0, 64)),
    "pe_pos": Param(3, int_in(0, 256)),
    "pe_pair": Param(0, int_in(0, 255)),
    "rope_m": Param(2, int_in(0, 64)),
    "rope_n": Param(5, int_in(0, 64)),
    "shuf": Param(0, int_in(0, 999)),
    # softmax
    "sigma": Param(1.0, number_in(SIGMAS)),
    "dk": Param(64, number_in(DKS)),
    "sm_log2s": Param(None, float_in(*LOG2_SCALE)),  # None: 1/sqrt(d_k)
    "live_c": Param(1.0, number_in(LIVE_FACTORS)),
    "qk_angle": Param(60, int_in(0, 180)),
    "q_norm": Param(1.0, float_in(0.1, 4.0)),
    "k_norm": Param(2.0, float_in(0.1, 4.0)),
    # generate
    "decoding": Param("greedy", choice(*DECODING)),
    "temp": Param(1.0, float_in(0.05, 3.0)),
    "top_k": Param(0, int_in(0, 100)),  # 0: off
    "top_p": Param(1.0, float_in(0.05, 1.0)),  # 1: off
    "seed": Param(0, int_in(0, 9999)),
    "max_new": Param(24, int_in(1, MAX_NEW)),
    "step": Param(1, int_in(1, MAX_NEW)),
    # translate
    "source": Param("1234", text),
    "tr_step": Param(1, int_in(1, MAX_NEW)),
    "typed": Param(None, text),  # None: the model's own translation
    # masked tokens
    "picked": Param([2], int_list(0, 255), lambda v: ",".join(map(str, v))),  # 2: "cats" in the default prompt
    "focus_mask": Param(0, int_in(0, 255)),
    "sentences": Param(
        "A man is eating food.\nA man is eating a piece of bread.\nThe girl is carrying a baby.\n"
        "A man is riding a horse.\nA woman is playing the violin.",
        text,
    ),
    "recipe_seed": Param(1, int_in(0, 9999)),  # 1: on the default prompt, one [MASK] and one random token
}
SHARED = ["lang", "model", "weights", "present", "prompt"]
