"""The docs match the code: the README's first commands, every CLI command, every view
and column, every setting, every path and link the docs name, and the demo's output."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from evidence_cli.main import COMMANDS, build_parser
from warehouse.db import stable_views

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DEVELOPMENT = (ROOT / "DEVELOPMENT.md").read_text(encoding="utf-8")
# The reference: docs/<name>.md by name
DOCS = {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md"))}
EVERY_DOC = {
    "README.md": README,
    "DEVELOPMENT.md": DEVELOPMENT,
    **{f"docs/{name}": text for name, text in DOCS.items()},
}


def test_readme_opens_with_the_two_commands() -> None:
    block = re.search(r"```sh\n(.*?)```", README, re.S)
    assert block and README.index("```sh") < 200
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines()]
    assert commands == ["make demo", "make test"]


def test_the_readme_stays_a_guide() -> None:
    """The README is the user's guide; the full reference lives in docs/ and the README
    links every file of it."""
    assert len(README.splitlines()) <= 320, "move reference material from the README to docs/"
    assert {"commands.md", "configuration.md", "views.md", "grading.md"} <= set(DOCS)
    for name in DOCS:
        assert f"](docs/{name}" in README, f"the README does not link docs/{name}"


def test_every_command_has_help_and_is_documented() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name in COMMANDS:
        assert sub.choices[name].format_help(), name
        help_text = next(c.help for c in sub._choices_actions if c.dest == name)
        assert help_text, f"{name} has no help text"
        assert f"`evidence {name}" in README, f"evidence {name} is not in the README"
        row = rf"^\| `evidence {name}[ `]"
        assert re.search(row, DOCS["commands.md"], re.M), f"{name} is not in docs/commands.md"
        own = sub.choices[name].format_help()
        assert help_text[0].upper() + help_text[1:] in own, f"{name}: no description"
        assert f"example:\n  evidence {name}" in own, f"{name}: no example"


def test_evidence_alone_prints_the_help_and_version_the_version(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from evidence_cli.main import main
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


def test_every_view_is_in_the_docs_and_exported() -> None:
    """The views of warehouse/views/ in `main` are what export writes, each named in the
    README and given a row and a section in docs/views.md."""
    views = stable_views()
    assert "snapshots" in views and "source_health" in views
    views_doc = DOCS["views.md"]
    for view in views:
        assert f"`{view}`" in README, f"{view} is not in the README's views"
        assert re.search(rf"^\| `{view}` \|", views_doc, re.M), f"{view}: no row in docs/views.md"
        assert f"\n### {view}\n" in views_doc, f"{view}: no section in docs/views.md"
    documented = set(re.findall(r"^### (\w+)$", views_doc, re.M))
    assert documented == set(views), "docs/views.md has a section of no view, or lacks one"


def test_every_column_of_every_view_is_in_the_docs(tmp_path: Path) -> None:
    from warehouse.db import connect

    con = connect(tmp_path / "w.duckdb")  # every migration applied
    try:
        columns = {
            v: [r[0] for r in con.execute(f"DESCRIBE {v}").fetchall()] for v in stable_views()
        }
    finally:
        con.close()
    for view, names in columns.items():
        row = re.search(rf"^\| `{view}` \|(.*)$", DOCS["views.md"], re.M)
        assert row, view
        listed = set(re.findall(r"\w+", row.group(1)))
        missing = [c for c in names if c not in listed]
        assert not missing, f"docs/views.md leaves out {view}.{missing}"


def _keys(tree: dict, prefix: str = "") -> set[str]:
    out = set()
    for key, value in tree.items():
        out.add(prefix + key)
        if isinstance(value, dict):
            out |= _keys(value, f"{prefix}{key}.")
    return out


def test_every_setting_and_record_key_is_in_the_docs() -> None:
    """docs/configuration.md's settings.yaml is every key at its default, and its record
    uses every key a record, a source and a claim can have."""
    import yaml

    from flows.catalog import ClaimConfig, RecordConfig, Settings, SourceConfig
    from flows.catalog.models import ChangeConfig, ExpectConfig

    text = DOCS["configuration.md"]
    settings_yaml, record_yaml = re.findall(r"```yaml\n(.*?)```", text, re.S)[:2]
    documented = yaml.safe_load(settings_yaml)
    assert _keys(documented) == _keys(Settings().model_dump())
    assert Settings.model_validate(documented) == Settings(), "a default is documented wrong"
    record = yaml.safe_load(record_yaml)
    assert set(record) == set(RecordConfig.model_fields)
    assert set().union(*record["sources"]) == set(SourceConfig.model_fields)
    assert set().union(*record["claims"]) == set(ClaimConfig.model_fields)
    for key in [*ExpectConfig.model_fields, *ChangeConfig.model_fields]:
        assert f"`{key}" in text or f"{key}:" in text, f"expect key {key} is not documented"


def test_every_path_the_docs_name_exists() -> None:
    named = set(
        re.findall(
            r"`((?:evidence_cli|flows|extractors|warehouse|bench|tests)/[\w./]*)`",
            "\n".join(EVERY_DOC.values()),
        )
    )
    assert len(named) > 20  # the layout tables name most modules
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert not missing, f"the docs name files that do not exist: {missing}"


def anchors(text: str) -> set[str]:
    """The anchors of a markdown file's headings, as GitHub makes them."""
    headings = re.findall(r"^#+ (.+)$", re.sub(r"```.*?```", "", text, flags=re.S), re.M)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}


def test_every_link_between_the_docs_leads_somewhere() -> None:
    checked = 0
    for name, text in EVERY_DOC.items():
        here = (ROOT / name).parent
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):  # a web address
                continue
            path, _, anchor = target.partition("#")
            file = (here / path).resolve() if path else ROOT / name
            assert file.exists(), f"{name} links {target}: no such file"
            if anchor and file.suffix == ".md":
                assert anchor in anchors(file.read_text(encoding="utf-8")), (
                    f"{name} links {target}: no such heading"
                )
            checked += 1
    assert checked > 20


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

    shown = [c for text in EVERY_DOC.values() for c in shown_commands(text)]
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


DEMO_NOW = "2026-12-02T06:00:00+00:00"  # the docs' examples of the demo are of this day
DEMO_PORT_URL = "http://127.0.0.1:8741"


def demo_examples(text: str) -> list[tuple[list[str], list[str]]]:
    """Each block of a doc that shows a command on the demo's database: (its words, the
    lines shown after it)."""
    import shlex

    out = []
    pattern = r"```\n(\$ evidence [^\n]*--db data/demo\.duckdb[^\n]*\n.*?)```"
    for block in re.findall(pattern, text, re.S):
        first, *lines = block.splitlines()
        out.append((shlex.split(first.removeprefix("$ "))[1:], lines))
    return out


def shown_in(shown: list[str], printed: list[str]) -> str | None:
    """None when every line shown is printed, in order (`...` stands for any lines, a
    line ending in `…` for any line it begins); else the first line that is not."""
    at = 0
    for line in shown:
        if line == "...":
            continue
        prefix = line.endswith("…")
        while at < len(printed) and not (
            printed[at].startswith(line[:-1]) if prefix else printed[at] == line
        ):
            at += 1
        if at == len(printed):
            return line
        at += 1
    return None


@pytest.mark.slow
def test_the_docs_show_what_the_demo_prints(tmp_path: Path) -> None:
    """The docs' examples on data/demo.duckdb (README and docs/) are the demo's real
    output: the demo is run, then each command shown, and every line shown must be
    printed, in order."""
    import os
    import subprocess
    import sys

    from support import browser_found

    examples = [e for text in EVERY_DOC.values() for e in demo_examples(text)]
    assert {words[0] for words, _ in examples} >= {"demo", "show", "diff"}
    if not browser_found():  # the card's Space is read through the browser
        assert os.environ.get("CI") != "true", "CI must have a browser (make browser)"
        pytest.skip("no browser here: the demo's card differs without one")
    db = tmp_path / "data" / "demo.duckdb"
    db.parent.mkdir()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("EVIDENCE_")},
        "EVIDENCE_PREFECT_SERVER": os.environ.get("EVIDENCE_PREFECT_SERVER", "temporary"),
        "EVIDENCE_NOW": DEMO_NOW,
    }

    def evidence(words: list[str]) -> subprocess.CompletedProcess:
        done = subprocess.run(
            [sys.executable, "-m", "evidence_cli", *words],
            cwd=tmp_path,
            env={**env, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return done

    demo = evidence(["demo", "--db", "data/demo.duckdb"])
    served = re.search(r"serving .* at (http://\S+)", demo.stderr)
    assert served
    said = demo.stdout.replace(served.group(1), DEMO_PORT_URL)  # the port may be taken
    for words, shown in examples:
        printed = said if words[0] == "demo" else evidence(words).stdout
        missing = shown_in(shown, printed.splitlines())
        assert missing is None, f"`evidence {' '.join(words)}` does not print: {missing}"
