"""Models by their Hub name ("Qwen/Qwen3-0.6B", "EleutherAI/pythia-70m@step3000") from the Hugging Face cache.

Reading never touches the network: a name resolves to its snapshot folder in the cache that `hf download`,
transformers and `python -m models.fetch` all share (`~/.cache/huggingface/hub`, or `$HF_HUB_CACHE`,
or `$HF_HOME/hub`), through huggingface_hub with `local_files_only=True`. Getting a model is models/fetch.py's
job. huggingface_hub reads `HF_ENDPOINT` and `HF_HUB_OFFLINE` once, when it is imported: this module passes the
cache folder explicitly instead, so a test (or a page) that sets the environment later is still obeyed.
"""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

from ..errors import WeightsError
from .checkpoints import Entry, describe

# "org/name" or "org/name@revision" (a branch such as Pythia's step3000, a tag, or a commit)
HUB_ID = re.compile(r"^(?P<repo>[A-Za-z0-9][\w.-]{0,95}/[\w.-]{1,96})(?:@(?P<rev>[\w./-]{1,128}))?$")
# Only what the loader reads (models/published/checkpoints.py); a repo's .bin, .pt, ONNX or GGUF files are never
# fetched.
TOKENIZER_FILES = ("tokenizer.json", "source.spm", "target.spm", "vocab.json")
TOKENIZER_FILES += ("vocab.txt", "tokenizer_config.json")  # WordPiece without tokenizer.json (wordpiece_vocab.py)
SPIECE = "spiece.model"
INDEX = "model.safetensors.index.json"
WEIGHTS = re.compile(r"^model(-\d+-of-\d+)?\.safetensors$")
FETCH = "python -m models.fetch {repo}"


def fetch_command(repo: str, revision: str | None = None) -> str:
    return FETCH.format(repo=repo) + (f" --revision {revision}" if revision else "")


def parse(name: str) -> tuple[str, str | None] | None:
    """("org/name", revision or None) for a Hub id, None for anything else (a shipped name, a path)."""
    m = HUB_ID.match(name.strip()) if isinstance(name, str) else None
    if m is None or name.startswith((".", "/", "~")) or ".." in name:
        return None
    return m["repo"], m["rev"]


def display_name(repo: str, revision: str | None) -> str:
    return repo if revision in (None, "main") else f"{repo}@{revision}"


def cache_dir() -> Path:
    """The Hugging Face cache's hub folder, read from the environment now (not at import)."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    home = os.environ.get("HF_HOME") or os.path.join(os.environ.get("XDG_CACHE_HOME", "~/.cache"), "huggingface")
    return Path(home).expanduser() / "hub"


def wanted(files: list[str]) -> list[str]:
    """The files of a repo that the loader reads: config, safetensors weights (the single file, or the shards
    and their index), tokenizer (spiece.model only where tokenizer.json is missing). Never pickles
    (pytorch_model.bin) and never a repo's own Python."""
    spiece = "tokenizer.json" not in files  # ALBERT, T5 repos without it: spiece_tokenizer.py reads spiece.model
    return [
        f
        for f in files
        if f == "config.json" or f == INDEX or WEIGHTS.match(f) or f in TOKENIZER_FILES or (spiece and f == SPIECE)
    ]


def snapshot(repo: str, revision: str | None = None) -> Path:
    """The cached snapshot folder of repo at revision (default main), offline; WeightsError if not cached."""
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import HfHubHTTPError, LocalEntryNotFoundError

    try:
        folder = snapshot_download(
            repo,
            revision=revision or "main",
            cache_dir=cache_dir(),
            local_files_only=True,
            allow_patterns=["config.json"],
        )
    except (LocalEntryNotFoundError, HfHubHTTPError, OSError, ValueError) as e:
        raise WeightsError(
            f"{display_name(repo, revision)} is not in the Hugging Face cache ({cache_dir()}). "
            f"Download it with: {fetch_command(repo, revision)} (or `hf download {repo}"
            f"{f' --revision {revision}' if revision else ''}`), or with “Add a model…” in the sidebar."
        ) from e
    return Path(folder)


def cached(directory: Path | None = None) -> list[Entry]:
    """Every model snapshot in the cache, as the picker lists it: `org/name` for main, `org/name@ref` (or
    @commit) for other revisions, each described from config.json and the safetensors headers. A snapshot
    without config.json (a download cut short, or a repo of another kind) is left out; one the loader cannot
    read is listed with the reason."""
    directory = cache_dir() if directory is None else Path(directory)
    if not directory.is_dir():
        return []
    from huggingface_hub import scan_cache_dir
    from huggingface_hub.errors import CacheNotFound

    try:
        info = scan_cache_dir(directory)
    except (CacheNotFound, OSError, ValueError):
        return []
    found = []
    for repo in info.repos:
        if repo.repo_type != "model":
            continue
        for rev in repo.revisions:
            if not (rev.snapshot_path / "config.json").is_file():
                continue
            refs = sorted(rev.refs)
            ref = "main" if "main" in refs else (refs[0] if refs else None)  # none: only by its commit
            name = display_name(repo.repo_id, ref or rev.commit_hash[:12])
            found.append(dataclasses.replace(describe(rev.snapshot_path), name=name))
    return sorted(found, key=lambda e: _natural(e.name))


def _natural(name: str) -> list:
    """pythia-70m@step1000 before @step3000 before @step143000."""
    return [int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", name)]
