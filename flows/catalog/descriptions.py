"""What each key of the catalog means, as an editor shows it beside the key.

One place for all of them, by model and field, read by the JSON Schema (schema.py);
tests/test_schema.py fails for a key of the models that has none here.
"""

from __future__ import annotations

MODELS: dict[str, str] = {
    "RecordConfig": "One record of the catalog: a fact, the pages that back it, and the "
    "verbatim quotes that should appear on them.",
    "SourceConfig": "A web page that backs the record.",
    "ClaimConfig": "A verbatim quote that should appear on the record's sources.",
    "ExpectConfig": "What must hold of the claim's value on its primary sources (dbt tests, "
    "Soda checks); a broken condition is a warning, or an error with severity: error.",
    "ChangeConfig": "A move of the value against the value before it, larger than a number "
    "in the figure's unit or a share such as '10%'.",
    "Settings": "settings.yaml: every key is optional and has a default.",
    "FetchSettings": "How pages are fetched.",
    "AlertSettings": "When a failing source raises an alert, and where alerts are sent.",
    "ScheduleSettings": "When `evidence serve` runs the refresh, and what it fetches.",
    "HistorySettings": "How much of each source's history keeps its raw pages.",
    "ArchiveSettings": "Captures of the pages claims rest on, sent to a Save Page Now 2 API.",
    "SiteSettings": "The static site written by `evidence site`.",
}

FIELDS: dict[str, dict[str, str]] = {
    "RecordConfig": {
        "id": "Unique slug of the record: lowercase letters, digits and '-'.",
        "title": "The record's title, shown on its card.",
        "freshness_window": "How long a check stays fresh, e.g. 15d (units s, m, h, d, w); "
        "default: settings' freshness_window.",
        "fields": "Free-form facts shown on the record card, in this order.",
        "sources": "The pages that back the record (one at least).",
        "claims": "The quotes checked on the sources; the record's grade is its weakest claim's.",
        "review_by": "A date (YYYY-MM-DD) from which the record is in `evidence review` and a "
        "review: alert is raised once (Wikipedia's 'update after').",
    },
    "SourceConfig": {
        "id": "Slug naming the source in the record; default: a slug of the URL's host and path.",
        "url": "The page's http:// or https:// URL.",
        "role": "primary (the organisation's own page) or third-party (write-ups, "
        "aggregators, news).",
        "obey_robots": "false to fetch the page even where robots.txt disallows it; "
        "default: settings' fetch.obey_robots.",
        "expect_redirect": "true when the page redirects to the site's root on purpose, so "
        "that the redirect is not read as a missing page.",
        "render": "http (the body as fetched) or browser (rendered in headless Chromium); "
        "default: settings' fetch.render.",
        "wait_for": "A CSS selector a browser-rendered page waits for (render: browser only).",
    },
    "ClaimConfig": {
        "id": "Slug naming the claim in the record.",
        "quote": "The words that should appear on the page, verbatim (case, white space, "
        "typographic quotes and thousands separators are ignored).",
        "status": "The canonical status the quote states (open, waitlist, paused, "
        "exhausted, closed, ended, discontinued), for a claim about a status.",
        "sources": "Only these sources (by id) are checked for the claim; default: all of "
        "the record's.",
        "figure": "Which figure of the quote the claim watches, 1-based; default: the first.",
        "expect": "What must hold of the claim's value, e.g. {at_least: 300, severity: error}.",
        "review_by": "A date (YYYY-MM-DD) from which the claim's record is in `evidence "
        "review` and a review: alert is raised once; `evidence update` of the claim settles it.",
    },
    "ExpectConfig": {
        "at_least": "The value is at least this.",
        "at_most": "The value is at most this.",
        "between": "The value is between these two, both included: [low, high].",
        "equals": "The value is exactly this.",
        "status_in": "The status found is one of these (a status claim).",
        "change": "The value did not move by more than this against the value before.",
        "severity": "warn (the default) or error: what a broken condition is; `evidence "
        "check` fails for an error.",
    },
    "ChangeConfig": {
        "up_by_more_than": "Broken when the value rose by more than this: a number or 'N%'.",
        "down_by_more_than": "Broken when the value fell by more than this: a number or 'N%'.",
    },
    "Settings": {
        "database": "The DuckDB file; relative to the current directory; env EVIDENCE_DB "
        "overrides.",
        "memory_limit": "What a reader of the database (sql, status, check, ...) holds in "
        "memory before it spills to a temporary folder, e.g. 2GB; env EVIDENCE_MEMORY_LIMIT "
        "overrides.",
        "task_runner": "Where pages are read: threads (a local process pool) or dask.",
        "dask_address": "A Dask scheduler (tcp://host:8786) for task_runner: dask; default: "
        "a local cluster.",
        "freshness_window": "The default freshness window of a record, e.g. 15d.",
        "fetch": "How pages are fetched.",
        "alerts": "When a failing source raises an alert, and where alerts are sent.",
        "schedule": "When `evidence serve` runs the refresh, and what it fetches.",
        "history": "How much of each source's history keeps its raw pages.",
        "archive": "Captures of the pages claims rest on, sent to a web archive.",
        "site": "The static site written by `evidence site`.",
    },
    "FetchSettings": {
        "timeout_s": "Seconds a request may take.",
        "concurrency": "Requests in flight, whole run.",
        "per_host": "Requests in flight per host.",
        "retries": "Extra attempts on connect errors, 429 and 5xx, with backoff.",
        "max_bytes": "Larger bodies are cut off and recorded as too_large.",
        "user_agent": "The User-Agent header of every request.",
        "obey_robots": "Whether robots.txt is honoured (a source may set obey_robots: false).",
        "archive_fallback": "Base URL of a Wayback-compatible availability API, asked for "
        "a copy when a live fetch fails; null: none.",
        "render": "How a source without render is loaded: http or browser.",
        "browser_path": "A Chromium to drive; null: Playwright's own, else one on PATH.",
        "browser_concurrency": "Pages rendered at once, per browser engine.",
        "browser_endpoint": "A browser engine elsewhere (ws:// Playwright server, cdp+http:// "
        "DevTools endpoint), or a list of them; null: launch one.",
        "dead_after": "How long every fetch of a source may fail for good (404/410, soft_404, "
        "dns_error), three attempts at least, before it is dead, e.g. 3d.",
    },
    "AlertSettings": {
        "after_failures": "Consecutive failed refreshes of a source before its alert opens.",
        "resend_after": "An alert that stays open is sent again after this long, e.g. 24h.",
        "notify": "Apprise URLs alerts are sent to (json://, mailto://, slack://, ...); env "
        "EVIDENCE_NOTIFY adds more.",
    },
    "ScheduleSettings": {
        "cron": "When `evidence serve` runs the refresh: five cron fields.",
        "mode": "What `serve` fetches: due (the sources that are due) or all.",
        "margin": "Kept before a record's window ends when deciding what is due; default: "
        "one run interval.",
        "change_threshold": "A source whose estimated chance of having changed reaches this "
        "is due.",
    },
    "HistorySettings": {
        "keep_pages": "Raw pages kept per source, newest first (and every page a current "
        "check rests on).",
    },
    "ArchiveSettings": {
        "save": "Base URL of a Save Page Now 2 compatible API, e.g. https://web.archive.org; "
        "null: no captures.",
        "per_minute": "Captures sent a minute, across runs.",
        "key_env": "The name of an env var holding ACCESS:SECRET for the API.",
    },
    "SiteSettings": {
        "license": "The published catalog's licence (a URL), in the site's metadata.",
        "url": "Where the static site is published; `evidence propose` links each record's "
        "page there.",
        "desk_url": "Where the keeper's desk answers; `evidence propose` links each record's "
        "page there.",
    },
}
