"""Bytes to text: the declared charset, else a BOM, else <meta charset>, else detection."""

from __future__ import annotations

import codecs
import re

from charset_normalizer import from_bytes

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)


def decode_body(body: bytes, declared: str | None) -> tuple[str | None, str | None]:
    """(text, encoding): the header's charset, else BOM, else <meta charset>, else detection."""
    if body.count(b"\x00") > max(16, len(body) // 100):
        return None, None
    for candidate in (declared, _bom(body), _meta_charset(body)):
        if candidate:
            try:
                codecs.lookup(candidate)
            except LookupError:
                continue
            text = body.decode(candidate, errors="replace")
            return text.lstrip("\ufeff"), codecs.lookup(candidate).name
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return _detect(body)
    return body.decode("utf-8"), "utf-8"


_SINGLE_BYTE = ("cp", "windows", "iso8859", "latin", "mac", "koi8", "tis")


def _detect(body: bytes) -> tuple[str | None, str | None]:
    """Not UTF-8 and nothing declared: detect, preferring windows-1252 among single-byte guesses.

    On short Western pages detectors pick a rare code page (cp775, mac-roman); browsers
    default to windows-1252 there, and so do we when it decodes the bytes cleanly.
    """
    best = from_bytes(body[:200_000]).best()
    guess = best.encoding if best is not None else None
    if guess is None or guess.startswith(_SINGLE_BYTE):
        try:
            return body.decode("cp1252"), "cp1252"
        except UnicodeDecodeError:
            pass
    if guess is None:
        return None, None
    return body.decode(guess, errors="replace"), guess


def _bom(body: bytes) -> str | None:
    for bom, name in (
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if body.startswith(bom):
            return name
    return None


def _meta_charset(body: bytes) -> str | None:
    m = _META_CHARSET.search(body[:4096])
    return m.group(1).decode("ascii", "ignore") if m else None
