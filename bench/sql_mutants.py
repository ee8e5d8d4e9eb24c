"""Mutation testing for the SQL that grades and picks claim checks, which mutmut cannot
mutate: each mutant changes one operator, keyword, aggregate or literal in one file, and
the fast tests run against it in a scratch copy of the tree. A mutant is killed when a
test fails.

    .venv/bin/python bench/sql_mutants.py [--workers 2] [--only sql/grade.sql]

Prints every mutant that survived, then the score per file.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import duckdb

ROOT = Path(__file__).resolve().parent.parent
# paths under warehouse/; a migration is mutated only inside the statement named after it
FILES = [
    "sql/grade.sql",
    "sql/grade_rules.sql",
    "sql/pending_checks.sql",
    "sql/review_candidates.sql",
    "migrations/001_init.sql",
]
REGIONS = {"migrations/001_init.sql": r"CREATE MACRO freshness_of\b[^;]*;"}
TESTS = ["tests/test_grading.py", "tests/test_checks.py"]

# (pattern, replacement): each match in a file, one at a time, is one mutant
SWAPS: list[tuple[str, str]] = [
    (r"(?<![<>!])=(?!=)", "<>"),
    (r"<>", "="),
    (r"<(?![=>])", "<="),
    (r"<=", "<"),
    (r"(?<![<-])>(?!=)", ">="),
    (r">=", ">"),
    (r"\bAND\b", "OR"),
    (r"\bOR\b", "AND"),
    (r"\bNOT IN\b", "IN"),
    (r"\bIS NULL\b", "IS NOT NULL"),
    (r"\bIS NOT NULL\b", "IS NULL"),
    (r"\bmax\(", "min("),
    (r"\bmin\(", "max("),
    (r"\barg_max\(", "arg_min("),
    (r"\bbool_or\(", "bool_and("),
    (r"\bDISTINCT\b ", ""),
    (r"\bDESC\b", "ASC"),
    (r"\bLEFT JOIN\b", "JOIN"),
    (r"\bANTI JOIN\b", "SEMI JOIN"),
    (r"\bUNION\b", "UNION ALL"),
    (r"\bcoalesce\(([^,()]+),[^()]*(?:\([^()]*\))?[^()]*\)", r"\1"),
    (r"'[a-z-]+'", "'mutant'"),
    (r"\b0\b", "1"),
    (r"\bTHEN NULL\b", "THEN now()"),
]


@dataclass(frozen=True)
class Mutant:
    file: str
    line: int
    before: str
    after: str
    text: str  # the whole mutated file


def code_spans(sql: str) -> list[tuple[int, int]]:
    """The parts of the file outside comments, where mutants are made."""
    spans, start = [], 0
    for m in re.finditer(r"--[^\n]*", sql):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(sql)))
    return spans


def mutants(name: str, sql: str) -> Iterator[Mutant]:
    spans = code_spans(sql)
    if name in REGIONS:
        region = re.search(REGIONS[name], sql)
        assert region is not None, f"{name}: {REGIONS[name]} not found"
        spans = [(max(a, region.start()), min(b, region.end())) for a, b in spans]
    seen = set()
    for pattern, repl in SWAPS:
        for m in re.finditer(pattern, sql, flags=re.IGNORECASE):
            if not any(a <= m.start() and m.end() <= b for a, b in spans):
                continue
            after = m.expand(repl)
            text = sql[: m.start()] + after + sql[m.end() :]
            if text == sql or text in seen:
                continue
            seen.add(text)
            if not parses(text):
                continue  # a syntax error is no test of the tests
            line = sql.count("\n", 0, m.start()) + 1
            yield Mutant(name, line, m.group(0), after, text)


_PARSER = duckdb.connect()  # only parses: extract_statements runs nothing


def parses(sql: str) -> bool:
    try:
        _PARSER.extract_statements(sql)
    except duckdb.Error:
        return False
    return True


def scratch_tree(base: Path, mutant: Mutant) -> Path:
    """A tree of links to the project, with the one mutated SQL file written out."""
    root = Path(tempfile.mkdtemp(dir=base))
    folder, name = (Path("warehouse") / mutant.file).parent, Path(mutant.file).name
    _link_all_but(ROOT, root, folder.parts[0])
    _link_all_but(ROOT / "warehouse", root / "warehouse", folder.name)
    _link_all_but(ROOT / folder, root / folder, name)
    (root / folder / name).write_text(mutant.text, encoding="utf-8")
    return root


def _link_all_but(source: Path, target: Path, but: str) -> None:
    target.mkdir(exist_ok=True)
    for entry in source.iterdir():
        if entry.name not in (but, "__pycache__", ".venv", ".git", "mutants"):
            (target / entry.name).symlink_to(entry)


def killed(base: Path, mutant: Mutant) -> bool:
    root = scratch_tree(base, mutant)
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *TESTS],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return proc.returncode != 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", action="append", help="a file under warehouse/ (repeatable)")
    args = parser.parse_args()
    files = args.only or FILES
    every = [
        m for f in files for m in mutants(f, (ROOT / "warehouse" / f).read_text(encoding="utf-8"))
    ]
    # the tests must pass on the unmutated tree, or every mutant would look killed
    clean = Mutant(files[0], 0, "", "", (ROOT / "warehouse" / files[0]).read_text())
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        if killed(base, clean):
            print("the tests fail on the unmutated tree; nothing measured", file=sys.stderr)
            return 1
        print(f"{len(every)} mutants of {', '.join(files)}; tests: {' '.join(TESTS)}")
        with ThreadPoolExecutor(args.workers) as pool:
            results = list(pool.map(lambda m: (m, killed(base, m)), every))
    for m, dead in results:
        if not dead:
            print(f"survived  {m.file}:{m.line}  {m.before!r} -> {m.after!r}")
    for f in files:
        mine = [dead for m, dead in results if m.file == f]
        print(f"{f}: {sum(mine)} of {len(mine)} killed ({sum(mine) / max(len(mine), 1):.0%})")
    total = sum(dead for _, dead in results)
    print(
        f"all: {total} of {len(results)} killed ({total / max(len(results), 1):.0%}) "
        f"in {time.monotonic() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
