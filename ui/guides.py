"""Guided lessons in the app: the lessons found on disk (read at most once a minute), Back / Next / End,
and the step box above the page. The file format and its parser are in ui/guide_format.py (re-exported
here, so `guides.parse`, `guides.Step`, ... keep working); the step's questions are drawn by ui/guide_steps.py.

Files come from guides/ in the app and from every folder in $ATTENTION_LAB_GUIDES (separated by
the OS path separator); a bad file gets a message naming the file and the line, and the others load.
"""

from __future__ import annotations

import os
import textwrap
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from . import class_session, guide_format, guide_steps, shell
from .guide_format import (  # noqa: F401  re-exported: the old home of the format
    MAX_STEPS,
    NOT_PRESET,
    Closing,
    Free,
    Goal,
    Guide,
    GuideError,
    Predict,
    Step,
    localized,
    parse,
)
from .i18n import md, t
from .pages import LESSONS
from .params import PARAMS

SHIPPED_DIR = Path(__file__).resolve().parents[1] / "guides"
GUIDES_ENV = "ATTENTION_LAB_GUIDES"


@dataclass(frozen=True)
class Problem:
    source: str
    line: int | None
    message: str

    def __str__(self) -> str:
        return f"{self.source}, line {self.line}: {self.message}" if self.line else f"{self.source}: {self.message}"


def examples() -> list[str]:
    """The example files in the format's docstring (runs of indented paragraphs, ui/guide_format.py), for the
    Guided lessons page: the format is documented once, there."""
    found: list[list[str]] = []
    after_text = True
    for para in (guide_format.__doc__ or "").split("\n\n"):
        if para.startswith("    "):
            if after_text:
                found.append([])
            found[-1].append(textwrap.dedent(para))
        after_text = not para.startswith("    ")
    return ["\n\n".join(parts) for parts in found]


def folders() -> list[Path]:
    extra = [Path(p) for p in os.environ.get(GUIDES_ENV, "").split(os.pathsep) if p.strip()]
    return [SHIPPED_DIR, *extra]


def load_all(dirs: list[Path], pages: set[str]) -> tuple[dict[str, Guide], list[Problem]]:
    """Every readable guide by id (sorted by file name), and a Problem for each file that is not. A missing
    folder is a problem, except the app's own (SHIPPED_DIR)."""
    found, problems = {}, []
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
                found[guide.id] = guide
    return found, problems


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
    # The values a page that stopped early kept (state.keep_values) are the old step's: the step's own state replaces
    # them. Kept in a fragment's rerun they held the sidebar's widgets too, and set again after the sidebar drew them
    # (state.resend_kept) they stopped the next step with an exception (lesson 14, step 2 -> 3).
    ss.pop("_kept", None)
    guide_steps.clear_widgets()


def stop_guide() -> None:
    st.session_state["guide"], st.session_state["gstep"] = None, 0


def to_lessons() -> None:
    """on_click of the last lesson's closing step: the lesson ends and the list of lessons opens."""
    stop_guide()
    st.session_state["_goto"] = "guides"


def apply_pending() -> None:
    """Called first thing in app.py: a step's state, once its page is the one running."""
    if "_goto" not in st.session_state and "_apply" in st.session_state:
        st.session_state.update(st.session_state.pop("_apply"))


def page_asked() -> bool:
    """A guide button asked for a page: only app.py switches pages, so the page's fragment (ui/body.py)
    asks for a whole run instead of drawing the old page."""
    return "_goto" in st.session_state


def pending_page() -> str | None:
    """The page a guide button asked for (app.py switches to it before drawing anything)."""
    return st.session_state.pop("_goto", None)


def current_guides() -> tuple[dict[str, Guide], list[Problem]]:
    return available(frozenset(lesson.name for lesson in LESSONS))


def bar(page: str, code: str) -> bool:
    """The active guide's step above the page: its paragraph, its question, its checked parts (predict, goal,
    hints, free: ui/guide_steps.py), Back / Next / End. False while a predict is unanswered (or not revealed):
    app.py then does not draw the page, so the figure cannot give the answer away."""
    guide_id = st.session_state.get("guide")
    if not guide_id:
        return True
    guides = current_guides()[0]
    if guide_id not in guides:
        st.warning(t("guides.unknown", guide=md(guide_id)))
        stop_guide()
        return True
    guide = guides[guide_id]
    index = min(max(0, st.session_state.get("gstep") or 0), len(guide.steps) - 1)
    step, n = guide.steps[index], len(guide.steps)
    box = st.container(border=True, key="guide_box")  # the browser tests and the reveal's scroll find it
    if step.page != page:  # the class wandered off: one line to come back
        box.caption(t("guides.paused", title=localized(guide.title, code), k=index + 1, n=n))
        box.button(t("guides.resume"), on_click=go_to, args=(guide.id, index), key="guide_resume")
        return True
    box.caption(t("guides.where", title=localized(guide.title, code), k=index + 1, n=n))
    box.markdown(f"**{localized(step.title, code)}**")
    box.markdown(localized(step.text, code))
    if step.question:
        box.info(t("guides.question", question=localized(step.question, code)), icon=":material/help:")
    if step.closing:
        closing(box, guide, step.closing, code)
    show = guide_steps.draw(box, guide, index, step, code)
    if not show:  # the page does not run: keep the step's own parameters in a copied link
        shell.track(*step.params)
    c1, c2, c3 = box.columns([1, 1, 1])
    c1.button(t("guides.back"), icon=":material/chevron_left:", on_click=go_to, args=(guide.id, index - 1),
              disabled=index == 0, key="guide_back", use_container_width=True)  # fmt: skip
    if index + 1 < n:
        c2.button(t("guides.next"), icon=":material/chevron_right:", type="primary", on_click=go_to,
                  args=(guide.id, index + 1), key="guide_next", use_container_width=True)  # fmt: skip
    c3.button(t("guides.end"), icon=":material/close:", on_click=stop_guide, key="guide_end",
              use_container_width=True)  # fmt: skip
    guide_steps.scroll(box)
    return show


def closing(box, guide: Guide, end: Closing, code: str) -> None:
    """A lesson's last step: what was learnt, the next lesson (a button to start it, outside a class, whose
    teacher leads) and the readings. Every text is the lesson files' Markdown, checked when they were read."""
    bullets = lambda texts: "\n".join(f"- {localized(x, code)}" for x in texts)  # noqa: E731
    box.markdown(t("guides.closing.learnt") + "\n\n" + bullets(end.learnt))
    following = current_guides()[0].get(end.next) if end.next else None
    in_class = class_session.in_class_for(guide.id) is not None
    if following is not None:
        box.markdown(t("guides.closing.next", title=localized(following.title, code)))
        if not in_class:
            box.button(t("guides.closing.start_next"), key="guide_next_lesson", type="primary",
                       icon=":material/skip_next:", on_click=go_to, args=(following.id, 0))  # fmt: skip
    elif end.next is None:
        box.markdown(t("guides.closing.last"))
        if not in_class:
            box.button(t("guides.closing.all"), key="guide_all_lessons", icon=":material/school:", on_click=to_lessons)
    box.markdown(t("guides.closing.readings") + "\n\n" + bullets(end.readings))
