"""Stored bodies: Zstandard now, zlib before; both read back byte for byte."""

from __future__ import annotations

import zlib
from concurrent.futures import ThreadPoolExecutor

from hypothesis import given
from hypothesis import strategies as st

from warehouse import bodies


@given(st.binary(max_size=5000))
def test_a_body_comes_back_as_it_went_in(raw: bytes) -> None:
    assert bodies.decompress(bodies.compress(raw)) == raw


@given(st.binary(max_size=5000))
def test_bodies_stored_with_zlib_before_still_read(raw: bytes) -> None:
    assert bodies.decompress(zlib.compress(raw, 6)) == raw


def test_html_is_stored_smaller_than_zlib_stored_it() -> None:
    page = b"".join(
        f"<tr><td>Plan {i}</td><td>${i * 40},000 credits</td></tr>\n".encode() for i in range(2000)
    )
    stored = bodies.compress(page)
    assert stored[:4] == b"\x28\xb5\x2f\xfd"  # a Zstandard frame
    assert len(stored) < len(zlib.compress(page, 3))


def test_threads_compress_at_once_without_mixing_bodies() -> None:
    pages = [bytes([i]) * (50_000 + i) for i in range(64)]
    with ThreadPoolExecutor(8) as pool:
        stored = list(pool.map(bodies.compress, pages))
        back = list(pool.map(bodies.decompress, stored))
    assert back == pages
