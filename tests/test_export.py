"""`evidence export` and the published catalog's metadata: the kept raw pages as WARC
read back with warcio's own reader and tools, the views as Parquet, CSV and JSON read
back with DuckDB, the Data Package describing them, and the site's schema.org Dataset."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from servers import Page, WebServer
from support import refresh_at, write_config
from warcio.archiveiterator import ArchiveIterator

from warehouse.bodies import decompress
from warehouse.db import connect, stable_views

T0 = datetime(2026, 12, 1, 6, 0, tzinfo=UTC)


@pytest.fixture
def exported(
    prefect_harness: None, web: WebServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Path]:
    """Two records, three sources; one page changes between two refreshes."""
    for path, seats in (("/a", 10), ("/b", 10), ("/c", 20)):
        web.routes[path] = Page(
            f"<html><head><title>{path}</title></head><main><p>We offer {seats} seats this"
            " year, and “more” next year.</p></main></html>"
        )
    config = write_config(
        tmp_path,
        f"""\
        - id: r1
          title: One
          sources: [{{id: a, url: "{web.url("/a")}", role: primary}},
                    {{id: b, url: "{web.url("/b")}", role: third-party}}]
          claims: [{{id: seats, quote: "We offer 10 seats"}}]
        - id: r2
          title: Two
          sources: [{{id: c, url: "{web.url("/c")}", role: primary}}]
          claims: [{{id: seats, quote: "We offer 20 seats"}}]
        """,
        f"database: {tmp_path / 'w.duckdb'}\nfetch: {{retries: 0}}\n"
        "site: {license: 'https://creativecommons.org/licenses/by/4.0/'}\n",
    )
    refresh_at(config, tmp_path / "w.duckdb", T0, monkeypatch)
    web.routes["/a"] = Page("<html><main><p>We offer 12 seats this year.</p></main></html>")
    refresh_at(config, tmp_path / "w.duckdb", T0 + timedelta(days=1), monkeypatch)
    return config, tmp_path / "w.duckdb"


def _stored(db: Path) -> dict[tuple[str, datetime], bytes]:
    con = connect(db, read_only=True)
    try:
        rows = con.execute(
            "SELECT s.url, s.fetched_at, b.body FROM store.snapshots s "
            "JOIN store.bodies b USING (content_hash)"
        ).fetchall()
    finally:
        con.close()
    return {(url, at): decompress(bytes(body)) for url, at, body in rows}


@pytest.mark.slow
def test_warc_holds_every_kept_page_byte_for_byte(
    exported: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from evidence_cli.main import main

    config, db = exported
    warc = tmp_path / "out" / "evidence.warc.gz"
    assert main(["export", "--warc", str(warc), "--config", str(config)]) == 0
    assert "wrote 4 kept page(s)" in capsys.readouterr().out
    stored = _stored(db)
    assert len(stored) == 4
    kinds: list[str] = []
    seen: dict[tuple[str, datetime], bytes] = {}
    metadata: list[dict] = []
    with warc.open("rb") as f:
        for record in ArchiveIterator(f):
            kinds.append(record.rec_type)
            assert record.rec_headers.protocol == "WARC/1.1"
            if record.rec_type == "response":
                url = record.rec_headers.get_header("WARC-Target-URI")
                at = datetime.fromisoformat(record.rec_headers.get_header("WARC-Date"))
                assert record.http_headers.get_statuscode() == "200"
                assert record.http_headers.get_header("Content-Type").startswith("text/html")
                seen[(url, at)] = record.content_stream().read()
            elif record.rec_type == "metadata":
                metadata.append(json.loads(record.content_stream().read()))
    assert kinds == ["warcinfo", *["response", "request", "metadata"] * 4]
    assert seen == stored  # the body as fetched, dated by its fetch
    assert sorted((m["record_id"], m["source_id"]) for m in metadata) == [
        ("r1", "a"), ("r1", "a"), ("r1", "b"), ("r2", "c"),
    ]  # fmt: skip
    first_a = next(m for m in metadata if m["source_id"] == "a")
    assert first_a["role"] == "primary"
    assert first_a["claims"] == [
        {"claim_id": "seats", "quote": "We offer 10 seats", "outcome": "confirmed"}
    ]
    with gzip.open(warc) as f:  # gzip per record: the file is a run of gzip members
        assert f.read(8) == b"WARC/1.1"
    index = subprocess.run(
        [sys.executable, "-m", "warcio.cli", "index", str(warc)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert len(index.stdout.splitlines()) == len(kinds)
    check = subprocess.run(
        [sys.executable, "-m", "warcio.cli", "check", "-v", str(warc)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr

    one = tmp_path / "r2.warc.gz"
    assert main(["export", "--warc", str(one), "--record", "r2", "--config", str(config)]) == 0
    with one.open("rb") as f:
        urls = {r.rec_headers.get_header("WARC-Target-URI") for r in ArchiveIterator(f)}
    pages = {u for u in urls if not (u or "").startswith("urn:")}  # metadata: its own urn
    assert pages == {None, next(url for url, _ in stored if url.endswith("/c"))}


def _as_text(con, source: str, fields: list[tuple[str, str]], lists_as_json: bool) -> list:
    columns = ", ".join(
        f'to_json("{n}")::VARCHAR' if lists_as_json and t.endswith("[]") else f'"{n}"::VARCHAR'
        for n, t in fields
    )
    rows = con.execute(f"SELECT {columns} FROM {source}").fetchall()  # noqa: S608
    return sorted(rows, key=lambda r: tuple((x is None, x or "") for x in r))


@pytest.mark.slow
def test_views_read_back_equal_and_the_package_describes_them(
    exported: tuple[Path, Path], tmp_path: Path
) -> None:
    for fmt in ("parquet", "csv", "json"):
        _views_read_back(*exported, tmp_path, fmt)


def _views_read_back(config: Path, db: Path, tmp_path: Path, fmt: str) -> None:
    from evidence_cli.main import main

    out = tmp_path / fmt
    assert main(["export", "--format", fmt, str(out), "--config", str(config)]) == 0
    package = json.loads((out / "datapackage.json").read_text())
    assert package["profile"] == "data-package" and package["name"] == "evidence-catalog"
    assert [r["path"] for r in package["resources"]] == [f"{v}.{fmt}" for v in stable_views()]
    con = connect(db, read_only=True, folders=[out])  # a reader reaches no other file
    try:
        for resource in package["resources"]:
            view = resource["path"].removesuffix(f".{fmt}")
            path = str(out / resource["path"])
            fields = con.execute(
                "SELECT column_name, data_type FROM information_schema.columns WHERE "
                "table_schema = 'main' AND table_name = ? ORDER BY ordinal_position",
                [view],
            ).fetchall()
            reader = {
                "parquet": f"read_parquet('{path}')",
                "csv": f"read_csv('{path}', all_varchar = true)",
                "json": f"read_json('{path}')",
            }[fmt]
            count = con.execute(f"SELECT count(*) FROM {view}").fetchone()  # noqa: S608
            if fmt == "json" and count == (0,):
                assert json.loads(Path(path).read_text()) == []  # no rows, no columns
                continue
            read = con.execute(f"SELECT * FROM {reader} LIMIT 0")  # noqa: S608
            assert [d[0] for d in read.description] == [n for n, _ in fields], view
            assert [f["name"] for f in resource["schema"]["fields"]] == [n for n, _ in fields]
            if fmt == "parquet":
                got = con.execute(f"SELECT * FROM {reader}").fetchall()  # noqa: S608
                want = con.execute(f"SELECT * FROM {view}").fetchall()  # noqa: S608
                assert sorted(map(str, got)) == sorted(map(str, want)), view
            else:
                # CSV holds lists as JSON text: the view's lists are compared as JSON
                assert _as_text(con, reader, fields, False) == _as_text(
                    con, view, fields, fmt == "csv"
                ), view
        types = {
            (r["name"], f["name"]): f["type"]
            for r in package["resources"]
            for f in r["schema"]["fields"]
        }
        assert types[("snapshots", "fetched_at")] == "datetime"
        assert types[("quoted-numbers", "value")] == "number"
        # (Frictionless reads Parquet through pandas: a list column there is `any`)
        lists = "any" if fmt == "parquet" else "array"
        assert types[("claim-status", "confirming_sources")] == lists
        assert types[("source-health", "reachable")] == "boolean"
        rows = con.execute("SELECT count(*) FROM snapshots").fetchone()
    finally:
        con.close()
    assert rows == (4,)


@pytest.mark.slow
def test_the_site_carries_its_dataset_metadata_and_origins(
    exported: tuple[Path, Path], tmp_path: Path
) -> None:
    from evidence_cli.main import main

    config, _ = exported
    out = tmp_path / "site"
    assert main(["site", "--config", str(config), "--out", str(out), "--with-data"]) == 0
    html = (out / "index.html").read_text()
    (ld,) = re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    dataset = json.loads(ld)
    assert dataset["@type"] == "Dataset" and dataset["name"]
    assert dataset["license"] == "https://creativecommons.org/licenses/by/4.0/"
    assert datetime.fromisoformat(dataset["dateModified"]) == T0 + timedelta(days=1)
    urls = [d["contentUrl"] for d in dataset["distribution"]]
    assert "data/parquet/snapshots.parquet" in urls and "data/csv/datapackage.json" in urls
    assert all((out / u).is_file() for u in urls)  # it names only what exists
    record = (out / "records" / "r1.html").read_text()
    assert "accessed" in record and "2026-12-02" in record
    assert "page published" not in record  # no page here says its dates: no empty column

    bare = tmp_path / "bare"
    assert main(["site", "--config", str(config), "--out", str(bare)]) == 0
    (ld,) = re.findall(r'<script type="application/ld\+json">(.*?)</script>',
                       (bare / "index.html").read_text(), re.S)  # fmt: skip
    assert "distribution" not in json.loads(ld) and not (bare / "data").exists()


MISTAKES = [
    (["export"], "give --warc FILE, or --format"),
    (["export", "--format", "csv"], "give the directory to write"),
    (["export", "--format", "xml", "d"], "invalid choice"),
    (["export", "--warc", "w.warc.gz", "--record", "nope"], "no record 'nope'"),
    (["export", "--format", "csv", "d", "--record", "r1"], "--record goes with --warc"),
]


@pytest.mark.slow
def test_export_mistakes_are_one_line(
    exported: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    from evidence_cli.main import main

    config, _ = exported
    monkeypatch.chdir(tmp_path)
    for args, message in MISTAKES:
        try:
            code = main([*args, "--config", str(config)])
        except SystemExit as e:  # argparse's own
            code = e.code
        err = capsys.readouterr().err.strip()
        assert code == 2 and message in err and len(err.splitlines()) == 1, (args, err)
