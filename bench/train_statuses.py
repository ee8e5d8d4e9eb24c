"""Learn the status reader's model from the labelled pages beside the repository, and
measure it as an experiment (DEVELOPMENT.md, "The learned status reader").

    .venv/bin/python bench/train_statuses.py            # train on every training page, write
                                                        # extractors/data/status_model.bin
    .venv/bin/python bench/train_statuses.py --cv       # 5-fold by site on the training pages
    .venv/bin/python bench/train_statuses.py --curve    # the held part, trained on 25/50/100%
    .venv/bin/python bench/train_statuses.py --held     # the held part, scored once

The pages: ../shared/labels/statuses_dev.json (all of it) and the `tune` part of
statuses_dev3..7.json train; the `check` part of statuses_dev3..7.json (split by site,
tests/status_scoring.py's part_of) is held aside and scored only with --held or --curve.
A sentence's labels are the statuses whose labelled cue stands in it; traps and every
other sentence with a cue teach what states nothing. The model is one logistic regression
per status over hashed features (extractors/status_model.py), fitted with L2 by gradient
descent, each status's threshold the one that reads its pages best out of fold.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from status_scoring import Scores, load_pages, score

import extractors.statuses
from extractors.status_model import MODEL_FILE, STATUSES, StatusModel, bucket
from extractors.statuses import read_statuses
from extractors.version import EXTRACTOR_VERSION

LABELS = Path(__file__).resolve().parents[2] / "shared" / "labels"
OLD = "statuses_dev.json"
BATCHES = [f"statuses_dev{i}.json" for i in range(3, 8)]
OUT = Path(__file__).resolve().parent.parent / "extractors" / "data" / MODEL_FILE
L2 = 1e-3
EPOCHS = 400
RATE = 0.5
SEED = 7
# A page's candidates do not change while the model does: read once per page.
candidates = functools.lru_cache(maxsize=None)(extractors.statuses.candidates)
extractors.statuses.candidates = candidates  # what read_statuses calls


@dataclass
class Example:
    page: str
    site: str
    buckets: np.ndarray  # the features' buckets, distinct
    labels: np.ndarray  # 0/1 per status


def pages(part: str) -> list[dict]:
    """The training pages (part "train") or the held ones ("held")."""
    found = []
    if part == "train":
        found += load_pages(LABELS / OLD, "all")
    for name in BATCHES:
        found += load_pages(LABELS / name, "tune" if part == "train" else "check")
    return found


def site(page: dict) -> str:
    from urllib.parse import urlsplit

    return (urlsplit(page["url"]).hostname or "").removeprefix("www.")


_EXAMPLES: dict[str, list[Example]] = {}


def examples(page_list: list[dict]) -> list[Example]:
    out = []
    for page in page_list:
        key = f"{page['url']}#{page['id']}"
        if key not in _EXAMPLES:
            _EXAMPLES[key] = _page_examples(page)
        out += _EXAMPLES[key]
    return out


def _page_examples(page: dict) -> list[Example]:
    """A page's candidate sentences, each labelled with the statuses whose cue stands in it."""
    text = page["text"]
    cues = []
    for entry in page["statuses"]:
        at = text.find(entry["sentence"])
        while at >= 0:
            cue = at + entry["sentence"].find(entry["cue"])
            cues.append((cue, cue + len(entry["cue"]), entry["status"]))
            at = text.find(entry["sentence"], at + 1)
    out = []
    found, _, _ = candidates(text)
    for c in found:
        labels = np.zeros(len(STATUSES), dtype=np.float32)
        for a, b, status in cues:
            if a < c.span[1] and c.span[0] < b:
                labels[[s.value for s in STATUSES].index(status)] = 1.0
        ids = np.array(sorted({bucket(f) for f in c.features}), dtype=np.int64)
        out.append(Example(f"{page['url']}#{page['id']}", site(page), ids, labels))
    return out


def fit(data: list[Example], epochs: int = EPOCHS) -> tuple[dict[int, np.ndarray], np.ndarray]:
    """Weights (bucket -> one per status) and biases of one logistic regression per
    status, by Adagrad on the whole set, L2 on the weights."""
    n, k = len(data), len(STATUSES)
    every = np.concatenate([e.buckets for e in data])
    used, cols = np.unique(every, return_inverse=True)
    lengths = np.array([len(e.buckets) for e in data])
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    rows = np.repeat(np.arange(n), lengths)
    y = np.stack([e.labels for e in data])
    # positives are few: each counts for more, as the square root of their rarity
    pos = y.sum(axis=0)
    weight = np.where(y > 0, np.maximum(1.0, (n - pos) / np.maximum(pos, 1.0)) ** 0.5, 1.0)
    w = np.zeros((len(used), k))
    b = np.zeros(k)
    g2w = np.full((len(used), k), 1e-8)
    g2b = np.full(k, 1e-8)
    # the feature occurrences grouped by feature: each gradient a sum over its rows
    order = np.argsort(cols, kind="stable")
    by_feature = rows[order]
    bounds = np.flatnonzero(np.r_[True, cols[order][1:] != cols[order][:-1]])
    for _ in range(epochs):
        z = np.add.reduceat(w[cols], starts, axis=0) + b
        p = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
        err = (p - y) * weight / n
        grad = np.add.reduceat(err[by_feature], bounds, axis=0) + L2 * w
        gb = err.sum(axis=0)
        g2w += grad**2
        g2b += gb**2
        w -= RATE * grad / np.sqrt(g2w)
        b -= RATE * gb / np.sqrt(g2b)
    return {int(u): w[i] for i, u in enumerate(used)}, b


def model_of(w: dict[int, np.ndarray], b: np.ndarray, add: list[float], keep: float) -> StatusModel:
    weights = {i: tuple(float(x) for x in v) for i, v in w.items() if np.abs(v).max() > 1e-3}
    return StatusModel(
        weights, tuple(float(x) for x in b), tuple(add), float(keep), EXTRACTOR_VERSION
    )


def folds(page_list: list[dict], k: int = 5) -> list[set[str]]:
    """The pages' sites in k groups (a site's pages in one)."""
    sites = sorted({site(p) for p in page_list})
    random.Random(SEED).shuffle(sites)
    return [set(sites[i::k]) for i in range(k)]


KEEPS = (0.0, 0.05, 0.1, 0.2, 0.3)
ADDS = (0.6, 0.7, 0.8, 0.9, 0.95, 1.01)


def tuned(page_list: list[dict]) -> tuple[StatusModel, float, float, Scores]:
    """The model fitted on every page, with the thresholds that read the pages best out of
    fold (each page read by a model fitted without its site); and that reading's score."""
    fitted = []  # (the sites held out, the fit without them)
    for held in folds(page_list):
        fitted.append((held, fit(examples([p for p in page_list if site(p) not in held]))))
    best: tuple[float, float, float, Scores] | None = None
    for keep in KEEPS:
        for add in ADDS:
            made = [(held, model_of(w, b, [add] * len(STATUSES), keep)) for held, (w, b) in fitted]
            models = {p["text"]: m for held, m in made for p in page_list if site(p) in held}
            s = score(page_list, lambda t, m=models: list(read_statuses(t, m[t]).mentions))
            total = s.page_total
            f1 = 2 * total.right / (total.found + total.labelled) if total.right else 0.0
            if best is None or f1 > best[0]:
                best = (f1, keep, add, s)
    assert best is not None
    _, keep, add, scores = best
    w, b = fit(examples(page_list))
    return model_of(w, b, [add] * len(STATUSES), keep), keep, add, scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cv", action="store_true", help="the training pages read out of fold")
    parser.add_argument("--curve", action="store_true", help="the held part at 25/50/100%%")
    parser.add_argument("--held", action="store_true", help="score the held part once")
    args = parser.parse_args()
    started = time.monotonic()
    train_pages = pages("train")
    if args.cv:
        _, keep, add, scores = tuned(train_pages)
        print(scores.report(f"training pages out of fold (keep {keep}, add {add})"))
    if args.curve:
        held_pages = pages("held")
        sites = sorted({site(p) for p in train_pages})
        random.Random(SEED).shuffle(sites)
        for share in (0.25, 0.5, 1.0):
            chosen = set(sites[: max(1, round(len(sites) * share))])
            model, _, _, _ = tuned([p for p in train_pages if site(p) in chosen])
            s = score(held_pages, lambda text, m=model: list(read_statuses(text, m).mentions))
            t = s.page_total
            print(
                f"curve: {share:.0%} of the training sites ({len(chosen)}): the held part at "
                f"page level, precision {t.precision:.2f} recall {t.recall:.2f}; traps taken "
                f"{s.trap_rate:.3f}"
            )
    if args.held:
        model = StatusModel.from_bytes(OUT.read_bytes())
        held_pages = pages("held")
        said = score(held_pages, lambda t: list(read_statuses(t, model).mentions))
        print(said.report("the held part, read by the shipped model"))
    if not (args.cv or args.curve or args.held):
        model, keep, add, scores = tuned(train_pages)
        OUT.write_bytes(model.to_bytes())
        t = scores.page_total
        print(
            f"wrote {OUT} ({OUT.stat().st_size:,} bytes, {len(model.weights):,} buckets; keep "
            f"{keep}, add {add}; out of fold at page level precision {t.precision:.2f} "
            f"recall {t.recall:.2f})"
        )
    print(f"({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
