"""The README matches the code: its first commands, every CLI command, every view."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli.main import COMMANDS, build_parser
from warehouse.db import migrations

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DEVELOPMENT = (ROOT / "DEVELOPMENT.md").read_text(encoding="utf-8")
VIEWS = [
    "record_status",
    "claim_status",
    "claim_checks",
    "claim_values",
    "source_health",
    "fetches",
    "snapshots",
    "quoted_numbers",
    "statuses",
    "alerts",
    "grade_history",
]


def test_readme_opens_with_the_two_commands() -> None:
    block = re.search(r"```sh\n(.*?)```", README, re.S)
    assert block and README.index("```sh") < 200
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines()]
    assert commands == ["make demo", "make test"]


def test_every_command_has_help_and_is_documented() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name in COMMANDS:
        assert sub.choices[name].format_help(), name
        help_text = next(c.help for c in sub._choices_actions if c.dest == name)
        assert help_text, f"{name} has no help text"
        assert f"`evidence {name}" in README, f"evidence {name} is not in the README"
        own = sub.choices[name].format_help()
        assert help_text[0].upper() + help_text[1:] in own, f"{name}: no description"
        assert f"example:\n  evidence {name}" in own, f"{name}: no example"


def test_evidence_alone_prints_the_help_and_version_the_version(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cli.main import main
    from flows.catalog import __version__

    assert main([]) == 0
    assert capsys.readouterr().out.startswith("usage: evidence")
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.strip() == f"evidence {__version__}"


@pytest.mark.parametrize("command", ["status", "sources", "alerts", "sql"])
def test_flags_mean_the_same_before_and_after_the_command(command: str) -> None:
    parser = build_parser()
    extra = ["SELECT 1"] if command == "sql" else []
    before = parser.parse_args(["--db", "a.duckdb", "--config", "c", command, *extra])
    after = parser.parse_args([command, *extra, "--db", "a.duckdb", "--config", "c"])
    both = parser.parse_args(["--db", "x.duckdb", command, *extra, "--db", "a.duckdb"])
    assert (before.db, before.config) == (after.db, after.config) == ("a.duckdb", "c")
    assert both.db == "a.duckdb"  # the one after the command wins
    assert parser.parse_args([command, *extra, "--format", "json"]).format == "json"


def test_every_view_is_in_the_readme_and_the_migrations() -> None:
    sql = "\n".join(text for _, _, text in migrations())
    for view in VIEWS:
        assert f"`{view}`" in README, view
        assert re.search(rf"CREATE VIEW {view}\b", sql), view


def test_every_path_the_docs_name_exists() -> None:
    named = set(
        re.findall(
            r"`((?:cli|flows|extractors|warehouse|bench|tests|demo)/[\w./]*)`",
            README + DEVELOPMENT,
        )
    )
    assert len(named) > 20  # the layout tables name most modules
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert not missing, f"the docs name files that do not exist: {missing}"


def test_every_use_of_the_corpus_goes_through_its_gate(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only tests/support.py knows where the corpus is; a test that reads it calls
    need_corpus(), which fails in CI without it and skips, saying why, elsewhere."""
    import support

    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.name == "support.py" or "fixtures" in path.parts:
            continue
        source = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT)
        assert not re.search(r"[\"']shared[\"']\s*/|[\"']corpus[\"']\s*/", source), (
            f"{where} builds the corpus path itself: use support.need_corpus()"
        )
        if re.search(r"\bCORPUS\b|ground-truth\.json|article-extraction-benchmark", source):
            assert "need_corpus()" in source, f"{where} reads the corpus without the gate"
    monkeypatch.setattr(support, "CORPUS", ROOT / "no-such-corpus")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no corpus at"):
        support.need_corpus()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must have the corpus"):
        support.need_corpus()


def shown_commands(text: str) -> list[str]:
    """Every `evidence` command the docs show in a code block, one string each (a
    command whose quotes span lines joined up; redirections and comments left out)."""
    commands = []
    for block in re.findall(r"```(?:sh)?\n(.*?)```", text, re.S):
        pending = ""
        for line in block.splitlines():
            line = pending + ("\n" if pending else "") + line
            stripped = re.sub(r"^\$ ", "", line.strip())
            if not re.match(r"(\.venv/bin/)?evidence ", stripped):
                pending = ""
                continue
            if stripped.count('"') % 2:  # a quoted query goes on
                pending = line
                continue
            pending = ""
            commands.append(stripped)
    return commands


def test_every_command_the_docs_show_parses() -> None:
    import shlex

    shown = shown_commands(README) + shown_commands(DEVELOPMENT)
    assert len(shown) > 5
    parser = build_parser()
    for command in shown:
        words = shlex.split(command, comments=True)
        for stop in (">", ">>", "|"):
            if stop in words:
                words = words[: words.index(stop)]
        try:
            parser.parse_args(words[1:])
        except SystemExit as e:  # (--help and --version exit 0, having done their work)
            if e.code != 0:
                raise AssertionError(
                    f"the docs show a command that does not parse: {command}"
                ) from e
