"""Bytes to text, in the order a browser looks: the header's charset, a BOM, <meta charset>,
then detection; and binary bodies refused."""

from __future__ import annotations

import codecs

import pytest

from extractors.encoding import decode_body

JAPANESE = (
    "日本語のテキストです。これは文字コードの検出のための長い文章です。東京は日本の首都です。"
)


def test_plain_utf8_needs_nothing_declared() -> None:
    assert decode_body("<p>café</p>".encode(), None) == ("<p>café</p>", "utf-8")


def test_the_declared_charset_comes_first() -> None:
    body = '<meta charset="utf-8"><p>caf\xe9</p>'.encode("latin-1")
    assert decode_body(body, "iso-8859-1") == ('<meta charset="utf-8"><p>café</p>', "iso8859-1")


@pytest.mark.parametrize(
    ("bom", "codec", "name"),
    [
        (codecs.BOM_UTF8, "utf-8", "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16"),
    ],
)
def test_a_bom_names_the_encoding_and_is_dropped(bom: bytes, codec: str, name: str) -> None:
    assert decode_body(bom + "<p>Žluť</p>".encode(codec), None) == ("<p>Žluť</p>", name)


def test_a_bom_left_after_a_declared_charset_is_dropped() -> None:
    text, encoding = decode_body(codecs.BOM_UTF8 + b"Xavier", "utf-8")
    assert (text, encoding) == ("Xavier", "utf-8")


def test_an_unknown_declared_charset_gives_way_to_the_page_meta() -> None:
    body = '<meta charset="iso-8859-2"><p>\xb9</p>'.encode("latin-1")
    assert decode_body(body, "x-no-such-charset") == (
        '<meta charset="iso-8859-2"><p>š</p>',
        "iso8859-2",
    )


def test_meta_charset_is_read_from_the_first_4096_bytes_only() -> None:
    tag = b'<meta charset="koi8-r">'
    last = tag.index(b'r"')  # the name's last letter
    # that letter is the 4097th byte: the name is cut to "koi8-", which names nothing
    late = b" " * (4096 - last) + tag + "<p>é</p>".encode()
    assert decode_body(late, None)[1] == "utf-8"
    early = b" " * (4095 - last) + tag + "<p>Мир</p>".encode("koi8-r")
    assert decode_body(early, None) == (early.decode("koi8-r"), "koi8-r")


@pytest.mark.parametrize(("nuls", "binary"), [(16, False), (17, True)])
def test_a_short_body_is_binary_past_16_nul_bytes(nuls: int, binary: bool) -> None:
    body = b"<p>" + b"\x00" * nuls + b"</p>"
    assert (decode_body(body, "utf-8") == (None, None)) is binary


@pytest.mark.parametrize(("nuls", "binary"), [(30, False), (31, True)])
def test_a_long_body_is_binary_past_one_nul_in_a_hundred(nuls: int, binary: bool) -> None:
    body = b"a" * (3000 - nuls) + b"\x00" * nuls
    assert (decode_body(body, "utf-8") == (None, None)) is binary


def test_undeclared_western_bytes_read_as_windows_1252() -> None:
    body = "<p>Caf\xe9 cr\xe8me \x93quoted\x94 \x80 5</p>".encode("latin-1")
    assert decode_body(body, None) == ("<p>Café crème “quoted” € 5</p>", "cp1252")


def test_undeclared_japanese_is_detected() -> None:
    body = (JAPANESE * 8).encode("cp932")
    text, encoding = decode_body(body, None)
    assert (text, encoding) == (JAPANESE * 8, "cp932")


def test_a_detected_encoding_reads_past_a_bad_byte_late_in_a_long_page() -> None:
    # detection looks at the start; a stray byte after it is replaced, not an error
    body = (JAPANESE * 2500).encode("cp932") + b"\x88"
    assert len(body) > 200_000
    text, encoding = decode_body(body, None)
    assert encoding == "cp932"
    assert text is not None and text.startswith(JAPANESE) and text.endswith("\ufffd")


def test_bytes_nothing_can_read_give_no_text() -> None:
    # no NULs, not UTF-8, no detector's guess, and bytes windows-1252 leaves undefined
    assert decode_body(bytes(range(0x80, 0x100)) * 4, None) == (None, None)
