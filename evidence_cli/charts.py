"""A claim figure's values over time as an inline SVG step chart (no script): one step
per value a source has shown, each labelled with the figure as written and the day it
was first seen."""

from __future__ import annotations

import html
from datetime import datetime

from markupsafe import Markup

from warehouse.card import ShownValue

WIDTH, HEIGHT = 640, 150
LEFT, RIGHT, TOP, BOTTOM = 8, 8, 22, 30  # room for the labels


def step_chart_svg(rows: list[ShownValue], now: datetime, source: str) -> Markup:
    """The source's values of one claim (rows of `claim_values`, oldest first); figures
    only: a status history is said in words beside it."""
    points = [(r, r.value) for r in rows if r.value is not None]
    if not points:
        return Markup("")
    start = points[0][0].first_seen_at
    end = max(now, points[-1][0].last_seen_at)
    span = max((end - start).total_seconds(), 1.0)
    low = min(v for _, v in points)
    high = max(v for _, v in points)
    if high == low:
        low, high = low - 1, high + 1
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(t: datetime) -> float:
        return LEFT + (t - start).total_seconds() / span * inner_w

    def y(v: float) -> float:
        return TOP + (high - v) / (high - low) * inner_h

    label = html.escape(f"values of this figure on {source}")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'role="img" aria-label="{label}" class="steps">',
        f'<line x1="{LEFT}" y1="{TOP + inner_h}" x2="{WIDTH - RIGHT}" y2="{TOP + inner_h}" '
        'stroke="#bbb"/>',
    ]
    path: list[str] = []
    for i, (r, value) in enumerate(points):
        x0 = x(r.first_seen_at)
        until = points[i + 1][0].first_seen_at if i + 1 < len(points) else end
        if not r.current and i + 1 == len(points):
            until = r.last_seen_at  # not shown any more
        x1 = max(x(until), x0 + 2)
        y0 = y(value)
        path.append(f"{'M' if not path else 'L'}{x0:.1f},{y0:.1f} L{x1:.1f},{y0:.1f}")
        said = html.escape(r.text or f"{value:g}")
        day = r.first_seen_at.strftime("%Y-%m-%d")
        anchor = "end" if x0 > WIDTH * 0.8 else "start"
        tx = x1 if anchor == "end" else x0
        parts.append(
            f'<text x="{tx:.1f}" y="{y0 - 5:.1f}" font-size="11" text-anchor="{anchor}">'
            f"{said}</text>"
        )
        parts.append(
            f'<text x="{x0:.1f}" y="{HEIGHT - 10}" font-size="10" '
            f'text-anchor="{"end" if x0 > WIDTH * 0.8 else "start"}">{day}</text>'
            f'<line x1="{x0:.1f}" y1="{TOP + inner_h}" x2="{x0:.1f}" y2="{TOP + inner_h + 4}" '
            'stroke="#888"/>'
        )
        parts.append(
            f'<circle cx="{x0:.1f}" cy="{y0:.1f}" r="3" fill="#2a6"><title>'
            f"{said} from {day}</title></circle>"
        )
    parts.append(f'<path d="{" ".join(path)}" fill="none" stroke="#2a6" stroke-width="2"/></svg>')
    return Markup("".join(parts))
