"""The product's files opened with the tools people open them with: warcio (`check`,
`index`) and pywb (the WARC indexed and every page replayed from a `wayback` on
127.0.0.1), `frictionless validate` on every Data Package written, feedparser on the
Atom feed, and extruct on the site's schema.org Dataset. One catalog, refreshed for
real, shared by the module's tests."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from servers import Page, WebServer
from support import refresh_at, write_config
from warcio.archiveiterator import ArchiveIterator

from warehouse.bodies import decompress
from warehouse.db import connect

T0 = datetime(2026, 12, 1, 6, 0, tzinfo=UTC)
BIN = Path(sys.executable).parent
# UTF-8 with no <meta charset>: only the Content-Type's charset says how to read it.
PAGE_A = "<html><head><title>Prix</title></head><main><p>We offer {n} seats — für alle, à {n} €.</p></main></html>"  # noqa: E501
PAGE = (
    "<html><head><title>{t}</title></head><main><p>We offer 10 seats this year.</p></main></html>"
)


@dataclass
class Catalog:
    config: Path
    db: Path
    work: Path
    web: WebServer


@pytest.fixture(scope="module")
def catalog(prefect_harness: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    """A record whose sources have a non-ASCII URL and one with a space; its primary
    changes on day 2 (a `changed` claim), and nothing changes on day 3."""
    work = tmp_path_factory.mktemp("clients")
    web = WebServer().start()
    web.routes["/a"] = Page(PAGE_A.format(n=10).encode(), content_type="text/html; charset=utf-8")
    web.routes["/pr%C3%BCfung"] = Page(PAGE.format(t="Prüfung"))
    web.routes["/with%20space"] = Page(PAGE.format(t="Space"))
    config = write_config(
        work,
        f"""\
        - id: r1
          title: One
          sources: [{{id: a, url: "{web.url("/a")}", role: primary}},
                    {{id: iri, url: "{web.url("/prüfung")}", role: third-party}},
                    {{id: space, url: "{web.url("/with space")}", role: third-party}}]
          claims: [{{id: seats, quote: "We offer 10 seats"}}]
        - id: r2
          title: Two
          sources: [{{id: iri, url: "{web.url("/prüfung")}", role: primary}}]
          claims: [{{id: seats, quote: "We offer 10 seats"}}]
        """,
        f"database: {work / 'w.duckdb'}\nfetch: {{retries: 0}}\n"
        "site: {license: 'https://creativecommons.org/licenses/by/4.0/'}\n",
    )
    with pytest.MonkeyPatch.context() as mp:
        refresh_at(config, work / "w.duckdb", T0, mp)
        web.routes["/a"] = Page(
            PAGE_A.format(n=12).encode(), content_type="text/html; charset=utf-8"
        )
        refresh_at(config, work / "w.duckdb", T0 + timedelta(days=1), mp)
        mp.setenv("EVIDENCE_NOW", (T0 + timedelta(days=1, hours=1)).isoformat())
        yield Catalog(config, work / "w.duckdb", work, web)
    web.stop()


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


def _records(warc: Path) -> list[tuple[str, dict[str, str], bytes, object]]:
    out = []
    with warc.open("rb") as f:
        for r in ArchiveIterator(f):
            out.append((r.rec_type, dict(r.rec_headers.headers), r.content_stream().read(), r))
    return out


@pytest.mark.slow
def test_warc_records_name_their_own_targets(catalog: Catalog, tmp_path: Path) -> None:
    from evidence_cli.main import main
    from flows.commands.export import as_uri

    warc = tmp_path / "e.warc.gz"
    assert main(["export", "--warc", str(warc), "--config", str(catalog.config)]) == 0
    records = _records(warc)
    responses = {h["WARC-Record-ID"]: h for kind, h, _, _ in records if kind == "response"}
    metadata = [h for kind, h, _, _ in records if kind == "metadata"]
    assert metadata and all(h["WARC-Target-URI"].startswith("urn:") for h in metadata)
    assert len({h["WARC-Target-URI"] for h in metadata}) == len(metadata)
    for h in metadata:
        page = responses[h["WARC-Refers-To"]]
        assert h["WARC-Refers-To-Target-URI"] == page["WARC-Target-URI"]
    uris = {h["WARC-Target-URI"] for h in responses.values()}
    assert catalog.web.url("/pr%C3%BCfung") in uris and catalog.web.url("/with%20space") in uris
    assert all(u.isascii() and " " not in u for u in uris)
    assert as_uri("https://bücher.example/straße?q=a b") == (
        "https://xn--bcher-kva.example/stra%C3%9Fe?q=a%20b"
    )
    for kind, _, _, r in records:
        if kind == "request":
            head = r.http_headers  # type: ignore[attr-defined]
            target, version = head.statusline.split(" ")  # a space would make a third
            assert head.protocol == "GET" and version == "HTTP/1.1" and target.startswith("/")
        if kind == "response":
            ctype = r.http_headers.get_header("Content-Type")  # type: ignore[attr-defined]
            assert ctype.replace(" ", "").lower() == "text/html;charset=utf-8", ctype
    for tool in (["check", "-v"], ["index"]):
        done = subprocess.run(
            [sys.executable, "-m", "warcio.cli", *tool, str(warc)],
            capture_output=True, text=True,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
    index = subprocess.run(
        [sys.executable, "-m", "warcio.cli", "index", str(warc)],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    assert len(index) == len(records)


def test_a_page_rendered_in_a_browser_is_a_conversion(tmp_path: Path) -> None:
    """What the exporter writes of a rendered page, read back with warcio: no server's
    response and no request, the rendered document as a conversion."""
    from flows.commands.export import write_warc
    from warehouse.exports import KeptPage

    body = "<html><main><p>Rendered: 4 000 € für alle.</p></main></html>".encode()
    page = KeptPage(
        snapshot_id=7, record_id="r", source_id="app", role="primary",
        url="https://example.org/app", fetched_at=T0, http_status=200,
        content_type="text/html", encoding="utf-8", etag=None, last_modified=None,
        render="browser", body=body, claims=[],
    )  # fmt: skip
    warc = tmp_path / "b.warc.gz"
    write_warc([page], warc, "evidence-test", T0)
    records = _records(warc)
    assert [k for k, *_ in records] == ["warcinfo", "conversion", "metadata"]
    _, conversion, payload, _ = records[1]
    assert payload == body and conversion["Content-Type"] == "text/html; charset=utf-8"
    assert conversion["WARC-Target-URI"] == "https://example.org/app"
    _, metadata, raw, _ = records[2]
    assert metadata["WARC-Target-URI"] == "urn:evidence-pipeline:r:app:7"
    assert metadata["WARC-Refers-To"] == conversion["WARC-Record-ID"]
    assert json.loads(raw)["render"] == "browser"


# pywb's `wayback`. Its fakeredis (for the recorder, never used in replay) imports a name
# that redis>=3 dropped; the lock lifts pywb's redis<3 pin (requirements.overrides), so the
# name is put back before pywb loads.
WAYBACK = """
from gevent.monkey import patch_all; patch_all()
import sys, redis.utils
redis.utils.dummy = type("dummy", (), {})
from pywb.apps.cli import wayback
sys.argv[0] = "wayback"
wayback()
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
def test_pywb_replays_every_page_as_stored(catalog: Catalog, tmp_path: Path) -> None:
    """The WARC indexed by pywb's own wb-manager; each kept page replayed by a `wayback`
    on 127.0.0.1 in identity mode (id_: the bytes as archived), equal to the stored body
    and served with its charset."""
    from evidence_cli.main import main
    from flows.commands.export import as_uri

    warc = tmp_path / "e.warc.gz"
    assert main(["export", "--warc", str(warc), "--config", str(catalog.config)]) == 0
    root = tmp_path / "pywb"
    root.mkdir()
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    for args in (["init", "evidence"], ["add", "evidence", str(warc)]):
        subprocess.run([BIN / "wb-manager", *args], cwd=root, env=env, check=True,
                       capture_output=True)  # fmt: skip
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", WAYBACK, "-p", str(port), "-b", "127.0.0.1"],
        cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        import httpx

        base = f"http://127.0.0.1:{port}/evidence"
        deadline = time.monotonic() + 60
        while True:  # ready once it answers
            try:
                httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except httpx.TransportError:
                alive = server.poll() is None
                assert alive, server.stderr.read().decode()[-2000:] if server.stderr else ""
                assert time.monotonic() < deadline, "wayback did not answer"
                time.sleep(0.2)
        stored = _stored(catalog.db)
        assert len(stored) >= 4
        for (url, at), body in stored.items():
            stamp = at.astimezone(UTC).strftime("%Y%m%d%H%M%S")
            got = httpx.get(f"{base}/{stamp}id_/{as_uri(url)}", timeout=30)
            assert got.status_code == 200, (url, got.status_code)
            assert got.content == body, url
            assert "charset=utf-8" in got.headers["content-type"].lower()
    finally:
        server.terminate()
        server.wait(timeout=30)


def _validate(package: Path) -> None:
    done = subprocess.run(
        [BIN / "frictionless", "validate", str(package)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["parquet", "csv", "json"])
def test_every_data_package_validates(catalog: Catalog, tmp_path: Path, fmt: str) -> None:
    from evidence_cli.main import main

    out = tmp_path / fmt
    assert main(["export", "--format", fmt, str(out), "--config", str(catalog.config)]) == 0
    _validate(out / "datapackage.json")


@pytest.mark.slow
def test_the_sites_packages_validate_and_its_dataset_parses(
    catalog: Catalog, tmp_path: Path
) -> None:
    import extruct

    from evidence_cli.main import main

    out = tmp_path / "site"
    args = ["site", "--config", str(catalog.config), "--out", str(out), "--with-data"]
    assert main(args) == 0
    for fmt in ("parquet", "csv"):
        _validate(out / "data" / fmt / "datapackage.json")
    found = extruct.extract(
        (out / "index.html").read_text("utf-8"), syntaxes=["json-ld"], uniform=True
    )["json-ld"]
    (dataset,) = [d for d in found if d.get("@type") == "Dataset"]
    assert dataset["creator"]["@type"] in ("Organization", "Person")  # as schema.org allows
    assert dataset["name"] and dataset["license"] and dataset["distribution"]


@pytest.mark.slow
def test_the_feed_has_the_catalogs_id_and_dates_changes_by_when(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import feedparser

    from evidence_cli.main import main

    def feed(at: datetime, out: Path, db: Path | None = None) -> feedparser.FeedParserDict:
        monkeypatch.setenv("EVIDENCE_NOW", at.isoformat())
        more = ["--db", str(db)] if db else []
        assert main(["site", "--config", str(catalog.config), "--out", str(out), *more]) == 0
        parsed = feedparser.parse((out / "feed.xml").read_bytes())
        assert not parsed.bozo, parsed.bozo_exception
        return parsed

    first = feed(T0 + timedelta(days=1, hours=1), tmp_path / "one")
    changed = [e for e in first.entries if "changed on" in e.title]
    assert changed, [e.title for e in first.entries]
    change_time = (T0 + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    assert all(e.updated.startswith(change_time) for e in changed)
    ids = [e.id for e in first.entries]
    assert len(set(ids)) == len(ids) and all(i.startswith(first.feed.id) for i in ids)

    # another refresh finds the same: the entries keep their dates
    refresh_at(catalog.config, catalog.db, T0 + timedelta(days=2), monkeypatch)
    again = feed(T0 + timedelta(days=2, hours=1), tmp_path / "two")
    assert {e.id: e.updated for e in again.entries if "changed on" in e.title} == {
        e.id: e.updated for e in changed
    }
    assert again.feed.id == first.feed.id

    # another catalog's database: another feed id
    other = tmp_path / "other.duckdb"
    connect(other).close()
    assert feed(T0 + timedelta(days=2), tmp_path / "three", other).feed.id != first.feed.id


def test_site_feed_id_is_no_constant() -> None:
    """Two databases made apart name their catalogs apart."""
    import duckdb

    from warehouse import queries
    from warehouse.db import migrate

    ids = []
    for _ in range(2):
        con = duckdb.connect()
        migrate(con)
        ids.append(queries.catalog_uuid(con))
        con.close()
    assert None not in ids and ids[0] != ids[1]
