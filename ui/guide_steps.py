"""The checked parts of a lesson step, drawn in the step box above the page (ui/guides.bar): the predict form,
the goal with its live check, the hints ladder and the free-text answer. Every answer goes through ui/answers.py.

The widget keys are fixed (bench/load.py and the browser test drive them): gp_choice / gp_number, gp_send,
gh_more, gf_text, gf_send. One set of keys serves every step: go_to clears them when the step changes.

The page moves where the class should look (scroll(), drawn last in the step box by ui/guides.bar): a new step
opens at the top of the page, with its text (the page kept the scroll of the one before: a lesson started from the
list opened in the middle of its first step); a revealed answer brings its figure into view (it appears under the
step box, on a 1366x768 screen 740 to 3,500 px down the page, where the class saw nothing change).
"""

from __future__ import annotations

import re

import streamlit as st

import models

from . import answers, goal_checks
from .guide_format import Goal, Guide, Predict, Step, localized
from .i18n import md, t

WIDGET_KEYS = {"gp_choice": None, "gp_number": None, "gf_text": ""}  # the answer widgets, and their empty values
EDIT = "_gp_edit"  # (guide id, step) whose predict answer the student is changing
FAILED = "_answer_failed"  # set by a callback when an answer was not stored for the class
SHOWN = "_gp_shown"  # the (guide id, step) whose revealed figure was scrolled to in this session
SCROLLS = "_scroll"  # {"top": n, "figure": n, "seq": n}: the numbers of this step's page moves (0: none; scroll())
MAX_FREE = 500
# "Scroll to **A sweep**." / "滚动到**扫描实验**。": where a step's text sends the class, for the revealed answer
_BELOW = (re.compile(r"[Ss]croll (?:down )?to (\*\*[^*]+\*\*|[^.:;]+)"),
          re.compile(r"滚动到\s*(\*\*[^*]+\*\*|[^。，：；]+)"))  # fmt: skip


# A static script (no lesson or user text: two numbers), run in the page's own document by st.html, in every run
# of the step: a run the browser never drew (a click started the next one first) cannot lose a move. Each move is
# made once, by its number, kept in the page's window: the same script drawn again does nothing. It hides its own
# element, so it adds no gap to the step box.
SCRIPT = (
    "<style>[data-testid=stElementContainer]:has(script[data-guide-scroll]) { display: none; }</style>"
    "<script data-guide-scroll>({js})({numbers});</script>"
)
# TOP: the scrolling pane that holds the step box, to its top.
# FIGURE: once the revealed figure has drawn and stopped moving, scroll so that it is in view: the figure the step's
# text names by its title, or the first figure (or table) under the section it names (the verdict's "scroll to **…**"
# note, read from the page), else the first one under the step box; a named section that has drawn none after 20 s,
# its heading. Its top goes at most 55% of the way down the window, lower if the whole figure then fits. It waits at
# most 30 s, and gives up if the student scrolls first.
SCROLL_JS = r"""(TOP, FIGURE) => {
  const main = document.querySelector('[data-testid=stMain]');
  const box = main && main.querySelector('.st-key-guide_box');
  if (!box) return;
  const pane = (() => {  /* the page's own scrolling pane, even while the page is still too short to scroll */
    for (let p = box.parentElement; p; p = p.parentElement) {
      const y = getComputedStyle(p).overflowY;
      if ((y === 'auto' || y === 'scroll') && (p === main || p.scrollHeight > p.clientHeight)) return p;
    }
    return document.scrollingElement;
  })();
  const done = (window.attentionLabScrolls = window.attentionLabScrolls || { top: 0, figure: 0 });
  if (TOP && done.top !== TOP) {
    done.top = TOP;
    pane.scrollTo({ top: 0 });
  }
  if (!FIGURE || done.figure === FIGURE) return;
  done.figure = FIGURE;
  const after = (a, b) => !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
  const plain = (s) => (s || '').replace(/[*\u201c\u201d"]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
  const note = box.querySelector('.st-key-gp_below strong');
  const want = note ? plain(note.textContent) : '';
  const FIGURES = '.js-plotly-plot, [data-testid=stTable], [data-testid=stDataFrame]';
  const named = () => {  /* a heading or a figure's title: the same words, else starting with them, else holding them */
    const all = Array.from(main.querySelectorAll('h1, h2, h3, h4, h5, h6, .js-plotly-plot .gtitle'))
      .filter((a) => after(box, a));
    const pick = (test) => all.find((a) => test(plain(a.textContent)));
    return pick((g) => g === want) || pick((g) => g.startsWith(want)) || pick((g) => g.includes(want));
  };
  const target = (late) => {
    const anchor = want ? named() : null;
    if (anchor && anchor.closest('.js-plotly-plot')) return anchor.closest('.js-plotly-plot');
    const from = anchor || box;
    const figure = Array.from(main.querySelectorAll(FIGURES)).find(
      (f) => after(from, f) && f.getBoundingClientRect().height > 50);
    return figure || (late && anchor ? anchor : null);  /* a section still drawing: its heading, at last */
  };
  const start = pane.scrollTop;
  let last = null, still = 0, tries = 0;
  const tick = () => {
    if (Math.abs(pane.scrollTop - start) > 2) return;  /* the student scrolled: leave the page be */
    const el = target(tries > 130);
    if (el) {
      const rect = el.getBoundingClientRect();
      still = last !== null && Math.abs(rect.top - last) < 1 ? still + 1 : 0;
      last = rect.top;
      if (still >= 3) {
        const header = document.querySelector('[data-testid=stHeader]');
        const high = (header ? header.getBoundingClientRect().bottom : 0) + 8;
        const low = Math.max(high, Math.min(innerHeight * 0.55, innerHeight - rect.height - 16));
        if (rect.top < high || rect.top > low) pane.scrollBy({ top: rect.top - low, behavior: 'smooth' });
        return;
      }
    }
    if (++tries < 200) setTimeout(tick, 150);
  };
  setTimeout(tick, 150);
}"""


def clear_widgets() -> None:
    """A new step starts with empty answer widgets, at the top of the page (go_to calls this). Each widget's value is
    set empty, not removed: removed, the browser kept its own copy, and the next step on the same page opened with the
    step before's written answer in its box, ready to be sent again."""
    st.session_state.update(WIDGET_KEYS)
    st.session_state.pop(EDIT, None)
    _move("top")
    st.session_state[SCROLLS]["figure"] = 0


def _move(kind: str) -> None:
    """A new page move of this kind ("top" or "figure"), numbered."""
    moves = st.session_state.setdefault(SCROLLS, {"top": 0, "figure": 0, "seq": 0})
    moves["seq"] += 1
    moves[kind] = moves["seq"]


def scroll(box) -> None:
    """Last in the step box (nothing after it moves): the script that brings a new step's text, or a newly revealed
    answer's figure, into view (ui/guide_steps.SCRIPT)."""
    moves = st.session_state.get(SCROLLS)
    if moves and (moves["top"] or moves["figure"]):
        numbers = f"{int(moves['top'])}, {int(moves['figure'])}"
        box.html(SCRIPT.replace("{js}", SCROLL_JS).replace("{numbers}", numbers), unsafe_allow_javascript=True)


def _saved(ok: bool) -> None:
    if not ok:
        st.session_state[FAILED] = True


def number_text(value: float) -> str:
    return f"{value:g}"


def answer_text(predict: Predict, value: str, code: str) -> str:
    """A stored value as the student sees it: the choice's text, or the number."""
    if predict.choices:
        try:
            return localized(predict.choices[int(float(value))], code)
        except (ValueError, IndexError):
            return value
    return value


def _right_text(predict: Predict, code: str) -> str:
    if predict.choices:
        return localized(predict.choices[int(predict.answer)], code)
    right = number_text(predict.answer)
    if predict.tolerance:
        return t("guides.predict.within", answer=right, tolerance=number_text(predict.tolerance))
    return right


# ----------------------------------------------------------------- predict


def _send_predict(guide_id: str, index: int, predict: Predict) -> None:
    ss = st.session_state
    value = ss.get("gp_choice") if predict.choices else ss.get("gp_number")
    if value is None:
        ss["_gp_missing"] = True
        return
    text = str(int(value)) if predict.choices else number_text(float(value))
    _saved(answers.record(guide_id, index, "predict", text, predict.is_right(text)))
    ss.pop(EDIT, None)


def _edit_predict(guide_id: str, index: int) -> None:
    st.session_state[EDIT] = (guide_id, index)


def figure_below(step: Step, code: str) -> str | None:
    """The part of the page the step's text sends the class to (a section's bold name, or "the bottom"), if any:
    there is no anchor to scroll to, so a revealed answer names where its figure is."""
    found = [m for pattern in _BELOW if (m := pattern.search(localized(step.text, code)))]
    return found[0].group(1).strip() if found else None


def predict(box, guide: Guide, index: int, predict: Predict, code: str, below: str | None = None) -> tuple:
    """The question before the figure; True once the figure may be shown (answered, and revealed; a question
    about the figure, `read`, shows it all along), and the row holding its button (Answer, or Change my
    answer), where the hint button goes too."""
    title = "guides.read.title" if predict.read else "guides.predict.title"
    box.markdown(t(title, question=localized(predict.question, code)))
    given = answers.mine(guide.id, index, "predict")
    editing = st.session_state.get(EDIT) == (guide.id, index)
    if not given or editing:
        if predict.choices:
            box.radio(t("guides.predict.pick"), range(len(predict.choices)), index=None, key="gp_choice",
                      format_func=lambda i: localized(predict.choices[i], code))  # fmt: skip
        else:
            box.number_input(t("guides.predict.number"), value=None, step=None, format="%g", key="gp_number")
        if st.session_state.pop("_gp_missing", False):
            box.caption(t("guides.predict.bad_number" if not predict.choices else "guides.predict.missing"))
        row = box.container(horizontal=True)
        row.button(t("guides.predict.send"), key="gp_send", type="primary", icon=":material/send:",
                   on_click=_send_predict, args=(guide.id, index, predict))  # fmt: skip
        return predict.read or (bool(given) and answers.revealed(guide.id, index, predict)), row  # a revote keeps it
    last = given[-1]
    if not answers.revealed(guide.id, index, predict):
        box.info(t("guides.predict.waiting"), icon=":material/hourglass_top:")
    else:
        right = _right_text(predict, code)
        # The why inside the verdict's box, not a paragraph under it: the step box stays short, so the
        # figure it reveals starts higher on a laptop's screen.
        why = "\n\n" + t("guides.predict.why", why=localized(predict.why, code)) if predict.why else ""
        if predict.is_right(last):
            box.success(t("guides.predict.right", answer=right) + why, icon=":material/check_circle:")
        else:
            box.error(t("guides.predict.wrong", given=answer_text(predict, last, code), answer=right) + why,
                      icon=":material/cancel:")  # fmt: skip
        if below and not predict.read:  # the figure appears under the step box, maybe far down the page
            box.container(key="gp_below").caption(":material/south: " + t("guides.predict.below", where=below))
        if predict.reveal == "teacher":
            box.caption(t("guides.predict.solo_teacher"))
    row = box.container(horizontal=True)
    row.button(t("guides.predict.change"), key="gp_again", on_click=_edit_predict, args=(guide.id, index))
    if answers.revealed(guide.id, index, predict) and not predict.read:
        _figure_once((guide.id, index))
    return predict.read or answers.revealed(guide.id, index, predict), row


def _figure_once(key: tuple[str, int]) -> None:
    """The first run that shows a step's revealed figure (after the answer, or the teacher's reveal) scrolls to it;
    coming back to the step later leaves the page where the student puts it."""
    shown = st.session_state.setdefault(SHOWN, set())
    if key not in shown:
        shown.add(key)
        _move("figure")


# ----------------------------------------------------------------- goal


def evaluate(goal: Goal) -> goal_checks.Outcome:
    """The check on the live state; a model that cannot be loaded or run is a message, never a traceback."""
    try:
        return goal_checks.evaluate(goal.check, goal.args, st.session_state)
    except (models.WeightsError, ValueError, KeyError, IndexError, RuntimeError) as e:
        return goal_checks.Outcome(False, t("guides.goal.error", error=md(str(e)[:200])))


def goal(box, guide: Guide, index: int, goal: Goal, code: str) -> bool:
    """The task and its live ✓/✗; the first time it is reached, recorded. True when reached now."""
    box.markdown(t("guides.goal.task", task=localized(goal.task, code)))
    outcome = evaluate(goal)
    before = answers.mine(guide.id, index, "goal")
    if outcome.reached:
        box.success(t("guides.goal.reached", detail=outcome.detail), icon=":material/check_circle:")
        if not before:
            _saved(answers.record(guide.id, index, "goal", outcome.detail, True))
    else:
        box.caption(":material/radio_button_unchecked: " + t("guides.goal.not_yet", detail=outcome.detail))
    if goal.done and (outcome.reached or before):
        box.markdown(localized(goal.done, code))
    return outcome.reached


# ----------------------------------------------------------------- hints and free text


def _more_hint(guide_id: str, index: int, k: int) -> None:
    _saved(answers.record(guide_id, index, "hint", str(k), None))


def hints(box, guide: Guide, index: int, step: Step, code: str, row=None) -> None:
    """The hints opened so far, and the button for the next one (in `row`, beside the predict's button, when
    given: one row fewer above the figure)."""
    shown = min(len(answers.mine(guide.id, index, "hint")), len(step.hints))
    if shown < len(step.hints):
        (row or box).button(t("guides.hint.more", k=shown + 1, n=len(step.hints)), key="gh_more",
                   icon=":material/lightbulb:", on_click=_more_hint, args=(guide.id, index, shown + 1))  # fmt: skip
    for k in range(shown):
        box.markdown(t("guides.hint.text", k=k + 1, hint=localized(step.hints[k], code)))


def _send_free(guide_id: str, index: int) -> None:
    text = (st.session_state.get("gf_text") or "").strip()[:MAX_FREE]
    if not text:
        st.session_state["_gf_empty"] = True
        return
    _saved(answers.record(guide_id, index, "free", text, None))


def free(box, guide: Guide, index: int, step: Step, code: str) -> None:
    # The question is the box's label and Send sits beside it: two rows fewer above the figure.
    text, send = box.columns([6, 1], vertical_alignment="bottom")
    text.text_area(t("guides.free.title", question=localized(step.free.question, code)), key="gf_text",
                   max_chars=MAX_FREE, height=68, placeholder=t("guides.free.box"))  # fmt: skip
    send.button(t("guides.free.send"), key="gf_send", icon=":material/send:", on_click=_send_free,
                args=(guide.id, index), width="stretch")  # fmt: skip
    if st.session_state.pop("_gf_empty", False):
        box.caption(t("guides.free.empty"))
    sent = answers.mine(guide.id, index, "free")
    if sent:
        box.caption(t("guides.free.sent", text=md(sent[-1])))


def draw(box, guide: Guide, index: int, step: Step, code: str) -> bool:
    """The step's checked parts in order; True when the page's figure may be drawn."""
    show, row = True, None
    if step.predict:
        show, row = predict(box, guide, index, step.predict, code, figure_below(step, code))
    if step.goal and show:  # the goal is about the figure: once it is visible
        goal(box, guide, index, step.goal, code)
    if step.hints and (show or not step.goal):  # a goal's hints under its task, with the figure they are about;
        hints(box, guide, index, step, code, None if step.goal else row)  # a question's beside its button
    if step.free:
        free(box, guide, index, step, code)
    if st.session_state.pop(FAILED, False):
        box.warning(t("guides.saved_failed"))
    return show
