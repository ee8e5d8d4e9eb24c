"""Status claims read from real wording: a status stated another way is `changed` with
the status found; a page that merely lacks the sentence stays `absent`."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from status_scoring import GRANT, QUOTE, REWORDINGS

from extractors.claim_values import check_status_claim, claim_value
from extractors.claims import match_claim
from extractors.statuses import extract_statuses
from extractors.values import CheckOutcome, Status

NOW = datetime(2026, 12, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("sentence", "status"),
    [
        ("The onboarding slots are fully claimed.", Status.EXHAUSTED),
        ("We are no longer accepting applications.", Status.CLOSED),
        ("The waitlist is open for the next cohort.", Status.WAITLIST),
        ("Applications will reopen in spring.", Status.CLOSED),
        ("The program has ended.", Status.ENDED),
        ("Applications for 2027 are now closed.", Status.CLOSED),
        ("Registration is now open to everyone.", Status.OPEN),
        ("The credit program has been paused while we review abuse.", Status.PAUSED),
        ("This offer has been discontinued.", Status.DISCONTINUED),
        ("All spots have been taken for this round.", Status.EXHAUSTED),
    ],
)
def test_statuses_from_real_wording(sentence: str, status: Status) -> None:
    assert [m.status for m in extract_statuses(sentence)][:1] == [status]


@pytest.mark.parametrize(
    ("quote", "claimed", "page", "found"),
    [
        (
            "Applications are open",
            Status.OPEN,
            "News. Applications are closed. See you next year.",
            Status.CLOSED,
        ),
        (
            "Applications are open",
            Status.OPEN,
            "Thanks to all. Applications for 2027 are now closed.",
            Status.CLOSED,
        ),
        (
            "Applications are open for the spring cohort",
            Status.OPEN,
            "Applications for the spring cohort will reopen in March.",
            Status.CLOSED,
        ),
        (
            "The onboarding credit slots are still available",
            Status.OPEN,
            "The onboarding credit slots are fully claimed.",
            Status.EXHAUSTED,
        ),
        (
            "We are accepting applications for the fellowship",
            Status.OPEN,
            "We are no longer accepting applications for the fellowship.",
            Status.CLOSED,
        ),
        (
            "Join the waitlist for the GPU grant program",
            Status.WAITLIST,
            "Thank you. The waitlist for the GPU grant program is closed.",
            Status.CLOSED,
        ),
    ],
)
def test_a_status_stated_otherwise_is_changed(
    quote: str, claimed: Status, page: str, found: Status
) -> None:
    check = check_status_claim(quote, claimed, match_claim(quote, page), page)
    assert check.outcome is CheckOutcome.CHANGED, check
    assert check.found_status is found
    assert check.found_text and check.found_text in page  # the page's own wording
    value = claim_value(quote, check, NOW, status=claimed)
    assert value is not None and value.status is found


@pytest.mark.parametrize(
    "page",
    [
        "A post about the weather. It is sunny all week.",
        "Applications are open. Apply below.",  # the quote itself: confirmed
        "Applications are now open for everyone.",  # the same status: not changed
    ],
)
def test_no_other_status_is_no_change(page: str) -> None:
    quote = "Applications are open"
    check = check_status_claim(quote, Status.OPEN, match_claim(quote, page), page)
    assert check.outcome is not CheckOutcome.CHANGED
    assert check.found_status is None


def test_a_confirmed_status_claim_has_its_own_status_as_value() -> None:
    quote = "Applications are open"
    check = match_claim(quote, "Applications are open.")
    value = claim_value(quote, check, NOW, status=Status.OPEN)
    assert value is not None and value.status is Status.OPEN and value.value is None


def _page(sentence: str) -> str:
    return (
        "Nimbus Labs\nHome About Grants Contact\n"
        f"{sentence}\n"
        "Questions? Write to grants@nimbus.example and we reply within a week.\n"
        "© 2026 Nimbus Labs. All rights reserved."
    )


def test_an_open_claim_on_a_reworded_page_reads_the_status_it_states_now() -> None:
    right = []
    for sentence, status in REWORDINGS:
        page = _page(sentence)
        check = check_status_claim(QUOTE, Status.OPEN, match_claim(QUOTE, page), page, GRANT)
        if check.outcome is CheckOutcome.CHANGED and check.found_status is status:
            assert check.found_text and check.found_text in page
            right.append(sentence)
    missed = [s for s, _ in REWORDINGS if s not in right]
    assert len(right) / len(REWORDINGS) >= 0.95, missed


def test_a_page_of_several_offers_gives_the_status_of_the_claim_s_own() -> None:
    page = (
        "Our grants. The Cirrus travel grant is open to all members. "
        "The Nimbus research grant is no longer accepting applications."
    )
    check = check_status_claim(QUOTE, Status.OPEN, match_claim(QUOTE, page), page, GRANT)
    assert check.outcome is CheckOutcome.CHANGED and check.found_status is Status.CLOSED
    assert check.found_text == "The Nimbus research grant is no longer accepting applications."


def test_a_page_that_cannot_say_which_offer_keeps_the_claim_absent() -> None:
    page = "The Cirrus travel grant is closed. The Stratus equipment grant is paused."
    quote = "Applications are open for the Altostratus grant"
    check = check_status_claim(quote, Status.OPEN, match_claim(quote, page), page, "Altostratus")
    assert check.outcome is CheckOutcome.ABSENT and check.found_status is None


def test_a_banner_above_older_wording_wins() -> None:
    page = (
        "Applications closed\n"
        "The Nimbus research grant funds early work. Applications are open to everyone: "
        "apply by filling in the form below."
    )
    quote = "Applications are open to all research teams"
    check = check_status_claim(quote, Status.OPEN, match_claim(quote, page), page, GRANT)
    assert check.outcome is CheckOutcome.CHANGED and check.found_status is Status.CLOSED
    assert check.found_text == "Applications closed"
