"""Mutation testing for the SQL that grades and picks claim checks, which mutmut cannot
mutate: each mutant changes one operator, keyword, aggregate or literal in one file, and
the fast tests run against it in a scratch copy of the tree. A mutant is killed when a
test fails.

    .venv/bin/python bench/sql_mutants.py [--workers 2] [--only grade.sql]

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

ROOT = Path(__file__).resolve().parent.parent
FILES = ["grade.sql", "pending_checks.sql", "review_candidates.sql"]
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


def parses(sql: str) -> bool:
    import duckdb

    try:
        duckdb.connect().extract_statements(sql)
    except duckdb.Error:
        return False
    return True


def scratch_tree(base: Path, mutant: Mutant) -> Path:
    """A tree of links to the project, with the one mutated SQL file written out."""
    root = Path(tempfile.mkdtemp(dir=base))
    for entry in ROOT.iterdir():
        if entry.name not in ("warehouse", ".venv", ".git", "mutants"):
            (root / entry.name).symlink_to(entry)
    (root / "warehouse").mkdir()
    for entry in (ROOT / "warehouse").iterdir():
        if entry.name != "sql":
            (root / "warehouse" / entry.name).symlink_to(entry)
    (root / "warehouse" / "sql").mkdir()
    for entry in (ROOT / "warehouse" / "sql").iterdir():
        if entry.name not in (mutant.file, "__pycache__"):
            (root / "warehouse" / "sql" / entry.name).symlink_to(entry)
    (root / "warehouse" / "sql" / mutant.file).write_text(mutant.text, encoding="utf-8")
    return root


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
    parser.add_argument("--only", action="append", help="a file of warehouse/sql (repeatable)")
    args = parser.parse_args()
    files = args.only or FILES
    every = [
        m
        for f in files
        for m in mutants(f, (ROOT / "warehouse" / "sql" / f).read_text(encoding="utf-8"))
    ]
    # the tests must pass on the unmutated tree, or every mutant would look killed
    clean = Mutant(files[0], 0, "", "", (ROOT / "warehouse" / "sql" / files[0]).read_text())
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
