"""`python -m cli`: the `evidence` command."""

from cli.main import run

run()
