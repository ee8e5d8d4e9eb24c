"""Quality gate: main-text F1 of extract_main_text on the 181 real pages of
../shared/corpus/article-extraction-benchmark, against their reference texts."""

from __future__ import annotations

import gzip
import json
import re
import statistics
import time
from collections import Counter

import lxml.html
import pytest
import trafilatura.utils
from support import CORPUS, need_corpus

from extractors.text import C_LOOKUP, extract_main_text, use_element_lookup

F1_FLOOR = 0.93  # measured 0.964 (2026-11-30); below the floor is a regression
_WORD = re.compile(r"\w+", re.UNICODE)


def f1(predicted: str, reference: str) -> float:
    """Bag-of-words F1 of two texts (case folded)."""
    p = Counter(w.lower() for w in _WORD.findall(predicted))
    r = Counter(w.lower() for w in _WORD.findall(reference))
    common = sum((p & r).values())
    if not common:
        return 0.0
    precision, recall = common / sum(p.values()), common / sum(r.values())
    return 2 * precision * recall / (precision + recall)


@pytest.mark.slow
def test_main_text_f1_on_the_corpus() -> None:
    need_corpus()
    truth = json.loads((CORPUS / "ground-truth.json").read_text(encoding="utf-8"))
    scores, times = [], []
    for path in sorted((CORPUS / "html").glob("*.html.gz")):
        html = gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")
        t0 = time.perf_counter()
        text = extract_main_text(html).text
        times.append(time.perf_counter() - t0)
        scores.append(f1(text, truth[path.name.removesuffix(".html.gz")]["articleBody"]))
    mean = statistics.fmean(scores)
    median_ms = statistics.median(times) * 1000
    print(
        f"\ncorpus: {len(scores)} pages, main-text F1 mean {mean:.3f}, median "
        f"{statistics.median(scores):.3f}; extraction median {median_ms:.0f} ms per page"
    )
    assert len(scores) == 181
    assert mean >= F1_FLOOR


def test_f1_itself() -> None:
    assert f1("a b c", "a b c") == 1.0
    assert f1("", "a") == 0.0
    assert f1("a b", "a c") == pytest.approx(0.5)


@pytest.mark.slow
def test_element_classes_looked_up_in_c_read_the_same_text() -> None:
    need_corpus()
    pages = [
        gzip.decompress(p.read_bytes()).decode("utf-8", errors="replace")
        for p in sorted((CORPUS / "html").glob("*.html.gz"))
    ]
    fast = [extract_main_text(html).text for html in pages]
    use_element_lookup(lxml.html.HtmlElementClassLookup())  # lxml.html's own, in Python
    try:
        assert parsed_class("<form><input name=q></form>") is lxml.html.InputElement
        slow = [extract_main_text(html).text for html in pages]
    finally:
        use_element_lookup(C_LOOKUP)
    assert parsed_class("<form><input name=q></form>") is lxml.html.HtmlElement
    assert sum(map(bool, fast)) > 170
    assert fast == slow


def parsed_class(body: str) -> type:
    tree = trafilatura.utils.load_html(f"<html><body>{body}<p>text</p></body></html>")
    return type(tree.find(".//input"))
