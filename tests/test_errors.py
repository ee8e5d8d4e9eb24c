"""One way to say an error in one line, safe on an error that says nothing, and no module
that writes its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from evidence_base.errors import first_line

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (ValueError("no such file\n  at line 3"), "no such file"),
        (ValueError("\n  leading blank lines\nthen more"), "leading blank lines"),
        (ValueError(""), "ValueError"),
        (TimeoutError(), "TimeoutError"),
        (RuntimeError(" \n "), "RuntimeError"),
        ("HTTP 404\nbody", "HTTP 404"),
        ("", ""),
        ("   ", ""),
    ],
)
def test_first_line(error: BaseException | str, said: str) -> None:
    assert first_line(error) == said


HAND_WRITTEN = re.compile(r"splitlines\(\)\[0\]|splitlines\(\) or \[|split\(\"\\n\"\)\[0\]")


def test_no_module_writes_its_own_first_line() -> None:
    for layer in ("flows", "evidence_cli", "warehouse", "evidence_base"):
        for path in (ROOT / layer).rglob("*.py"):
            if path == ROOT / "evidence_base" / "errors.py":
                continue
            source = path.read_text(encoding="utf-8")
            assert not HAND_WRITTEN.search(source), f"{path.relative_to(ROOT)}: use first_line"


def test_an_unknown_id_carries_what_was_asked_and_what_was_there() -> None:
    from evidence_base.errors import UnknownClaim, UnknownRecord

    error = UnknownRecord("nope", ["b", "a", "a"], "the database")
    assert (error.given, error.known, error.where, error.owner) == (
        "nope",
        ["a", "b"],
        "the database",
        None,
    )
    assert str(error) == "no record 'nope' in the database; known: a, b"
    many = UnknownRecord("zz", [f"id-{n:02}" for n in range(12)])
    assert str(many).endswith("id-09, ...") and "id-10" not in str(many)
    near = UnknownClaim("prise", ["prize", "teams"], owner="r")
    assert str(near) == "record 'r' has no claim 'prise' (did you mean 'prize'?)"
    assert str(UnknownRecord("x")) == "no record 'x'"
