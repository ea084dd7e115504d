"""A local HTTP server that answers the Hugging Face Hub's read endpoints, for tests with no network.

The real `huggingface_hub` client talks to it through `endpoint=` / `HF_ENDPOINT`: repo info
(`/api/models/{repo}/revision/{rev}`), the recursive tree (`/api/models/{repo}/tree/{rev}`), and HEAD/GET
`/{repo}/resolve/{rev}/{file}` with `X-Repo-Commit`, `ETag`, `X-Linked-Size` and byte ranges (206), the way
the Hub answers them (a missing repo: RepoNotFound; a missing revision: RevisionNotFound; a gated repo
without a token: 401 GatedRepo). Knobs for the failure tests: a throttle (bytes a second), a connection
dropped once after N bytes of one file, and a log of every request with its Range header.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

LFS_SUFFIXES = (".safetensors", ".bin", ".spm", ".model")


@dataclass
class Revision:
    commit: str
    files: dict[str, bytes]


@dataclass
class Repo:
    revisions: dict[str, Revision] = field(default_factory=dict)
    gated: bool = False


def commit_of(repo: str, rev: str) -> str:
    return hashlib.sha1(f"{repo}@{rev}".encode()).hexdigest()


def git_blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class HubServer:
    """`with HubServer() as hub: hub.add("org/tiny", folder)`; `hub.url` is the endpoint."""

    def __init__(self, token: str = "hf_test_token"):
        self.repos: dict[str, Repo] = {}
        self.token = token
        self.log: list[tuple[str, str, str | None]] = []  # (method, path, Range header)
        self.bytes_per_second: float | None = None
        self.drop: dict[str, int] = {}  # file name -> drop the connection once after this many bytes
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def add(self, repo: str, folder: Path, revision: str = "main", gated: bool = False) -> str:
        """Serve every file of folder as `repo` at `revision` (a branch or tag name); returns its commit."""
        files = {
            p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(Path(folder).rglob("*")) if p.is_file()
        }
        entry = self.repos.setdefault(repo, Repo())
        entry.gated = entry.gated or gated
        commit = commit_of(repo, revision)
        entry.revisions[revision] = Revision(commit, files)
        return commit

    def __enter__(self) -> HubServer:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def find(self, repo: str, rev: str) -> Revision | None:
        entry = self.repos.get(repo)
        if entry is None:
            return None
        rev = urllib.parse.unquote(rev)
        if rev in entry.revisions:
            return entry.revisions[rev]
        return next((r for r in entry.revisions.values() if r.commit == rev), None)

    def _handler(self):
        hub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # quiet
                pass

            def _error(self, status: int, code: str | None, message: str = "") -> None:
                body = json.dumps({"error": message or code or str(status)}).encode()
                self.send_response(status)
                if code:
                    self.send_header("X-Error-Code", code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def _json(self, data) -> None:
                body = json.dumps(data).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_HEAD(self) -> None:
                self._serve()

            def do_GET(self) -> None:
                self._serve()

            def _serve(self) -> None:
                url = urllib.parse.urlsplit(self.path)
                path = urllib.parse.unquote(url.path)
                hub.log.append((self.command, path, self.headers.get("Range")))
                if path.startswith("/api/models/"):
                    return self._api(path.removeprefix("/api/models/"))
                if "/resolve/" in path:
                    return self._resolve(path.lstrip("/"))
                return self._error(404, None, "not an endpoint of this test hub")

            def _api(self, rest: str) -> None:
                for sep in ("/revision/", "/tree/"):
                    if sep in rest:
                        repo, rev = rest.split(sep, 1)
                        break
                else:
                    return self._error(404, None)
                if repo not in hub.repos:
                    return self._error(404, "RepoNotFound", "Repository not found")
                found = hub.find(repo, rev)
                if found is None:
                    return self._error(404, "RevisionNotFound", f"Invalid rev id: {rev}")
                if sep == "/revision/":
                    siblings = [{"rfilename": f} for f in found.files]
                    gated = "auto" if hub.repos[repo].gated else False
                    return self._json({"id": repo, "modelId": repo, "sha": found.commit, "siblings": siblings,
                                       "private": False, "gated": gated, "disabled": False, "tags": []})  # fmt: skip
                tree = []
                for name, data in found.files.items():
                    item = {"type": "file", "path": name, "size": len(data), "oid": git_blob_id(data)}
                    if name.endswith(LFS_SUFFIXES):
                        item["lfs"] = {"oid": hashlib.sha256(data).hexdigest(), "size": len(data), "pointerSize": 134}
                    tree.append(item)
                return self._json(tree)

            def _resolve(self, rest: str) -> None:
                repo, tail = rest.split("/resolve/", 1)
                if repo not in hub.repos:
                    return self._error(404, "RepoNotFound", "Repository not found")
                if hub.repos[repo].gated and self.headers.get("Authorization") != f"Bearer {hub.token}":
                    return self._error(401, "GatedRepo", "Access to this model is restricted")
                rev, _, name = tail.partition("/")
                found = hub.find(repo, rev)
                if found is None:
                    return self._error(404, "RevisionNotFound", f"Invalid rev id: {rev}")
                if name not in found.files:
                    return self._error(404, "EntryNotFound", f"{name} does not exist")
                data = found.files[name]
                etag = hashlib.sha256(data).hexdigest() if name.endswith(LFS_SUFFIXES) else git_blob_id(data)
                start, end = 0, len(data) - 1
                ranged = self.headers.get("Range")
                if ranged and ranged.startswith("bytes="):
                    a, _, b = ranged.removeprefix("bytes=").partition("-")
                    start = int(a or 0)
                    end = min(int(b), len(data) - 1) if b else len(data) - 1
                self.send_response(206 if ranged else 200)
                self.send_header("X-Repo-Commit", found.commit)
                self.send_header("ETag", f'"{etag}"')
                if name.endswith(LFS_SUFFIXES):
                    self.send_header("X-Linked-Etag", f'"{etag}"')
                    self.send_header("X-Linked-Size", str(len(data)))
                self.send_header("Accept-Ranges", "bytes")
                if ranged:
                    self.send_header("Content-Range", f"bytes {start}-{end}/{len(data)}")
                self.send_header("Content-Length", str(end - start + 1))
                self.end_headers()
                if self.command == "HEAD":
                    return
                whole = not ranged or ranged.endswith("-")  # a download, not a header peek (bytes=0-100000)
                self._body(name, data[start : end + 1], whole)

            def _body(self, name: str, body: bytes, whole: bool) -> None:
                cut = hub.drop.pop(name, None) if whole else None
                chunk = 16384
                sent = 0
                while sent < len(body):
                    if cut is not None and sent >= cut:
                        self.close_connection = True
                        self.connection.shutdown(2)  # the server drops the connection mid-file, once
                        return
                    piece = body[sent : sent + chunk]
                    try:
                        self.wfile.write(piece)
                    except OSError:  # the client went away (a cancelled download)
                        return
                    sent += len(piece)
                    if hub.bytes_per_second:
                        time.sleep(len(piece) / hub.bytes_per_second)

        return Handler
