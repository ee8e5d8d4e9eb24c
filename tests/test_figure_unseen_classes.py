"""The classes of issue 58, where the grammar read pages it had never seen worst: counts
whose noun stands elsewhere, multiples and scaled numbers, numeric and weekday dates,
ranges whose ends carry their own scale, and tables flattened into text. The sentences
are our own, none taken from the labelled pages; each figure names the rule that read it.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from extractors.numbers import extract_numbers
from extractors.values import NumberKind, QuotedNumber

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def read(text: str) -> list[QuotedNumber]:
    return extract_numbers(text, NOW)


def one(text: str, raw: str) -> QuotedNumber:
    found = [n for n in read(text) if n.raw == raw]
    assert len(found) == 1, (text, [(n.raw, n.rule) for n in read(text)])
    return found[0]


@pytest.mark.parametrize(
    ("text", "raw", "value", "end", "unit"),
    [
        ("Batch jobs run 2–4x cheaper overnight.", "2–4x", 2, 4, "x"),
        ("Caching cuts the bill 1.5–3x in practice.", "1.5–3x", 1.5, 3, "x"),
        ("The new chip is 5× faster.", "5×", 5, None, "×"),
        ("Expect a 10x jump in traffic.", "10x", 10, None, "x"),
    ],
)
def test_multiples_and_their_ranges(
    text: str, raw: str, value: float, end: float | None, unit: str
) -> None:
    n = one(text, raw)
    assert (n.kind, n.value, n.value_end, n.unit, n.rule) == (
        NumberKind.NUMBER,
        value,
        end,
        unit,
        "multiple",
    )


@pytest.mark.parametrize(
    ("text", "raw", "value"),
    [
        ("Prompts fit in a 200K context window.", "200K", 200_000),
        ("Pricing covers the first 1M per account.", "1M", 1_000_000),
        ("We logged roughly 45k last quarter.", "roughly 45k", 45_000),
        ("Their cluster peaked at 2.5M.", "2.5M", 2_500_000),
    ],
)
def test_a_scaled_number_with_no_unit_is_a_figure(text: str, raw: str, value: float) -> None:
    n = one(text, raw)
    assert (n.value, n.unit, n.rule) == (value, None, "scaled")


@pytest.mark.parametrize(
    "text",
    ["The monitor shows 4K video.", "A 6.5K steps walk.", "See section 12K-3."],
)
def test_a_screen_or_a_name_is_no_scaled_figure(text: str) -> None:
    assert [n.raw for n in read(text) if n.rule == "scaled"] == []


def test_what_the_words_before_name_beats_a_scaled_numbers_lack_of_unit() -> None:
    n = one("During the trial, your token per minute limit was 40k.", "40k")
    assert (n.kind, n.value, n.unit, n.qualifier) == (
        NumberKind.COUNT,
        40_000,
        "token",
        "per minute",
    )


@pytest.mark.parametrize(
    ("text", "raw", "value", "unit"),
    [
        ("Members get **3,000** calls every month.", "3,000** calls", 3000, "calls"),
        ("The region spans 18 “availability zones” today.", "18 “availability zones", 18, "zones"),
        ('Teams may hold 6 "projects" at once.', '6 "projects', 6, "projects"),
    ],
)
def test_emphasis_or_quotes_between_a_count_and_its_noun(
    text: str, raw: str, value: float, unit: str
) -> None:
    n = one(text, raw)
    assert (n.kind, n.value, n.unit) == (NumberKind.COUNT, value, unit)


@pytest.mark.parametrize(
    ("text", "raw", "unit"),
    [
        ("  • 2 GPUs, or 4 if the job is large", "4", "gpus"),
        ("Labs get 8 seats, or 12 when they co-apply.", "12", "seats"),
        ("Pick 1, 2 or 4 nodes.", "1", "nodes"),
        ("Pick 1, 2 or 4 nodes.", "2", "nodes"),
    ],
)
def test_a_bare_number_counts_what_the_count_beside_it_counts(
    text: str, raw: str, unit: str
) -> None:
    n = one(text, raw)
    assert (n.kind, n.unit) == (NumberKind.COUNT, unit)


@pytest.mark.parametrize(
    ("text", "raw", "day"),
    [
        ("Proposals are due 05/05/2024 at noon.", "05/05/2024", date(2024, 5, 5)),
        ("Page updated 6/23/15 by the office.", "6/23/15", date(2015, 6, 23)),
        ("Paid out on 23/06/2025.", "23/06/2025", date(2025, 6, 23)),
        ("Closes 12/31/2026.", "12/31/2026", date(2026, 12, 31)),
    ],
)
def test_numeric_dates(text: str, raw: str, day: date) -> None:
    n = one(text, raw)
    assert (n.kind, n.date_from, n.date_to, n.rule) == (NumberKind.DATE, day, day, "slashed-date")


@pytest.mark.parametrize(
    "text",
    ["Open 24/7 all year.", "Views: 7/14/30 day windows.", "13/13/2020", "Model 3/45/2020x"],
)
def test_slashes_that_are_no_date(text: str) -> None:
    assert [n.raw for n in read(text) if n.kind is NumberKind.DATE] == []


def test_a_date_range_with_its_weekday_inside() -> None:
    n = one("The sprint runs May 4 – Friday, May 8, 2026 online.", "May 4 – Friday, May 8, 2026")
    assert (n.kind, n.date_from, n.date_to) == (
        NumberKind.DATE_RANGE,
        date(2026, 5, 4),
        date(2026, 5, 8),
    )


@pytest.mark.parametrize(
    ("text", "raw", "value", "end"),
    [
        ("Awards range from $250,000 to $2 million each.", "$250,000 to $2 million", 250e3, 2e6),
        ("Rounds of $5-10 million are typical.", "$5-10 million", 5e6, 10e6),
    ],
)
def test_a_money_range_whose_ends_have_their_own_scale(
    text: str, raw: str, value: float, end: float
) -> None:
    n = one(text, raw)
    assert (n.kind, n.value, n.value_end) == (NumberKind.MONEY, value, end)


def test_a_fall_told_with_scales_is_two_figures() -> None:
    found = read("Its valuation fell from $12 billion to $3 billion.")
    assert [(n.raw, n.value) for n in found] == [("$12 billion", 12e9), ("$3 billion", 3e9)]


def test_a_rate_with_spaces_around_its_slash() -> None:
    n = one("Hosting costs $7 / month on the hobby plan.", "$7 / month")
    assert (n.value, n.qualifier) == (7, "per month")


def figures(text: str) -> list[tuple[str, str, float | None, str | None, str | None]]:
    return [(n.rule or "", n.raw, n.value, n.unit, n.currency) for n in read(text)]


def test_a_table_flattened_to_lines_under_a_header_that_names_one_unit() -> None:
    text = (
        "Tier Build minutes Max concurrency (per org)\n"
        "Hobby 300 3,000\n"
        "Studio 1,500 15,000\n"
        "Anything else is billed."
    )
    got = [(raw, value, unit) for rule, raw, value, unit, _ in figures(text)]
    assert got == [
        ("300", 300, "minute"),
        ("3,000", 3000, "minute"),
        ("1,500", 1500, "minute"),
        ("15,000", 15000, "minute"),
    ]
    assert {rule for rule, *_ in figures(text)} == {"flat-table"}


def test_a_flattened_tables_header_names_each_columns_unit_in_order() -> None:
    text = "Plan Seats Projects\nSolo 1 5\nCrew 8 40"
    got = [(raw, unit) for _, raw, _, unit, _ in figures(text)]
    assert got == [("1", "seats"), ("5", "projects"), ("8", "seats"), ("40", "projects")]


@pytest.mark.parametrize(
    "text",
    [
        # a sentence above, not a header
        "Our customers love it.\nAcme 12 40",
        # a header naming two units over rows of three numbers
        "Plan Seats Projects\nSolo 1 5 9",
        # a header with figures of its own
        "Seats in 2024 and 2025\nSolo 3 4",
        # years in a row are no counts
        "Seats\nBudget 2024 2025",
    ],
)
def test_lines_that_are_no_flattened_table(text: str) -> None:
    assert [r for r in figures(text) if r[0] == "flat-table"] == []


def test_a_table_whose_cells_all_ran_together() -> None:
    text = (
        "Top-up packs\n"
        "PriceMinutesGood For\n"
        "$8800Side projects\n"
        "$303,000Small teams\n"
        "$20020,000Studios\n"
        "Refunds are not offered."
    )
    got = [(raw, value, unit, cur) for _, raw, value, unit, cur in figures(text)]
    assert got == [
        ("$8", 8, None, "USD"),
        ("800", 800, "minute", None),
        ("$30", 30, None, "USD"),
        ("3,000", 3000, "minute", None),
        ("$200", 200, None, "USD"),
        ("20,000", 20000, "minute", None),
    ]


def test_a_run_of_digits_split_only_when_one_way_reads() -> None:
    # $252,500 reads as $25 | 2,500 and as $2 | 52,500: left as the grammar reads it
    assert [r[1] for r in figures("PriceMinutesGood For\n$252,500Teams")] == ["$252,500"]
    # 1,050,010 splits as 10 | 500 | 10 only; as two numbers it reads two ways: left alone
    three = figures("PlanUsersProjectsGB\nStarter1050010")
    assert [(raw, unit) for _, raw, _, unit, _ in three] == [
        ("10", "users"),
        ("500", "projects"),
        ("10", "GB"),
    ]
    two = figures("PlanUsersProjects\nStarter1050010")
    assert [r for r in two if r[0] == "glued-table"] == []


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Charts show 7/30/90 day trends.", [(7, "day"), (30, "day"), (90, "day")]),
        ("Boxes come with 4/8/16 GB of memory.", [(4, "GB"), (8, "GB"), (16, "GB")]),
        ("Nodes hold 2/4/8 GPUs each.", [(2, "gpus"), (4, "gpus"), (8, "gpus")]),
    ],
)
def test_numbers_listed_with_slashes_share_the_last_ones_unit(
    text: str, want: list[tuple[float, str]]
) -> None:
    found = [n for n in read(text) if n.rule == "slashed-list"]
    assert [(n.value, n.unit) for n in found] == want


@pytest.mark.parametrize("text", ["Support is 24/7 here.", "A 16/9 screen.", "Use 1/8 OCPU."])
def test_two_numbers_with_a_slash_are_no_list(text: str) -> None:
    assert [n.raw for n in read(text) if n.rule == "slashed-list"] == []


@pytest.mark.parametrize(
    ("text", "raw", "unit", "qualifier"),
    [
        ("Uploads 5,000 / month", "5,000", "uploads", "per month"),
        ("  • Seats 12", "12", "seats", None),
    ],
)
def test_a_short_line_of_a_label_and_its_numbers_with_no_mark_between(
    text: str, raw: str, unit: str, qualifier: str | None
) -> None:
    n = one(text, raw)
    assert (n.kind, n.unit, n.qualifier, n.rule) == (NumberKind.COUNT, unit, qualifier, "label")


@pytest.mark.parametrize(
    "text", ["Costs 10", "Version 3 2", "Chapter 12", "We met 3 times and left."]
)
def test_a_label_that_counts_nothing(text: str) -> None:
    assert [n.raw for n in read(text) if n.rule == "label"] == []


@pytest.mark.parametrize(
    ("text", "raw", "first", "last"),
    [
        ("Entries close Feb 2, '27.", "Feb 2, '27", date(2027, 2, 2), date(2027, 2, 2)),
        ("The Oct ’26 cohort is full.", "Oct ’26", date(2026, 10, 1), date(2026, 10, 31)),
        ("Results on 9 June ’27.", "9 June ’27", date(2027, 6, 9), date(2027, 6, 9)),
    ],
)
def test_a_year_written_with_two_digits(text: str, raw: str, first: date, last: date) -> None:
    n = one(text, raw)
    assert (n.date_from, n.date_to) == (first, last)


def test_a_flattened_table_of_one_number_a_row() -> None:
    text = "Plan Monthly builds\nHobby 100\nTeam 2,000\nSee the docs."
    got = [(raw, unit) for rule, raw, _, unit, _ in figures(text) if rule == "flat-table"]
    assert got == [("100", "builds"), ("2,000", "builds")]
    # one such line alone is no table
    assert [
        r for r in figures("Our builds\nHobby 100\nSee the docs.") if r[0] == "flat-table"
    ] == []


def test_a_numbered_lists_steps_are_no_stat_cards() -> None:
    text = "How to join\n1\nCreate Account\n2\nVerify Email\n3\nPick Plan"
    assert read(text) == []
    # a stat card stays one: a figure alone, then its label
    (card,) = read("By the numbers\n45\nPaid seats")
    assert (card.value, card.unit) == (45, "paid seats")


@pytest.mark.parametrize(("text", "value"), [("Annual plans: −15%", -15), ("Save −5–10%.", -5)])
def test_a_typographic_minus_makes_a_percentage_negative(text: str, value: float) -> None:
    (n,) = read(text)
    assert (n.kind, n.value) == (NumberKind.PERCENT, value)


def test_a_quantity_column_and_a_section_row_between() -> None:
    text = (
        "Award | Prize | Qty |\n"
        "---|---|---|\n"
        "Main Track | ||\n"
        "Winner | $900 | 1 |\n"
        "Runners-up | $300 | 4 |"
    )
    counts = [(n.value, n.unit) for n in read(text) if n.kind is NumberKind.COUNT]
    assert counts == [(1, None), (4, None)]


def test_a_year_less_date_takes_the_one_year_the_page_names() -> None:
    text = "Season 2025. Demo day is on March 3 at the hub."
    (day,) = [n for n in read(text) if n.raw == "March 3"]
    assert day.date_from == date(2025, 3, 3)
    # two years named: the nearest reading, as before
    (near,) = [n for n in read("From 2019 to 2025. Demo day is March 3.") if n.raw == "March 3"]
    assert near.date_from == date(2027, 3, 3)


def test_a_glued_header_whose_first_row_splits_no_way_is_no_header() -> None:
    # a header cut in one place too many: five columns, rows of a label and three numbers;
    # the third row would split into four numbers one wrong way (60 | 2 | 5,000 | 500)
    text = "TierCallsUploadsMax perRun\nFree1010010\nTeam305,00050\nPro6025,000500"
    assert [n for n in read(text) if n.rule == "glued-table"] == []
