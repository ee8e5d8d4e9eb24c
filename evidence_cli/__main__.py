"""`python -m evidence_cli`: the `evidence` command."""

from evidence_cli.main import run

run()
