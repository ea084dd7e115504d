"""Store: the one object the class UI talks to. Short transactions, each method one commit.

Every method either finishes (a write has COMMITTED when it returns) or raises: StoreUnavailable for
anything the database did, JoinRefused for a join (or an answer) the class does not accept.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, exc, insert, select, update
from sqlalchemy.engine import Connection

from . import report, security
from .engine import CoolDown, make_engine, normalize_url, safe_url
from .schema import classes, events, migrate, revealed, students
from .types import KINDS, ClassInfo, ClassState, ClassSummary, Event, JoinRefused, StoreUnavailable, Student

VALUE_MAX = 4000  # characters of one answer (a free-text "why" is a few sentences)


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def naive(at: datetime | None) -> datetime:
    """An aware time -> naive UTC as stored; None -> now."""
    if at is None:
        return utcnow()
    return at.astimezone(UTC).replace(tzinfo=None) if at.tzinfo else at


def aware(at: datetime) -> datetime:
    return at.replace(tzinfo=UTC)


def _info(row) -> ClassInfo:
    return ClassInfo(row.id, row.code, row.guide_id, row.n_steps, aware(row.created_at), aware(row.expires_at))


class Store:
    """The class database. Connects lazily: constructing one never touches the network."""

    def __init__(self, url: str | None = None, cool_down_s: float | None = None):
        from . import database_url

        self.url = normalize_url(url or database_url())
        self.cool = CoolDown() if cool_down_s is None else CoolDown(cool_down_s)
        self.limits = security.FailedJoins()
        self._engine = None
        self._ready = False
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Store({safe_url(self.url)})"

    # -- plumbing -------------------------------------------------------------------------------
    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        """Database errors -> StoreUnavailable; a lost connection also starts the cool-down."""
        try:
            yield
        except StoreUnavailable as e:
            self.cool.trip(str(e))
            raise
        except exc.IntegrityError:  # a constraint the caller handles (a code drawn twice, a name joined twice)
            raise
        except exc.TimeoutError as e:  # every pooled connection busy: a slow moment, not a dead server
            raise StoreUnavailable("the class database is busy; try again") from e
        except (exc.DBAPIError, exc.ArgumentError, exc.NoSuchModuleError) as e:
            msg = self._describe(e)
            if not any(w in msg.lower() for w in ("locked", "busy", "canceling statement", "lock timeout")):
                self.cool.trip(msg)
            raise StoreUnavailable(msg) from e

    def _describe(self, e: Exception) -> str:
        detail = str(getattr(e, "orig", None) or e).strip().splitlines()[0][:200]
        password = getattr(self._engine.url, "password", None) if self._engine is not None else None
        if password:
            detail = detail.replace(str(password), "***")
        return f"the class database {safe_url(self.url)} is unavailable: {detail}"

    @contextlib.contextmanager
    def _tx(self, write: bool = False) -> Iterator[Connection]:
        self.cool.check()
        with self._guard():
            engine = self._engine_ready()
            with engine.connect() as conn:
                if write:
                    conn.execution_options(write=True)
                with conn.begin():
                    yield conn

    def _engine_ready(self):
        if self._ready:
            return self._engine
        with self._lock:
            self.cool.check()  # another thread just failed to connect: do not queue up behind it
            if self._engine is None:
                self._engine = make_engine(self.url)
            if not self._ready:
                with self._engine.connect() as conn:
                    conn.execution_options(write=True)
                    with conn.begin():
                        migrate(conn)
                self._ready = True
            return self._engine

    def dispose(self) -> None:
        """Close pooled connections (tests, and before a forked worker reuses the store)."""
        if self._engine is not None:
            self._engine.dispose()

    # -- classes --------------------------------------------------------------------------------
    def start_class(self, guide_id: str, n_steps: int, retention_days: int = 30) -> tuple[ClassInfo, str]:
        """A new class and its teacher token. The token is returned once and never stored in clear."""
        if not (1 <= int(n_steps) <= 1000) or not (1 <= int(retention_days) <= 366):
            raise ValueError("n_steps in 1..1000 and retention_days in 1..366")
        for _ in range(5):  # a code collision (p ≈ classes / 8.5e11) just draws again
            token, digest = security.new_token()
            now = utcnow()
            expires = now + timedelta(days=int(retention_days))
            row = dict(code=security.new_code(), guide_id=str(guide_id)[:200], n_steps=int(n_steps),
                       token_hash=digest, created_at=now, expires_at=expires)  # fmt: skip
            try:
                with self._tx(write=True) as conn:
                    row["id"] = conn.execute(insert(classes).values(**row).returning(classes.c.id)).scalar_one()
            except exc.IntegrityError:
                continue
            return ClassInfo(row["id"], row["code"], row["guide_id"], row["n_steps"], aware(now),
                             aware(row["expires_at"])), token  # fmt: skip
        raise StoreUnavailable("could not draw a free join code")

    def class_for_teacher(self, token: str) -> ClassInfo | None:
        digest = security.token_hash(token)
        with self._tx() as conn:
            row = conn.execute(select(classes).where(classes.c.token_hash == digest)).first()
        if row is None or not security.same_hash(row.token_hash, digest) or row.closed_at is not None:
            return None
        return _info(row)

    def class_for_code(self, code: str) -> ClassInfo | None:
        """An open, unexpired class; None otherwise (join() says which)."""
        code = security.normalize_code(code)
        with self._tx() as conn:
            row = conn.execute(select(classes).where(classes.c.code == code)).first()
        if row is None or row.closed_at is not None or row.expires_at <= utcnow():
            return None
        return _info(row)

    def join(self, code: str, name: str, address: str = "") -> Student:
        """Same code + same name (ignoring case) -> the same student, with their answers."""
        clean = security.clean_name(name)
        if clean is None:
            raise JoinRefused("name")
        if self.limits.blocked(address):
            raise JoinRefused("rate_limited")
        code = security.normalize_code(code)
        if len(code) != security.CODE_LEN or set(code) - set(security.ALPHABET):
            self.limits.fail(address)
            raise JoinRefused("unknown")
        key = security.name_key(clean)
        for _ in range(2):  # a second try when another replica inserted the same name at the same time
            try:
                with self._tx(write=True) as conn:
                    row = conn.execute(select(classes).where(classes.c.code == code)).first()
                    if row is None:
                        self.limits.fail(address)
                        raise JoinRefused("unknown")
                    if row.closed_at is not None or row.expires_at <= utcnow():
                        raise JoinRefused("closed")
                    found = conn.execute(
                        select(students.c.id, students.c.name).where(
                            students.c.class_id == row.id, students.c.name_key == key
                        )
                    ).first()
                    if found is not None:
                        return Student(found.id, row.id, found.name)
                    values = dict(class_id=row.id, name=clean, name_key=key, joined_at=utcnow())
                    sid = conn.execute(insert(students).values(**values).returning(students.c.id)).scalar_one()
                    return Student(sid, row.id, clean)
            except exc.IntegrityError:
                continue
        raise StoreUnavailable("could not join: try again")

    # -- answers --------------------------------------------------------------------------------
    def record(self, student: Student, step: int, kind: str, value: str, correct: bool | None) -> Event:
        """Store one answer, hint or goal. Returns only after COMMIT: then the answer is never lost."""
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}")
        step, value, at = int(step), str(value)[:VALUE_MAX], utcnow()
        correct = None if correct is None else bool(correct)
        try:
            with self._tx(write=True) as conn:
                row = conn.execute(
                    select(classes.c.n_steps, classes.c.closed_at, classes.c.expires_at)
                    .join(students, students.c.class_id == classes.c.id)
                    .where(students.c.id == student.id, classes.c.id == student.class_id)
                ).first()
                if row is None or row.closed_at is not None or row.expires_at <= at:
                    raise JoinRefused("closed")
                if not 0 <= step < row.n_steps:
                    raise ValueError(f"step {step} outside 0..{row.n_steps - 1}")
                conn.execute(insert(events).values(class_id=student.class_id, student_id=student.id, step=step,
                                                   kind=kind, value=value, correct=correct, at=at))  # fmt: skip
        except exc.IntegrityError as e:  # the class was closed between the check and the insert
            raise JoinRefused("closed") from e
        return Event(student.id, step, kind, value, correct, aware(at))

    def events_of(self, student_id: int) -> list[Event]:
        with self._tx() as conn:
            rows = conn.execute(select(events).where(events.c.student_id == student_id).order_by(events.c.id)).all()
        return [Event(r.student_id, r.step, r.kind, r.value, r.correct, aware(r.at)) for r in rows]

    # -- the teacher's switches -----------------------------------------------------------------
    def class_state(self, class_id: int) -> ClassState:
        with self._tx() as conn:
            step = conn.execute(select(classes.c.current_step).where(classes.c.id == class_id)).scalar()
            shown = conn.execute(select(revealed.c.step).where(revealed.c.class_id == class_id)).scalars().all()
        return ClassState(step, frozenset(shown))

    def set_current_step(self, class_id: int, step: int | None) -> None:
        with self._tx(write=True) as conn:
            conn.execute(update(classes).where(classes.c.id == class_id).values(current_step=step))

    def set_revealed(self, class_id: int, step: int, on: bool) -> None:
        with self._tx(write=True) as conn:
            where = (revealed.c.class_id == class_id) & (revealed.c.step == int(step))
            conn.execute(delete(revealed).where(where))
            if on:
                conn.execute(insert(revealed).values(class_id=class_id, step=int(step)))

    def summary(self, class_id: int, stuck_after_s: float = 180, now: datetime | None = None) -> ClassSummary:
        with self._tx() as conn:
            return report.summary(conn, class_id, stuck_after_s, naive(now), aware)

    def export_csv(self, class_id: int) -> str:
        with self._tx() as conn:
            return report.export_csv(conn, class_id)

    # -- forgetting -----------------------------------------------------------------------------
    def close_class(self, class_id: int) -> None:
        """Delete the class's names and answers now; the code then answers "closed" until it expires."""
        with self._tx(write=True) as conn:
            report.forget(conn, [class_id])
            conn.execute(update(classes).where(classes.c.id == class_id).values(closed_at=utcnow()))

    def purge_expired(self, now: datetime | None = None) -> int:
        """Delete every class past its retention date, with its names and answers; returns how many."""
        with self._tx(write=True) as conn:
            ids = conn.execute(select(classes.c.id).where(classes.c.expires_at <= naive(now))).scalars().all()
            if ids:
                report.forget(conn, ids)
                conn.execute(delete(classes).where(classes.c.id.in_(ids)))
        return len(ids)
