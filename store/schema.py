"""The tables and their versions: a `schema_version` row and a list of migrations, run in order.

Why not Alembic: four tables and a handful of steps; a list of functions that a test can stop
half-way (`migrate(conn, upto=1)`) is enough and adds no dependency. Each migration runs inside the
same transaction as the version bump, under a lock (PostgreSQL's advisory lock, SQLite's BEGIN
IMMEDIATE), so two replicas starting together migrate once. A database newer than this code is
refused: SchemaTooNew, never a guess.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    inspect,
    select,
    text,
)
from sqlalchemy.engine import Connection

from .types import SchemaTooNew

meta = MetaData()

schema_version = Table("schema_version", meta, Column("version", Integer, nullable=False))

# Times are naive UTC in the database (SQLite has no time zone type); the Store hands out aware UTC.
classes = Table(
    "classes",
    meta,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(16), nullable=False, unique=True),
    Column("guide_id", String(200), nullable=False),
    Column("n_steps", Integer, nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created_at", DateTime, nullable=False),
    Column("expires_at", DateTime, nullable=False),
    Column("closed_at", DateTime, nullable=True),
    Column("current_step", Integer, nullable=True),  # version 2
)

students = Table(
    "students",
    meta,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("class_id", Integer, ForeignKey("classes.id"), nullable=False),
    Column("name", String(80), nullable=False),
    Column("name_key", String(80), nullable=False),
    Column("joined_at", DateTime, nullable=False),
    UniqueConstraint("class_id", "name_key", name="uq_student_name"),
)

events = Table(
    "events",
    meta,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("class_id", Integer, ForeignKey("classes.id"), nullable=False),
    Column("student_id", Integer, ForeignKey("students.id"), nullable=False),
    Column("step", Integer, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("value", Text, nullable=False),
    Column("correct", Boolean, nullable=True),
    Column("at", DateTime, nullable=False),
    Index("ix_events_student", "student_id"),
)

revealed = Table(  # version 2: the steps whose answer the teacher revealed
    "revealed",
    meta,
    Column("class_id", Integer, ForeignKey("classes.id"), nullable=False),
    Column("step", Integer, nullable=False),
    PrimaryKeyConstraint("class_id", "step"),
)


def _v1(conn: Connection) -> None:
    """The first release: classes (without the teacher's current step), students, events."""
    v1 = MetaData()
    Table("schema_version", v1, Column("version", Integer, nullable=False))
    Table(
        "classes",
        v1,
        *(Column(c.name, c.type, primary_key=c.primary_key, nullable=c.nullable, unique=c.unique)
          for c in classes.columns if c.name != "current_step"),
    )  # fmt: skip
    for t in (students, events):
        t.to_metadata(v1)
    v1.create_all(conn)
    conn.execute(text("INSERT INTO schema_version (version) VALUES (0)"))


def _v2(conn: Connection) -> None:
    """The teacher's "bring everyone to this step" and "reveal the answer", and summaries by class."""
    conn.execute(text("ALTER TABLE classes ADD COLUMN current_step INTEGER"))
    revealed.create(conn)
    conn.execute(text("CREATE INDEX ix_events_class ON events (class_id, id)"))


MIGRATIONS = (_v1, _v2)
VERSION = len(MIGRATIONS)


def current_version(conn: Connection) -> int:
    if not inspect(conn).has_table("schema_version"):
        return 0
    return conn.execute(select(schema_version.c.version)).scalar() or 0


def migrate(conn: Connection, upto: int = VERSION) -> int:
    """Bring the schema to `upto` inside the caller's (locked) transaction; returns the old version."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(190019)"))  # one migrator across replicas
    found = current_version(conn)
    if found > VERSION:
        raise SchemaTooNew(
            f"the class database has schema version {found}, newer than this app's {VERSION}: "
            "update the app (or point ATTENTION_LAB_DB at another database)"
        )
    for number in range(found + 1, upto + 1):
        MIGRATIONS[number - 1](conn)
        conn.execute(schema_version.update().values(version=number))
    return found
