"""Fetching pages: what a fetch is asked and answers, the Fetcher's limits, and its two
loaders (HTTP and a headless browser), which share one redirect policy and one guard of
where a request may lead."""

from flows.fetching.attempts import Answer, Attempt, FetchFailed, FetchRequest, last_live
from flows.fetching.browser import check_engines, find_browser
from flows.fetching.capture import CaptureReport, send_captures
from flows.fetching.fetcher import Fetcher, Loader, fetch_batch
from flows.fetching.guard import AddressGuard

__all__ = [
    "AddressGuard",
    "Answer",
    "Attempt",
    "CaptureReport",
    "FetchFailed",
    "FetchRequest",
    "Fetcher",
    "Loader",
    "check_engines",
    "fetch_batch",
    "find_browser",
    "last_live",
    "send_captures",
]
