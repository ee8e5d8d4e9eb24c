"""The schema policy (warehouse/release.py) on files made here: what each file is, what a
reader and a writer do with it, and what neither ever reads."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

import duckdb
import pytest

from evidence_base.errors import WarehouseError
from warehouse.db import connect, peek, upgrade
from warehouse.release import Release, latest_version, refusal


def made(path: Path, *statements: str) -> Path:
    con = duckdb.connect(str(path))
    for sql in statements:
        con.execute(sql)
    con.close()
    return path


BOOTSTRAP = (
    "CREATE SCHEMA store",
    "CREATE TABLE store.migrations (version INTEGER PRIMARY KEY, name VARCHAR, "
    "applied_at TIMESTAMPTZ DEFAULT now())",
    "CREATE TABLE store.views_made (digest VARCHAR NOT NULL, made_at TIMESTAMPTZ DEFAULT now())",
)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_each_kind_of_file_is_told_apart(tmp_path: Path) -> None:
    assert peek(tmp_path / "none.duckdb").release is Release.NEW
    assert peek(made(tmp_path / "empty.duckdb")).release is Release.UNFINISHED
    assert peek(made(tmp_path / "boot.duckdb", *BOOTSTRAP)).release is Release.UNFINISHED
    theirs = made(tmp_path / "theirs.duckdb", "CREATE TABLE accounts (name VARCHAR)")
    assert peek(theirs).release is Release.FOREIGN
    current = tmp_path / "current.duckdb"
    connect(current).close()
    assert peek(current) == peek(current).__class__(current, Release.CURRENT, latest_version())
    earlier = made(
        tmp_path / "earlier.duckdb",
        *BOOTSTRAP[:2],
        "INSERT INTO store.migrations VALUES (1, 'init', now())",
    )
    assert (peek(earlier).release, peek(earlier).version) == (Release.EARLIER, 1)
    later = tmp_path / "later.duckdb"
    connect(later).close()
    made(later, "INSERT INTO store.migrations VALUES (999, 'future', now())")
    assert (peek(later).release, peek(later).version) == (Release.LATER, 999)


def test_a_migrations_view_is_never_read(tmp_path: Path) -> None:
    """A file whose store.migrations is a view (a crafted file that reads another file of
    this machine, here one that would make it pass for current) is not ours: neither a
    reader nor a writer runs the view."""
    secret = tmp_path / "secret.csv"
    secret.write_text(f"version\n{latest_version()}\n")
    view = f"CREATE VIEW store.migrations AS SELECT version FROM read_csv('{secret}')"  # noqa: S608
    db = made(tmp_path / "crafted.duckdb", "CREATE SCHEMA store", view)
    before = digest(db)
    assert peek(db).release is Release.FOREIGN
    for read_only in (True, False):
        with pytest.raises(WarehouseError, match="not a database of evidence-pipeline"):
            connect(db, read_only=read_only)
    assert digest(db) == before


@pytest.mark.parametrize("kind", ["later", "theirs"])
def test_a_writer_refuses_a_later_release_or_a_file_not_ours_untouched(
    tmp_path: Path, kind: str
) -> None:
    db = tmp_path / "w.duckdb"
    if kind == "later":
        connect(db).close()
        made(db, "INSERT INTO store.migrations VALUES (999, 'future', now())")
    else:
        made(db, "CREATE TABLE accounts (name VARCHAR)")
    before = digest(db)
    for attempt in (lambda: connect(db), lambda: upgrade(db), lambda: connect(db, read_only=True)):
        with pytest.raises(WarehouseError) as refused:
            attempt()
        assert str(refused.value) == refusal(peek(db))
    assert digest(db) == before


def test_a_writer_finishes_an_unfinished_file_and_says_so(tmp_path: Path) -> None:
    db = made(tmp_path / "w.duckdb", *BOOTSTRAP)
    with pytest.raises(WarehouseError, match="never finished"):
        connect(db, read_only=True)
    assert upgrade(db) == f"finished making {db} (the refresh that began it was stopped)"
    assert peek(db).release is Release.CURRENT
    assert upgrade(db) is None  # current: nothing to say


def test_an_earlier_release_is_upgraded_in_place_and_said_once(tmp_path: Path) -> None:
    import shutil

    db = tmp_path / "old.duckdb"
    shutil.copy(Path(__file__).parent / "fixtures" / "db" / "schema6.duckdb", db)
    with pytest.raises(WarehouseError, match=r"earlier release \(schema 6"):
        connect(db, read_only=True)
    assert upgrade(db) == (
        f"upgraded {db} from schema 6 to {latest_version()} (its history is kept)"
    )
    con = connect(db, read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM snapshots").fetchone() == (3,)
    finally:
        con.close()


def test_readers_open_at_once_in_one_process(tmp_path: Path) -> None:
    """DuckDB shares one instance of a file within a process: readers opened while others
    are open (a desk's requests) each get a connection, and every one closes."""
    db = tmp_path / "w.duckdb"
    connect(db).close()
    failures: list[BaseException] = []
    start = threading.Barrier(16)

    def read() -> None:
        try:
            start.wait()
            for _ in range(5):
                con = connect(db, read_only=True)
                try:
                    assert con.execute("SELECT count(*) FROM record_status").fetchone() == (0,)
                finally:
                    con.close()
        except BaseException as e:
            failures.append(e)

    threads = [threading.Thread(target=read) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    connect(db).close()  # every reader closed: a writer opens the file again
