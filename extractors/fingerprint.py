"""Whether a page's main text can have changed, without reading it again.

Real pages change bytes on every request (a CSRF token in a meta tag, a request id, a
"rendered at" footer) while their main text stays the same. Reading such a page again
costs a full extraction; this module decides, from a cheap scan of the HTML, when that
cannot change what the extraction gave last time.

A page is scanned into its *skeleton* (the sequence of tags, with the attributes the
extractor looks at, and where text sits between them) and its *segments* (the text
between tags). After an extraction, the segments whose text is in the extracted main
text are *kept*, and so is every segment in the same block as a kept one. The
fingerprint stores a digest of the skeleton, a digest of the kept segments' text, and
for every other segment its length and whether trafilatura's filter of social-media
words would match it.

A new page counts as the same when its skeleton digest is the same, its kept segments'
text is the same, and every other segment has the same length and filter match: only
text the extractor dropped changed, and changed in ways that do not enter its decisions
(lengths, link densities, the word filter). Any other difference means a full reading.
The fingerprint is only made when the extraction can be traced back to the segments
(trafilatura's reading, with nearly all of its characters found in kept segments), so
that a text the extractor transforms beyond recognition never takes this way.
"""

from __future__ import annotations

import hashlib
import html as html_lib
import re
import struct
from dataclasses import dataclass
from itertools import accumulate

import zstandard

from extractors.claims import ASCII_FOLDED, fold

try:  # trafilatura drops text nodes whose lines start with these words
    from trafilatura.utils import RE_FILTER as _WORD_FILTER
except ImportError:  # pragma: no cover - a trafilatura without it filters nothing by words
    _WORD_FILTER = re.compile(r"(?!)")

FORMAT = 2  # 2: cells apart ("Pro | 29") kept as the reading folds them
# Attributes whose values the extractor reads (trafilatura's XPath expressions name them);
# any other attribute (a nonce, a request id, a CSRF value) is not part of the skeleton,
# and of a link only that it has an address.
_READ = (
    "class id style type itemprop role rel lang aria-hidden hidden name property encoding "
    "data-component data-testid data-lp-replacement-content href datetime pubdate"
).split()
_NOT_READ = re.compile(
    r"\s+(?!(?:" + "|".join(map(re.escape, _READ)) + r")(?=[\s=/>]|$))"
    r"[^\s=/>\"']+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>\"']+))?",
    re.I,
)
_HREF_VALUE = re.compile(r"(\shref)\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>\"']+)", re.I)
# Content the extractor drops: comments, scripts, styles (JSON-LD is the page's dates and
# headline: its text counts as always kept).
_DROPPED_START = re.compile(r"<(?:(!--)|(script|style)\b([^>]*)>)")  # on lower-cased text
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_TAG = re.compile(r"(<[a-zA-Z/!?][^>]*>)")
_TAG_NAME = re.compile(r"</?([a-zA-Z][\w:.-]*)")
_ANY_TAG = re.compile(r"<[^\0]*")  # each tag of the \0-joined list (after blocks became 1)
_DIGITS = bytes.maketrans(b"01", b"\x00\x01")
_TITLE = re.compile(r"<title\b[^>]*>(.*?)</title\s*>", re.S | re.I)
# meta tags whose content the page's title and dates come from (extractors/dates.py):
# always kept
_META_KEPT = re.compile(
    r"<meta\b[^>]*?(?:name|property|itemprop)\s*=\s*[\"']?[^\"'>]*"
    r"(?:title|date|time|published|modified|updated|lastmod)[^>]*>",
    re.I,
)
_TIME_TEXT = re.compile(r"<time\b[^>]*>([^<]*)<", re.I)  # a byline's date, as written
# Tags that end a block of text: a segment is kept when any segment of its block is.
_BLOCKS = frozenset(
    "address article aside blockquote body br button caption dd details dialog div dl dt "
    "fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr html li main nav ol "
    "p pre section summary table tbody td tfoot th thead tr ul".split()
)
_BLOCK_TAG = re.compile(
    r"</?(?:" + "|".join(sorted(_BLOCKS, key=len, reverse=True)) + r")(?=[\s/>]|$)[^\0]*",
    re.I,
)
# Share of the main text's characters that kept segments must account for.
MIN_COVERAGE = 0.97
_LENGTH_CAP = 0x7FFF
_DIGEST = 16


@dataclass(frozen=True, slots=True)
class Scan:
    skeleton: bytes  # digest of the tags (attributes the extractor reads), where text
    # sits between them, and what is always kept (title, date metas, JSON-LD)
    parts: list[str]  # text, tag, text, tag, ..., text (scripts and styles emptied)

    @property
    def segments(self) -> list[str]:
        """The text between tags, white space alone left out."""
        return [t for t in self.parts[0::2] if t and not t.isspace()]


def scan(html: str) -> Scan:
    """Skeleton and text of an HTML document, by regular expressions (no parse tree)."""
    always: list[str] = [m.group(1) for m in _TITLE.finditer(html, 0, 200_000)]
    always.extend(m.group(0) for m in _META_KEPT.finditer(html))
    always.extend(m.group(1) for m in _TIME_TEXT.finditer(html))

    parts = _TAG.split(_without_dropped(html, always))
    texts = parts[0::2]
    tags = _HREF_VALUE.sub(r"\1", _NOT_READ.sub("", "\0".join(parts[1::2])))
    marks = "".join(["T" if t and not t.isspace() else " " if t else "" for t in texts])
    shape = hashlib.blake2b(digest_size=_DIGEST)
    for piece in (tags, marks, *always):
        shape.update(piece.encode("utf-8", "surrogatepass") + b"\1")
    return Scan(shape.digest(), parts)


def _without_dropped(html: str, always: list[str]) -> str:
    """The document with comments dropped and scripts and styles emptied (each end found
    by a plain search: a lazy pattern would step through every character they hold)."""
    lowered = html.lower()
    if len(lowered) != len(html):  # a letter that lower-cases to two: offsets would differ
        lowered = html.translate(_ASCII_LOWER)
    out = []
    pos = 0
    while (m := _DROPPED_START.search(lowered, pos)) is not None:
        out.append(html[pos : m.start()])
        if m.group(1):  # a comment
            end = lowered.find("-->", m.end())
            pos = len(html) if end < 0 else end + 3
            continue
        name, attrs = m.group(2), html[m.start(3) : m.end(3)]
        end = lowered.find(f"</{name}", m.end())
        content_end = len(html) if end < 0 else end
        if "ld+json" in m.group(3):
            always.append(html[m.end() : content_end])
        out.append(f"<{name}{attrs}></{name}>")
        close = lowered.find(">", content_end)
        pos = len(html) if end < 0 or close < 0 else close + 1
    out.append(html[pos:])
    return "".join(out)


def _blocks(parts: list[str]) -> list[int]:
    """For each segment, the index of the block it belongs to (the number of block tags
    before it), counted by regular expressions and itertools rather than a loop a tag."""
    tags = parts[1::2]
    # one character a tag: 1 for a tag that ends a block, 0 for any other
    coded = _ANY_TAG.sub("0", _BLOCK_TAG.sub("1", "\0".join(tags))).replace("\0", "")
    if len(coded) != len(tags):  # a tag the expressions do not see alike: count by hand
        coded = "".join(
            "1" if (m := _TAG_NAME.match(t)) is not None and m.group(1).lower() in _BLOCKS else "0"
            for t in tags
        )
    before = [0, *accumulate(coded.encode().translate(_DIGITS))]
    return [before[k] for k, t in enumerate(parts[0::2]) if t and not t.isspace()]


def _visible(segment: str) -> str:
    return html_lib.unescape(segment) if "&" in segment else segment


def filtered(segment: str) -> bool:
    """Would trafilatura drop this text for its words (share, print, e-mail...)?"""
    return any(_WORD_FILTER.match(line) for line in _visible(segment).splitlines())


def kept_mask(page: Scan, main_text: str) -> list[bool] | None:
    """Which segments the extraction kept (a whole block when any of it was); None when
    the kept segments do not account for the main text."""
    folded = fold(main_text)
    segments = page.segments
    blocks = _blocks(page.parts)
    pieces = [_folded(_visible(s)) for s in segments]
    kept_blocks = {b for piece, b in zip(pieces, blocks, strict=True) if piece and piece in folded}
    mask = [b in kept_blocks for b in blocks]
    found = sum(len(_nonspace(p)) for p, k in zip(pieces, mask, strict=True) if k)
    needed = len(_nonspace(folded))
    if needed and found < MIN_COVERAGE * needed:
        return None
    return mask


def _folded(text: str) -> str:
    """fold(text), the common case (ASCII with nothing but case and spaces to fold)
    without its expressions."""
    if text.isascii() and not ASCII_FOLDED.intersection(text):
        return " ".join(text.split()).lower()
    return fold(text)


def _nonspace(text: str) -> str:
    return "".join(text.split())


def make(html: str, main_text: str) -> bytes | None:
    """The fingerprint of a page and the main text read from it; None when the reading
    cannot be traced back to the page's segments."""
    page = scan(html)
    mask = kept_mask(page, main_text)
    if mask is None:
        return None
    segments = page.segments
    kept = hashlib.blake2b(digest_size=_DIGEST)
    others = bytearray()
    for s, k in zip(segments, mask, strict=True):
        if k:
            kept.update(s.encode("utf-8", "surrogatepass") + b"\0")
        else:
            others += struct.pack("<H", min(len(s), _LENGTH_CAP) << 1 | filtered(s))
    body = (
        struct.pack("<BI", FORMAT, len(segments))
        + page.skeleton
        + kept.digest()
        + bytes(mask)
        + bytes(others)
    )
    return zstandard.ZstdCompressor(level=3).compress(body)


def same_text(fingerprint: bytes, html: str) -> bool:
    """True when the page's main text cannot differ from the one the fingerprint was
    made with; False means: read it."""
    try:
        body = zstandard.ZstdDecompressor().decompress(fingerprint)
        version, count = struct.unpack_from("<BI", body)
    except (zstandard.ZstdError, struct.error):
        return False
    at = struct.calcsize("<BI")
    skeleton = body[at : at + _DIGEST]
    kept_digest = body[at + _DIGEST : at + 2 * _DIGEST]
    mask = body[at + 2 * _DIGEST : at + 2 * _DIGEST + count]
    others = body[at + 2 * _DIGEST + count :]
    if version != FORMAT or len(mask) != count or len(others) != 2 * (count - sum(mask)):
        return False
    page = scan(html)
    if page.skeleton != skeleton:
        return False
    segments = page.segments
    if len(segments) != count:
        return False
    kept = hashlib.blake2b(digest_size=_DIGEST)
    lengths = struct.unpack(f"<{count - sum(mask)}H", others)
    i = 0
    for s, k in zip(segments, mask, strict=True):
        if k:
            kept.update(s.encode("utf-8", "surrogatepass") + b"\0")
            continue
        old = lengths[i]
        i += 1
        length = min(len(s), _LENGTH_CAP)
        if old >> 1 != length or length == _LENGTH_CAP or old & 1 != filtered(s):
            return False
    return kept.digest() == kept_digest
