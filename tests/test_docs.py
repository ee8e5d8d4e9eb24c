"""The README matches the code: its first commands, every CLI command, every view."""

from __future__ import annotations

import re
from pathlib import Path

from cli.main import COMMANDS, build_parser
from warehouse.db import migrations

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
VIEWS = [
    "record_status",
    "claim_status",
    "claim_checks",
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


def test_every_view_is_in_the_readme_and_the_migrations() -> None:
    sql = "\n".join(text for _, _, text in migrations())
    for view in VIEWS:
        assert f"`{view}`" in README, view
        assert re.search(rf"CREATE VIEW {view}\b", sql), view


def test_every_path_the_readme_names_exists() -> None:
    named = set(
        re.findall(r"`((?:cli|flows|extractors|warehouse|bench|tests|demo)/[\w./]*)`", README)
    )
    assert len(named) > 20  # the layout tables name most modules
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert not missing, f"the README names files that do not exist: {missing}"
