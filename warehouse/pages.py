"""Pages: each distinct body once, compressed, with the text, figures and statuses read
from it. Snapshots and claim checks point at a page by its content hash."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import duckdb

from warehouse.db import field_values, insert_rows, rows_as, transaction
from warehouse.rows import PageRow, StoredBody

# The fields of a PageRow store.pages does not hold by their names: the body is kept in
# store.bodies, the figures and statuses in their own tables, its size as `bytes`.
_PAGE_ELSEWHERE = ("body_z", "numbers", "statuses", "size")


def missing_pages(
    con: duckdb.DuckDBPyConnection, hashes: Iterable[str], extractor_version: str
) -> set[str]:
    """The hashes with no stored extraction of this extractor version."""
    wanted = sorted(set(hashes))
    if not wanted:
        return set()
    have = con.execute(
        "SELECT content_hash FROM store.pages "
        "WHERE list_contains(?, content_hash) AND extractor_version = ?",
        [wanted, extractor_version],
    ).fetchall()
    return set(wanted) - {h for (h,) in have}


def write_pages(con: duckdb.DuckDBPyConnection, pages: Sequence[PageRow]) -> None:
    if not pages:
        return
    hashes = [p.content_hash for p in pages]
    for table in ("store.pages", "store.bodies", "store.page_numbers", "store.page_statuses"):
        # the table names are ours, never input: only the hashes are values
        con.execute(f"DELETE FROM {table} WHERE list_contains(?, content_hash)", [hashes])  # noqa: S608
    insert_rows(
        con,
        "store.pages",
        [{**field_values(p, leave=_PAGE_ELSEWHERE), "bytes": p.size} for p in pages],
    )
    insert_rows(
        con,
        "store.bodies",
        [{"content_hash": p.content_hash, "body": p.body_z} for p in pages],
        per=25,  # compressed bodies: a few MB a statement
    )
    insert_rows(
        con,
        "store.page_numbers",
        [
            {"content_hash": p.content_hash, "position": i, **field_values(n, leave=_NOT_KEPT)}
            for p in pages
            for i, n in enumerate(p.numbers)
        ],
    )
    insert_rows(
        con,
        "store.page_statuses",
        [
            {"content_hash": p.content_hash, "position": i, **field_values(s)}
            for p in pages
            for i, s in enumerate(p.statuses)
        ],
    )


_NOT_KEPT = ("rule",)  # which grammar rule read a figure: for reading its mistakes


def stale_pages(
    con: duckdb.DuckDBPyConnection, extractor_version: str, everything: bool = False
) -> tuple[list[str], int]:
    """Hashes of stored pages read by another extractor version (or all of them) whose raw
    page is kept, and how many more there are whose raw page is not."""
    rows = con.execute(
        "SELECT content_hash, EXISTS (SELECT 1 FROM store.bodies b "
        "WHERE b.content_hash = p.content_hash) FROM store.pages p "
        "WHERE ? OR extractor_version <> ? ORDER BY content_hash",
        [everything, extractor_version],
    ).fetchall()
    return [h for h, kept in rows if kept], sum(not kept for _, kept in rows)


def readings(con: duckdb.DuckDBPyConnection, hashes: Iterable[str]) -> dict[str, str]:
    """The reading hash (title and main text) of each of these stored pages."""
    wanted = sorted(set(hashes))
    if not wanted:
        return {}
    return dict(
        con.execute(
            "SELECT content_hash, text_hash FROM store.pages "
            "WHERE list_contains(?, content_hash) AND text_hash IS NOT NULL",
            [wanted],
        ).fetchall()
    )


def versions(con: duckdb.DuckDBPyConnection, hashes: Iterable[str]) -> dict[str, str]:
    """The extractor version that read each of these stored pages."""
    wanted = sorted(set(hashes))
    if not wanted:
        return {}
    return dict(
        con.execute(
            "SELECT content_hash, extractor_version FROM store.pages "
            "WHERE list_contains(?, content_hash)",
            [wanted],
        ).fetchall()
    )


def fingerprints(
    con: duckdb.DuckDBPyConnection, hashes: Iterable[str], extractor_version: str
) -> dict[str, bytes]:
    """The fingerprint of each of these stored pages read by this extractor version (a
    reading by another version is no reading to keep)."""
    wanted = sorted(set(hashes))
    if not wanted:
        return {}
    return dict(
        con.execute(
            "SELECT content_hash, fingerprint FROM store.pages WHERE list_contains(?, "
            "content_hash) AND fingerprint IS NOT NULL AND extractor_version = ?",
            [wanted, extractor_version],
        ).fetchall()
    )


def refit(con: duckdb.DuckDBPyConnection, prints: dict[str, bytes]) -> None:
    """Give stored pages the fingerprint of a newer body read the same (its chrome moved
    for good: the next body like it is then not read again)."""
    if prints:
        con.executemany(
            "UPDATE store.pages SET fingerprint = ? WHERE content_hash = ?",
            [(fp, h) for h, fp in prints.items()],
        )


def drop_old_bodies(con: duckdb.DuckDBPyConnection, keep: int) -> int:
    """Drop the raw page of every snapshot but the newest `keep` of each source and those
    that a current claim check rests on (their text, figures and statuses stay); returns
    pages dropped."""
    with transaction(con):
        row = con.execute(
            """
            DELETE FROM store.bodies WHERE content_hash NOT IN (
                SELECT content_hash FROM (
                    SELECT content_hash, row_number() OVER (
                        PARTITION BY record_id, source_id ORDER BY snapshot_id DESC
                    ) AS n
                    FROM store.snapshots
                ) WHERE n <= $keep
                UNION
                SELECT s.content_hash
                FROM store.current_checks c JOIN store.snapshots s USING (snapshot_id)
            )
            """,
            {"keep": keep},
        ).fetchone()
    return row[0] if row else 0


def stored_bodies(con: duckdb.DuckDBPyConnection, hashes: Sequence[str]) -> list[StoredBody]:
    """Each page's compressed body, with the URL and time it was first fetched."""
    return rows_as(
        StoredBody,
        con.execute(
            "SELECT p.content_hash, b.body AS body_z, p.content_type, p.encoding,"
            " min(s.fetched_at) AS fetched_at, arg_min(s.url, s.fetched_at) AS url"
            " FROM store.pages p JOIN store.bodies b USING (content_hash)"
            " JOIN store.snapshots s USING (content_hash)"
            " WHERE list_contains(?, p.content_hash) GROUP BY ALL",
            [list(hashes)],
        ),
    )


def replace_pages(con: duckdb.DuckDBPyConnection, pages: Sequence[PageRow]) -> None:
    """New extractions of stored pages; their claim checks are dropped to be made again."""
    with transaction(con):
        write_pages(con, pages)
        con.execute(
            "DELETE FROM store.checks WHERE snapshot_id IN (SELECT snapshot_id FROM "
            "store.snapshots WHERE list_contains(?, content_hash))",
            [[p.content_hash for p in pages]],
        )


def page_texts(con: duckdb.DuckDBPyConnection, hashes: Iterable[str]) -> dict[str, str]:
    """The main text of each of these pages, by content hash."""
    wanted = sorted(set(hashes))
    if not wanted:
        return {}
    rows = con.execute(
        "SELECT content_hash, coalesce(text, '') FROM store.pages "
        "WHERE list_contains(?, content_hash)",
        [wanted],
    ).fetchall()
    return dict(rows)
