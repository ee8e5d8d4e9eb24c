"""Errors of the warehouse layer (see flows/errors.py for the whole tree)."""

from __future__ import annotations


class WarehouseError(Exception):
    """The database cannot be used as asked."""


class WarehouseBusy(WarehouseError):
    """Another process holds DuckDB's write lock on the file."""


class WarehouseMissing(WarehouseError):
    """There is no database at the path yet."""
