"""Guided lessons: short sequences of steps, each a page in a preset state with a paragraph for the
class and a question to think about. Written as plain TOML files, so a teacher can add their own.

    title = { en = "The three architectures", zh = "三种架构" }
    summary = { en = "…", zh = "…" }

    [[steps]]
    page = "explorer"                                    # a lesson's name (its URL path)
    params = { model = "encoder", prompt = "the [MASK] that the dog sees are happy ." }
    title = { en = "…", zh = "…" }
    text = { en = "…", zh = "…" }                        # the paragraph for the class (Markdown)
    question = { en = "…", zh = "…" }                    # optional

Files come from guides/ in the app and from every folder in $ATTENTION_LAB_GUIDES (separated by
the OS path separator). Parameters are the URL parameters the app already understands, checked
with the same parsers; a bad file gets a message naming the file and the line, and the others load.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from .i18n import md, t
from .pages import LESSONS
from .params import PARAMS, canonical

SHIPPED_DIR = Path(__file__).resolve().parents[1] / "guides"
GUIDES_ENV = "ATTENTION_LAB_GUIDES"
NOT_PRESET = ("lang", "present", "tables", "guide", "gstep")  # the viewer's own choices, never set by a step
MAX_STEPS = 50


@dataclass(frozen=True)
class Step:
    page: str
    params: dict[str, object]  # parsed values, ready for st.session_state
    title: dict[str, str]
    text: dict[str, str]
    question: dict[str, str]


@dataclass(frozen=True)
class Guide:
    id: str  # the file name without .toml (unique: a later folder's file replaces an earlier one)
    title: dict[str, str]
    summary: dict[str, str]
    steps: tuple[Step, ...]
    source: str


@dataclass(frozen=True)
class Problem:
    source: str
    line: int | None
    message: str

    def __str__(self) -> str:
        return f"{self.source}, line {self.line}: {self.message}" if self.line else f"{self.source}: {self.message}"


class GuideError(ValueError):
    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


def localized(text: dict[str, str], code: str) -> str:
    """The text in the viewer's language, else English."""
    return text.get(code) or text.get("en", "")


def _words(value: object, what: str, line: int | None, required: bool = True) -> dict[str, str]:
    if value is None and not required:
        return {}
    if isinstance(value, str):  # one language only: shown to everyone
        value = {"en": value}
    if not isinstance(value, dict) or not isinstance(value.get("en"), str) or not value["en"].strip():
        raise GuideError(f'{what} needs an English text: {what} = {{ en = "…", zh = "…" }}', line)
    bad = [k for k, v in value.items() if k not in ("en", "zh") or not isinstance(v, str)]
    if bad:
        raise GuideError(f"{what}: only en and zh texts are allowed, got {', '.join(map(str, bad))}", line)
    return dict(value)


def _step_lines(text: str) -> list[int]:
    """1-based line numbers of each [[steps]] header, to point a message at the right step."""
    return [i + 1 for i, line in enumerate(text.splitlines()) if re.match(r"\s*\[\[\s*steps\s*\]\]", line)]


def _line_of(text: str, needle: str, after: int | None) -> int | None:
    lines = text.splitlines()
    for i in range((after or 1) - 1, len(lines)):
        if needle in lines[i]:
            return i + 1
    return after


def parse(text: str, source: str, pages: set[str]) -> Guide:
    """One guide from TOML text; GuideError (with a line number when it can be found) otherwise."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        match = re.search(r"line (\d+)", str(e))
        raise GuideError(str(e), int(match.group(1)) if match else None) from e
    steps_at = _step_lines(text)
    raw_steps = data.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise GuideError("a guide needs at least one [[steps]] table", None)
    if len(raw_steps) > MAX_STEPS:
        raise GuideError(f"at most {MAX_STEPS} steps", steps_at[MAX_STEPS] if len(steps_at) > MAX_STEPS else None)
    steps = []
    for n, raw in enumerate(raw_steps):
        at = steps_at[n] if n < len(steps_at) else None
        if not isinstance(raw, dict):
            raise GuideError(f"step {n + 1} is not a table", at)
        page = raw.get("page")
        if page not in pages:
            raise GuideError(f"step {n + 1}: page = {page!r} is not one of {', '.join(sorted(pages))}",
                             _line_of(text, "page", at))  # fmt: skip
        params = {}
        for written, value in (raw.get("params") or {}).items():
            line = _line_of(text, written, at)
            name = canonical(written)  # as written in the file; an old, renamed name still works (params.ALIASES)
            if name not in PARAMS or name in NOT_PRESET:
                raise GuideError(f"step {n + 1}: {written!r} is not a parameter a step can set", line)
            if isinstance(value, list):
                value = ",".join(str(v) for v in value)
            elif isinstance(value, bool):
                value = "1" if value else "0"
            try:
                params[name] = PARAMS[name].parse(str(value))
            except (ValueError, TypeError):
                raise GuideError(f"step {n + 1}: {written} = {value!r} is not a valid value", line) from None
        steps.append(Step(page, params, _words(raw.get("title"), "title", at), _words(raw.get("text"), "text", at),
                          _words(raw.get("question"), "question", at, required=False)))  # fmt: skip
    return Guide(Path(source).stem, _words(data.get("title"), "title", 1),
                 _words(data.get("summary"), "summary", 1, required=False), tuple(steps), source)  # fmt: skip


def folders() -> list[Path]:
    extra = [Path(p) for p in os.environ.get(GUIDES_ENV, "").split(os.pathsep) if p.strip()]
    return [SHIPPED_DIR, *extra]


def load_all(dirs: list[Path], pages: set[str]) -> tuple[dict[str, Guide], list[Problem]]:
    """Every readable guide by id (sorted by file name), and a Problem for each file that is not."""
    guides, problems = {}, []
    for folder in dirs:
        if not folder.is_dir():
            if folder != SHIPPED_DIR:
                problems.append(Problem(str(folder), None, "no such folder"))
            continue
        for path in sorted(folder.glob("*.toml")):
            try:
                guide = parse(path.read_text(encoding="utf-8"), str(path), pages)
            except GuideError as e:
                problems.append(Problem(str(path), e.line, str(e)))
            except (OSError, UnicodeDecodeError) as e:
                problems.append(Problem(str(path), None, f"cannot be read ({e})"))
            else:
                guides[guide.id] = guide
    return guides, problems


# ----------------------------------------------------------------- in the app


@st.cache_resource(show_spinner=False, ttl=60)
def available(pages: frozenset[str]) -> tuple[dict[str, Guide], list[Problem]]:
    """Read once a minute at most: a teacher's new file shows up without a restart, and the rerun
    path does no file I/O."""
    return load_all(folders(), set(pages))


def go_to(guide_id: str, index: int) -> None:
    """on_click: put the app in step `index`'s state and ask app.py to open its page. Every page
    parameter returns to its default first, so nothing from an earlier step lingers; the viewer's
    language, presentation mode, model and weights stay unless the step sets them."""
    guide = current_guides()[0][guide_id]
    step = guide.steps[index]
    ss = st.session_state
    wanted = {
        name: ss.get(name, param.default) for name, param in PARAMS.items() if name in (*NOT_PRESET, "model", "weights")
    }
    wanted |= {name: param.default for name, param in PARAMS.items() if name not in wanted}
    wanted |= {**step.params, "guide": guide.id, "gstep": index}
    # st.switch_page reruns without the browser's widget values, so widget keys set now would be lost:
    # the state is applied at the start of the page's own run (apply_pending), before any widget exists.
    ss["_apply"], ss["_goto"] = wanted, step.page


def stop_guide() -> None:
    st.session_state["guide"], st.session_state["gstep"] = None, 0


def apply_pending() -> None:
    """Called first thing in app.py: a step's state, once its page is the one running."""
    if "_goto" not in st.session_state and "_apply" in st.session_state:
        st.session_state.update(st.session_state.pop("_apply"))


def pending_page() -> str | None:
    """The page a guide button asked for (app.py switches to it before drawing anything)."""
    return st.session_state.pop("_goto", None)


def current_guides() -> tuple[dict[str, Guide], list[Problem]]:
    return available(frozenset(lesson.name for lesson in LESSONS))


def bar(page: str, code: str) -> None:
    """The active guide's step above the page: its paragraph, its question, Back / Next / End."""
    guide_id = st.session_state.get("guide")
    if not guide_id:
        return
    guides = current_guides()[0]
    if guide_id not in guides:
        st.warning(t("guides.unknown", guide=md(guide_id)))
        stop_guide()
        return
    guide = guides[guide_id]
    index = min(max(0, st.session_state.get("gstep") or 0), len(guide.steps) - 1)
    step, n = guide.steps[index], len(guide.steps)
    box = st.container(border=True)
    if step.page != page:  # the class wandered off: one line to come back
        box.caption(t("guides.paused", title=localized(guide.title, code), k=index + 1, n=n))
        box.button(t("guides.resume"), on_click=go_to, args=(guide.id, index), key="guide_resume")
        return
    box.caption(t("guides.where", title=localized(guide.title, code), k=index + 1, n=n))
    box.markdown(f"**{localized(step.title, code)}**")
    box.markdown(localized(step.text, code))
    if step.question:
        box.info(t("guides.question", question=localized(step.question, code)), icon=":material/help:")
    c1, c2, c3 = box.columns([1, 1, 1])
    c1.button(t("guides.back"), icon=":material/chevron_left:", on_click=go_to, args=(guide.id, index - 1),
              disabled=index == 0, key="guide_back", use_container_width=True)  # fmt: skip
    if index + 1 < n:
        c2.button(t("guides.next"), icon=":material/chevron_right:", type="primary", on_click=go_to,
                  args=(guide.id, index + 1), key="guide_next", use_container_width=True)  # fmt: skip
    c3.button(t("guides.end"), icon=":material/close:", on_click=stop_guide, key="guide_end",
              use_container_width=True)  # fmt: skip
