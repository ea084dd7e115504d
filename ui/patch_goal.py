"""The guided lesson's goal on the "What a head causes" page (goal_checks.head_recovers): the share of the answer the
picked head recovers, read from the page's own cached run, so the check costs nothing more than the page. Before the
page has run, its state is what it will show: the template's pair and the head with the largest share."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

import models

from .i18n import t
from .loaders import get_model
from .params import PARAMS, local_models
from .patch_loaders import patch_run
from .patch_pairs import TEMPLATES, batch, template
from .precision_keys import key

BOXES = ("pt_clean", "pt_corrupt", "pt_answer", "pt_wrong")


def _get(state: Mapping[str, object], name: str) -> object:
    value = state.get(name)
    return PARAMS[name].default if value is None else value


def _model(state: Mapping[str, object]) -> str:
    """As the page: a model that is not a usable decoder is replaced by the toy decoder."""
    name = _get(state, "model")
    entry = local_models().get(name)
    if name != "decoder" and (entry is None or entry.arch != "decoder" or entry.error is not None):
        return "decoder"
    return name


def _texts(state: Mapping[str, object], name: str, weights: str) -> list:
    texts = [state.get(n) for n in BOXES]
    if all(x is not None for x in texts):
        return texts
    model, kind = get_model(name, weights), _get(state, "pt_template")
    kind = kind if kind in TEMPLATES else TEMPLATES[0]
    toy = name in models.SHIPPED
    found = batch(kind, toy, lambda s: len(model.source_ids(s)[0]), n=1)  # the page's own choice (lessons/patch.py)
    pair = found[0] if found else template(kind, toy)
    return [pair.clean, pair.corrupted, pair.answer, pair.wrong]


def picked_share(least: float, state: Mapping[str, object]) -> tuple[bool, str]:
    """(reached, detail): the picked head's recovered share is at least `least`."""
    name = _model(state)
    weights = key(name, _get(state, "weights"), _get(state, "precision"))
    texts = _texts(state, name, weights)
    if any(not isinstance(x, str) or not x.strip() for x in texts):
        return False, t("guides.goal.patch_first")
    run = patch_run(name, weights, texts[0], texts[1], texts[2].strip(), texts[3].strip())
    if "error" in run or not run["disagree"]:
        return False, t("guides.goal.patch_first")
    share_map = run["recovered"]
    n_layers, n_heads = share_map.shape
    picked = state.get("pt_head")
    if not (isinstance(picked, int) and 0 <= picked < n_layers * n_heads):
        picked = int(np.nanargmax(share_map))  # the page opens on the largest share
    layer, head = divmod(picked, n_heads)
    share = float(share_map[layer, head])
    detail = t("guides.goal.head_recovers", layer=layer + 1, head=head + 1, share=f"{share:.2f}", min=f"{least:.2f}")
    return bool(share >= least), detail
