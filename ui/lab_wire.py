"""The wire between two heads while a lab variant trains (issue 43 §6): the K-, Q- and V-composition from the variant's
best previous-token head into its best induction head (both as its last snapshot scores them), at every snapshot
kept. An induction head reads "the token before me was X" from a previous-token head's write through its keys, so
the K score should rise when the head forms, and Q and V stay near chance (Olsson et al. 2022)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from models import circuits

from .loaders import lab_snapshots


def pair(scores: dict) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """(best previous-token head, best induction head) at the last snapshot, or None when the first is not in an
    earlier layer than the second (no wire can run from it)."""
    if "induction" not in scores or "previous_token" not in scores:
        return None
    prev, ind = (np.unravel_index(int(np.argmax(scores[r][-1])), np.shape(scores[r][-1]))
                 for r in ("previous_token", "induction"))  # fmt: skip
    if prev[0] >= ind[0]:
        return None
    return (int(prev[0]), int(prev[1])), (int(ind[0]), int(ind[1]))


def over_training(kept: list, sender: tuple[int, int], receiver: tuple[int, int]) -> dict[str, list[float]]:
    """{"step", "K", "Q", "V"} at each (step, model) kept, and the random baseline of these shapes."""
    out: dict[str, list[float]] = {"step": [], "K": [], "Q": [], "V": []}
    for step, model in kept:
        scores = circuits.k_composition_between(model, sender, receiver)
        out["step"].append(step)
        for kind in ("K", "Q", "V"):
            out[kind].append(float(scores[kind]))
    out["baseline"] = [float(circuits.composition_baseline(kept[-1][1], "K"))] if kept else []
    return out


@st.cache_data(show_spinner=False, max_entries=8)
def wire(config_json: str, trained_key: str, sender: tuple[int, int], receiver: tuple[int, int]) -> dict:
    """over_training of a trained variant's snapshots (ui/loaders.lab_snapshots), once per variant and pair."""
    return over_training(lab_snapshots(config_json, trained_key), sender, receiver)
