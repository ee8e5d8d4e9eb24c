"""`evidence export`: the kept raw pages as a WARC 1.1 file, or the stable views as
Parquet, CSV or JSON files with a Frictionless Data Package describing them.

WARC as web archives write it (warcio, Webrecorder's library; each record gzipped on
its own): a `warcinfo` record, then per kept page a `response` (the status and headers
kept, the Content-Type with the charset the page was read in, the body as fetched), the
`request` that fetched it, and a `metadata` record naming the record, source and claims
the page backs. The metadata record has a `urn:` of its own as its target, so that
replay tools (pywb, ReplayWeb.page) replay the page and not it. A page rendered in a
browser is no server's response: it is a `conversion` record (the document as rendered),
with no request. URLs are written as URIs (an IRI's host in IDNA, the rest
percent-encoded), as WARC and HTTP request lines need them.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import quote, urlsplit, urlunsplit

from evidence_base.meta import __version__
from evidence_base.outputs import file_in, output_dir, output_file, replacing, write_text
from warehouse import exports
from warehouse.exports import KeptPage

WARC_1_1 = "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"
_REASONS = {200: "OK", 203: "Non-Authoritative Information", 304: "Not Modified"}
# What may stay as written in a URI's path, query and fragment (RFC 3986's reserved and
# unreserved characters, and '%' of an escape already there).
_URI_SAFE = "/:@!$&'()*+,;=-._~%?"


def write_warc(pages: list[KeptPage], path: Path, user_agent: str, now: datetime) -> int:
    """The pages as `path` (`-`: stdout); the number of pages written."""
    from warcio.warcwriter import WARCWriter

    with _warc_output(path) as out:
        writer = WARCWriter(out, gzip=True, warc_version="1.1")
        writer.write_record(
            writer.create_warcinfo_record(
                path.name,
                {
                    "software": f"evidence-pipeline/{__version__} (warcio)",
                    "format": "WARC File Format 1.1",
                    "conformsTo": WARC_1_1,
                    "description": "raw pages kept by evidence-pipeline, and the claims they back",
                    "created": _warc_date(now),
                },
            )
        )
        for page in pages:
            for record in _page_records(writer, page, user_agent):
                writer.write_record(record)
    return len(pages)


@contextmanager
def _warc_output(path: Path) -> Iterator[BinaryIO]:
    """Where a WARC goes: stdout for `-`, else the file `path` names (through a symlink),
    replaced atomically; never a device, FIFO or socket."""
    if str(path) == "-":
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    target = output_file(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with replacing(target) as partial, partial.open("wb") as out:
        yield out


def _page_records(writer: Any, page: KeptPage, user_agent: str) -> list[Any]:
    """The records of one kept page: its response (or conversion), request, metadata."""
    from warcio.statusandheaders import StatusAndHeaders

    date = _warc_date(page.fetched_at)
    uri = as_uri(page.url)
    content_type = _content_type(page)
    status = page.http_status if page.http_status and page.http_status != 304 else 200
    records = []
    if page.render == "browser":  # the document as rendered, not as served
        response = writer.create_warc_record(
            uri,
            "conversion",
            payload=BytesIO(page.body),
            length=len(page.body),
            warc_content_type=content_type,
            warc_headers_dict={"WARC-Date": date},
        )
        response_id = response.rec_headers.get_header("WARC-Record-ID")
        records.append(response)
    else:
        headers = [("Content-Type", content_type)]
        headers += [("Content-Length", str(len(page.body)))]
        if page.etag:
            headers.append(("ETag", page.etag))
        if page.last_modified:
            headers.append(("Last-Modified", page.last_modified))
        response = writer.create_warc_record(
            uri,
            "response",
            payload=BytesIO(page.body),
            length=len(page.body),
            http_headers=StatusAndHeaders(
                f"{status} {_REASONS.get(status, 'OK')}", headers, protocol="HTTP/1.1"
            ),
            warc_headers_dict={"WARC-Date": date},
        )
        response_id = response.rec_headers.get_header("WARC-Record-ID")
        parts = urlsplit(uri)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        request = writer.create_warc_record(
            uri,
            "request",
            http_headers=StatusAndHeaders(
                f"GET {target} HTTP/1.1",
                [("Host", parts.netloc), ("User-Agent", user_agent)],
                is_http_request=True,
            ),
            warc_headers_dict={"WARC-Date": date, "WARC-Concurrent-To": response_id},
        )
        records += [response, request]
    backs = {
        "record_id": page.record_id,
        "source_id": page.source_id,
        "role": page.role,
        "snapshot_id": page.snapshot_id,
        "render": page.render,
        "claims": page.claims,
    }
    raw = json.dumps(backs, ensure_ascii=False, indent=1).encode()
    metadata = writer.create_warc_record(
        f"urn:evidence-pipeline:{page.record_id}:{page.source_id}:{page.snapshot_id}",
        "metadata",
        payload=BytesIO(raw),
        length=len(raw),
        warc_content_type="application/json",
        warc_headers_dict={
            "WARC-Date": date,
            "WARC-Refers-To": response_id,
            "WARC-Refers-To-Target-URI": uri,
            "WARC-Refers-To-Date": date,
        },
    )
    return [*records, metadata]


def as_uri(url: str) -> str:
    """A URL as a URI: an IRI's host in IDNA, its path, query and fragment
    percent-encoded (UTF-8); what is already a URI stays as it is."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        host = host.encode("idna").decode("ascii")
    except UnicodeError:
        host = quote(host, safe="")
    netloc = host if ":" not in host else f"[{host}]"
    if parts.port is not None:
        netloc += f":{parts.port}"
    if parts.username is not None:
        userinfo = quote(parts.username, safe="%")
        if parts.password is not None:
            userinfo += ":" + quote(parts.password, safe="%")
        netloc = f"{userinfo}@{netloc}"
    return urlunsplit(
        (
            parts.scheme,
            netloc,
            quote(parts.path, safe=_URI_SAFE),
            quote(parts.query, safe=_URI_SAFE),
            quote(parts.fragment, safe=_URI_SAFE),
        )
    )


def _content_type(page: KeptPage) -> str:
    """The page's media type with the charset it was read in, when it has none."""
    media = page.content_type or "application/octet-stream"
    if page.encoding and "charset=" not in media.lower() and media.startswith("text/"):
        media += f"; charset={page.encoding}"
    return media


def _warc_date(at: datetime) -> str:
    """WARC 1.1's date: UTC, to the microsecond when there are any."""
    at = at.astimezone(UTC)
    spec = "%Y-%m-%dT%H:%M:%S.%fZ" if at.microsecond else "%Y-%m-%dT%H:%M:%SZ"
    return at.strftime(spec)


def write_tables(con: Any, out: Path, fmt: str, title: str, now: datetime) -> list[dict]:
    """Each stable view as a file in `out`, and `out/datapackage.json`; its resources."""
    out = output_dir(out)
    resources = exports.export_views(con, out, fmt)
    package = {
        "profile": "data-package",
        "name": "evidence-catalog",
        "title": title,
        "description": (
            "Claims of a catalog checked against their sources: grades, freshness, the "
            "pages fetched and the figures read from them (evidence-pipeline)."
        ),
        "created": now.astimezone(UTC).isoformat(),
        "resources": resources,
    }
    write_text(file_in(out, "datapackage.json"), json.dumps(package, indent=1) + "\n")
    return resources
