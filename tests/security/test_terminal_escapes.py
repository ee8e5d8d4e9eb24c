"""Control characters from pages and config never reach the terminal raw: `show`,
`sql`, `diff`, the tables and error lines show them escaped."""

from __future__ import annotations

from pathlib import Path

import pytest
from store_support import T0, Warehouse

from evidence_cli.main import main
from extractors.printable import printable
from warehouse import store
from warehouse.rows import CheckRow, RecordRow, SourceRow

TITLE_BAR = "\x1b]0;owned\x07"  # sets the terminal's title
CLEAR = "\x1b[2J"  # clears the screen
CSI8 = "\x9b2J"  # the same, as an 8-bit CSI
RTL = "\u202e"  # shows the words after it reversed


def raw_controls(text: str) -> list[str]:
    return [c for c in text if c in "\x1b\x07\x9b\u202e\r"]


@pytest.mark.parametrize("text", [TITLE_BAR, CLEAR, CSI8, RTL, "a\rb"])
def test_printable_escapes_what_steers_a_terminal(text: str) -> None:
    shown = printable(text)
    assert not raw_controls(shown)
    assert "\\x1b" in shown or "\\x9b" in shown or "\\u202e" in shown or "\\x0d" in shown


def test_printable_keeps_line_breaks_tabs_and_words() -> None:
    assert printable("Prix: 4 000 €\n\tété — “ok”") == "Prix: 4 000 €\n\tété — “ok”"


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """A warehouse whose title, fields and page text hold escape sequences."""
    db = tmp_path / "w.duckdb"
    w = Warehouse(db)
    store.sync_catalog(
        w.con,
        [RecordRow("r", f"Title{TITLE_BAR}", 86400, (("cost", f"free{CLEAR}"),), "r.yaml")],
        [SourceRow("r", "p", "https://example.org/p", "primary")],
        [],
    )
    from warehouse.rows import ClaimRow

    store.sync_catalog(
        w.con,
        [RecordRow("r", f"Title{TITLE_BAR}", 86400, (("cost", f"free{CLEAR}"),), "r.yaml")],
        [SourceRow("r", "p", "https://example.org/p", "primary")],
        [ClaimRow("r", "c", "quote c", None, None)],
    )
    old = w.fetch("p", T0, body=f"old words {CSI8} here")
    new = w.fetch("p", T0.replace(hour=7), body=f"new words {CLEAR} here {RTL}")
    assert old is not None and new is not None
    store.write_checks(
        w.con,
        [CheckRow("r", "c", "p", new, "quote c", "absent", None, (), f"closest {TITLE_BAR}", 80)],
    )
    w.grade(T0.replace(hour=8))
    w.con.close()
    return db


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_show_escapes_the_title_fields_and_closest_passage(
    hostile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "show", "r", "--db", str(hostile))
    assert code == 0, err
    assert "closest on the page (80)" in out
    assert not raw_controls(out), out
    assert "Title\\x1b]0;owned\\x07" in out and "free\\x1b[2J" in out


def test_sql_table_output_escapes_page_text(
    hostile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "sql", "SELECT text, title FROM snapshots", "--db", str(hostile))
    assert code == 0, err
    assert not raw_controls(out), out
    assert "\\x9b2J" in out and "\\x1b[2J" in out


def test_sql_json_output_escapes_eight_bit_controls(
    hostile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    code, out, err = run(
        capsys, "sql", "SELECT text FROM snapshots", "--format", "json", "--db", str(hostile)
    )
    assert code == 0, err
    assert not raw_controls(out), out
    assert any(CSI8 in row["text"] for row in json.loads(out))  # the same value, escaped


def test_status_escapes_the_record_title(hostile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "sql", "SELECT title FROM record_status", "--db", str(hostile))
    assert code == 0, err
    assert "Title\\x1b]0;owned\\x07" in out and not raw_controls(out)


def test_diff_escapes_the_words_of_the_page(
    hostile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "diff", "r", "p", "--db", str(hostile))
    assert code == 0, err
    assert "[-old-]" in out and "{+new+}" in out
    assert not raw_controls(out), out


def test_an_error_line_escapes_what_the_user_typed(
    hostile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "show", f"x{CLEAR}", "--db", str(hostile))
    assert code == 2 and err.count("\n") == 1
    assert not raw_controls(err), err


COMMAND = "\n::error::pwned"  # a line a CI runner would read as a workflow command


def no_command_lines(text: str) -> bool:
    return not any(line.lstrip().startswith("::") for line in text.splitlines())


@pytest.fixture
def commanding(tmp_path: Path) -> Path:
    """A warehouse whose title, quote, URL and page text hold a line that would start a
    workflow command in a CI log."""
    from warehouse.rows import ClaimRow

    db = tmp_path / "w.duckdb"
    w = Warehouse(db)
    store.sync_catalog(
        w.con,
        [RecordRow("r", f"Title{COMMAND}", 86400, (("cost", f"free{COMMAND}"),), "r.yaml")],
        [SourceRow("r", "p", f"https://example.org/p{COMMAND}", "primary")],
        [ClaimRow("r", "c", f"quote{COMMAND}", None, None)],
    )
    new = w.fetch("p", T0, body=f"page words {COMMAND} here")
    assert new is not None
    store.write_checks(
        w.con,
        [CheckRow("r", "c", "p", new, "q", "absent", None, (), f"closest{COMMAND}", 80)],
    )
    w.grade(T0.replace(hour=8))
    w.con.close()
    return db


@pytest.mark.parametrize(
    "argv",
    [
        ("show", "r"),
        ("status",),
        ("sources",),
        ("review",),
        (
            "sql",
            "SELECT r.title, s.text, s.url FROM snapshots s JOIN record_status r USING (record_id)",
        ),
    ],
)
def test_no_value_starts_a_line_of_its_own(
    commanding: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, *argv, "--db", str(commanding))
    assert code == 0, err
    assert no_command_lines(out) and no_command_lines(err), out + err


def test_an_error_line_is_one_line_whatever_it_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "status", "--db", str(tmp_path / f"x{COMMAND}.duckdb"))
    assert code == 2 and err.count("\n") == 1 and no_command_lines(err), err


def test_a_database_path_with_a_control_character_is_a_config_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config"
    (config / "records").mkdir(parents=True)
    (config / "settings.yaml").write_text('database: "data/x.duckdb\\n::error::pwned"\n')
    code, _, err = run(capsys, "status", "--config", str(config))
    assert code == 2 and err.count("\n") == 1 and no_command_lines(err), err
    assert "control character" in err


def test_github_annotations_escape_a_file_name(tmp_path: Path) -> None:
    from evidence_cli.problems import _workflow_command
    from flows.commands.check import Problem

    line = _workflow_command(Problem("error", "config", f"a{TITLE_BAR}.yaml", 3, "bad"))
    assert not raw_controls(line) and "\x07" not in line
    assert line.startswith("::error file=a") and line.endswith("::bad")
