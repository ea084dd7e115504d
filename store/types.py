"""The store's errors and the plain records it hands out: frozen, so a page can cache them safely."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

KINDS = ("predict", "goal", "hint", "free")


class StoreUnavailable(Exception):
    """The database cannot be used now (down, locked, too new). The message says what, never a password."""


class SchemaTooNew(StoreUnavailable):
    """The database was written by a newer version of the app: refused rather than guessed at."""


class JoinRefused(Exception):
    """A join that did not happen; `reason` is one of REASONS so the page can say why in its language."""

    REASONS = ("unknown", "closed", "rate_limited", "name")

    def __init__(self, reason: str):
        assert reason in self.REASONS, reason
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class ClassInfo:
    id: int
    code: str
    guide_id: str
    n_steps: int
    created_at: datetime
    expires_at: datetime


@dataclass(frozen=True)
class Student:
    id: int
    class_id: int
    name: str


@dataclass(frozen=True)
class Event:
    student_id: int
    step: int
    kind: str
    value: str
    correct: bool | None
    at: datetime


@dataclass(frozen=True)
class ClassState:
    current_step: int | None
    revealed: frozenset[int]


@dataclass(frozen=True)
class StudentRow:
    name: str
    step: int | None  # the step of the student's latest event; None before the first
    last_at: datetime  # the latest event, or when they joined
    stuck: bool  # not finished and nothing recorded for stuck_after_s


@dataclass(frozen=True)
class StepStats:
    answered: int  # students with a predict, goal or free answer on this step
    correct: int  # students whose latest predict answer is right
    share_correct: float  # correct / students with a predict answer (0.0 when none)
    wrong: list[tuple[str, int]] = field(default_factory=list)  # latest wrong values, most common first
    free: list[tuple[str, str]] = field(default_factory=list)  # (name, latest free text), oldest first
    hints: int = 0  # hint events on this step
    goals: int = 0  # students who reached the goal


@dataclass(frozen=True)
class ClassSummary:
    students: list[StudentRow]
    steps: dict[int, StepStats]
