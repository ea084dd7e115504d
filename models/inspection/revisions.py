"""Heads forming during training, in a real model: the training checkpoints of one Hub model in the cache.

Pythia publishes its checkpoints as branches step0, step1, step2, step4, ..., step1000, step2000, ..., step143000
(`main` is the last, step143000). With several of them cached (`python -m models.fetch EleutherAI/pythia-70m --revision
step1000`), replay() scores every head of every checkpoint as the field guide does (models.inspection.heads.head_scores:
previous-token and induction scores on its own seeded inputs), so a page can show when induction heads appear
(Olsson et al. 2022: in a narrow window early in training).

Some published step branches serve the same weights as another branch: step0, step1 and step2 are one set of
weights in every Pythia model, 70m-410m included (EleutherAI/pythia issues #83 and #198), and many pythia-2.8b steps
are bit-identical to `main` (#195 and #205). Their scores would draw a flat line that never happened, so
replay() compares the weights' digests and names every such duplicate instead of scoring it.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from ..live import LiveModel
from ..published import hub
from ..published.checkpoints import Entry, weight_files
from .heads import ROLE_THRESHOLDS, head_scores

ROLES = ("previous_token", "induction")  # the two scores the replay follows
STEP = re.compile(r"^step(\d+)$")
SHA256 = re.compile(r"^[0-9a-f]{64}$")
CHUNK = 8 * 2**20  # bytes read at a time when a weight file has to be hashed
RECOMMENDED = ("EleutherAI/pythia-70m", "EleutherAI/pythia-160m", "EleutherAI/pythia-410m")
SUGGESTED_STEPS = ("step512", "step1000", "step2000", "step3000", "step5000", "step10000", "step143000")


def step_of(revision: str | None) -> int | None:
    """N for a "stepN" revision, None for anything else (main, another branch, a commit)."""
    m = STEP.match(revision or "")
    return int(m[1]) if m else None


def revision_of(entry: Entry) -> str:
    parsed = hub.parse(entry.name)
    return (parsed[1] or "main") if parsed else ""


def groups(entries: Iterable[Entry]) -> dict[str, list[Entry]]:
    """{repo: its loadable cached revisions, by training step (main last)} for every Hub repo with at least two
    revisions that are `stepN` or main. Revisions of another kind (a commit, a named branch) have no step and are
    left out, as is an entry the loader cannot read (entry.error)."""
    found: dict[str, list[Entry]] = {}
    for e in entries:
        parsed = hub.parse(e.name)
        if parsed is None or e.error is not None:
            continue
        repo, rev = parsed
        if rev in (None, "main") or step_of(rev) is not None:
            found.setdefault(repo, []).append(e)
    return {repo: sorted(es, key=_order) for repo, es in sorted(found.items()) if len(es) >= 2}


def _order(entry: Entry) -> tuple[float, str]:
    step = step_of(revision_of(entry))
    return (float("inf") if step is None else step, entry.name)


def _file_digest(path: Path) -> str:
    """The sha256 of a weight file: in the Hugging Face cache the snapshot's file is a link to blobs/<sha256 of
    the file> (the LFS object id), so the name says it; anything else (a copied folder) is read in chunks."""
    name = os.path.basename(os.path.realpath(path))
    if SHA256.match(name):
        return name
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(CHUNK):
            h.update(chunk)
    return h.hexdigest()


def weights_digest(folder: str | Path) -> str:
    """One sha256 for a model folder's safetensors weights: the file's own (as the Hub's LFS id), or over the
    shards' digests for a sharded model. Equal digests, equal weights."""
    parts = [_file_digest(p) for p in weight_files(Path(folder))]
    return parts[0] if len(parts) == 1 else hashlib.sha256("\n".join(parts).encode()).hexdigest()


def scores(model: LiveModel) -> dict[str, np.ndarray]:
    """{role: [L, H]} previous-token and induction scores: models.head_scores on its own seeded inputs."""
    found = head_scores(model)
    return {r: found[r] for r in ROLES}


def replay(
    entries: list[Entry],
    load: Callable[[str], LiveModel] | None = None,
    score: Callable[[Entry, str], dict[str, np.ndarray]] | None = None,
) -> dict:
    """The scores of every head at every checkpoint of one repo (entries as groups() gives them).

    {"revisions": [{"name", "revision", "step", "digest", "scores": {role: [L, H]}, "duplicate_of"}, ...] in
    training order, "duplicates": {name: the name with the same weights}}. Revisions with the same digest are
    scored once: the last of them in training order is kept (main before a step revision of its own step), the
    others are its duplicates, with duplicate_of naming it and the same scores. main takes the step of a step
    revision it is identical to (the largest); otherwise its step is None (not placed on a training axis).
    score(entry, digest) replaces the default, scores(load(entry.name)), e.g. by a cached one; load defaults to
    models.load.
    """
    if load is None:
        from ..loading import load
    if score is None:

        def score(entry: Entry, digest: str) -> dict[str, np.ndarray]:
            return scores(load(entry.name))

    digests = [weights_digest(e.path) for e in entries]
    steps = [step_of(revision_of(e)) for e in entries]
    for i in range(len(entries)):
        if steps[i] is None:  # main: the step it is identical to, if any
            same = [s for s, d in zip(steps, digests, strict=True) if d == digests[i] and s is not None]
            steps[i] = max(same) if same else None
    # main before a step revision of the same step, so that the step revision is the one kept
    order = sorted(range(len(entries)), key=lambda i: (float("inf") if steps[i] is None else steps[i],
                                                       revision_of(entries[i]) != "main", entries[i].name))  # fmt: skip
    kept = {digests[i]: i for i in order}  # the last in training order of each digest
    computed = {d: score(entries[i], d) for d, i in kept.items()}
    revisions, duplicates = [], {}
    for i in order:
        e, d = entries[i], digests[i]
        twin = entries[kept[d]].name if kept[d] != i else None
        if twin is not None:
            duplicates[e.name] = twin
        revisions.append(dict(name=e.name, revision=revision_of(e), step=steps[i], digest=d, scores=computed[d],
                              duplicate_of=twin))  # fmt: skip
    return {"revisions": revisions, "duplicates": duplicates}


def suspicious(result: dict) -> dict[str, str]:
    """The duplicates that are not expected: every one except main being the last step revision (Pythia's main
    is step143000). A step branch with another's weights is a publishing error (Pythia issues #83, #198, #195, #205)."""
    steps = [r["step"] for r in plotted(result)]
    last = max(steps) if steps else None
    by_name = {r["name"]: r for r in result["revisions"]}
    return {
        name: twin
        for name, twin in result["duplicates"].items()
        if not (by_name[name]["revision"] == "main" and by_name[twin]["step"] == last)
    }


def plotted(result: dict) -> list[dict]:
    """The revisions a training-step axis shows: each distinct weights once, with a known step."""
    return [r for r in result["revisions"] if r["duplicate_of"] is None and r["step"] is not None]


def per_head(revs: list[dict], role: str) -> np.ndarray:
    """[S, L, H] scores of one role over these revisions."""
    return np.stack([np.asarray(r["scores"][role], float) for r in revs])


def forming(result: dict, role: str = "induction", threshold: float | None = None) -> tuple[int, int, int] | None:
    """(step, layer, head) of the first plotted checkpoint at which some head's role score reaches the field
    guide's threshold (ROLE_THRESHOLDS), the head being that checkpoint's best; None if none does."""
    threshold = ROLE_THRESHOLDS[role] if threshold is None else threshold
    for r in plotted(result):
        s = np.asarray(r["scores"][role], float)
        if s.size and s.max() >= threshold:
            layer, head = np.unravel_index(int(s.argmax()), s.shape)
            return r["step"], int(layer), int(head)
    return None
