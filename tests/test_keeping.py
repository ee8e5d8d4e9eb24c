"""Keeping the catalog: `evidence review` (one queue, what settles each row) and
`evidence update` (the page's wording written back, checked and graded without a
fetch), review_by dates and their alert, on real DuckDB files."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from keeping_support import T0, Kept
from servers import Page, WebServer
from support import refresh_at, write_config

from evidence_cli.main import main
from warehouse import keeping
from warehouse.db import session

RECORD = """\
    # Acme, kept by hand
    id: r
    title: 'Acme credits'   # as the page says
    sources:
      - id: own
        url: "https://acme.example/credits"
        role: primary
      - id: blog
        url: "https://blog.example/acme"
        role: third-party
    claims:
      - id: prize
        quote: "$4,000 in GPU credits for the best runs"   # the headline
      - id: teams
        quote: "Over 1,900 teams have been funded"
"""
OLD = "Teams get $4,000 in GPU credits for the best runs. Over 1,900 teams have been funded."
NEW = "Teams get $2,500 in GPU credits for the best runs. Over 1,900 teams have been funded."


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands' clock: the day after T0 (the tests' newest refresh)."""
    monkeypatch.setenv("EVIDENCE_NOW", (T0 + timedelta(days=1)).isoformat())


@pytest.fixture(scope="module")
def two_days(tmp_path_factory: pytest.TempPathFactory) -> Kept:
    """Two refreshes, made once for the module: the primary's figure moved on day two."""
    k = Kept(tmp_path_factory.mktemp("two-days"), RECORD)
    k.refresh({"own": OLD, "blog": OLD})
    assert k.record() == ("documented", "fresh")
    k.refresh({"own": NEW, "blog": OLD}, T0 + timedelta(days=1))
    assert k.record()[0] == "contradicted"
    return k


@pytest.fixture
def kept(two_days: Kept, tmp_path: Path) -> Kept:
    return two_days.copy_to(tmp_path)


def test_review_says_what_moved_since_when_and_the_command(
    kept: Kept, capsys: pytest.CaptureFixture[str]
) -> None:
    at = T0 + timedelta(days=1)
    (item,) = kept.queue(at)
    assert (item.record_id, item.item, item.kind) == ("r", "prize", "changed")
    assert item.what == "$4,000 -> $2,500 on own"
    assert item.since == at.date()
    assert item.command == "evidence update r prize --source own"
    assert main(kept.args("review", "--format", "json")) == 0
    rows = json.loads(capsys.readouterr().out)
    # as printed, the command acts on this catalog and database from any folder
    scope = f" --config {kept.config.resolve()} --db {kept.db.resolve()}"
    assert rows == [
        {
            "record_id": "r",
            "item": "prize",
            "kind": "changed",
            "what": "$4,000 -> $2,500 on own",
            "since": "2026-11-05",
            "command": f"evidence update r prize --source own{scope}",
        }
    ]
    # the table prints the command whole, on its own line under its row: never cut
    assert main(kept.args("review")) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["record_id", "item", "kind", "what", "since"]
    assert (
        lines[2].startswith("r ") and lines[3] == f"    evidence update r prize --source own{scope}"
    )


def test_update_writes_the_wording_and_the_record_is_documented_at_once(
    kept: Kept, capsys: pytest.CaptureFixture[str]
) -> None:
    before = kept.file.read_text()
    assert main(kept.args("update", "r", "prize", "--dry-run")) == 0
    out = capsys.readouterr().out
    assert '+    quote: "$2,500 in GPU credits for the best runs"' in out
    assert kept.file.read_text() == before  # a dry run writes nothing
    assert main(kept.args("update", "r", "prize")) == 0
    out = capsys.readouterr().out
    assert "contradicted, fresh -> documented, fresh" in out
    after = kept.file.read_text()
    # only the claim's line changed; its comment and quoting kept
    assert after == before.replace(
        '"$4,000 in GPU credits for the best runs"   # the headline',
        '"$2,500 in GPU credits for the best runs"   # the headline',
    )
    assert kept.record() == ("documented", "fresh")
    assert kept.queue(T0 + timedelta(days=1)) == []
    with session(kept.db, read_only=True) as con:
        trace = con.execute(
            "SELECT source_id, quote_before, quote_after FROM store.claim_updates"
        ).fetchall()
    assert trace == [
        (
            "own",
            "$4,000 in GPU credits for the best runs",
            "$2,500 in GPU credits for the best runs",
        )
    ]
    assert main(kept.args("review")) == 0
    assert capsys.readouterr().out.startswith("nothing to review")


UNKNOWN_IDS = [
    (["show", "nope"], "no record 'nope' in the database; known: r"),
    (["diff", "nope"], "no record 'nope' in the database; known: r"),
    (["diff", "r", "owm"], "record 'r' has no source 'owm' (did you mean 'own'?)"),
    (["accept", "nope", "own"], "no record 'nope' in the database; known: r"),
    (["accept", "r", "blg"], "record 'r' has no source 'blg' (did you mean 'blog'?)"),
    (["update", "r", "prise"], "record 'r' has no claim 'prise' (did you mean 'prize'?)"),
    (["update", "q", "prize"], "no record 'q' in {config}; known: r"),
    (["export", "--warc", "{tmp}/w", "--record", "x"], "no record 'x' in the database; known: r"),
    (["suggest", "http://127.0.0.1:9/x", "--record", "no"], "no record 'no' in {config}; known: r"),
]


@pytest.mark.parametrize(("argv", "says"), UNKNOWN_IDS, ids=[" ".join(a) for a, _ in UNKNOWN_IDS])
def test_an_unknown_id_is_said_one_way_by_every_command(
    kept: Kept, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    """The id, where it was looked for, then the near one or the ones there are."""
    place = {"config": str(kept.config), "tmp": str(kept.db.parent)}
    assert main(kept.args(*(a.format(**place) for a in argv))) == 2
    assert capsys.readouterr().err.strip() == f"evidence: {says.format(**place)}"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["update", "r", "teams"], "confirmed on its primary source own: nothing to take"),
        (["update", "r", "nope"], "has no claim 'nope'"),
        (["update", "ghost", "prize"], "no record 'ghost'"),
        (["update", "r", "prize", "--source", "blog"], "confirmed on blog"),
        (["update", "r", "prize", "--source", "zzz"], "no checked page on source 'zzz'"),
    ],
)
def test_nothing_to_take_is_one_line_and_the_file_untouched(
    kept: Kept, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    before = kept.file.read_text()
    assert main(kept.args(*argv)) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1
    assert kept.file.read_text() == before


def test_a_file_edited_since_the_refresh_is_not_written(
    kept: Kept, capsys: pytest.CaptureFixture[str]
) -> None:
    edited = kept.file.read_text().replace("Acme credits", "Acme GPU credits")
    kept.file.write_text(edited)
    assert main(kept.args("update", "r", "prize")) == 2
    assert "changed since the last refresh" in capsys.readouterr().err
    assert kept.file.read_text() == edited


def test_a_page_with_no_passage_near_the_quote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    k = Kept(tmp_path, RECORD)
    k.refresh({"own": "Nothing about credits here at all.", "blog": "Nor here."})
    (prize, teams) = [i for i in k.queue() if i.kind == "absent"]
    assert teams.item == "teams"
    assert prize.what.startswith("absent since 2026-11-04")
    assert prize.command.startswith("write the page's words into claim prize in ")
    assert prize.command.endswith(
        "or check it on the pages that carry it: `sources: [...]` without own"
    )
    assert main(k.args("update", "r", "prize")) == 2
    assert "no page has a passage near the quote" in capsys.readouterr().err
    # the keeper's own words: the quote's line only, then checked against the pages
    before = k.file.read_text()
    assert main(k.args("update", "r", "prize", "--quote", "  Nothing about  credits ")) == 0
    assert "took your words into r/prize" in capsys.readouterr().out
    after = k.file.read_text()
    changed = [b for b, a in zip(before.splitlines(), after.splitlines(), strict=True) if a != b]
    assert len(changed) == 1 and "Nothing about credits" in after
    assert main(k.args("update", "r", "prize", "--quote", "  ")) == 2
    assert "an empty quote" in capsys.readouterr().err


def test_a_status_claim_takes_the_status_too(tmp_path: Path) -> None:
    k = Kept(
        tmp_path,
        """\
        id: r
        title: R
        sources:
          - {id: own, url: "https://acme.example/apply", role: primary}
        claims:
          - id: applications
            quote: Applications for the 2027 programme are open to all faculty
            status: open
        """,
    )
    k.refresh({"own": "Applications for the 2027 programme are open to all faculty."})
    k.refresh(
        {"own": "Applications for the 2027 programme are closed to all faculty."},
        T0 + timedelta(days=1),
    )
    (item,) = [i for i in k.queue(T0 + timedelta(days=1)) if i.item == "applications"]
    assert item.what.startswith("open -> closed on own")
    assert main(k.args("update", "r", "applications")) == 0
    text = k.file.read_text()
    assert "    quote: Applications for the 2027 programme are closed to all faculty" in text
    assert "    status: closed\n" in text
    assert k.record()[0] == "documented"


def test_review_by_enters_the_queue_on_its_date_and_alerts_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    k = Kept(tmp_path, RECORD.replace("title: 'Acme", "review_by: 2026-11-10\n    title: 'Acme"))
    k.refresh({"own": OLD, "blog": OLD})
    assert k.queue(T0) == []
    on = T0 + timedelta(days=6)
    (item,) = k.queue(on)
    assert (item.kind, item.what, item.since.isoformat() if item.since else None) == (
        "review-by",
        "review by 2026-11-10",
        "2026-11-10",
    )
    assert item.command == f"set a later review_by in {k.file}"
    with session(k.db, now=on) as con:
        first = keeping.due_review_dates(con, on)
        again = keeping.due_review_dates(con, on + timedelta(days=1))
    assert [(d.record_id, d.claim_id) for d in first] == [("r", None)] and again == []
    # a later date in the file takes it out at once, before any refresh
    monkeypatch.setenv("EVIDENCE_NOW", on.isoformat())
    assert main(k.args("review", "--format", "csv")) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("r,,review-by,")
    k.file.write_text(k.file.read_text().replace("2026-11-10", "2026-12-10"))
    assert main(k.args("review", "--format", "csv")) == 0
    assert capsys.readouterr().out.splitlines() == [",".join(keeping.QUEUE_COLUMNS)]
    k.refresh({"own": OLD, "blog": OLD}, on)
    assert k.queue(on) == []


def test_the_queue_puts_the_most_urgent_first(tmp_path: Path) -> None:
    k = Kept(
        tmp_path,
        RECORD.replace("  - id: teams\n", "  - id: teams\n        review_by: 2026-11-01\n"),
    )
    k.refresh({"own": NEW, "blog": 404}, T0)
    k.refresh({"own": NEW, "blog": 404}, T0 + timedelta(days=1))
    kinds = [(i.kind, i.item) for i in k.queue(T0 + timedelta(days=1))]
    assert kinds == [("changed", "prize"), ("unreachable", "blog"), ("review-by", "teams")]
    unreachable = k.queue(T0 + timedelta(days=1))[1]
    assert unreachable.what == "http_error 404: HTTP 404 (2 failed refreshes)"
    assert unreachable.command == f"fix the url of blog in {k.file}"
    assert unreachable.since == T0.date()


def test_the_sites_index_links_the_same_queue(kept: Kept, tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert main(kept.args("site", "--out", str(out))) == 0
    index = (out / "index.html").read_text()
    assert '<a href="review.html">1 item(s) to review</a>' in index
    review = (out / "review.html").read_text()
    assert "$4,000 -&gt; $2,500 on own" in review
    assert "<code>evidence update r prize --source own</code>" in review


def test_a_broken_condition_comes_first_and_old_values_are_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    k = Kept(
        tmp_path,
        RECORD.replace(
            '"$4,000 in GPU credits for the best runs"   # the headline',
            '"$4,000 in GPU credits for the best runs"   # the headline\n'
            "        expect: {at_least: 3000, severity: error}",
        ),
    )
    k.refresh({"own": OLD, "blog": OLD})
    k.refresh({"own": NEW, "blog": OLD}, T0 + timedelta(days=1))
    queue = k.queue(T0 + timedelta(days=1))
    assert [(i.kind, i.item) for i in queue] == [
        ("condition-fail", "prize"),
        ("changed", "prize"),
    ]
    assert "2500" in queue[0].what and "3000" in queue[0].what
    assert queue[0].command.startswith("edit the `expect:` of claim prize in ")
    assert queue[0].command.endswith("evidence update r prize")
    assert main(k.args("update", "r", "prize")) == 0
    with session(k.db, read_only=True) as con:
        values = con.execute(
            "SELECT value, current FROM claim_values WHERE claim_id = 'prize' AND source_id = 'own'"
        ).fetchall()
    # the superseded value stays, the page's current one is current
    assert values == [(4000.0, False), (2500.0, True)]
    # the condition still does not hold: the quote now says what the page says
    assert [i.kind for i in k.queue(T0 + timedelta(days=1))] == ["condition-fail"]


PAGE = "<html><body><main><h1>Acme credits</h1><p>{}</p></main></body></html>"


@pytest.mark.slow
def test_from_a_changed_primary_to_documented_with_real_refreshes(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    web.routes["/own"] = Page(PAGE.format(OLD))
    config = write_config(
        tmp_path,
        f"""\
        # kept by hand
        id: r
        title: Acme
        review_by: 2026-11-05   # look again then
        sources:
          - id: own
            url: "{web.url("/own")}"
            role: primary
        claims:
          - id: prize
            quote: "$4,000 in GPU credits for the best runs"   # the headline
        """,
        f"database: {tmp_path / 'w.duckdb'}\nfetch: {{retries: 0}}\n",
    )
    db = tmp_path / "w.duckdb"
    args = ["--config", str(config), "--db", str(db)]
    refresh_at(config, db, T0, monkeypatch)
    web.routes["/own"] = Page(PAGE.format(NEW))
    day = T0 + timedelta(days=1)
    refresh_at(config, db, day, monkeypatch)  # the page changed; review_by reached
    refresh_at(config, db, day + timedelta(hours=1), monkeypatch)
    capsys.readouterr()
    assert main(["review", "--format", "csv", *args]) == 0
    lines = capsys.readouterr().out.splitlines()
    scope = f" --config {config.resolve()} --db {db.resolve()}"
    assert lines[1:] == [
        'r,prize,changed,"$4,000 -> $2,500 on own",2026-11-05,'
        f"evidence update r prize --source own{scope}",
        "r,,review-by,review by 2026-11-05,2026-11-05,"
        f"set a later review_by in {config / 'records' / 'r.yaml'}",
    ]
    fetched = web.hits["/own"]
    assert main(["update", "r", "prize", *args]) == 0
    assert "contradicted, fresh -> documented, fresh" in capsys.readouterr().out
    assert web.hits["/own"] == fetched  # no fetch
    assert main(["review", *args]) == 0
    assert capsys.readouterr().out.startswith("nothing to review")
    with session(db, read_only=True) as con:
        raised = con.execute(
            "SELECT title FROM notifications WHERE kind = 'review' ORDER BY raised_at"
        ).fetchall()
    assert raised == [("review: r due for review since 2026-11-05",)]  # once, not each run


def test_update_drops_the_figure_comment_suggest_wrote(tmp_path: Path) -> None:
    """`suggest` writes the parsed figure beside a claim's id (`# money 4000 USD`); once
    `update` takes another figure into the quote, that comment goes with the old one."""
    k = Kept(
        tmp_path,
        RECORD.replace("      - id: prize\n", "      - id: prize  # money 4000 USD\n"),
    )
    k.refresh({"own": OLD, "blog": OLD})
    k.refresh({"own": NEW, "blog": OLD}, T0 + timedelta(days=1))
    assert main(k.args("update", "r", "prize")) == 0
    text = k.file.read_text()
    assert "# money 4000 USD" not in text and "  - id: prize\n" in text
    assert "# the headline" in text and "# Acme, kept by hand" in text  # the keeper's stay


def test_update_keeps_the_words_a_keeper_added_to_the_figure_comment(tmp_path: Path) -> None:
    k = Kept(
        tmp_path,
        RECORD.replace(
            "      - id: prize\n",
            "      - id: prize  # money 4000 USD -- ask Dana before editing\n",
        ),
    )
    k.refresh({"own": OLD, "blog": OLD})
    k.refresh({"own": NEW, "blog": OLD}, T0 + timedelta(days=1))
    assert main(k.args("update", "r", "prize")) == 0
    text = k.file.read_text()
    assert "# money 4000 USD" not in text
    assert "  - id: prize  # ask Dana before editing\n" in text


def test_messages_say_what_they_mean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`diff` of a source with one snapshot says so (no range was given) and that its
    page fails; `alerts --kind` says what it filtered; `accept` of an unknown record says
    the record is unknown."""
    k = Kept(tmp_path, RECORD)
    k.refresh({"own": OLD, "blog": OLD})
    k.refresh({"own": 404, "blog": OLD}, T0 + timedelta(days=1))
    assert main(k.args("diff", "r", "own")) == 0
    out = capsys.readouterr().out
    assert "fewer than two snapshots yet: nothing to compare" in out, out
    assert "its page has failed since 2026-11-05: http_error" in out, out
    assert main(k.args("alerts", "--kind", "changed")) == 0
    out = capsys.readouterr().out
    assert "of kind changed" in out and "--kind and --since filter what is shown" in out
    assert main(k.args("accept", "nope", "own")) == 2
    assert "no record 'nope'" in capsys.readouterr().err
