"""The status reader, rule by rule, on sentences written for these tests (none taken from
a labelled page): what a careful reader takes as the current status of a programme, and
what states none."""

from __future__ import annotations

import pytest

from extractors.status_lexicon import KINDS, inflect, lexicon
from extractors.statuses import extract_statuses


def statuses(text: str) -> set[str]:
    return {m.status.value for m in extract_statuses(text)}


def case(text: str, *want: str):
    return pytest.param(text, set(want), id=text[:60])


STATED = [
    case("Applications are open.", "open"),
    case("Applications are now open for the spring cohort!", "open"),
    case("We are now accepting applications for the spring cohort.", "open"),
    case("Now accepting proposals", "open"),
    case("Registration is open until June 30.", "open"),
    case("Submissions are being accepted until May 5.", "open"),
    case("The call for proposals is now open to everyone.", "open"),
    case("Applications are open to faculty and PhD students.", "open"),
    case("The beta is now available to all users.", "open"),
    case("Check the rules and apply today.", "open"),
    case("Apply now.", "open"),
    case("Students can now register for the 2027 round.", "open"),
    case("We're extending this year's call for talks.", "open"),
    case("The application window will remain open until Friday.", "open"),
    case("Join the waitlist to get early access.", "waitlist"),
    case("The waitlist is open for the next cohort.", "waitlist"),
    case("Access is invite-only for now.", "waitlist"),
    case("More than a million people joined the waitlist in two days.", "waitlist"),
    case("You will have to sign up on the waiting list to get access.", "waitlist"),
    case("The program is temporarily paused.", "paused"),
    case("Applications are on hold while we review the scheme.", "paused"),
    case("We are not accepting applications at this time.", "closed"),
    case("The portal will be shut down until Monday at 09:00 UTC.", "paused"),
    case("The scheme has suspended accepting applications.", "paused"),
    case("The GPU credits have run out.", "exhausted"),
    case("Onboarding slots were fully claimed within days of launch.", "exhausted"),
    case("All funds for this year have been allocated.", "exhausted"),
    case("There are no slots left.", "exhausted"),
    case("Sold out!", "exhausted"),
    case("Due to demand, the redemption limit has already been reached.", "exhausted"),
    case("The grant budget ran out in two weeks.", "exhausted"),
    case("Registration is closed.", "closed"),
    case("Applications for 2027 are now closed.", "closed"),
    case("We have stopped accepting applications.", "closed"),
    case("The programme stopped accepting new proposals.", "closed"),
    case("We aren't accepting applications.", "closed"),
    case("We are no longer accepting applications.", "closed"),
    case("The deadline has passed.", "closed"),
    case("Applications will reopen in spring.", "closed"),
    case("The waitlist for the GPU grant program is closed.", "closed"),
    case("The challenge has ended.", "ended"),
    case("The promotion expired on March 1.", "ended"),
    case("The offer ends today.", "ended"),
    case("The hackathon is over.", "ended"),
    case("The free tier has been discontinued.", "discontinued"),
    case("The program will be discontinued after April.", "discontinued"),
    case("Google announced it will shut down the service next year.", "discontinued"),
    case("The service was shut down in 2019.", "discontinued"),
    case("The service is no longer available.", "discontinued"),
    case("Standard support will stop for all licenses on 31 December.", "discontinued"),
    case("| status = Discontinued", "discontinued"),
    case("The Code Sprint is now officially retired.", "discontinued"),
    case("Google has quietly shut down a number of its services.", "discontinued"),
    case("The company cancelled its failed charging-mat project.", "discontinued"),
    case("The trial plan is no longer offered to new teams.", "discontinued"),
    case("Google shuts down its photo service", "discontinued"),
    case("We are unable to accept new applications at this time.", "closed"),
    case("The fund ran out of money on Thursday, two weeks after launch.", "exhausted"),
    case("Relief scheme comes to an end", "ended"),
    case("March saw the end of the loan schemes.", "ended"),
    case("| Bounce-back loan scheme | Ended on 31 March 2021 |", "ended"),
    case("Grants are available for all eligible charities.", "open"),
    case("For now, we're going to put new submissions on hold.", "paused"),
    case("Step one: register!", "open"),
    case("We are pausing the bounty program while we fix the flaws.", "paused"),
]

# Tense and time: a past round, a schedule, a timeline entry, an announced opening.
PAST_AND_FUTURE = [
    case("Applications for the 2023 cohort closed in May."),
    case("Applications for the 2022 round closed on 3 March 2022."),
    case("Applications will open on 1 March."),
    case("Registration opens on June 1."),
    case("The promotion expires on March 1."),
    case("The program will end after April."),
    case("March 3: applications open"),
    case("2026-03-03 - Applications open"),
    case("Applications opened last week."),
    case("The round was on hold last year."),
    case("Banks began accepting applications last week."),
    case("The loan scheme will now end on 30 June."),
    case("We haven't opened the journal to submissions since October."),
    case("It looks like the dispute is coming to an end."),
    case("The deal ends when the game is released."),
]

# Negation and its scope.
NEGATED = [
    case("The call is not closed."),
    case("The programme is no longer on hold."),
    case("Applications are not open yet."),
    case("The offer is not available in your country."),
    case("There is no waitlist for the public."),
    case("There are no open terms."),
]

# Conditions and hypotheses.
CONDITIONAL = [
    case("If the round fills up you can join the waiting list."),
    case("If the round fills up, you can join the waiting list."),
    case("If the credits run out, jobs stop."),
    case("Once slots are exhausted, we will close the form."),
    case("When the round closes, we will announce winners."),
    case("Should the programme be paused, we will tell you."),
    case("Unless the fund is exhausted, every team gets credits."),
    case("In case the event is cancelled, refunds are issued."),
    case("Spaces may open up after cancellations."),
    case("Running out of credits could stop your job."),
]

# Sense and subject: other senses of the words, other things than a programme.
OTHER_SENSE = [
    case("The store is closed on Sundays."),
    case("Our offices are closed for the holidays."),
    case("Open 24/7."),
    case("Comments are closed."),
    case("This is open source software."),
    case("The project is open-ended."),
    case("Join our closed beta today."),
    case("The accelerator is open to non-UK applicants."),
    case("We are open to founders with early ideas."),
    case("The stock market closed higher on Friday."),
    case("He ended up applying elsewhere."),
    case("In the end, we chose another provider."),
    case("Tickets for the sold-out show went fast."),
    case("Over the past week we met over 6,000 students."),
    case("Budget cuts remain on hold as the judge extends the pause."),
    case("Entries may run to no more than 10 pages."),
    case("We are fully committed to an accessible programme."),
    case("The town hall meeting was cancelled because of the storm."),
    case("The senator withdrew the bill on Monday."),
    case("The company canceled its order for ten aircraft."),
    case("Its cancelled launch cost millions."),
    case("He finished the race in third place."),
    case("She started as an intern and ended up running the lab."),
    case("The singer opens up about her illness."),
    case("The village, which is close to the border, was quiet."),
    case("Resellers are accepting orders for the new laptop."),
    case("The striker filled up the score sheet."),
    case("Download the guide so you can apply it to your team."),
    case("The museum is open for business again."),
    case("We spend money over and over on perks."),
    case("Invest what is left over."),
    case("The new phone is now available in stores."),
    case("The licence is now set to expire in March."),
    case("The office is closed annually for two weeks in August."),
    case("Know when a window or door opens."),
    case("Production lines may have been idled or closed altogether."),
    case("The car comes in thirteen different finishes."),
]

# Questions, examples, templates, quoted words, definitions, generic advice.
NOT_A_STATEMENT = [
    case("How to apply for the grant?"),
    case("When will applications open?"),
    case('Example: "Applications are now closed."'),
    case('The form says it\'s "closed".'),
    case('"Closed" means the call no longer accepts entries.'),
    case("[Program name] is now closed."),
    case("How to Discontinue a Program"),
    case("Consider discontinuing a program while you review it."),
    case("To discontinue a program, send a memo to the office."),
    case("The deadline is March 30."),
    case("Apply for grants and sign contracts."),
    case("The new Bing is opening up on a limited basis: now open to a select few."),
    case("Subject: Date XXXXX service discontinued"),
    case("Sign up: stay on top of the news!"),
]


@pytest.mark.parametrize(("text", "want"), STATED)
def test_a_current_status_is_read(text: str, want: set[str]) -> None:
    assert statuses(text) == want


@pytest.mark.parametrize(
    ("text", "want"),
    PAST_AND_FUTURE + NEGATED + CONDITIONAL + OTHER_SENSE + NOT_A_STATEMENT,
)
def test_status_words_that_state_no_current_status(text: str, want: set[str]) -> None:
    assert statuses(text) == want


def test_several_offers_on_a_page_each_with_its_sentence() -> None:
    text = (
        "Applications are closed for 2026 and open for 2027.\n"
        "The abstract call is closed. The full-paper portal is now open."
    )
    found = [(m.status.value, m.sentence) for m in extract_statuses(text)]
    assert ("closed", "Applications are closed for 2026 and open for 2027.") in found
    assert ("open", "Applications are closed for 2026 and open for 2027.") in found
    assert ("closed", "The abstract call is closed.") in found
    assert ("open", "The full-paper portal is now open.") in found
    assert len(found) == 4


def test_the_phrase_is_the_page_s_own_words() -> None:
    text = "Update — We’re NO LONGER Accepting Applications for the “Spring” round."
    (m,) = extract_statuses(text)
    assert m.status.value == "closed"
    assert m.phrase == "We’re NO LONGER Accepting Applications"
    assert m.phrase in text and m.sentence == text


def test_offsets_hold_past_characters_that_change_length_in_lower_case() -> None:
    text = "İstanbul office news. Applications are now open."
    (m,) = extract_statuses(text)
    assert m.phrase == "are now open" and m.sentence == "Applications are now open."


@pytest.mark.parametrize(
    ("verb", "forms"),
    [
        ("close", {"close", "closes", "closed", "closing"}),
        ("accept", {"accept", "accepts", "accepted", "accepting"}),
        ("deploy", {"deploy", "deploys", "deployed", "deploying"}),
        ("apply", {"apply", "applies", "applied", "applying"}),
        ("finish", {"finish", "finishes", "finished", "finishing"}),
        ("run", {"run", "runs", "ran", "running"}),
    ],
)
def test_every_inflection_of_a_verb(verb: str, forms: set[str]) -> None:
    irregular = {"run": ["runs", "ran", "running"]}
    assert inflect(verb, irregular) == forms


def test_the_lexicon_is_data_every_predicate_compiles_and_is_found() -> None:
    lex = lexicon()
    assert len(lex.by_head) > 100
    for predicates in lex.by_head.values():
        for p in predicates:
            assert p.status.value in {
                "open", "waitlist", "paused", "exhausted", "closed", "ended", "discontinued"
            }  # fmt: skip
    # every kind of predicate the data file names has phrases (a typo'd kind has none)
    assert {p.kind for ps in lex.by_head.values() for p in ps} == set(KINDS)
    # a head word of every kind is found on a page, in any case
    for word in ("Accepting", "CLOSED", "sold-out", "sold out", "Invite-Only"):
        assert lex.heads.search(f"x {word.lower()} y"), word


def test_a_banner_wins_over_the_older_wording_below_it() -> None:
    text = (
        "Applications closed\n"
        "The travel grant helps early-career researchers. Applications are open to all "
        "members: apply now using the form below.\n"
        "The mentoring scheme is open to new mentors."
    )
    found = [(m.status.value, m.sentence) for m in extract_statuses(text)]
    assert found == [
        ("closed", "Applications closed"),
        ("open", "The mentoring scheme is open to new mentors."),
    ]


def test_a_long_sentence_is_no_banner() -> None:
    text = (
        "The call for short abstracts is closed.\n"
        "The submission system is now open to receive full papers."
    )
    assert [m.status.value for m in extract_statuses(text)] == ["closed", "open"]


# The open-ended ways a page states a status, and what explains, schedules or supposes
# one (docs/grading.md, "Reading statuses"), in sentences written for these tests.
OPEN_ENDED = [
    ("The free tier is being wound down.", {"discontinued"}),
    ("Nimbus killed its free tier last month.", {"discontinued"}),
    ("The starter credits are no more.", {"discontinued"}),
    ("The pot is empty.", {"exhausted"}),
    ("Grants are frozen for now.", {"paused"}),
    ("The hobby plan is a thing of the past.", {"discontinued"}),
    ("Nimbus pulls the plug on its free plan", {"discontinued"}),
    ("The scheme lends each student a laptop.", {"open"}),
    ("The Orion fund offers every member a travel grant.", {"open"}),
    ("The pilot wrapped up once its budget was spent.", {"ended"}),
    (
        "Applications for the Orion grant closed on 12 May; another call follows next year.",
        {"closed"},
    ),
    ("A red badge marks programmes whose window has ended.", set()),
    ("Q3: intake begins", set()),
    ("Should the pot empty, late requests join a queue.", set()),
    ("We returned an applicant's withdrawn form.", set()),
    ("Two service members have been killed in a crash.", set()),
    ("Interactive submissions can be no more than ten pages.", set()),
]


@pytest.mark.parametrize(("text", "want"), OPEN_ENDED)
def test_open_ended_wordings_and_what_states_none(text: str, want: set[str]) -> None:
    assert {m.status.value for m in extract_statuses(text)} == want


def test_a_window_shut_on_a_date_is_no_retirement() -> None:
    """ "Submissions shut on 12 May" closes a window; the programme goes on."""
    assert "discontinued" not in {
        m.status.value for m in extract_statuses("Submissions shut on 12 May.")
    }
