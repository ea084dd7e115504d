"""`python -m models.fetch REPO [--revision R]`: a published model into the Hugging Face cache, checked first.

Before a byte of weights moves: the files the loader reads and their size, the parameter count (from the
safetensors headers, read with two range requests), and whether the model fits $ATTENTION_LAB_MAX_PARAMS, the
free memory and the free disk; refused with the numbers if not. Then those files only, with a progress bar
(bytes, rate, time left), config.json last, so a download cut short is never listed as a model; an
interrupted download continues where it stopped (huggingface_hub resumes `.incomplete` blobs with a Range).
Every failure is one paragraph saying what to do and an exit status other than 0, never a traceback.

The page runs this same command in a child process (`--status FILE`: a JSON object it reads for its progress
bar; Cancel ends the child). HF_ENDPOINT (a mirror), HF_TOKEN, HF_HUB_OFFLINE and HF_HUB_DISABLE_XET are
honoured: they are read from this process's environment, which the page sets when it starts it.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

from .errors import WeightsError
from .published import families, hub
from .published.checkpoints import available_memory, describe, max_params, size_text, too_large

EXIT = {"usage": 2, "missing": 3, "gated": 4, "unsupported": 5, "too_large": 6, "network": 7, "disk": 8, "failed": 1}
PICKLES = (".bin", ".pt", ".pth", ".ckpt", ".pkl")


class Refused(Exception):
    """A reason not to (or not able to) fetch: `kind` picks the exit status, the message says what to do."""

    def __init__(self, kind: str, message: str, plan: dict | None = None, detail: dict | None = None):
        super().__init__(message)
        self.kind, self.message, self.plan, self.detail = kind, message, plan, detail


def mib(n: float) -> str:
    """Bytes for people: 812 kB, 27.1 MB, 1.42 GB."""
    if n < 2**20:
        return f"{n / 2**10:,.0f} kB"
    return f"{n / 2**20:,.1f} MB" if n < 2**30 else f"{n / 2**30:,.2f} GB"


class Status:
    """The JSON object the page's progress bar reads (written whole, then renamed: never half a file)."""

    def __init__(self, path: str | None):
        self.path, self.data = path, {"state": "checking", "done": 0, "total": 0, "rate": 0.0, "eta": None}

    def set(self, **kw) -> None:
        self.data.update(kw)
        if self.path:
            tmp = f"{self.path}.tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(self.data, f)
            os.replace(tmp, self.path)


def offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def _api():
    from huggingface_hub import HfApi

    return HfApi(endpoint=os.environ.get("HF_ENDPOINT") or None, token=os.environ.get("HF_TOKEN") or None)


def check(repo: str, revision: str | None) -> dict:
    """What a download would fetch and whether it fits, without fetching weights (raises Refused)."""
    api, rev = _api(), revision or "main"
    info = api.model_info(repo, revision=rev)
    names = [s.rfilename for s in info.siblings or []]
    files = hub.wanted(names)
    if not any(f.endswith(".safetensors") for f in files):
        if any(n.endswith(PICKLES) for n in names):
            raise Refused("unsupported", _text("pickle", repo=hub.display_name(repo, revision)))
        raise Refused("unsupported", _text("no_weights", repo=hub.display_name(repo, revision)))
    with tempfile.TemporaryDirectory() as tmp:
        from huggingface_hub import hf_hub_download

        path = hf_hub_download(repo, "config.json", revision=info.sha, cache_dir=tmp, endpoint=api.endpoint,
                               token=api.token)  # fmt: skip
        config = json.loads(Path(path).read_text(encoding="utf-8"))
    try:
        kind = families.family_of(config)
        label, make_config, _ = families.FAMILIES[kind]
        arch = make_config(config).arch
    except (families.UnsupportedModel, KeyError, TypeError, ValueError) as e:
        raise Refused("unsupported", f"{hub.display_name(repo, revision)}: {e}. Nothing was downloaded.") from e
    if not {"tokenizer.json", "vocab.txt", hub.SPIECE} & set(files) and kind != "marian":
        raise Refused("unsupported", _text("no_tokenizer", repo=hub.display_name(repo, revision)))
    try:
        params = sum(api.get_safetensors_metadata(repo, revision=info.sha).parameter_count.values())
    except Exception:  # a mirror without range requests: estimate from the bytes (2 bytes a parameter)
        params = 0
    from huggingface_hub import snapshot_download

    dry = snapshot_download(repo, revision=info.sha, cache_dir=hub.cache_dir(), allow_patterns=files, dry_run=True,
                            endpoint=api.endpoint, token=api.token)  # fmt: skip
    sizes = {d.filename: d.file_size or 0 for d in dry}
    todo = sum(d.file_size or 0 for d in dry if d.will_download)
    weights = sum(s for f, s in sizes.items() if f.endswith(".safetensors"))
    params = params or weights // 2
    disk = shutil.disk_usage(_existing(hub.cache_dir())).free
    plan = {"repo": repo, "revision": rev, "commit": info.sha, "name": hub.display_name(repo, revision),
            "family": label, "arch": arch, "params": params, "files": sizes, "total": sum(sizes.values()),
            "todo": todo, "disk_free": disk, "memory_free": available_memory(), "limit": max_params()}  # fmt: skip
    if (reason := too_large(params)) is not None:
        raise Refused("too_large", _text("too_large", name=plan["name"], reason=reason), plan)
    if todo * 1.02 + 2**26 > disk:
        raise Refused("disk", _text("disk", need=mib(todo), free=mib(disk), cache=hub.cache_dir()), plan)
    return plan


def _existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def download(plan: dict, status: Status, out=sys.stderr) -> Path:
    """The planned files into the cache (config.json last), the bar on `out`; returns the snapshot folder."""
    from huggingface_hub import snapshot_download
    from huggingface_hub.utils import disable_progress_bars

    disable_progress_bars()  # one bar for the whole model, drawn here from the bytes on disk
    repo, rev, api = plan["repo"], plan["revision"], _api()
    first = [f for f in plan["files"] if f != "config.json"]
    storage = hub.cache_dir() / f"models--{repo.replace('/', '--')}"
    done = threading.Event()
    bar = threading.Thread(target=_watch, args=(storage, plan, status, done, out), daemon=True)
    bar.start()
    try:
        for patterns in (first, list(plan["files"])):
            folder = snapshot_download(repo, revision=rev, cache_dir=hub.cache_dir(), allow_patterns=patterns,
                                       endpoint=api.endpoint, token=api.token, max_workers=4)  # fmt: skip
    finally:
        done.set()
        bar.join()
    return Path(folder)


def _on_disk(storage: Path, plan: dict) -> int:
    """Bytes of this revision's files already on disk: finished files plus the partial `.incomplete` blobs."""
    snap = storage / "snapshots" / plan["commit"]
    total = sum(size for name, size in plan["files"].items() if (snap / name).exists())
    with contextlib.suppress(OSError):
        total += sum(p.stat().st_size for p in (storage / "blobs").glob("*.incomplete"))
    return min(total, plan["total"])


def _watch(storage: Path, plan: dict, status: Status, done: threading.Event, out) -> None:
    start_bytes, t0, last_print = _on_disk(storage, plan), time.monotonic(), 0.0
    while True:
        now, n = time.monotonic(), _on_disk(storage, plan)
        rate = (n - start_bytes) / max(now - t0, 1e-3)
        eta = (plan["total"] - n) / rate if rate > 0 else None
        status.set(state="downloading", done=n, total=plan["total"], rate=rate, eta=eta)
        if now - last_print >= (0.2 if out.isatty() else 2.0) or done.is_set():
            _draw(out, n, plan["total"], rate, eta)
            last_print = now
        if done.is_set():
            out.write("\n")
            return
        done.wait(0.25)


def _draw(out, n: int, total: int, rate: float, eta: float | None) -> None:
    frac = n / total if total else 1.0
    fill = int(30 * frac)
    left = "?" if eta is None else time.strftime("%M:%S", time.gmtime(min(eta, 359999)))
    line = f"[{'#' * fill}{'-' * (30 - fill)}] {frac:4.0%}  {mib(n)} / {mib(total)}  {mib(rate)}/s  {left} left"
    out.write(("\r" if out.isatty() else "") + line + ("" if out.isatty() else "\n"))
    out.flush()


TEXTS = {
    "pickle": "{repo} publishes its weights only as pytorch_model.bin (a Python pickle). Attention Lab never "
    "unpickles a file nor runs a repository's own Python: either can run any code on the class server. Look on "
    "the model's page for a revision with model.safetensors (the Hub's conversion bot often opens one as a pull "
    "request: pass it with --revision refs/pr/N), or pick another model. Nothing was downloaded.",
    "no_weights": "{repo} has no model.safetensors (nor sharded model-*-of-*.safetensors with their index) at this "
    "revision: there are no weights this app can read. Nothing was downloaded.",
    "no_tokenizer": "{repo} has no tokenizer.json (a fast tokenizer's file), nor BERT's vocab.txt or ALBERT's and "
    "T5's spiece.model, which the loader reads. Pick a "
    "revision or a copy of the model that has one. Nothing was downloaded.",
    "too_large": "{name} is too large for this machine: {reason}. Raise ATTENTION_LAB_MAX_PARAMS if the machine "
    "has the memory, or pick a smaller model. Nothing was downloaded.",
    "disk": "Not enough free disk: the download needs {need} and {free} is free under {cache}. Free some space "
    "(`hf cache ls` lists what the cache holds, `hf cache rm` deletes), or point HF_HUB_CACHE at another disk. "
    "Nothing was downloaded.",
    "missing": "{repo} was not found on {endpoint}. Check the spelling (it is org/name, as on the model's page); "
    "a private repo needs HF_TOKEN.",
    "revision": "{repo} has no revision {revision!r}. A revision is a branch (Pythia's step3000), a tag or a "
    "commit, as listed under “Files and versions” on the model's page.",
    "gated": "{repo} is gated: its authors ask each user to accept their licence first. Accept it on the model's "
    "page while logged in, create a read token (Settings → Access Tokens), then run again with HF_TOKEN=hf_… in "
    "the environment (or after `hf auth login`).",
    "network": "The Hub at {endpoint} could not be reached ({why}). Check the network; where the Hub is blocked "
    "(as in many Chinese classrooms) use a mirror: HF_ENDPOINT=https://<mirror>, e.g. https://hf-mirror.com (a "
    "mirror may also need HF_HUB_DISABLE_XET=1). The app reads it when it starts: restart it with the variable "
    "set (`HF_ENDPOINT=https://hf-mirror.com make run`). Models already in the cache load offline.",
    "offline": "HF_HUB_OFFLINE=1 is set and {repo} is not in the Hugging Face cache ({cache}). Download it on a "
    "machine with network (this command, or `hf download {repo}`) and copy the cache folder over, or unset "
    "HF_HUB_OFFLINE.",
    "full": "The disk filled up while downloading ({why}). What arrived is kept: free some space and run the same "
    "command again, and it continues where it stopped.",
    "readonly": "The Hugging Face cache {cache} cannot be written ({why}). Point HF_HUB_CACHE (or HF_HOME) at a "
    "folder this user can write, and run again.",
}


def _text(key: str, **kw) -> str:
    return TEXTS[key].format(**kw)


def refusal(e: BaseException, repo: str, revision: str | None) -> Refused:
    """Any failure as a Refused with its one paragraph (what happened and what to do)."""
    from huggingface_hub import errors as he

    name = hub.display_name(repo, revision)
    endpoint = os.environ.get("HF_ENDPOINT") or "https://huggingface.co"
    if isinstance(e, Refused):
        return e
    if isinstance(e, he.GatedRepoError):
        return Refused("gated", _text("gated", repo=repo))
    if isinstance(e, he.RevisionNotFoundError):
        return Refused("missing", _text("revision", repo=repo, revision=revision))
    if isinstance(e, he.RepositoryNotFoundError):
        return Refused("missing", _text("missing", repo=repo, endpoint=endpoint))
    if isinstance(e, OSError) and e.errno == errno.ENOSPC:
        return Refused("disk", _text("full", why=e.strerror))
    if isinstance(e, PermissionError) or (isinstance(e, OSError) and e.errno in (errno.EROFS, errno.EACCES)):
        return Refused("disk", _text("readonly", cache=hub.cache_dir(), why=e.strerror or e))
    if type(e).__module__.startswith(("httpx", "httpcore")) or isinstance(e, (ConnectionError, TimeoutError)):
        return _network(endpoint, type(e).__name__)
    if isinstance(e, he.HfHubHTTPError):
        return _network(endpoint, str(e).splitlines()[0][:120])
    return Refused("failed", f"{name} could not be fetched: {type(e).__name__}: {str(e).splitlines()[0][:200]}")


def _network(endpoint: str, why: str) -> Refused:
    """`detail` lets the page write its own message, in the page's language, for a teacher (ui/fetch_panel.py)."""
    return Refused("network", _text("network", endpoint=endpoint, why=why), detail={"endpoint": endpoint, "why": why})


def run(repo: str, revision: str | None, status: Status, check_only: bool = False) -> dict:
    if offline():
        folder = hub.snapshot(repo, revision)  # WeightsError -> the offline message
        entry = describe(folder)
        return {"name": hub.display_name(repo, revision), "family": entry.family, "params": entry.params,
                "folder": str(folder), "error": entry.error}  # fmt: skip
    plan = check(repo, revision)
    status.set(state="checked", plan=plan, total=plan["total"], done=plan["total"] - plan["todo"])
    report(plan)  # the files and the checks, before a byte of weights moves
    sys.stdout.flush()
    if check_only:
        return plan
    folder = download(plan, status)
    entry = describe(folder)
    if entry.error is not None:
        raise Refused("failed", f"{plan['name']} was downloaded to {folder} but cannot be loaded: {entry.error}")
    return {**plan, "folder": str(folder)}


def report(plan: dict, out=sys.stdout) -> None:
    for name, size in plan.get("files", {}).items():
        print(f"  {name:<44} {mib(size):>12}", file=out)
    mem = plan.get("memory_free")
    print(f"  {'total':<44} {mib(plan.get('total', 0)):>12}  ({mib(plan.get('todo', 0))} to download)\n"
          f"  {plan['name']}: {plan['family']} {plan['arch']}, {size_text(plan['params'])} parameters; "
          f"limit {size_text(plan['limit'])}, memory free {'?' if mem is None else mib(mem)}, "
          f"disk free {mib(plan['disk_free'])}", file=out)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m models.fetch", description=__doc__.split("\n")[0])
    p.add_argument("repo", help="a Hub id, e.g. Qwen/Qwen3-0.6B (or org/name@revision)")
    p.add_argument("--revision", help="a branch (Pythia: step3000), tag or commit; default main")
    p.add_argument("--check", action="store_true", help="only check the size and whether it fits; download nothing")
    p.add_argument("--status", help="keep a JSON object of the progress in this file (the page reads it)")
    args = p.parse_args(argv)
    from huggingface_hub.utils import disable_progress_bars

    disable_progress_bars()  # one bar for the whole model, drawn by download()
    parsed = hub.parse(args.repo)
    status = Status(args.status)
    if parsed is None:
        msg = f"{args.repo!r} is not a Hub id: write it as org/name (e.g. Qwen/Qwen3-0.6B), optionally @revision."
        status.set(state="error", message=msg, kind="usage")
        print(msg, file=sys.stderr)
        return EXIT["usage"]
    repo, revision = parsed[0], args.revision or parsed[1]
    try:
        result = run(repo, revision, status, args.check)
    except WeightsError as e:  # offline and not cached
        msg = _text("offline", repo=hub.display_name(repo, revision), cache=hub.cache_dir()) if offline() else str(e)
        status.set(state="error", message=msg, kind="missing")
        print(msg, file=sys.stderr)
        return EXIT["missing"]
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt):
            print("\nStopped. Run the same command again to continue where it stopped.", file=sys.stderr)
            return 130
        r = refusal(e, repo, revision)
        if r.plan:
            report(r.plan)
        status.set(state="error", message=r.message, kind=r.kind, plan=r.plan, detail=r.detail)
        print(r.message, file=sys.stderr)
        return EXIT[r.kind]
    if args.check:
        status.set(state="checked")
        print(f"fits: run without --check to download {mib(result['todo'])}.")
        return 0
    status.set(state="ready", done=result.get("total", 0), message=result["name"], name=result["name"])
    where = result.get("folder")
    name = result["name"]
    print(f"ready: {name} in {where}. It is listed in the app's model picker (or models.load({name!r})).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
