"""The layers of STYLE.md, held by parsing imports: extractors, then warehouse, then flows,
then the command line; nothing imports a layer above its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ORDER = ["extractors", "warehouse", "flows", "cli"]  # each may import only those before it
THIRD_PARTY_FORBIDDEN = {
    "extractors": {"httpx", "duckdb", "prefect", "os", "pathlib", "time"},
    "warehouse": {"httpx", "prefect"},
    "flows": {"duckdb"},  # the warehouse holds every line of it
    "cli": {"httpx", "duckdb"},
}


def imports(path: Path) -> set[str]:
    """Top-level names of every module a file imports, at any depth of its code."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def files(layer: str) -> list[Path]:
    found = sorted((ROOT / layer).rglob("*.py"))
    assert found, f"no modules in {layer}/"
    return found


@pytest.mark.parametrize("layer", ORDER)
def test_no_layer_imports_one_above_it(layer: str) -> None:
    above = set(ORDER[ORDER.index(layer) + 1 :])
    for path in files(layer):
        bad = imports(path) & (above | THIRD_PARTY_FORBIDDEN[layer])
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from cli.render import table\n    import flows.fetch\n")
    assert {"cli", "flows"} <= imports(module)


def test_extractors_never_read_the_clock() -> None:
    for path in files("extractors"):
        source = path.read_text(encoding="utf-8")
        assert ".now(" not in source and "today()" not in source, path.name


@pytest.mark.parametrize("layer", ["flows", "cli"])
def test_only_the_warehouse_holds_sql(layer: str) -> None:
    for path in files(layer):
        lines = path.read_text(encoding="utf-8").splitlines()
        source = "\n".join(line for line in lines if "evidence sql" not in line)  # usage hints
        for word in ("SELECT ", "INSERT INTO", "CREATE TABLE", "DELETE FROM"):
            assert word not in source, (
                f"{path.relative_to(ROOT)} holds SQL ({word.strip()}): move it to warehouse/"
            )
