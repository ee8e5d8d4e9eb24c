"""The layers of DEVELOPMENT.md ("Layout"), held by parsing imports: the foundations
(evidence_base), extractors, then warehouse, then flows, then the command line; nothing
imports a layer above its own.
Inside flows/, the rooms hold an order of their own, and a room is entered only through
what it exports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# each may import only those before it
ORDER = ["evidence_base", "extractors", "warehouse", "flows", "evidence_cli"]
THIRD_PARTY_FORBIDDEN = {
    "evidence_base": {"httpx", "duckdb", "prefect", "pydantic", "bs4", "trafilatura"},
    "extractors": {"httpx", "duckdb", "prefect", "os", "pathlib", "time"},
    "warehouse": {"httpx", "prefect"},
    "flows": {"duckdb"},  # the warehouse holds every line of it
    "evidence_cli": {"httpx", "duckdb"},
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


HOUSE_SIZE = 800  # lines a module may have without saying why it is longer


def test_a_long_module_says_why() -> None:
    """A module past the house's size says in its docstring why it is kept whole."""
    for top in [*ORDER, "tests", "bench"]:
        for path in sorted((ROOT / top).rglob("*.py")):
            source = path.read_text(encoding="utf-8")
            if source.count("\n") <= HOUSE_SIZE:
                continue
            doc = ast.get_docstring(ast.parse(source)) or ""
            assert "Long, and kept whole" in doc, (
                f"{path.relative_to(ROOT)} has more than {HOUSE_SIZE} lines: split it, or "
                'say in its docstring why it is kept whole ("Long, and kept whole: ...")'
            )


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "def f():\n    from evidence_cli.render import table\n    import flows.fetching\n"
    )
    assert {"evidence_cli", "flows"} <= imports(module)


def test_extractors_never_read_the_clock() -> None:
    for path in files("extractors"):
        source = path.read_text(encoding="utf-8")
        assert ".now(" not in source and "today()" not in source, path.name


@pytest.mark.parametrize("layer", ["flows", "evidence_cli"])
def test_only_the_warehouse_holds_sql(layer: str) -> None:
    for path in files(layer):
        lines = path.read_text(encoding="utf-8").splitlines()
        source = "\n".join(line for line in lines if ' sql "' not in line)  # usage hints
        for word in ("SELECT ", "INSERT INTO", "CREATE TABLE", "DELETE FROM"):
            assert word not in source, (
                f"{path.relative_to(ROOT)} holds SQL ({word.strip()}): move it to warehouse/"
            )


# flows/: the rooms, each importing only those before it; the spine (the modules at the
# top of flows/) sits between alerting and commands.
ROOMS = ["runtime", "catalog", "fetching", "reading", "alerting", "spine", "commands"]
SPINE = {"refresh", "tasks", "pipeline", "planning", "checks", "preflight"}


def room_of(path: Path) -> str:
    """The room a file of flows/ or evidence_cli/ lives in ("evidence_cli" for the command line)."""
    parts = path.relative_to(ROOT).parts
    if parts[0] == "evidence_cli":
        return "evidence_cli"
    return parts[1] if len(parts) > 2 else "spine"


def exports(room: str) -> set[str]:
    """A room's `__all__`, read from its __init__.py without importing it."""
    tree = ast.parse((ROOT / "flows" / room / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return {ast.literal_eval(e) for e in node.value.elts}  # type: ignore[attr-defined]
    return set()


def flows_imports(path: Path) -> list[tuple[list[str], list[str]]]:
    """Each import of flows/ in a file: the module path's parts after `flows`, and the
    names taken from it (none for `import flows.x.y`)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [
                (a.name.split(".")[1:], []) for a in node.names if a.name.startswith("flows.")
            ]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            parts = node.module.split(".")
            if parts[0] == "flows":
                found.append((parts[1:], [a.name for a in node.names]))
    return found


def room_violations(path: Path, own: str) -> list[str]:
    problems = []
    for parts, names in flows_imports(path):
        if not parts:  # `from flows import fetching`: the rooms themselves
            targets = [(n, []) for n in names]
        else:
            targets = [(parts[0], parts[1:2] or names)]
        for first, taken in targets:
            room = "spine" if first in SPINE else first
            if room not in ROOMS or room == own:
                continue
            if own != "evidence_cli" and ROOMS.index(room) > ROOMS.index(own):
                problems.append(f"imports flows.{first}, a room after its own ({own})")
            if room != "spine":
                hidden = sorted(set(taken) - exports(room))
                if hidden:
                    problems.append(
                        f"takes {hidden} from flows.{first}, which does not export them"
                    )
    return problems


def test_every_room_of_flows_exports_what_it_holds() -> None:
    rooms = sorted(p.parent.name for p in (ROOT / "flows").glob("*/__init__.py"))
    assert rooms == sorted(r for r in ROOMS if r != "spine")
    spine = sorted(p.stem for p in (ROOT / "flows").glob("*.py") if p.stem != "__init__")
    assert spine == sorted(SPINE)
    for room in rooms:
        assert exports(room), f"flows/{room}/__init__.py has no __all__"


@pytest.mark.parametrize("layer", ["flows", "evidence_cli"])
def test_rooms_are_entered_through_their_exports_and_never_upwards(layer: str) -> None:
    for path in files(layer):
        problems = room_violations(path, room_of(path))
        assert not problems, f"{path.relative_to(ROOT)}: {problems}"


def test_the_room_check_sees_a_hidden_import_and_one_upwards(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from flows.fetching.http import HttpLoader\n"
        "from flows.fetching import fetch_batch, _describe\n"
        "import flows.tasks\n"
        "from flows.commands import gc\n"
    )
    problems = room_violations(module, "reading")
    assert problems == [
        "takes ['http'] from flows.fetching, which does not export them",
        "takes ['_describe'] from flows.fetching, which does not export them",
        "imports flows.tasks, a room after its own (reading)",
        "imports flows.commands, a room after its own (reading)",
    ]
    assert room_violations(module, "evidence_cli") == problems[:2]  # the CLI stands above them all


SHIMS = ("warehouse.errors", "warehouse.outputs", "warehouse.pause")  # moved a release ago


@pytest.mark.parametrize("old", SHIMS)
def test_the_shims_of_the_last_release_are_gone(old: str) -> None:
    import importlib

    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(old)
