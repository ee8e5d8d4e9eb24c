"""The `evidence` command: the parser, derived from the registered commands
(`evidence_cli/commands/`), and the entry point that turns what they raise into one line
and an exit status. Each command parses its options, calls one function below it and
formats the result. Read commands never import Prefect; refresh, serve and demo do.

Expected errors (config, database, a refresh already running) print one line
on stderr and exit 2; a crash exits 1 with its traceback.
"""

from __future__ import annotations

import argparse
import faulthandler
import gc
import os
import signal
import sys
from collections.abc import Sequence
from typing import NoReturn

import evidence_cli.commands  # noqa: F401  (registers every command)
from evidence_base import environment
from evidence_base.errors import EvidenceError, first_line
from evidence_base.meta import __version__
from evidence_cli.registry import REGISTRY
from extractors.printable import one_line
from flows.runtime import mark_start

EXIT_USER_ERROR = 2


COMMANDS = REGISTRY  # name -> the command, in the order the help lists them


class _Parser(argparse.ArgumentParser):
    """Bad arguments are one line and exit 2, as every other mistake of the user's."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"evidence: {message} (see `{self.prog} --help`)\n")


def _common(default: object) -> _Parser:
    """--config and --db: the same before the command or after it (after it wins)."""
    common = _Parser(add_help=False)
    common.add_argument(
        "--config",
        metavar="DIR",
        default=default,
        help="config directory (default ./config, env EVIDENCE_CONFIG)",
    )
    common.add_argument(
        "--db",
        metavar="PATH",
        default=default,
        help="database file (env EVIDENCE_DB; default from settings.yaml)",
    )
    return common


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="evidence",
        description="Keep a catalog of facts true: fetch sources, check claims, grade evidence.",
        epilog="`evidence COMMAND --help` for one command; the README has them all.",
        parents=[_common(None)],
    )
    parser.add_argument("--version", action="version", version=f"evidence {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    # (a subcommand's copy of the flags sets them only when given, so that a flag given
    # before the command is kept)
    common = _common(argparse.SUPPRESS)
    for c in REGISTRY.values():
        p = sub.add_parser(
            c.name,
            parents=[common],
            help=c.summary,
            description=c.summary[0].upper() + c.summary[1:] + ".",
            epilog=f"example:\n  {c.example}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        for a in c.arguments:
            p.add_argument(*a.names, **a.options)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # `evidence` alone
        parser.print_help()
        return 0
    for typo in environment.unknown():  # most likely a typo of a variable it reads
        print(f"evidence: {one_line(typo)} is not a variable evidence reads", file=sys.stderr)
    try:
        return COMMANDS[args.command](args)
    except EvidenceError as e:
        print(f"evidence: {one_line(str(e))}", file=sys.stderr)
        return EXIT_USER_ERROR
    except Exception as e:
        if not type(e).__module__.startswith(("duckdb", "_duckdb")):
            raise
        # a database that is not ours to trust (a failing view, a file of another
        # make): one line, never a traceback that shows what it read
        print(
            f"evidence: the database could not be read: {one_line(first_line(e))}", file=sys.stderr
        )
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        from flows.runtime import interrupted

        if not interrupted():  # (said already when a refresh was interrupted)
            print("evidence: interrupted", file=sys.stderr)
        return 130


EXIT_BROKEN_PIPE = 141  # as a shell says a process SIGPIPE ended: 128 + 13


def run() -> None:
    """The `evidence` command: main(), then an exit that skips the collector's last pass.

    At exit Python collects every object still alive, which takes a while after a large
    refresh, for memory the OS takes back anyway. Frozen, the objects are left to it (the
    exit handlers still run: the pool, Prefect and the temporary server were stopped).
    """
    mark_start()  # a refresh's `time:` counts from the process's start
    # SIGUSR1 prints every thread's stack on stderr: what a command that hangs waits on
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader went away (`evidence sql ... | head -1`): nothing more to say, and
        # nothing said at exit either (stdout points at /dev/null from here)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = EXIT_BROKEN_PIPE
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
