"""The layers of STYLE.md, held by parsing imports: extractors pure, warehouse owns DuckDB."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "extractors": {"flows", "warehouse", "httpx", "duckdb", "prefect", "os", "pathlib", "time"},
    "warehouse": {"flows", "httpx", "prefect"},
}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports(layer: str) -> None:
    files = sorted((ROOT / layer).rglob("*.py"))
    assert files
    for path in files:
        bad = imports(path) & FORBIDDEN[layer]
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_extractors_never_read_the_clock() -> None:
    for path in sorted((ROOT / "extractors").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        assert ".now(" not in source and "today()" not in source, path.name


def test_flows_hold_no_sql() -> None:
    for path in sorted((ROOT / "flows").rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        source = "\n".join(line for line in lines if "evidence sql" not in line)  # usage hints
        for word in ("SELECT ", "INSERT INTO", "CREATE TABLE", "DELETE FROM"):
            assert word not in source, (
                f"{path.name} holds SQL ({word.strip()}): move it to warehouse/"
            )
