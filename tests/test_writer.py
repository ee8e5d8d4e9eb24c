"""The record-file writer: only the lines of what changes change, in the file's own
style; written whole or not at all."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest
import yaml

from evidence_base.errors import EvidenceError
from extractors.candidates import Candidate
from flows.catalog import RecordFile, diff_text, write_atomically
from flows.commands.suggest import _claim_lines

BLOCK = textwrap.dedent(
    """\
    # kept by hand; comments stay
    - id: acme   # the first record
      title: 'Acme credits'
      review_by: 2027-01-01
      sources:
          -   id: own
              url: 'https://acme.example/credits'   # the organisation's page
              role: primary

          # third parties below
      claims:
          -   id: gpu-credits
              quote: "$4,000 in GPU credits"  # the headline
          -   id: applications
              quote: Applications are open
              status: open
    - id: other
      title: Other
      sources: [{id: o, url: "https://other.example/", role: primary}]
      claims: [{id: c, quote: "a, b and c"}]
    """
)


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    diff = diff_text(Path("r.yaml"), before, after).splitlines()[2:]
    gone = [line[1:] for line in diff if line.startswith("-")]
    came = [line[1:] for line in diff if line.startswith("+")]
    return gone, came


@pytest.mark.parametrize(
    ("claim", "key", "value", "line_before", "line_after"),
    [
        (
            "gpu-credits",
            "quote",
            "$2,500 in GPU credits",
            '          quote: "$4,000 in GPU credits"  # the headline',
            '          quote: "$2,500 in GPU credits"  # the headline',
        ),
        (
            "applications",
            "quote",
            "Applications are closed",
            "          quote: Applications are open",
            "          quote: Applications are closed",
        ),
        (  # plain style cannot hold ": " or " #": double quotes for this scalar only
            "applications",
            "quote",
            "Applications: closed #2027",
            "          quote: Applications are open",
            '          quote: "Applications: closed #2027"',
        ),
        (
            "applications",
            "status",
            "closed",
            "          status: open",
            "          status: closed",
        ),
    ],
)
def test_a_claim_edit_changes_only_its_line(
    tmp_path: Path, claim: str, key: str, value: str, line_before: str, line_after: str
) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(BLOCK)
    file = RecordFile(path, "acme")
    file.set_claim(claim, key, value)
    after = file.new_text()
    assert changed_lines(BLOCK, after) == ([line_before], [line_after])
    data = yaml.safe_load(after)
    claims = {c["id"]: c for c in data[0]["claims"]}
    assert claims[claim][key] == value


def test_a_flow_claim_keeps_its_flow_and_quotes_what_flow_cannot_hold(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(BLOCK)
    file = RecordFile(path, "other")
    file.set_claim("c", "quote", "x, y: z")
    after = file.new_text()
    assert changed_lines(BLOCK, after) == (
        ['  claims: [{id: c, quote: "a, b and c"}]'],
        ['  claims: [{id: c, quote: "x, y: z"}]'],
    )


def test_a_new_source_is_written_like_its_siblings(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(BLOCK)
    file = RecordFile(path, "acme")
    file.add_source({"id": "blog", "url": "https://blog.example/acme", "role": "third-party"})
    after = file.new_text()
    gone, came = changed_lines(BLOCK, after)
    assert gone == []
    assert came == [
        "      -   id: blog",
        "          url: 'https://blog.example/acme'",
        "          role: third-party",
    ]
    # in a flow list: one more mapping inside the brackets
    file = RecordFile(path, "other")
    file.add_source({"id": "b", "url": "https://b.example/", "role": "third-party"})
    gone, came = changed_lines(BLOCK, file.new_text())
    assert came == [
        '  sources: [{id: o, url: "https://other.example/", role: primary}, '
        '{id: b, url: "https://b.example/", role: third-party}]'
    ]


def test_unknown_claim_or_record_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(BLOCK)
    with pytest.raises(EvidenceError, match="no claim 'nope'"):
        RecordFile(path, "acme").set_claim("nope", "quote", "x")
    with pytest.raises(EvidenceError, match="no record 'ghost'"):
        RecordFile(path, "ghost")


def test_a_failed_write_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(BLOCK)
    os.chmod(path, 0o640)
    write_atomically(path, "id: x\n")
    assert path.read_text() == "id: x\n"
    assert path.stat().st_mode & 0o777 == 0o640  # its mode kept
    assert [p.name for p in tmp_path.iterdir()] == ["r.yaml"]  # no temporary file left
    with pytest.raises(TypeError):  # fails while writing the temporary file
        write_atomically(path, 12)  # type: ignore[arg-type]
    assert path.read_text() == "id: x\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.yaml"]


def test_suggested_claim_ids_are_new_to_the_record() -> None:
    found = [Candidate(quote="Up to $5,000", score=1.0, what="money 5000 USD", slug="money")]
    lines = _claim_lines(found, "", "blog", {"money", "money-2"})
    assert lines[0].startswith("- id: money-3 ")


# What a page can hand the writer: indicators a plain scalar may not start with, C1
# controls and line separators that some YAML readers refuse or break lines at.
AWKWARD = [
    "| > - ? @",
    "@home and ? marks",
    "- a list, or not",
    "NEL\x85inside",
    "C1 \x9b control",
    "line\u2028separator",
    "tab\tinside",
    "% percent first",
]


@pytest.mark.parametrize("value", AWKWARD)
@pytest.mark.parametrize("record", ["acme", "other"])  # a block claim and a flow one
def test_what_the_writer_writes_every_yaml_reader_reads_back(
    tmp_path: Path, value: str, record: str
) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(BLOCK)
    file = RecordFile(path, record)
    file.set_claim("gpu-credits" if record == "acme" else "c", "quote", value)
    after = file.new_text()
    for loader in (yaml.SafeLoader, getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
        data = yaml.load(after, Loader=loader)
        claims = data[0 if record == "acme" else 1]["claims"]
        assert claims[0]["quote"] == value, (loader, after)


@pytest.mark.parametrize(
    ("style", "lines"), [("|", ["Applications are open"]), (">-", ["Applications", "are open"])]
)
def test_a_block_scalar_quote_is_replaced(tmp_path: Path, style: str, lines: list[str]) -> None:
    text = (
        "- id: r\n  title: R\n"
        '  sources: [{id: s, url: "https://example.org/", role: primary}]\n'
        "  claims:\n    - id: c\n"
        f"      quote: {style}\n"
        + "".join(f"        {line}\n" for line in lines)
        + "      status: open\n"
    )
    path = tmp_path / "r.yaml"
    path.write_text(text)
    assert yaml.safe_load(text)[0]["claims"][0]["quote"].startswith("Applications")
    file = RecordFile(path, "r")
    file.set_claim("c", "quote", "Applications are closed")
    after = file.new_text()
    claim = yaml.safe_load(after)[0]["claims"][0]
    assert claim == {"id": "c", "quote": "Applications are closed", "status": "open"}


def test_suggested_claims_with_control_characters_are_yaml_the_catalog_reads() -> None:
    found = [
        Candidate(
            quote="Up to \x9b$5,000\x85 a\u2028year",
            score=1.0,
            what="money 5000\nUSD\x1b[2J",
            slug="money",
        )
    ]
    lines = _claim_lines(found, "", "blog")
    text = "\n".join(lines) + "\n"
    assert "\x1b" not in text and "\x9b" not in text and "\n- " not in text[1:]
    (claim,) = yaml.load(text, Loader=yaml.SafeLoader)
    assert claim["quote"] == "Up to \x9b$5,000\x85 a\u2028year"


@pytest.mark.parametrize(
    ("claims", "written"),
    [
        (  # a block claim with no sources: the key added after its last, as its siblings
            '  - id: prize\n    quote: "$4,000 in GPU credits"   # the headline\n',
            '  - id: prize\n    quote: "$4,000 in GPU credits"   # the headline\n'
            "    sources: [own]\n",
        ),
        (  # its sources replaced
            "  - id: prize\n    quote: x y z\n    sources: [own, blog]\n",
            "  - id: prize\n    quote: x y z\n    sources: [blog]\n",
        ),
        (  # a claim in braces
            "  - {id: prize, quote: x y z}\n",
            "  - {id: prize, quote: x y z, sources: [own]}\n",
        ),
    ],
)
def test_a_claim_checked_on_one_page_only(tmp_path: Path, claims: str, written: str) -> None:
    from flows.catalog import RecordFile

    head = (
        "id: r\ntitle: R\nsources:\n"
        "  - {id: own, url: 'https://a.example/', role: primary}\n"
        "  - {id: blog, url: 'https://b.example/', role: third-party}\n"
        "claims:\n"
    )
    path = tmp_path / "r.yaml"
    path.write_text(head + claims)
    file = RecordFile(path, "r")
    keep = "blog" if "sources: [own, blog]" in claims else "own"
    file.set_claim_sources("prize", [keep])
    assert file.new_text() == head + written


@pytest.mark.parametrize(
    ("source", "written"),
    [
        (
            "  - url: 'https://a.example.com/x'\n    role: primary\n",
            "  - url: 'https://a.example.com/new'\n    role: primary\n    id: {id}\n",
        ),
        (
            "  - {url: 'https://a.example.com/x', role: primary}\n",
            "  - {id: {id}, url: 'https://a.example.com/new', role: primary}\n",
        ),
        (
            "  - {id: own, url: 'https://a.example.com/x', role: primary}\n",
            "  - {id: own, url: 'https://a.example.com/new', role: primary}\n",
        ),
    ],
)
def test_a_source_given_a_new_url_stays_the_same_source(
    tmp_path: Path, source: str, written: str
) -> None:
    from flows.catalog import RecordFile, source_slug

    path = tmp_path / "r.yaml"
    path.write_text("id: r\ntitle: R\nsources:\n" + source)
    sid = "own" if "id: own" in source else source_slug("https://a.example.com/x")
    file = RecordFile(path, "r")
    file.set_source_url(sid, "https://a.example.com/new")
    assert file.new_text() == "id: r\ntitle: R\nsources:\n" + written.replace("{id}", sid)


def test_an_entry_ending_in_a_block_scalar_ends_on_its_own_line(tmp_path: Path) -> None:
    from flows.catalog import RecordFile

    path = tmp_path / "r.yaml"
    path.write_text(
        "id: r\ntitle: R\nsources:\n"
        "  - id: gone\n    url: 'https://a.example/'\n    role: primary\n    notes: |\n"
        "      a note\n      of two lines\n"
        "  - id: own\n    url: 'https://b.example/'\n    role: primary\n"
    )
    file = RecordFile(path, "r")
    assert file.source_lines("gone") == (4, 9, 5, True)  # not line 10, the next entry's
    file.remove_source("gone")
    assert "gone" not in file.new_text() and "- id: own" in file.new_text()
