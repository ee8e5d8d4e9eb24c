"""The error classes of issue 44, on sentences of the kinds of pages the catalog keeps
(providers' docs and pricing pages, programme pages, write-ups and forums): short
durations, data sizes and their compound units, counts of what quotas count, rates by
their per-what, figures as other countries write them, and what a figure measures. The
sentences are our own, none taken from the labelled pages."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from extractors.numbers import extract_numbers
from extractors.values import NumberKind, QuotedNumber

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def one(text: str, raw: str) -> QuotedNumber:
    found = [n for n in extract_numbers(text, NOW) if raw in n.raw]
    assert found, (text, [n.raw for n in extract_numbers(text, NOW)])
    return found[0]


@pytest.mark.parametrize(
    ("text", "raw", "value", "unit"),
    [
        ("Cold starts add about 250ms to the first call.", "250ms", 250, "millisecond"),
        ("Each function may run for 900 ms at most.", "900 ms", 900, "millisecond"),
        ("Retry after 30s when you see a 429.", "30s", 30, "second"),
        ("Back off for 1s, then 2s, then 4s.", "2s", 2, "second"),
        ("A sandbox sleeps after 5 min of inactivity.", "5 min", 5, "minute"),
        ("Sessions end after 12 hrs, even on Pro.", "12 hrs", 12, "hour"),
        ("Credits expire after 2 yrs from the grant date.", "2 yrs", 2, "year"),
        ("The quota resets on a rolling 1-minute window.", "1-minute", 1, "minute"),
        ("Runs are capped at 24 hrs per job.", "24 hrs", 24, "hour"),
        ("Builds time out after 45 mins.", "45 mins", 45, "minute"),
        ("The notebook idles out in 90 sec.", "90 sec", 90, "second"),
        ("Latency stays under 0.5s for most requests.", "0.5s", 0.5, "second"),
        ("Fellows are funded for 3 yr terms.", "3 yr", 3, "year"),
        ("The free trial lasts 14 days.", "14 days", 14, "day"),
    ],
)
def test_short_durations(text: str, raw: str, value: float, unit: str) -> None:
    n = one(text, raw)
    assert (n.kind, n.value, n.unit) == (NumberKind.DURATION, value, unit)


@pytest.mark.parametrize(
    "text",
    [
        "Pricing was simpler in the 1990s.",
        "Most founders in their 30s apply twice.",
        "It was big in the '80s.",
        "The iPhone 4s shipped long ago.",
    ],
)
def test_a_decade_or_a_name_is_no_duration(text: str) -> None:
    assert [n for n in extract_numbers(text, NOW) if n.kind is NumberKind.DURATION] == []


@pytest.mark.parametrize(
    ("text", "raw", "value", "unit"),
    [
        ("The free plan has 12 gb of storage.", "12 gb", 12, "gb"),
        ("Uploads are limited to 50 mb each.", "50 mb", 50, "mb"),
        ("Each VM gets 24 GB RAM and 200GB disk.", "200GB", 200, "GB"),
        ("Workers may use 128 MiB of memory.", "128 MiB", 128, "MiB"),
        ("You may store 2 Gigabytes free.", "2 Gigabytes", 2, "Gigabytes"),
        ("The archive holds 3 terabytes of logs.", "3 terabytes", 3, "terabytes"),
        ("It includes 400,000 GB-seconds.", "400,000 GB-seconds", 4e5, "GB-seconds"),
        ("Storage is billed at 10 GB-month increments.", "10 GB-month", 10, "GB-month"),
        ("You get 18,000 GB memory hours.", "18,000 GB memory hours", 1.8e4, "GB memory hours"),
        ("Instances include 1,000 GB-Hours each month.", "1,000 GB-Hours", 1000, "GB-Hours"),
        ("The link moves 3.35 TB/s between chips.", "3.35 TB/s", 3.35, "TB/s"),
        ("The port is rated at 10 Gbps.", "10 Gbps", 10, "Gbps"),
        ("Bandwidth is 1 Gbit both ways.", "1 Gbit", 1, "Gbit"),
        ("Egress beyond 100 GB is billed.", "100 GB", 100, "GB"),
    ],
)
def test_data_sizes_in_any_case_with_their_compound_units(
    text: str, raw: str, value: float, unit: str
) -> None:
    n = one(text, raw)
    assert (n.kind, n.value, n.unit) == (NumberKind.NUMBER, value, unit)


@pytest.mark.parametrize(
    ("text", "raw", "value", "unit"),
    [
        ("The shape gives you 4 OCPU cores and 24 GB of memory.", "4", 4, "ocpu cores"),
        ("Each instance has 2 shared vCPU.", "2", 2, "vcpu"),
        ("The box comes with 8 vCPUs.", "8", 8, "vcpus"),
        ("They rented 64 NVIDIA H100 GPUs for a week.", "64", 64, "nvidia h100 gpus"),
        ("The tier allows 4 Arm-based Ampere A1 cores.", "4", 4, "arm-based ampere a1 cores"),
        ("R2 has 1 million Class A operations.", "1 million", 1e6, "class a operations"),
        ("You can deploy 1M Cloud Functions calls free.", "1M", 1e6, "cloud functions calls"),
        ("The plan allows 100K requests per day.", "100K", 1e5, "requests"),
        ("Free accounts get 10 GPU for research.", "10", 10, "gpu"),
        ("Expect 3-5 million executions a month.", "3-5 million", 3e6, "executions"),
        ("We will add 20 more seats next year.", "20", 20, "seats"),
        ("Teams may submit three (3) entries.", "three (3)", 3, "entries"),
        ("The cap is 10 000 requêtes par jour.", "10 000", 1e4, "requêtes"),
        ("Each instance gets 1/8 OCPU and 1 GB of memory.", "1/8", 0.125, "ocpu"),
        ("The limits, 5,000 and 100,000 tokens, reset daily.", "5,000", 5000, "tokens"),
    ],
)
def test_counts_of_what_quotas_count(text: str, raw: str, value: float, unit: str) -> None:
    n = one(text, raw)
    assert (n.kind, n.value, n.unit) == (NumberKind.COUNT, value, unit)


@pytest.mark.parametrize(
    "text",
    [
        "The API answers 429 Too Many Requests when you go over.",
        "Watch for 503 Service Unavailable during peaks.",
        "You will see 429 responses once the quota is spent.",
        "It returns HTTP 404 Not Found for old keys.",
        "Clients log 500 errors as failures.",
        "The match ended in a 1-1 draw.",
        "Support is 24/7 for 3/4 teams.",
    ],
)
def test_status_codes_and_scores_are_no_counts(text: str) -> None:
    assert [n for n in extract_numbers(text, NOW) if n.kind is NumberKind.COUNT] == []


@pytest.mark.parametrize(
    ("text", "raw", "qualifier"),
    [
        ("The free tier allows 1,000 requests/min.", "1,000 requests/min", "per minute"),
        ("Send 20 requests per min at most.", "20 requests per min", "per minute"),
        ("Embeddings are capped at 40,000 tokens/minute.", "40,000 tokens/minute", "per minute"),
        ("Uploads are limited to 5 GB/day.", "5 GB/day", "per day"),
        ("A GPU costs $2.31/hr on demand.", "$2.31/hr", "per hour"),
        ("Storage is $0.02/mo for each GB.", "$0.02/mo", "per month"),
        ("You get 100,000 GB-seconds/month.", "100,000 GB-seconds/month", "per month"),
        ("Pay $0.000694 per sec of runtime.", "$0.000694 per sec", "per second"),
        ("The plan gives 500 builds/mo free.", "500 builds/mo", "per month"),
        ("Each key allows 60 calls/hr.", "60 calls/hr", "per hour"),
        ("Traffic is free for 1 TB per month.", "1 TB per month", "per month"),
        ("Pricing is $20/month per seat.", "$20/month", "per month"),
    ],
)
def test_a_rate_keeps_its_per_what(text: str, raw: str, qualifier: str) -> None:
    n = one(text, raw)
    assert n.qualifier == qualifier, n
    if n.kind is NumberKind.MONEY:
        assert n.unit == qualifier.removeprefix("per ")


@pytest.mark.parametrize(
    ("text", "raw", "unit"),
    [
        ("The free tier allows 60 RPM.", "60 RPM", "RPM"),
        ("Paid keys get 10,000 TPM.", "10,000 TPM", "TPM"),
        ("The endpoint serves 50 rps per key.", "50 rps", "rps"),
        ("Volumes give 3,000 IOPS as a baseline.", "3,000 IOPS", "IOPS"),
        ("Search is capped at 5 QPS.", "5 QPS", "QPS"),
    ],
)
def test_rate_limits_written_as_acronyms(text: str, raw: str, unit: str) -> None:
    n = one(text, raw)
    assert (n.kind, n.unit) == (NumberKind.NUMBER, unit)


def test_a_bound_is_the_qualifier_and_the_rate_stays_in_the_figure() -> None:
    n = one("Traffic is free up to 1 TB per month.", "1 TB")
    assert (n.qualifier, n.raw) == ("up to", "up to 1 TB per month")


@pytest.mark.parametrize(
    ("text", "raw", "kind", "value", "currency"),
    [
        ("Le forfait inclut 5,5 Go de stockage.", "5,5 Go", NumberKind.NUMBER, 5.5, None),
        ("Das Paket hat 2,75 GB Speicher.", "2,75 GB", NumberKind.NUMBER, 2.75, None),
        ("Il en coûte 5$ par mois.", "5$", NumberKind.MONEY, 5, "USD"),
        ("Der Plan kostet 10 € im Monat.", "10 €", NumberKind.MONEY, 10, "EUR"),
        ("Es kostet 49,99 € im Jahr.", "49,99 €", NumberKind.MONEY, 49.99, "EUR"),
        ("A $10-million fund backs the programme.", "$10-million", NumberKind.MONEY, 1e7, "USD"),
        ("The prize pool is 1 000 000 €.", "1 000 000 €", NumberKind.MONEY, 1e6, "EUR"),
        ("Le quota est de 10 000 requêtes.", "10 000", NumberKind.COUNT, 1e4, None),
        ("Le prix est 1 200 € par an.", "1 200 €", NumberKind.MONEY, 1200, "EUR"),
        ("Each grant is worth $ 5,000.", "$ 5,000", NumberKind.MONEY, 5000, "USD"),
    ],
)
def test_figures_as_other_countries_write_them(
    text: str, raw: str, kind: NumberKind, value: float, currency: str | None
) -> None:
    n = one(text, raw)
    assert (n.kind, n.value, n.currency) == (kind, value, currency)


@pytest.mark.parametrize(
    ("text", "raw", "day"),
    [
        ("Bewerbungsschluss ist der 22.05.2025.", "22.05.2025", date(2025, 5, 22)),
        ("Die Frist endet am 1.3.2027 um Mitternacht.", "1.3.2027", date(2027, 3, 1)),
        ("Le programme ouvre le 09.01.2026.", "09.01.2026", date(2026, 1, 9)),
    ],
)
def test_dotted_dates_are_day_month_year(text: str, raw: str, day: date) -> None:
    n = one(text, raw)
    assert (n.kind, n.date_from, n.date_to) == (NumberKind.DATE, day, day)


@pytest.mark.parametrize(
    ("text", "raw", "first", "last"),
    [
        ("Prices fell in Q4 2024.", "Q4 2024", date(2024, 10, 1), date(2024, 12, 31)),
        ("The round opens in Q1 2027.", "Q1 2027", date(2027, 1, 1), date(2027, 3, 31)),
        ("Results are due Q2 2026, not later.", "Q2 2026", date(2026, 4, 1), date(2026, 6, 30)),
        ("Credits lapse after Q3 2025 ends.", "Q3 2025", date(2025, 7, 1), date(2025, 9, 30)),
    ],
)
def test_a_quarter_spans_its_three_months(text: str, raw: str, first: date, last: date) -> None:
    n = one(text, raw)
    assert (n.kind, n.date_from, n.date_to) == (NumberKind.DATE, first, last)


def test_not_every_dotted_triple_is_a_date() -> None:
    assert [n for n in extract_numbers("Upgrade to 1.32.2026.1 now.", NOW) if n.date_from] == []
    assert [n for n in extract_numbers("It was 31.02.2026 there.", NOW) if n.date_from] == []


@pytest.mark.parametrize(
    "text",
    ["The iPhone 15 128GB model.", "Get 15 128-bit keys."],
)
def test_a_space_never_groups_a_names_number_with_the_next(text: str) -> None:
    assert all(n.value != 15128 for n in extract_numbers(text, NOW))


@pytest.mark.parametrize(
    ("text", "raw", "subject"),
    [
        ("- GPT-4o: $2.50 per 1M input tokens", "$2.50", "GPT-4o"),
        ("- NVIDIA A100 (40GB): $2.50 - $4.10/hour per GPU", "$2.50", "NVIDIA A100"),
        ("Free Credits ($5): enough for a demo", "$5", "Free Credits"),
        ("Storage: 5 GB per project", "5 GB", "Storage"),
        ("* Monthly allowance: up to $300", "$300", "Monthly allowance"),
        ("A hobbyist RTX 4090 at $0.69/hr is the cheapest.", "$0.69/hr", "hobbyist RTX 4090"),
        ("Together lists a B200 at $5.50/hr on demand.", "$5.50/hr", "B200"),
        ("An H100 runs about $1.98/hr at the cheapest host.", "$1.98/hr", "H100"),
        ("The plan costs $192, billed annually.", "$192", "plan"),
        ("Pay $192, billed annually.", "$192", None),
        ("Travel support of up to $3,000 annually.", "$3,000", "Travel support"),
        ("They get $5,000 disbursed per year.", "$5,000", None),
        ("You get $300 in free credits.", "$300", "free credits"),
        ("The tier includes 100 GB of egress.", "100 GB", "egress"),
        ("The winner receives $1,000 from the prize pool.", "$1,000", "prize pool"),
        (
            "The market valuation reaching $47.9 billion in 2023.",
            "$47.9 billion",
            "market valuation",
        ),
        ("Grants generally will range from $500,000 to $1,000,000.", "$500,000", "Grants"),
        ("| Public network outbound traffic | 2 GB |", "2 GB", "network outbound traffic"),
        ("UF paid over 2 yrs ($10,000 disbursed per year)", "$10,000", None),
        ("You get 100K requests a day.", "100K", "requests"),
        ("Each key allows 60 calls/hr.", "60", "calls"),
    ],
)
def test_what_a_figure_measures(text: str, raw: str, subject: str | None) -> None:
    assert one(text, raw).subject == subject


def _table(*lines: str) -> list[QuotedNumber]:
    return extract_numbers("\n".join(lines), NOW)


@pytest.mark.parametrize(
    ("header", "row", "raw", "kind", "unit", "qualifier"),
    [
        ("| Plan | Storage (GB) |", "| Free | 5 |", "5", NumberKind.NUMBER, "GB", None),
        (
            "| Plan | Quota in GB-Hrs |",
            "| Pro | 74,400 |",
            "74,400",
            NumberKind.NUMBER,
            "GB-Hrs",
            None,
        ),
        ("| Tier | Memory (MiB) |", "| Small | 512 |", "512", NumberKind.NUMBER, "MiB", None),
        ("| Tier | Bandwidth TB |", "| Basic | 2 |", "2", NumberKind.NUMBER, "TB", None),
        ("| Plan | Timeout (s) |", "| Hobby | 10 |", "10", NumberKind.DURATION, "second", None),
        ("| Plan | Retention in days |", "| Free | 7 |", "7", NumberKind.DURATION, "day", None),
        (
            "| Plan | Max duration (minutes) |",
            "| Pro | 45 |",
            "45",
            NumberKind.DURATION,
            "minute",
            None,
        ),
        (
            "| Plan | Requests per minute |",
            "| Free | 60 |",
            "60",
            NumberKind.COUNT,
            "requests",
            "per minute",
        ),
        (
            "| Plan | API calls/day |",
            "| Starter | 1,000 |",
            "1,000",
            NumberKind.COUNT,
            "api calls",
            "per day",
        ),
        ("| Plan | Seats |", "| Team | 10 |", "10", NumberKind.COUNT, "seats", None),
        ("Plan | Build minutes |", "Free | 300 |", "300", NumberKind.COUNT, "build minutes", None),
        (
            "| Plan | Included invocations |",
            "| Free | 100000 |",
            "100000",
            NumberKind.COUNT,
            "invocations",
            None,
        ),
    ],
)
def test_a_rows_bare_number_takes_its_columns_unit(
    header: str, row: str, raw: str, kind: NumberKind, unit: str, qualifier: str | None
) -> None:
    found = [n for n in _table(header, "|---|---|", row) if n.raw == raw]
    assert [(n.kind, n.unit, n.qualifier) for n in found] == [(kind, unit, qualifier)]


def test_a_header_with_no_unit_or_a_price_per_unit_gives_none() -> None:
    rows = _table("| Plan | Over-usage per GB | Status |", "|---|---|---|", "| Pro | 0.021 | 3 |")
    assert rows == []


def test_a_table_ends_with_its_rows() -> None:
    found = _table("| Plan | Storage (GB) |", "|---|---|", "| Free | 5 |", "Then 7 came.")
    assert [n.raw for n in found] == ["5"]


def test_a_row_figure_with_its_own_unit_is_read_once() -> None:
    found = _table("| Plan | Storage (GB) |", "|---|---|", "| Free | 5 GB |")
    assert [(n.raw, n.unit) for n in found] == [("5 GB", "GB")]


@pytest.mark.parametrize(
    ("card", "value", "kind", "unit"),
    [
        ("45\nnon-cancelled calls", 45, NumberKind.COUNT, "calls"),
        ("5\nstrong-fit signals", 5, NumberKind.COUNT, "signals"),
        ("10M+\nUsers worldwide", 1e7, NumberKind.COUNT, "users"),
        ("120\ncountries served", 120, NumberKind.COUNT, "countries"),
        ("2,000\nresearch teams", 2000, NumberKind.COUNT, "teams"),
        ("300K\nmonthly requests", 3e5, NumberKind.COUNT, "requests"),
        ("50+\npartner universities", 50, NumberKind.COUNT, "universities"),
        ("1.2 million\nGPU hours awarded", 1.2e6, NumberKind.COUNT, "gpu hours"),
        ("$4,000\nin GPU credits", 4000, NumberKind.MONEY, None),
        ("99.9%\nuptime", 99.9, NumberKind.PERCENT, "%"),
        ("40\nfellowships a year", 40, NumberKind.COUNT, "fellowships"),
        ("12\nopen calls", 12, NumberKind.COUNT, "calls"),
    ],
)
def test_a_stat_cards_figure_takes_its_label(
    card: str, value: float, kind: NumberKind, unit: str | None
) -> None:
    found = extract_numbers(f"Our year in numbers\n{card}\nRead the report.", NOW)
    assert [(n.kind, n.value, n.unit) for n in found] == [(kind, value, unit)]


def test_a_number_alone_on_its_line_without_a_label_stays_bare() -> None:
    assert extract_numbers("Step\n3\nOpen the console and click Save.", NOW) == []
