"""A database serves one catalog: a refresh whose catalog lacks records the database
holds stops before it fetches, unless it prunes them."""

from __future__ import annotations

from pathlib import Path

from evidence_base.errors import EvidenceError
from flows.catalog.models import Catalog

MAX_NAMED = 10  # records named in the one line of a catalog that lacks them


def check_served(catalog: Catalog, db: Path | None, prune: bool) -> None:
    """A database serves one catalog: an EvidenceError when this catalog lacks records db
    holds (or has none at all), naming them and the config directory they came from."""
    from warehouse import queries  # (the catalog alone is read without DuckDB)
    from warehouse.db import session

    if db is None:
        held: list[str] = []
        origin = None
    else:
        with session(db, read_only=True) as con:
            origin, held = queries.served_catalog(con)
    check_held(catalog, db, origin, held, prune)


def check_held(
    catalog: Catalog, db: Path | None, origin: str | None, held: list[str], prune: bool
) -> None:
    """check_served, given the records db holds and the config directory it noted."""
    config_dir = catalog.config_dir
    have = {r.id for r in catalog.records}
    lacking = sorted(set(held) - have)
    if prune:
        return
    if not catalog.records and not lacking:
        raise EvidenceError(
            f"no records in {config_dir / 'records'}: nothing to refresh "
            "(add a record file, or pass --config DIR)"
        )
    if not lacking:
        return
    named = ", ".join(lacking[:MAX_NAMED])
    if len(lacking) > MAX_NAMED:
        named += f" and {len(lacking) - MAX_NAMED} more"
    whence = f"from {origin}" if origin else "from a catalog it did not note"
    here = str(config_dir.resolve())
    if origin == here:
        whence = "from this catalog before they left it"
    plural = "record" if len(lacking) == 1 else "records"
    lack = "has none of the records" if not catalog.records else f"lacks {len(lacking)} {plural}"
    hint = f"--config {origin}" if origin and origin != here else "the catalog that has them"
    raise EvidenceError(
        f"the catalog in {config_dir} {lack} {db} holds ({named}), {whence}: "
        f"refresh with {hint}, or add --prune to take them out of the views "
        "(their history is kept)"
    )
