"""Every environment variable is declared once (evidence_base/environment.py): read only
through it, by a layer it allows, and documented in docs/configuration.md's table."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from evidence_base import environment
from evidence_base.environment import LAYERS, VARIABLES

ROOT = Path(__file__).resolve().parent.parent


def modules() -> list[Path]:
    return [p for layer in LAYERS for p in sorted((ROOT / layer).rglob("*.py"))]


def reads(path: Path) -> list[tuple[str, int]]:
    """Each `environment.get("NAME")` of a module: the name and its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "environment"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.append((node.args[0].value, node.lineno))
    return found


def test_no_module_reads_an_evidence_variable_but_through_the_table() -> None:
    direct = re.compile(r"environ(?:\.get)?\(?\[?\s*[\"']EVIDENCE_")
    for path in modules():
        if path.name == "environment.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert not direct.search(text), f"{path.relative_to(ROOT)} reads os.environ itself"


def test_each_read_names_a_declared_variable_from_a_layer_it_allows() -> None:
    declared = {v.name: v for v in VARIABLES}
    seen = set()
    for path in modules():
        layer = path.relative_to(ROOT).parts[0]
        for name, line in reads(path):
            where = f"{path.relative_to(ROOT)}:{line}"
            assert name in declared, f"{where}: {name} is not declared"
            assert LAYERS.index(layer) >= LAYERS.index(declared[name].layer), (
                f"{where}: {name} is read below {declared[name].layer}"
            )
            seen.add(name)
    # every variable declared is read somewhere (EVIDENCE_HOME by prefect.yaml)
    assert set(declared) - seen == {"EVIDENCE_HOME"}


def test_the_docs_table_is_the_declared_one() -> None:
    doc = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    table = doc.split("## Environment variables", 1)[1]
    documented = set(re.findall(r"^\| `((?:EVIDENCE|GITHUB)_\w+)` \|", table, re.M))
    assert documented == {v.name for v in VARIABLES if not v.internal}


def test_an_unknown_evidence_variable_is_said_with_the_near_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EVIDENCE_DBB", "x.duckdb")
    monkeypatch.setenv("EVIDENCE_ZZZ", "1")
    said = environment.unknown()
    assert "EVIDENCE_DBB (did you mean EVIDENCE_DB?)" in said
    assert "EVIDENCE_ZZZ" in said
    with pytest.raises(KeyError):
        environment.get("EVIDENCE_DBB")
