"""Task values handed over whole, so that Prefect (and Dask) do not walk them."""

from __future__ import annotations

import uuid
from typing import Generic, TypeVar

T = TypeVar("T")


class Sealed(Generic[T]):
    """A task parameter or result handed over as one opaque value."""

    __slots__ = ("token", "value")

    def __init__(self, value: T) -> None:
        self.value = value
        self.token = uuid.uuid4().hex

    def __dask_tokenize__(self) -> str:
        """Dask names a task by a hash of its arguments, made by pickling them (twice, and
        reading them back): a batch of bodies, copied for a name. Each one is new."""
        return self.token

    def take(self) -> T:
        """The value, handed over: the wrapper keeps nothing (Prefect may keep the wrapper,
        as a finished task's parameter or result, for as long as the flow runs)."""
        value = self.value
        self.value = None  # type: ignore[assignment]  # emptied on purpose, never read again
        return value
