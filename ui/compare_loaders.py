"""What the Explorer's second model is, whether it may be loaded beside model A, and its trace (issue 44).

The shared models stay: get_model is st.cache_resource without max_entries, so loading B never evicts the class's
model A. Before a published B is loaded the size check counts both: $ATTENTION_LAB_MAX_PARAMS bounds A's and B's
parameters together, and B's own need must fit the memory free now (read at call time, with A already loaded).
A lab variant (`lab:gqa`, ui/compare_params.py) is the shipped decoder's configuration with one change, trained by the
Architecture lab's own job (models/variants.py) and read from its cache by the lab's own loader."""

from __future__ import annotations

import dataclasses
import json

import torch

import models
from models.core import precision
from models.published import checkpoints, hub

from . import precision_keys, shell, trace_cache
from .compare_params import LAB_CHANGES, LAB_PREFIX, LAB_RECIPE, lab_change, lab_entry
from .loaders import _slim, computed, get_model, greedy_target, lab_model, training_jobs
from .long_runs import trace_or_partial
from .params import local_models


@dataclasses.dataclass(frozen=True)
class Problem:
    """Why B is not drawn: a compare.* string key, its fields, and the command that fixes it (or "")."""

    key: str
    fields: dict
    command: str = ""


@dataclasses.dataclass(frozen=True)
class Lab:
    """A lab variant: its configuration, the lab loader's cache key (its JSON) and its trained weights' name."""

    change: str
    config: models.ModelConfig
    config_json: str
    key: str


def fetch_command(name: str) -> str:
    """`python -m models.fetch org/name [--revision R]` for a Hub id, "" for anything else (a folder name)."""
    parsed = hub.parse(name)
    if parsed is None or "/" not in parsed[0]:
        return ""
    repo, revision = parsed
    return f"python -m models.fetch {repo}" + (f" --revision {revision}" if revision else "")


def weights_of(name: str, weights_a: str) -> str:
    """B's weights key: the sidebar's trained/random in this session's precision, as state.current() makes A's."""
    return precision_keys.key(name, precision_keys.base(weights_a))


def lab_variant(change: str) -> Lab:
    """The shipped decoder's configuration with the change, and the name its trained weights have in the cache."""
    return Lab(change, *lab_entry(get_model("decoder").config, change))


def train_command(lab: Lab) -> str:
    """The lab's own training, run by hand: it writes to the same cache the page reads."""
    fields = json.dumps(lab.config.to_dict())
    return f"python -m models.variants '{fields}' --seed {lab.config.seed} --recipe {LAB_RECIPE}"


def n_params(model: models.LiveModel) -> int:
    return sum(p.numel() for p in model.net.parameters())


def problem(name: str, weights: str, model_a: models.LiveModel) -> Problem | None:
    """Why `name` cannot be drawn beside model A (checked before any loading), or None."""
    if name.startswith(LAB_PREFIX) and lab_change(name) is None:
        return Problem(
            "explorer_compare.lab_unknown", {"name": name, "known": ", ".join(LAB_PREFIX + c for c in LAB_CHANGES)}
        )
    if name in models.AVAILABLE or lab_change(name) is not None:
        return None
    entry = local_models().get(name)
    if entry is None:
        command = fetch_command(name)
        return Problem(
            "explorer_compare.missing_hub" if command else "explorer_compare.missing", {"name": name}, command
        )
    if entry.error is not None and entry.params <= checkpoints.max_params():
        return Problem("explorer_compare.unusable", {"name": name, "error": entry.error})
    if computed(get_model, name, weights):
        return None  # loaded already (by another session, or as model A): nothing more is needed
    size_a, size_b, most = n_params(model_a), entry.params, checkpoints.max_params()
    sizes = {"name": name, "a": checkpoints.size_text(size_a), "b": checkpoints.size_text(size_b)}
    if size_a + size_b > most:
        both, limit = checkpoints.size_text(size_a + size_b), checkpoints.size_text(most)
        env = checkpoints.MAX_PARAMS_ENV
        return Problem("explorer_compare.sum_too_large", {**sizes, "both": both, "limit": limit, "env": env})
    dtype = precision_keys.split(weights)[1] or precision_keys.process_dtype() or "float32"
    reason = checkpoints.too_large(size_b, precision.bytes_per_param(getattr(torch, dtype)))
    return Problem("explorer_compare.too_large", {**sizes, "reason": reason}) if reason else None


def load(name: str, weights: str) -> models.LiveModel | Problem:
    """B itself (a first load of a published model under a status line), or why it failed to load."""
    try:
        return shell.load(name, weights)
    except (models.WeightsError, OSError, ValueError, RuntimeError) as e:
        return Problem("explorer_compare.load_failed", {"name": name, "error": str(e)}, fetch_command(name))


def lab_trained(lab: Lab) -> bool:
    return lab.key in training_jobs().trained


@trace_cache.cached(max_entries=16)
def lab_trace(config_json: str, trained_key: str | None, text: str) -> models.Trace:
    """A lab variant's trace of the prompt (lab_model: the lab's cached model, trained or at its seed's init)."""
    return _slim(lab_model(config_json, trained_key).run(text))


def second_trace(name_a: str, name: str, weights: str, model, lab: Lab | None, trained: str | None, text: str,
                 target: str | None):  # fmt: skip
    """The Explorer's model B on the prompt (lessons/explorer_compare.py): a lab variant's trace, or the cached trace
    (a long prompt's Progressive while it runs); an encoder-decoder B decodes its own translation unless it is model
    A itself (name_a), which shares A's target."""
    if lab is not None:
        return lab_trace(lab.config_json, trained, text)
    b_target = None
    if model.config.arch == "encoder-decoder":
        b_target = target if name == name_a and target is not None else greedy_target(name, weights, text)
    return trace_or_partial(name, weights, text, b_target)
