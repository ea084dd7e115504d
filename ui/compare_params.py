"""The Explorer's second model (issue 44) as URL parameters, and the lab variants it can name.

Kept out of ui/params.py (which is full) and free of its imports: params.py merges compare_params() into PARAMS, so
this module may not import it back. `compare` takes any well-formed name, not only the models this machine has: a
link naming a model that is missing here opens model A alone with a message saying how to fetch it, rather than
being dropped as a bad parameter (ui/compare_loaders.py decides what a name is)."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable

from models import ModelConfig, variants

from .url import BOOL, Param

LAB_PREFIX = "lab:"
# The shipped decoder's configuration with one change each, trained by the Architecture lab's own job and recipe
# (models/variants.py), so `compare=lab:learned` sets the toy decoder beside the same model with learned positions.
# "rope" changes nothing (the decoder uses RoPE and MHA already): the like-for-like partner of the others, trained by
# the same short recipe, where the shipped decoder itself had a longer one (models/train.py).
LAB_CHANGES: dict[str, dict[str, object]] = {
    "rope": {},
    "learned": {"positional": "learned"},
    "nope": {"positional": "none"},
    "gqa": {"n_kv_heads": 2},
    "mqa": {"n_kv_heads": 1},
}
# The lab's recipe that starts with repeat-only batches, as the shipped decoder's training did (models/train.py):
# the one under which the lab measured an induction head forming with RoPE and not with learned positions.
LAB_RECIPE = "induction"
NAME = re.compile(r"\w[\w.:/@+ -]{0,199}")  # a folder name may hold spaces or Chinese; never a path up ("..")


def compare_name(raw: str) -> str:
    """A model name, a folder name, org/name[@revision] or lab:<change>; "" is no comparison."""
    raw = raw.strip()
    if raw and (not NAME.fullmatch(raw) or ".." in raw):
        raise ValueError(raw)
    return raw


def lab_change(name: str) -> str | None:
    """ "gqa" for "lab:gqa"; None for any other name (lab:<unknown> included: not a variant this app trains)."""
    change = name[len(LAB_PREFIX) :] if name.startswith(LAB_PREFIX) else None
    return change if change in LAB_CHANGES else None


def lab_entry(decoder: ModelConfig, change: str) -> tuple[ModelConfig, str, str]:
    """A lab variant's configuration (the shipped decoder's with the change), its JSON (ui/loaders.lab_model's cache
    key) and the name its trained weights have in the lab's cache."""
    cfg = dataclasses.replace(decoder, **LAB_CHANGES[change])
    return cfg, json.dumps(cfg.to_dict(), sort_keys=True), variants.variant_key(cfg, cfg.seed, recipe=LAB_RECIPE)


def lab_names() -> tuple[str, ...]:
    return tuple(LAB_PREFIX + change for change in LAB_CHANGES)


def compare_params(one_based: Callable[..., Param]) -> dict[str, Param]:
    """compare (the second model), c_layer and c_head (its own layer and head, 1-based as layer and head are) and
    c_same (its layer and head follow model A's at the same relative depth)."""
    return {
        "compare": Param("", compare_name),
        "c_layer": one_based(),
        "c_head": one_based(),
        "c_same": Param(False, **BOOL),
    }
