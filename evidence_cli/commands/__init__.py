"""The commands of `evidence`, each registered once (see `evidence_cli.registry`).

Importing this package registers them, in the order the help lists them: the ones
that run the cycle, the ones that read it, the keeper's, then the ones that take the
evidence elsewhere or tidy it.
"""

from __future__ import annotations

# isort: off
from evidence_cli.commands import running
from evidence_cli.commands import reading
from evidence_cli.commands import keeping
from evidence_cli.commands import publishing
# isort: on

__all__ = ["keeping", "publishing", "reading", "running"]
