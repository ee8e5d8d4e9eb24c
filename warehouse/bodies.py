"""Stored page bodies: compressed once, by the extraction worker that reads them.

New bodies are Zstandard frames (faster and smaller than zlib at the level chosen;
bench/NOTES.md has the figures). Bodies stored before are zlib
streams; `decompress` tells the two apart by the Zstandard frame's magic number, so
nothing stored needs rewriting.
"""

from __future__ import annotations

import threading
import zlib

import zstandard

ZSTD_LEVEL = 3
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_local = threading.local()  # zstandard (de)compressors are not safe to share between threads


def compress(body: bytes) -> bytes:
    """A raw body as stored."""
    c = getattr(_local, "compressor", None)
    if c is None:
        c = _local.compressor = zstandard.ZstdCompressor(level=ZSTD_LEVEL)
    return c.compress(body)


def decompress(stored: bytes) -> bytes:
    """The raw body of a stored one, Zstandard (now) or zlib (before)."""
    if stored[:4] != _ZSTD_MAGIC:
        return zlib.decompress(stored)
    d = getattr(_local, "decompressor", None)
    if d is None:
        d = _local.decompressor = zstandard.ZstdDecompressor()
    return d.decompress(stored)
