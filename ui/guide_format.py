"""The lesson file format: TOML text in, a checked Guide out (no widgets here, so a test or a script can
read lessons). A lesson is short steps, each a page in a preset state with a paragraph for the class:

    title = { en = "The three architectures", zh = "三种架构" }
    summary = { en = "…", zh = "…" }

    [[steps]]
    page = "explorer"                                    # a lesson's name (its URL path)
    params = { model = "encoder", prompt = "the [MASK] that the dog sees are happy ." }
    title = { en = "…", zh = "…" }
    text = { en = "…", zh = "…" }                        # the paragraph for the class (Markdown)
    question = { en = "…", zh = "…" }                    # optional: a question to think about, not checked

A step can also ask something that is checked or recorded (each part optional; hints before the tables):

    [[steps]]
    page = "explorer"
    params = { model = "decoder", layer = 1, head = 1 }
    title = { en = "…", zh = "…" }
    text = { en = "…", zh = "…" }
    hints = [ { en = "first hint", zh = "…" }, { en = "second hint", zh = "…" } ]   # shown one at a time

    [steps.predict]                                      # asked BEFORE the page's figure is shown
    question = { en = "…", zh = "…" }
    choices = [ { en = "…", zh = "…" }, { en = "…", zh = "…" } ]   # 2 to 8; leave out for a number
    answer = 2                                           # the right choice, from 1 (or the number)
    # tolerance = 0.05                                   # numbers only (no choices): the allowed error
    why = { en = "…", zh = "…" }                         # shown with the right answer
    reveal = "teacher"                                   # optional: hidden until the teacher reveals it
    # read = true                                        # a question about the figure: it stays visible

    [steps.goal]                                         # bring the app into a state, checked live
    check = "head_role"                                  # head_role, prompt_changes_position, rank_below_n,
    args = { role = "previous_token", min = 0.5 }        #   param_is, prompt_tokens, attention_at, lab_trained,
                                                         #   head_recovers
    task = { en = "…", zh = "…" }
    done = { en = "…", zh = "…" }                        # optional, shown once reached

    [steps.free]                                         # a short written answer, not graded
    question = { en = "…", zh = "…" }

A step with a goal shows its hints under the goal, once the figure is visible. **Bold** names what is on the
page (a control, an option, a section, a button) as the page writes it; use *italics* for emphasis.

A lesson ends on a closing step: what was learnt, the next lesson (a file name without .toml; left out on
the last lesson) and one to three readings. Without a page, it stays on the page and state of the step before:

    [[steps]]
    title = { en = "What we saw", zh = "…" }
    [steps.closing]
    learnt = [ { en = "…", zh = "…" }, { en = "…", zh = "…" } ]   # 2 to 4 points
    next = "02-qkv-soft-lookup"
    readings = [ { en = "Vaswani et al. 2017, *Attention Is All You Need*", zh = "…" } ]

Parameters are the URL parameters the app already understands, checked with the same parsers. A file
with a mistake, HTML or a script link, or an unknown check gets a message naming its line.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from . import goal_checks
from .params import PARAMS, canonical, guide_id

NOT_PRESET = ("lang", "present", "tables", "guide", "gstep")  # the viewer's own choices, never set by a step
MAX_STEPS = 50
MAX_CHOICES, MAX_HINTS = 8, 10
LEARNT, READINGS = (2, 4), (1, 3)  # a closing step's points and readings: fewest, most
REVEALS = ("answer", "teacher")

# Tags a browser would act on (HTML, SVG, MathML) and every closing tag, comment or declaration. Token names
# such as <e5>, <X> or <unk> are no elements and stay readable; `<s>` written inside backticks is code.
_ELEMENTS = (
    "a|abbr|address|area|article|aside|audio|b|base|bdi|bdo|blockquote|body|br|button|canvas|caption|cite|code|col|"
    "colgroup|data|datalist|dd|del|details|dfn|dialog|div|dl|dt|em|embed|fieldset|figcaption|figure|footer|form|frame|"
    "frameset|h[1-6]|head|header|hr|html|i|iframe|img|input|ins|kbd|label|legend|li|link|main|map|mark|marquee|math|"
    "menu|meta|meter|nav|noscript|object|ol|optgroup|option|output|p|param|picture|pre|progress|q|rp|rt|ruby|s|samp|"
    "script|section|select|slot|small|source|span|strong|style|sub|summary|sup|svg|table|tbody|td|template|textarea|"
    "tfoot|th|thead|time|title|tr|track|u|ul|var|video|wbr|xmp|plaintext|listing|image|use|foreignobject|animate|set"
)
_HTML = re.compile(rf"<\s*/|<!|<\?|<(?:{_ELEMENTS})(?=[\s/>]|$)|<[a-z][\w-]*\s+[\w:-]+\s*=", re.IGNORECASE)
_SCRIPT_LINK = re.compile(r"\b(?:java|vb)script\s*(?::|&#0*58;?|&#x0*3a;?|&colon;)|\bdata:(?=\S)", re.IGNORECASE)
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)


@dataclass(frozen=True)
class Predict:
    question: dict
    choices: tuple[dict, ...]
    answer: int | float  # the 0-based index of the right choice, or the number
    tolerance: float
    why: dict
    reveal: str  # "answer": right after answering; "teacher": when the teacher reveals it
    read: bool = False  # a question about the figure, asked with it visible (not a prediction)

    def is_right(self, value: str) -> bool:
        """value as stored: a choice's 0-based index ("2"), or the number the student typed."""
        try:
            given = float(str(value).strip())
        except ValueError:
            return False
        if not math.isfinite(given):
            return False
        if self.choices:
            return given == self.answer
        return abs(given - float(self.answer)) <= self.tolerance + 1e-12 * max(1.0, abs(float(self.answer)))


@dataclass(frozen=True)
class Goal:
    check: str
    args: dict
    task: dict
    done: dict


@dataclass(frozen=True)
class Free:
    question: dict


@dataclass(frozen=True)
class Closing:
    learnt: tuple[dict, ...]  # what the lesson taught, 2 to 4 points
    next: str | None  # the next lesson's id; None on the last one
    readings: tuple[dict, ...]  # papers or notes, with authors and year


@dataclass(frozen=True)
class Step:
    page: str
    params: dict[str, object]  # parsed values, ready for st.session_state
    title: dict[str, str]
    text: dict[str, str]
    question: dict[str, str]
    hints: tuple[dict, ...] = ()
    predict: Predict | None = None
    goal: Goal | None = None
    free: Free | None = None
    closing: Closing | None = None


@dataclass(frozen=True)
class Guide:
    id: str  # the file name without .toml (unique: a later folder's file replaces an earlier one)
    title: dict[str, str]
    summary: dict[str, str]
    steps: tuple[Step, ...]
    source: str


class GuideError(ValueError):
    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


def localized(text: dict[str, str], code: str) -> str:
    """The text in the viewer's language, else English."""
    return text.get(code) or text.get("en", "")


def unsafe(words: str) -> str | None:
    """What in a text would make a browser act (HTML, a script or data link), or None. Code spans are text."""
    plain = _CODE_SPAN.sub("``", words)
    found = _HTML.search(plain) or _SCRIPT_LINK.search(plain)
    return found.group(0) if found else None


@dataclass
class _Reader:
    """One file's text, to point a message at a line: each step's lines end where the next step starts."""

    text: str
    lines: list[str] = field(init=False)
    steps_at: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.lines = self.text.splitlines()
        self.steps_at = [i + 1 for i, line in enumerate(self.lines) if re.match(r"\s*\[\[\s*steps\s*\]\]", line)]

    def step_line(self, n: int) -> int | None:
        return self.steps_at[n] if n < len(self.steps_at) else None

    def line_of(self, needle: str, after: int | None, step: int | None = None) -> int | None:
        """The first line from `after` (within step `step`'s lines when given) holding `needle`, else `after`."""
        end = len(self.lines)
        if step is not None and step + 1 < len(self.steps_at):
            end = self.steps_at[step + 1] - 1
        for i in range((after or 1) - 1, end):
            if needle in self.lines[i]:
                return i + 1
        return after

    def table_line(self, name: str, step: int, at: int | None) -> int | None:
        """The line of `[steps.<name>]` inside step `step`, else the step's own line."""
        end = self.steps_at[step + 1] - 1 if step + 1 < len(self.steps_at) else len(self.lines)
        for i in range((at or 1) - 1, end):
            if re.match(rf"\s*\[\s*steps\s*\.\s*{name}\s*\]", self.lines[i]):
                return i + 1
        return at


def _words(value: object, what: str, line: int | None, required: bool = True, reader: _Reader | None = None,
           step: int | None = None) -> dict[str, str]:  # fmt: skip
    if value is None and not required:
        return {}
    if isinstance(value, str):  # one language only: shown to everyone
        value = {"en": value}
    if not isinstance(value, dict) or not isinstance(value.get("en"), str) or not value["en"].strip():
        raise GuideError(f'{what} needs an English text: {what} = {{ en = "…", zh = "…" }}', line)
    bad = [k for k, v in value.items() if k not in ("en", "zh") or not isinstance(v, str)]
    if bad:
        raise GuideError(f"{what}: only en and zh texts are allowed, got {', '.join(map(str, bad))}", line)
    for code, words in value.items():
        found = unsafe(words)
        if found:
            at = reader.line_of(found, line, step) if reader else line
            raise GuideError(f"{what} ({code}): {found!r} is HTML or a script link, which lessons may not "
                             "contain (a token such as `<s>` can be written inside backticks)", at)  # fmt: skip
    return dict(value)


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _table(raw: dict, name: str, keys: set[str], where: str, line: int | None) -> dict | None:
    table = raw.get(name)
    if table is None:
        return None
    if not isinstance(table, dict):
        raise GuideError(f"{where}: {name} must be a table: [steps.{name}]", line)
    extra = sorted(set(table) - keys)
    if extra:
        raise GuideError(f"{where}: [steps.{name}] has no {', '.join(extra)} (it has {', '.join(sorted(keys))})", line)
    return table


def _predict(raw: dict, where: str, reader: _Reader, n: int, at: int | None) -> Predict | None:
    line = reader.table_line("predict", n, at)
    keys = {"question", "choices", "answer", "tolerance", "why", "reveal", "read"}
    table = _table(raw, "predict", keys, where, line)
    if table is None:
        return None

    def words(value, what, required=True):
        return _words(value, f"{where}: predict {what}", reader.line_of(what, line, n), required, reader, n)

    if "question" not in table:
        raise GuideError(f"{where}: [steps.predict] needs a question", line)
    question = words(table["question"], "question")
    raw_choices = table.get("choices")
    choices: tuple[dict, ...] = ()
    if raw_choices is not None:
        c_line = reader.line_of("choices", line, n)
        if not isinstance(raw_choices, list) or not 2 <= len(raw_choices) <= MAX_CHOICES:
            raise GuideError(f"{where}: predict choices must be a list of 2 to {MAX_CHOICES} texts", c_line)
        choices = tuple(
            _words(c, f"{where}: predict choice {i + 1}", c_line, True, reader, n) for i, c in enumerate(raw_choices)
        )
    a_line = reader.line_of("answer", line, n)
    if "answer" not in table:
        raise GuideError(f"{where}: [steps.predict] needs an answer (a choice's number from 1, or a number)", line)
    answer = table["answer"]
    if choices:
        if not isinstance(answer, int) or isinstance(answer, bool) or not 1 <= answer <= len(choices):
            raise GuideError(f"{where}: predict answer = {answer!r} must be a choice's number, 1 to {len(choices)}",
                             a_line)  # fmt: skip
        answer -= 1
        if "tolerance" in table:
            raise GuideError(f"{where}: predict tolerance is for numeric answers (without choices)",
                             reader.line_of("tolerance", line, n))  # fmt: skip
    elif not _number(answer):
        raise GuideError(f"{where}: predict answer = {answer!r} must be a number (or add choices)", a_line)
    tolerance = table.get("tolerance", 0)
    if not _number(tolerance) or tolerance < 0:
        raise GuideError(f"{where}: predict tolerance = {tolerance!r} must be a number ≥ 0",
                         reader.line_of("tolerance", line, n))  # fmt: skip
    reveal = table.get("reveal", "answer")
    if reveal not in REVEALS:
        raise GuideError(f"{where}: predict reveal = {reveal!r} must be one of {', '.join(REVEALS)}",
                         reader.line_of("reveal", line, n))  # fmt: skip
    read = table.get("read", False)
    if not isinstance(read, bool):
        raise GuideError(f"{where}: predict read = {read!r} must be true or false", reader.line_of("read", line, n))
    why = words(table.get("why"), "why", required=False)
    return Predict(question, choices, answer, float(tolerance), why, reveal, read)


def _goal(raw: dict, where: str, reader: _Reader, n: int, at: int | None) -> Goal | None:
    line = reader.table_line("goal", n, at)
    table = _table(raw, "goal", {"check", "args", "task", "done"}, where, line)
    if table is None:
        return None
    check, args = table.get("check"), table.get("args", {})
    c_line = reader.line_of("check", line, n)
    if not isinstance(check, str) or check not in goal_checks.CHECKS:
        raise GuideError(f"{where}: goal check = {check!r} is not one of {', '.join(goal_checks.CHECKS)}", c_line)
    if not isinstance(args, dict):
        raise GuideError(f"{where}: goal args must be a table: args = {{ … }}", reader.line_of("args", line, n))
    try:
        args = goal_checks.validate(check, args)
    except ValueError as e:
        raise GuideError(f"{where}: goal {check}: {e}", reader.line_of("args", line, n)) from None
    task = _words(table.get("task"), f"{where}: goal task", reader.line_of("task", line, n), True, reader, n)
    done = _words(table.get("done"), f"{where}: goal done", reader.line_of("done", line, n), False, reader, n)
    return Goal(check, args, task, done)


def _free(raw: dict, where: str, reader: _Reader, n: int, at: int | None) -> Free | None:
    line = reader.table_line("free", n, at)
    table = _table(raw, "free", {"question"}, where, line)
    if table is None:
        return None
    q_line = reader.line_of("question", line, n)
    return Free(_words(table.get("question"), f"{where}: free question", q_line, True, reader, n))


def _texts(value: object, what: str, most: tuple[int, int], reader: _Reader, n: int, line: int | None) -> tuple:
    """A list of `most[0]` to `most[1]` texts, each in both languages' table form."""
    if not isinstance(value, list) or not most[0] <= len(value) <= most[1]:
        raise GuideError(f"{what} must be a list of {most[0]} to {most[1]} texts", line)
    return tuple(_words(h, f"{what.removesuffix('s')} {i + 1}", line, True, reader, n) for i, h in enumerate(value))


def _hints(raw: dict, where: str, reader: _Reader, n: int, at: int | None) -> tuple[dict, ...]:
    if raw.get("hints") is None:
        return ()
    return _texts(raw["hints"], f"{where}: hints", (1, MAX_HINTS), reader, n, reader.line_of("hints", at, n))


def _closing(raw: dict, where: str, reader: _Reader, n: int, at: int | None) -> Closing | None:
    line = reader.table_line("closing", n, at)
    table = _table(raw, "closing", {"learnt", "next", "readings"}, where, line)
    if table is None:
        return None
    nxt = table.get("next")
    try:
        nxt = None if nxt is None else guide_id(nxt) if isinstance(nxt, str) else guide_id("")
    except ValueError:
        raise GuideError(f"{where}: closing next = {nxt!r} must be a lesson's file name without .toml",
                         reader.line_of("next", line, n)) from None  # fmt: skip
    texts = {k: _texts(table.get(k), f"{where}: closing {k}", most, reader, n, reader.line_of(k, line, n))
             for k, most in (("learnt", LEARNT), ("readings", READINGS))}  # fmt: skip
    return Closing(texts["learnt"], nxt, texts["readings"])


def _params(raw: dict, where: str, reader: _Reader, n: int, at: int | None) -> dict[str, object]:
    params = {}
    for written, value in (raw.get("params") or {}).items():
        line = reader.line_of(written, at)
        name = canonical(written)  # as written in the file; an old, renamed name still works (params.ALIASES)
        if name not in PARAMS or name in NOT_PRESET:
            raise GuideError(f"{where}: {written!r} is not a parameter a step can set", line)
        if isinstance(value, list):
            value = ",".join(str(v) for v in value)
        elif isinstance(value, bool):
            value = "1" if value else "0"
        try:
            params[name] = PARAMS[name].parse(str(value))
        except (ValueError, TypeError):
            raise GuideError(f"{where}: {written} = {value!r} is not a valid value", line) from None
        if isinstance(params[name], str) and unsafe(params[name]):
            raise GuideError(f"{where}: {written} = {value!r} holds HTML or a script link", line)
    return params


def parse(text: str, source: str, pages: set[str]) -> Guide:
    """One guide from TOML text; GuideError (with a line number when it can be found) otherwise."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        match = re.search(r"line (\d+)", str(e))
        raise GuideError(str(e), int(match.group(1)) if match else None) from e
    reader = _Reader(text)
    raw_steps = data.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise GuideError("a guide needs at least one [[steps]] table", None)
    if len(raw_steps) > MAX_STEPS:
        raise GuideError(f"at most {MAX_STEPS} steps", reader.step_line(MAX_STEPS))
    steps: list[Step] = []
    for n, raw in enumerate(raw_steps):
        at, where = reader.step_line(n), f"step {n + 1}"
        if not isinstance(raw, dict):
            raise GuideError(f"{where} is not a table", at)
        closing = _closing(raw, where, reader, n, at)
        page, params = raw.get("page"), _params(raw, where, reader, n, at)
        if closing and page is None and steps and "params" not in raw:  # stays where the lesson was
            page, params = steps[-1].page, steps[-1].params
        if page not in pages:
            raise GuideError(f"{where}: page = {page!r} is not one of {', '.join(sorted(pages))}",
                             reader.line_of("page", at))  # fmt: skip
        title = _words(raw.get("title"), "title", reader.line_of("title", at, n) if "title" in raw else at,
                       True, reader, n)  # fmt: skip
        body = _words(raw.get("text"), "text", reader.line_of("text", at, n) if "text" in raw else at, not closing,
                      reader, n)  # fmt: skip
        question = _words(raw.get("question"), "question", reader.line_of("question", at, n), False, reader, n)
        steps.append(Step(page, params, title, body, question, _hints(raw, where, reader, n, at),
                          _predict(raw, where, reader, n, at), _goal(raw, where, reader, n, at),
                          _free(raw, where, reader, n, at), closing))  # fmt: skip
    return Guide(Path(source).stem, _words(data.get("title"), "title", 1, True, reader),
                 _words(data.get("summary"), "summary", 1, False, reader), tuple(steps), source)  # fmt: skip
