"""One Architecture-lab side's ModelConfig from its field values: pure, so the lab's controls
(lessons/lab_controls.py) and the goal checks (ui/goal_checks.py: lab_trained) build the same one."""

from __future__ import annotations

from collections.abc import Mapping

import models

from .params import LAB_FIELDS

LAB_MAX_LEN = 128  # the lab's models read at most this many tokens


def lab_config(values: Mapping[str, object], vocab_size: int) -> models.ModelConfig:
    """The ModelConfig of one side's field values (LAB_FIELDS): the lab keeps n_kv_heads as a number
    (n_heads for MHA) and attn_scale as a code (sqrt, one, inv); ValueError if impossible."""
    heads, d_head = values["n_heads"], values["d_model"] // values["n_heads"]
    attn_scale = {"sqrt": None, "one": 1.0, "inv": 1.0 / d_head}[values["attn_scale"]]
    return models.ModelConfig(
        arch=values["arch"], vocab_size=vocab_size, n_layers=values["n_layers"], d_model=values["d_model"],
        n_heads=heads, n_kv_heads=None if values["n_kv_heads"] == heads else values["n_kv_heads"],
        d_ff=values["d_ff"], norm_position=values["norm_position"], norm=values["norm"],
        activation=values["activation"], positional=values["positional"], attn_scale=attn_scale, max_len=LAB_MAX_LEN,
        tie_embeddings=bool(values["tie_embeddings"]), bias=bool(values["bias"]), seed=int(values["seed"]),
        n_experts=int(values["n_experts"]), experts_top_k=int(values["experts_top_k"]),
    )  # fmt: skip


def side_values(side: str, state: Mapping[str, object]) -> dict:
    """One side's field values from the app state (its keys are `<side>_<field>`), defaults filled in."""
    from .params import PARAMS

    out = {}
    for name in LAB_FIELDS:
        value = state.get(f"{side}_{name}")
        out[name] = PARAMS[f"{side}_{name}"].default if value is None else value
    if out["n_heads"] % out["n_kv_heads"]:  # as the controls clamp it: a KV-head count divides the query heads
        out["n_kv_heads"] = out["n_heads"]
    return out
