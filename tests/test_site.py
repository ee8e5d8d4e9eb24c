"""`evidence site --out DIR`: a static site of the catalog, from a real refresh; every
string that came from a page or a config file is escaped."""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from servers import Page, WebServer
from support import one_source_catalog, refresh_at, write_config

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = "<script>alert(1)</script>"
PAGE = (
    "<html><head><title>Credits</title></head><body><main><p>Teams get {amount} in credits "
    "&lt;script&gt;alert(1)&lt;/script&gt; for the best runs.</p></main></body></html>"
)


class Tags(HTMLParser):
    """Every start tag of a page, with its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _tags(path: Path) -> list[tuple[str, dict[str, str | None]]]:
    parser = Tags()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.tags


@pytest.mark.slow
def test_site_of_a_refreshed_catalog(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from evidence_cli.main import main

    web.routes["/p"] = Page(PAGE.format(amount="$2,000"))
    db = tmp_path / "w.duckdb"
    config = write_config(
        tmp_path,
        f"""\
        - id: hostile
          title: "<img src=x onerror=alert(2)> credits"
          fields: {{note: "<b>bold</b>"}}
          sources: [{{id: p, url: "{web.url("/p")}", role: primary}}]
          claims: [{{id: c, quote: "Teams get $2,000 in credits {HOSTILE}"}}]
        - id: quiet
          title: Quiet record
          sources: [{{id: q, url: "{web.url("/missing")}", role: primary}}]
          claims: [{{id: d, quote: "nothing"}}]
        """,
        f"database: {db}\nfetch: {{retries: 0}}\n",
    )
    day = datetime(2026, 11, 2, 6, tzinfo=UTC)
    refresh_at(config, db, day, monkeypatch)
    web.routes["/p"] = Page(PAGE.format(amount="$2,500"))
    refresh_at(config, db, day + timedelta(days=3), monkeypatch)

    out = tmp_path / "site"
    capsys.readouterr()
    assert main(["site", "--config", str(config), "--out", str(out)]) == 0
    assert str((out / "index.html").absolute()) in capsys.readouterr().out

    index = (out / "index.html").read_text()
    # what needs a person first: the contradicted record before the unverified one
    assert index.index("records/hostile.html") < index.index("records/quiet.html")
    assert ">contradicted</span>" in index and ">unverified</span>" in index
    # links between pages lead to files that exist
    for page in ("index.html", "sources.html", "records/hostile.html"):
        for tag, attrs in _tags(out / page):
            href = attrs.get("href") or ""
            if tag == "a" and href and not href.startswith("http"):
                assert (out / page).parent.joinpath(href).resolve().exists(), (page, href)
    # escaped everywhere: no element or handler came from a page or a config
    for page in (out / "index.html", out / "sources.html", *(out / "records").glob("*.html")):
        tags = _tags(page)
        assert not [
            t
            for t, attrs in tags
            if t in ("img", "b") or (t == "script" and attrs.get("type") != "application/ld+json")
        ], page  # the one script is data (schema.org JSON-LD), its strings escaped
        assert not [a for _, attrs in tags for a in attrs if a.startswith("on")], page
    record = (out / "records" / "hostile.html").read_text()
    # what moved, said plainly: the grade, the claim and its figures as written
    moved = "documented -&gt; contradicted: c $2,000 -&gt; $2,500"
    assert moved in index and moved in record
    assert "a primary source says otherwise on c." in record and "confirming" not in record
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in record  # shown as text
    assert "&lt;img src=x onerror=alert(2)&gt; credits" in record
    # the grade history drawn inline: two bands, documented then contradicted
    svg = [attrs for tag, attrs in _tags(out / "records" / "hostile.html") if tag == "rect"]
    fills = [a.get("fill") for a in svg if a.get("y") == "4" and a.get("fill", "").startswith("#")]
    assert fills[:2] == ["#0072B2", "#D55E00"]
    # sources: the unreachable one first
    sources = (out / "sources.html").read_text()
    assert sources.index("/missing") < sources.index(web.url("/p"))
    # the feed is Atom, with the grade change in it
    feed = ET.parse(out / "feed.xml").getroot()
    atom = "{http://www.w3.org/2005/Atom}"
    assert feed.tag == f"{atom}feed"
    titles = [e.findtext(f"{atom}title") for e in feed.findall(f"{atom}entry")]
    assert "hostile: documented (fresh) -> contradicted (fresh)" in titles
    entries = feed.findall(f"{atom}entry")
    # the Atom rules (RFC 4287): the feed has an id, a title, an updated time and an
    # author; each entry an id, a title, an updated time and a link; times are RFC 3339
    for element, needed in [
        (feed, ("id", "title", "updated")),
        *((e, ("id", "title", "updated")) for e in entries),
    ]:
        for name in needed:
            assert (element.findtext(f"{atom}{name}") or "").strip(), name
        assert datetime.fromisoformat(element.findtext(f"{atom}updated") or "").tzinfo
    assert feed.findtext(f"{atom}author/{atom}name")
    assert all(e.find(f"{atom}link") is not None for e in entries)
    # entry ids stay the same from one writing of the site to the next
    ids = [e.findtext(f"{atom}id") for e in entries]
    assert len(set(ids)) == len(ids)
    assert main(["site", "--config", str(config), "--out", str(tmp_path / "again")]) == 0
    again = ET.parse(tmp_path / "again" / "feed.xml").getroot()
    assert [e.findtext(f"{atom}id") for e in again.findall(f"{atom}entry")] == ids


@pytest.mark.slow
def test_the_site_in_a_real_browser(
    prefect_harness: None, web: WebServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a reader sees in headless Chromium: every record, the badges, the timeline,
    links that work, no console error, nothing fetched from outside the site, and a
    page's hostile text shown as text."""
    from support import require_browser

    require_browser()
    from playwright.sync_api import sync_playwright

    from evidence_cli.main import main
    from flows.fetching import find_browser

    web.routes["/p"] = Page(PAGE.format(amount="$2,500"))
    config, db = one_source_catalog(
        tmp_path,
        web.url("/p"),
        f"Teams get $2,000 in credits {HOSTILE}",
        record_id="hostile",
        title="Credits",
    )
    refresh_at(config, db, datetime(2026, 11, 2, 6, tzinfo=UTC), monkeypatch)
    out = tmp_path / "site"
    assert main(["site", "--config", str(config), "--out", str(out)]) == 0

    errors: list[str] = []
    outside: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_browser(None))
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = context.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on(
                "request",
                lambda r: None if r.url.startswith("file://") else outside.append(r.url),
            )
            page.goto((out / "index.html").as_uri())
            assert page.locator("span.badge").first.inner_text() == "contradicted"
            shots = Path(os.environ.get("EVIDENCE_SCREENSHOTS", ROOT / "ci-artifacts"))
            shots.mkdir(parents=True, exist_ok=True)  # looked at by a person, kept by CI
            page.screenshot(path=str(shots / "site-index.png"), full_page=True)
            page.click("text=Credits")
            assert page.url.endswith("/records/hostile.html")
            assert page.locator("svg.timeline rect").count() >= 1
            text = page.inner_text("body")
            assert "alert(1)" in text and "<script>" in text  # the page's words, as text
            assert page.evaluate("document.scripts.length") == 0
            page.screenshot(path=str(shots / "site-record.png"), full_page=True)
            page.click("text=Sources")
            assert page.url.endswith("/sources.html")
            # at 1280 px an id or a date stays on one line
            heights = page.evaluate(
                "[...document.querySelectorAll('td.nowrap')].map(td => td.getClientRects()"
                ".length ? td.getBoundingClientRect().height : 0)"
            )
            line = page.evaluate("parseFloat(getComputedStyle(document.body).lineHeight)")
            assert heights and max(heights) < 2.2 * line + 12
            page.screenshot(path=str(shots / "site-sources.png"), full_page=True)
            context.close()
        finally:
            browser.close()
    assert errors == [] and outside == []


def test_the_current_state_has_a_band_even_when_it_began_today() -> None:
    from evidence_cli.site import CURRENT_BAND, timeline_svg
    from extractors.values import Freshness, Grade
    from warehouse.queries import GradeChange

    now = datetime(2026, 12, 1, 12, tzinfo=UTC)
    history = [
        GradeChange("r", Grade.DOCUMENTED, Freshness.FRESH, now - timedelta(days=90)),
        GradeChange("r", Grade.CONTRADICTED, Freshness.FRESH, now - timedelta(seconds=5)),
    ]
    svg = str(timeline_svg(history, now, width=640))
    widths = [float(w) for w in re.findall(r'<rect x="[\d.]+" y="4" width="([\d.]+)"', svg)]
    assert len(widths) == 2 and widths[1] >= CURRENT_BAND * 640 - 0.1
    assert abs(sum(widths) - 640) < 0.5  # the bands still fill the line, in order


FIGURES = (
    "<html><head><title>{t}</title></head><body><main><p>We offer {n} seats this year, "
    "with 500 GPU hours a month and $4,000 in credits.</p></main></body></html>"
)
# What the browser measures: each date on one line; each piece of a URL between its break
# points on one line; the record ids in the order shown; the timeline's legend and ends.
MEASURE = """() => {
  const lines = el => el.getClientRects().length;
  const dates = [...document.querySelectorAll('.date')].filter(e => e.textContent.trim())
    .map(e => [e.textContent, lines(e)]);
  const pieces = [];
  for (const a of document.querySelectorAll('td.url a')) {
    for (const node of a.childNodes) {
      if (!node.textContent) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      pieces.push([node.textContent, tops.size]);
    }
  }
  return {
    dates, pieces,
    ids: [...document.querySelectorAll('td .muted')].map(e => e.textContent),
    headers: [...document.querySelectorAll('th')].map(e => e.textContent),
    legend: [...document.querySelectorAll('.legend .key')].map(e => e.textContent),
    ends: [...document.querySelectorAll('svg.timeline text')].map(e => e.textContent),
    figures: [...document.querySelectorAll('h3.figures')].map(e => e.textContent),
    overflow: document.documentElement.scrollWidth - window.innerWidth,
  };
}"""


@pytest.mark.slow
def test_the_site_reads_well_wide_and_narrow(
    prefect_harness: None, web: WebServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Screenshots at 1280 px and 390 px (kept beside the others), and what they show
    measured in the page: no date or URL piece broken, no empty column, a legend and two
    distinct ends on the timeline, ids in natural order, figures grouped by source."""
    from support import require_browser

    require_browser()
    from playwright.sync_api import sync_playwright

    from evidence_cli.main import main
    from flows.fetching import find_browser

    long_path = "/reports/2026/" + "-".join(["reproduction-challenge-credits"] * 3) + "?v=2&x=1"
    web.routes["/reports/2026/" + "-".join(["reproduction-challenge-credits"] * 3)] = Page(
        FIGURES.format(t="Long", n=10)
    )
    web.routes["/b"] = Page(FIGURES.format(t="B", n=10))
    records = "".join(
        f"""\
        - id: r{n}
          title: Record {n}
          sources: [{{id: long, url: "{web.url(long_path)}", role: primary}},
                    {{id: b, url: "{web.url("/b")}", role: third-party}}]
          claims: [{{id: seats, quote: "We offer 10 seats"}}]
        """.rstrip(" ")
        for n in (10, 2, 1)
    )
    db = tmp_path / "w.duckdb"
    config = write_config(tmp_path, records, f"database: {db}\nfetch: {{retries: 0}}\n")
    day = datetime(2026, 12, 1, 6, tzinfo=UTC)
    refresh_at(config, db, day, monkeypatch)
    out = tmp_path / "site"
    assert main(["site", "--config", str(config), "--out", str(out)]) == 0

    shots = Path(os.environ.get("EVIDENCE_SCREENSHOTS", ROOT / "ci-artifacts"))
    shots.mkdir(parents=True, exist_ok=True)  # looked at by a person, kept by CI
    seen = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_browser(None))
        try:
            for width in (1280, 390):
                context = browser.new_context(viewport={"width": width, "height": 800})
                page = context.new_page()
                for name in ("index", "records/r1", "sources"):
                    page.goto((out / f"{name}.html").as_uri())
                    shot = shots / f"site-{name.replace('/', '-')}-{width}.png"
                    page.screenshot(path=str(shot), full_page=True)
                    assert shot.stat().st_size > 1000
                    seen[(name, width)] = page.evaluate(MEASURE)
                context.close()
        finally:
            browser.close()

    for (name, width), m in seen.items():
        broken = [d for d, lines in m["dates"] if lines != 1]
        assert not broken, (name, width, broken)
        split = [piece for piece, lines in m["pieces"] if lines != 1]
        assert not split, (name, width, split)
    for width in (1280, 390):
        index, record = seen[("index", width)], seen[("records/r1", width)]
        assert [i for i in index["ids"] if i.startswith("r")] == ["r1", "r2", "r10"]
        # no page here gives its dates: no column for them
        assert "page dates" not in record["headers"]
        assert "page published" not in record["headers"] and "accessed" in record["headers"]
        assert record["legend"] == ["documented"]
        first, last = record["ends"]
        assert first != last and first.startswith("2026-12-01")
        assert sorted(record["figures"]) == ["b", "long"]  # one group a source
        assert seen[("sources", width)]["pieces"], "the URLs are measured"


@pytest.mark.parametrize(("published", "columns"), [("2026-11-30", True), (None, False)])
def test_a_records_sources_have_page_date_columns_only_when_a_page_says_a_date(
    published: str | None, columns: bool
) -> None:
    from jinja2 import Environment, PackageLoader

    from evidence_cli.site import url_breaks

    env = Environment(loader=PackageLoader("evidence_cli", "templates"), autoescape=True)
    env.filters["url_breaks"] = url_breaks
    sources = [
        {"source_id": s, "role": "primary", "last_outcome": "ok", "url": "https://a.example/"}
        | {"accessed_at": "2026-12-01", "modified_on": None, "consecutive_failures": 0}
        | {"published_on": published if s == "b" else None}
        for s in ("a", "b")
    ]
    html = env.get_template("record.html").render(
        record={"title": "T", "record_id": "t", "grade": "documented"}, sources=sources
    )
    table = html[html.index("<h2>Sources</h2>") :]
    assert ("<th>page published</th><th>page modified</th>" in table) == columns
    assert table.count('<td class="date">') == (6 if columns else 2)
