"""The error classes of issue 44, on sentences of the kinds of pages the catalog keeps
(providers' docs and pricing pages, programme pages, write-ups and forums): short
durations, data sizes and their compound units, counts of what quotas count, rates by
their per-what, figures as other countries write them, and what a figure measures. The
sentences are our own, none taken from the labelled pages.

Long, and kept whole: it is a table of sentences, one class a section, read as one list
of what the grammar must read; split, a class would be looked for in two files.
"""

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


def _count(text: str, raw: str) -> tuple[NumberKind, float | None, str | None]:
    n = one(text, raw)
    return n.kind, n.value, n.unit


@pytest.mark.parametrize(
    ("text", "raw", "value", "unit"),
    [
        ("Free accounts get 5 Cloud Run services.", "5", 5, "cloud run services"),
        ("Deploy 10 Lambda functions at no cost.", "10", 10, "lambda functions"),
        ("You get 1 Always Free VM in any region.", "1", 1, "always free vm"),
        ("The tier offers 2 AMD based Compute VMs.", "2", 2, "amd based compute vms"),
        ("Spin up 3 Cloud SQL instances for testing.", "3", 3, "cloud sql instances"),
        ("The plan includes 2 Autonomous Databases.", "2", 2, "autonomous databases"),
        ("Each team gets 4 Durable Objects namespaces.", "4", 4, "durable objects namespaces"),
        ("Run 8 GitHub Actions runners in parallel.", "8", 8, "github actions runners"),
        ("Students receive 100 Azure credits each month.", "100", 100, "azure credits"),
        ("You may deploy up to 3 Pages projects.", "3", 3, "pages projects"),
        ("You may keep 10 Docker Hub repositories.", "10", 10, "docker hub repositories"),
        ("The shape has 4 Ampere A1 cores.", "4", 4, "ampere a1 cores"),
        ("Create 2 Block Volumes for the boot disks.", "2", 2, "block volumes"),
    ],
)
def test_a_counted_phrase_of_a_names_words_runs_to_its_plural(
    text: str, raw: str, value: float, unit: str
) -> None:
    assert _count(text, raw) == (NumberKind.COUNT, value, unit)


@pytest.mark.parametrize(
    "text",
    [
        "The LC 500 Convertible looks sharp in red.",
        "The 7 Habits of Highly Effective People sold well.",
        "Read The 4 Agreements before you apply.",
        "2) Polistil 960574 Pista Elettrica Sorpasso",
        "Samsung 4K Smart LED TV",
        "Still four Thunderbolt 3",
        "The deal trims its order of 777x jets.",
    ],
)
def test_a_title_or_a_models_name_is_no_count(text: str) -> None:
    assert [n for n in extract_numbers(text, NOW) if n.kind is NumberKind.COUNT] == []


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("Add 1 custom domain to the free plan.", "domain"),
        ("Free sites get 1 concurrent build.", "build"),
        ("Each account may host 1 static site and 2 databases.", "site"),
        ("You get 1 free SSL certificate per domain.", "ssl certificate"),
        ("Every user gets 1 project.", "project"),
        ("Hobby plans include 1 team member.", "member"),
        ("The starter tier allows 1 active deployment.", "deployment"),
        ("Only 1 seat is included.", "seat"),
        ("Grants fund 1 graduate student for a year.", "student"),
        ("Each team may submit 1 final entry.", "entry"),
        ("You may open 1 GCP project per billing account.", "gcp project"),
        ("The free tier includes 1 managed database.", "database"),
        ("Winners get 1 conference ticket and a mug.", "ticket"),
    ],
)
def test_a_count_of_one_is_headed_by_the_last_word_of_its_phrase(text: str, unit: str) -> None:
    assert _count(text, "1") == (NumberKind.COUNT, 1, unit)


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("Add 1 cup rice to the pot.", "cup"),
        ("Serve with 1 slice whole-grain toast.", "slice"),
        ("Mix 1 scoop protein powder in.", "scoop"),
        ("Bring 1 bottle water each.", "bottle"),
        ("Each kit has 1 pair of gloves.", "pair"),
        ("Grab 1 bag ice on the way.", "bag"),
        ("Use 1 clove garlic.", "clove"),
        ("The box holds 1 set of keys.", "set"),
    ],
)
def test_a_count_of_one_measure_counts_the_measure(text: str, unit: str) -> None:
    assert _count(text, "1") == (NumberKind.COUNT, 1, unit)


@pytest.mark.parametrize(
    ("text", "raw", "value", "unit"),
    [
        ("Each node has 4x NVIDIA A100 GPUs.", "4x", 4, "nvidia a100 gpus"),
        ("You can run 1 x NVIDIA T4 GPU for free.", "1 x", 1, "nvidia t4 gpu"),
        ("The rig uses 8x H100 for training.", "8x", 8, "h100"),
        ("Servers ship with 2 x Intel Xeon CPUs.", "2 x", 2, "intel xeon cpus"),
        ("A pod of 16x TPU v4 chips runs the job.", "16x", 16, "tpu v4 chips"),
        ("Each worker gets 2x vCPUs.", "2x", 2, "vcpus"),
        ("Nodes come with 8 x A100 80GB.", "8 x", 8, "a100"),
        ("Use 2x L4 GPUs for inference.", "2x", 2, "l4 gpus"),
        ("The free shape gives 2x Ampere A1 cores.", "2x", 2, "ampere a1 cores"),
        ("Training used 64 x H100 GPUs for a week.", "64 x", 64, "h100 gpus"),
        ("The lab bought 3x workstations.", "3x", 3, "workstations"),
        ("Each box has 2 × NVMe drives.", "2 ×", 2, "nvme drives"),
    ],
)
def test_n_times_a_thing_counts_the_thing(text: str, raw: str, value: float, unit: str) -> None:
    assert _count(text, raw) == (NumberKind.COUNT, value, unit)


@pytest.mark.parametrize(
    ("text", "raw"),
    [
        ("It is 2x faster than before.", "2x"),
        ("We saw 2x more users this year.", "2x"),
        ("Costs are 10x the price of spot.", "10x"),
        ("A 1.5x speedup is typical.", "1.5x"),
        ("It runs 3x cheaper on Arm.", "3x"),
        ("Throughput grew ~9x over two years.", "~9x"),
    ],
)
def test_a_multiple_stays_a_multiple(text: str, raw: str) -> None:
    n = one(text, raw)
    assert (n.kind, n.unit) == (NumberKind.NUMBER, "x")


@pytest.mark.parametrize(
    ("text", "raw", "unit", "qualifier"),
    [
        ("Send up to 100 emails/day for free.", "100", "emails", "up to"),
        ("AWS gives 1 million free requests per month.", "1 million", "requests", "per month"),
        ("Your org gets 2,000 CI/CD minutes/month.", "2,000", "ci/cd minutes", "per month"),
        ("You get 500 free API calls per day.", "500", "api calls", "per day"),
        ("Includes 3 free private repos per account.", "3", "repos", "per account"),
        ("Allows 50 concurrent builds per hour.", "50", "builds", "per hour"),
        ("Make 60 authenticated requests/hour.", "60", "requests", "per hour"),
        ("Get 100 free SMS messages a month.", "100", "sms messages", "per month"),
        ("We review 20 pull requests/day.", "20", "requests", "per day"),
        ("Free keys get 1,000 search queries per day.", "1,000", "queries", "per day"),
        ("Hobby users get 6,000 build minutes per month.", "6,000", "minutes", "per month"),
        ("You can send at most 30 chat messages per minute.", "30", "messages", "up to"),
    ],
)
def test_a_counted_phrase_keeps_its_rate_and_its_bound(
    text: str, raw: str, unit: str, qualifier: str
) -> None:
    n = one(text, raw)
    assert (n.kind, n.unit, n.qualifier) == (NumberKind.COUNT, unit, qualifier)


@pytest.mark.parametrize(
    ("text", "raw", "unit"),
    [
        ("They offer 50,000 free monthly active users.", "50,000", "users"),
        ("The free plan has 10,000 MAU.", "10,000", "mau"),
        ("Free for up to 10,000 MAUs.", "10,000", "maus"),
        ("The tier covers 1,000 DAU.", "1,000", "dau"),
        ("Includes 5 daily backups.", "5", "backups"),
        ("Up to 1,000 weekly active users.", "1,000", "users"),
        ("We host 30 monthly meetups.", "30", "meetups"),
        ("Up to 3 nightly builds are kept.", "3", "builds"),
        ("We send 4 quarterly updates.", "4", "updates"),
        ("2 hourly snapshots are retained.", "2", "snapshots"),
        ("The grant pays 12 monthly stipends.", "12", "stipends"),
        ("Keep 7 daily and 4 weekly backups.", "4", "backups"),
    ],
)
def test_how_often_is_part_of_the_counted_phrase(text: str, raw: str, unit: str) -> None:
    n = one(text, raw)
    assert (n.kind, n.unit) == (NumberKind.COUNT, unit)


@pytest.mark.parametrize(
    "text",
    [
        "Tier 1 customers get priority support.",
        "Step 2 Create an API key.",
        "Round 3 winners were announced today.",
        "Cohort 4 students start in May.",
        "Season 2 episodes drop weekly.",
        "Part 1 results are out.",
        "Section 3 rules apply to all entrants.",
        "Wave 2 applicants hear back in June.",
        "Batch 12 startups demo next week.",
        "Chapter 7 exercises are optional.",
        "Lesson 5 notebooks use a GPU.",
        "Article 9 conditions must be met.",
    ],
)
def test_a_small_number_after_a_rank_word_is_its_place(text: str) -> None:
    assert [n for n in extract_numbers(text, NOW) if n.kind is NumberKind.COUNT] == []


def test_a_larger_number_after_a_rank_word_is_a_figure() -> None:
    assert one("Round 1 had 300 teams.", "300").unit == "teams"
    assert one("The Free Tier 500 GPU hours are pooled.", "500").value == 500


@pytest.mark.parametrize(
    ("text", "raw", "value", "unit"),
    [
        ("Logs are kept for 7d on the free plan.", "7d", 7, "day"),
        ("Data retention is 3 wks.", "3 wks", 3, "week"),
        ("The trial is 6 mos long.", "6 mos", 6, "month"),
        ("A 12 mo commitment is required.", "12 mo", 12, "month"),
        ("Results arrive within 5 business days.", "5 business days", 5, "day"),
        ("Refunds take 10 calendar days.", "10 calendar days", 10, "day"),
        ("Reviews take 30 working days.", "30 working days", 30, "day"),
        ("Credits lapse after 3 consecutive months unused.", "3 consecutive months", 3, "month"),
        ("The free plan keeps 30d of history.", "30d", 30, "day"),
        ("A 2 wk sprint ends the course.", "2 wk", 2, "week"),
        ("Support answers in 2 full days.", "2 full days", 2, "day"),
        ("Snapshots last 14d.", "14d", 14, "day"),
    ],
)
def test_short_and_qualified_time_units(text: str, raw: str, value: float, unit: str) -> None:
    n = one(text, raw)
    assert (n.kind, n.value, n.unit) == (NumberKind.DURATION, value, unit)


@pytest.mark.parametrize(
    "text",
    ["Print the part in 3D first.", "Le forfait inclut 5,5 Mo de stockage.", "Render it as 2D."],
)
def test_a_dimension_or_a_french_size_is_no_duration(text: str) -> None:
    assert [n for n in extract_numbers(text, NOW) if n.kind is NumberKind.DURATION] == []


@pytest.mark.parametrize(
    ("line", "raw", "kind", "value", "unit", "qualifier"),
    [
        ("Requests: 20/min", "20", NumberKind.COUNT, 20, "requests", "per minute"),
        ("Max projects: 3", "3", NumberKind.COUNT, 3, "projects", None),
        ("Team members: 1-5", "1-5", NumberKind.COUNT, 1, "team members", None),
        ("Concurrent builds: 1", "1", NumberKind.COUNT, 1, "concurrent builds", None),
        ("Replies: 12", "12", NumberKind.COUNT, 12, "replies", None),
        ("- Webhooks per repository: 20", "20", NumberKind.COUNT, 20, "webhooks", "per repository"),
        ("Number of GPUs: 8", "8", NumberKind.COUNT, 8, "gpus", None),
        ("• API keys: 10", "10", NumberKind.COUNT, 10, "api keys", None),
        ("Monthly requests: 100K", "100K", NumberKind.COUNT, 1e5, "requests", None),
        ("Awards: 25+", "25+", NumberKind.COUNT, 25, "awards", "at least"),
        ("Seats: up to 10", "10", NumberKind.COUNT, 10, "seats", "up to"),
        ("Days: 30", "30", NumberKind.DURATION, 30, "day", None),
        ("Storage (GB): 5", "5", NumberKind.NUMBER, 5, "GB", None),
        ("Prompt tokens: 100,000/min and 1,000,000/month", "1,000,000", NumberKind.COUNT, 1e6,
         "prompt tokens", "per month"),
    ],
)  # fmt: skip
def test_a_lines_label_names_what_its_bare_numbers_count(
    line: str, raw: str, kind: NumberKind, value: float, unit: str, qualifier: str | None
) -> None:
    n = one(line, raw)
    assert (n.kind, n.value, n.unit, n.qualifier) == (kind, value, unit, qualifier)


@pytest.mark.parametrize(
    "line",
    [
        "Price: 20",
        "Deadline: 15",
        "Version: 1.32",
        "Limits: 5 and 10",
        "Open: 9:00",
        "Hours: 9-5",
        "Status: 3",
        "Requirements: 2 of the 3",
    ],
)
def test_a_label_that_counts_nothing_leaves_its_numbers_bare(line: str) -> None:
    assert [n for n in extract_numbers(line, NOW) if n.raw[:1].isdigit()] == []


_PLANS = "| Feature | Free | Pro | Team |"


@pytest.mark.parametrize(
    ("header", "row", "raw", "kind", "unit", "qualifier"),
    [
        (_PLANS, "| Team members | 1 | 5 | Unlimited |", "5", NumberKind.COUNT, "team members",
         None),
        (_PLANS, "| Projects | 3 | 20 | 100 |", "20", NumberKind.COUNT, "projects", None),
        (_PLANS, "| API requests per day | 1,000 | 50K | 1M |", "50K", NumberKind.COUNT,
         "api requests", "per day"),
        (_PLANS, "| Build minutes/month | 300 | 3,000 | 10,000 |", "3,000", NumberKind.COUNT,
         "build minutes", "per month"),
        (_PLANS, "| Storage (GB) | 1 | 100 | 1,000 |", "100", NumberKind.NUMBER, "GB", None),
        (_PLANS, "| Log retention (days) | 1 | 30 | 90 |", "30", NumberKind.DURATION, "day",
         None),
        (_PLANS, "| Custom domains | 1 | 10 | 50 |", "10", NumberKind.COUNT, "custom domains",
         None),
        (_PLANS, "| Max. concurrent jobs | 1 | 4 | 16 |", "16", NumberKind.COUNT,
         "concurrent jobs", None),
        (_PLANS, "| Number of seats | 1 | 3 | 10 |", "3", NumberKind.COUNT, "seats", None),
        ("| Plan | RPS Limit |", "| Free | 10 |", "10", NumberKind.COUNT, "requests",
         "per second"),
        ("| Model | RPM | TPM |", "| Flash | 15 | 1,000,000 |", "1,000,000", NumberKind.COUNT,
         "tokens", "per minute"),
        ("| Tier | QPS |", "| Basic | 5 |", "5", NumberKind.COUNT, "queries", "per second"),
        ("| Plan | Calls / day |", "| Starter | 1,000 |", "1,000", NumberKind.COUNT, "calls",
         "per day"),
    ],
)  # fmt: skip
def test_a_rows_label_or_a_rates_acronym_names_what_its_cells_count(
    header: str, row: str, raw: str, kind: NumberKind, unit: str, qualifier: str | None
) -> None:
    found = [n for n in _table(header, "|---|---|", row) if n.raw == raw]
    assert [(n.kind, n.unit, n.qualifier) for n in found] == [(kind, unit, qualifier)]


@pytest.mark.parametrize(
    "row",
    [
        "| Price | 0 | 20 | 50 |",
        "| Launched | 2019 | 2021 | 2023 |",
        "| Support level | 1 | 2 | 3 |",
        "| Limits | 5 | 10 | 20 |",
    ],
)
def test_a_row_whose_label_counts_nothing_stays_bare(row: str) -> None:
    assert _table(_PLANS, "|---|---|---|---|", row) == []


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (
            ["Usage limits", "TierBuilds / month", "Hobby100", "Team2,500", "EnterpriseCustom"],
            [(100, "builds", "per month"), (2500, "builds", "per month")],
        ),
        (
            ["LimitValue", "Concurrent sessions5", "Webhooks per project20"],
            [(5, "concurrent sessions", None), (20, "webhooks", "per project")],
        ),
        (
            ["Limit typeValue", "Requests60/min and 10,000/day"],
            [(60, "requests", "per minute"), (1e4, "requests", "per day")],
        ),
        (
            ["PlanSeats", "Free1", "Pro10", "Business50"],
            [(1, "seats", None), (10, "seats", None), (50, "seats", None)],
        ),
        (
            ["ResourceLimit", "Storage10 GB", "Retention7 days"],
            [(10, "GB", None), (7, "day", None)],
        ),
        (
            ["ModelTPM", "Flash1,000,000", "Pro32,000"],
            [(1e6, "tokens", "per minute"), (32000, "tokens", "per minute")],
        ),
    ],
)
def test_a_table_whose_cells_ran_together_is_read_by_its_columns(
    lines: list[str], expected: list[tuple[float, str, str | None]]
) -> None:
    found = extract_numbers("\n".join(lines), NOW)
    assert [(n.value, n.unit, n.qualifier) for n in found] == expected


@pytest.mark.parametrize(
    "text",
    [
        "LinkedIn\nFree100",
        "GitHub\nOver the years it grew.",
        "Llama3 is open.\nQwen2 too.",
        "YouTube\nChannel42 is new.",
    ],
)
def test_a_word_run_into_a_number_outside_such_a_table_stays_bare(text: str) -> None:
    assert [n.raw for n in extract_numbers(text, NOW) if n.raw[:1].isdigit()] == []


@pytest.mark.parametrize(
    ("text", "raw", "kind", "value", "unit"),
    [
        ("Embeddings1,000,000 tokens/day", "1,000,000", NumberKind.COUNT, 1e6, "tokens"),
        ("Limit100,000 requests/month", "100,000", NumberKind.COUNT, 1e5, "requests"),
        ("Free tier1,000 builds per month", "1,000", NumberKind.COUNT, 1000, "builds"),
        ("Storage included1,024 GB", "1,024 GB", NumberKind.NUMBER, 1024, "GB"),
        ("Pro plan10,000 API calls", "10,000", NumberKind.COUNT, 1e4, "api calls"),
        ("Hobby2,000 invocations/day", "2,000", NumberKind.COUNT, 2000, "invocations"),
        ("Monthly quota25,000 emails", "25,000", NumberKind.COUNT, 25000, "emails"),
        ("Included egress1,000 GB", "1,000 GB", NumberKind.NUMBER, 1000, "GB"),
        ("Premium50,000 credits", "50,000", NumberKind.COUNT, 5e4, "credits"),
        ("Basic3,000 OCPU hours", "3,000", NumberKind.COUNT, 3000, "ocpu hours"),
        ("Free100,000 reads/day", "100,000", NumberKind.COUNT, 1e5, "reads"),
        ("tokens/min1,000,000 tokens/month", "1,000,000", NumberKind.COUNT, 1e6, "tokens"),
    ],
)
def test_thousands_run_into_the_word_before_are_a_cells_figure(
    text: str, raw: str, kind: NumberKind, value: float, unit: str
) -> None:
    n = one(text, raw)
    assert (n.kind, n.value, n.unit) == (kind, value, unit)


@pytest.mark.parametrize(
    "text",
    [
        "Starter1,000",
        "The A100 80GB and the H100 ship soon.",
        "Order the RTX4090 cards today.",
        "The H100, A100 and L4 are listed.",
        "Use v5e-4 pods for this.",
    ],
)
def test_a_names_number_run_into_its_word_stays_a_name(text: str) -> None:
    assert [n for n in extract_numbers(text, NOW) if n.kind is NumberKind.COUNT] == []


@pytest.mark.parametrize(
    ("text", "raw", "unit"),
    [
        ("First 100 GB-HoursFirst 1,000 GB-Hours", "100 GB-Hours", "GB-Hours"),
        ("First 100 GB-HoursFirst 1,000 GB-Hours", "1,000 GB-Hours", "GB-Hours"),
        ("Included400,000 GB-SecondsThen $0.0000166", "400,000 GB-Seconds", "GB-Seconds"),
        ("Hobby 10 GB-MonthsPro 100 GB-Months", "10 GB-Months", "GB-Months"),
        ("Free 1 TB-Month$0.02 after", "1 TB-Month", "TB-Month"),
        ("Memory 512 MB-Hours$0.01", "512 MB-Hours", "MB-Hours"),
        ("Tier 50 GB-Hrs2 vCPU", "50 GB-Hrs", "GB-Hrs"),
        ("Usage 3 GiB-Hours4 GiB-Hours", "3 GiB-Hours", "GiB-Hours"),
        ("Disk 20 GB-MonthsBilled monthly", "20 GB-Months", "GB-Months"),
        ("Included 1,000 GB-SecondsExtra $0.01", "1,000 GB-Seconds", "GB-Seconds"),
        ("Base 5 GB-HourEach extra", "5 GB-Hour", "GB-Hour"),
        ("Cap 100 GB-SecsOver", "100 GB-Secs", "GB-Secs"),
    ],
)
def test_a_sizes_time_run_into_the_next_cell_is_its_unit(text: str, raw: str, unit: str) -> None:
    n = one(text, raw)
    assert (n.kind, n.raw, n.unit) == (NumberKind.NUMBER, raw, unit)


@pytest.mark.parametrize(
    ("text", "unit"),
    [("It is a 10 GB-hourly plan.", "GB"), ("Rent 10 GB-months.", "GB-months")],
)
def test_a_sizes_time_ends_where_its_word_does(text: str, unit: str) -> None:
    assert one(text, "10").unit == unit


@pytest.mark.parametrize(
    ("text", "raw", "unit", "qualifier"),
    [
        ("The maximum number of seats is 5.", "5", "seats", None),
        ("Requests are limited to 60 per minute.", "60", "requests", "per minute"),
        ("Uploads are limited to 20/day.", "20", "uploads", "per day"),
        ("That fills your limit (if your request per minute limit was 20).", "20", "request",
         "per minute"),
        ("The number of API keys per project is 10.", "10", "api keys", "per project"),
        ("Max. number of collaborators: 3", "3", "collaborators", None),
        ("The API call quota is 10,000 per month.", "10,000", "call", "per month"),
        ("The token limit is 32k.", "32k", "token", None),
        ("Submissions are capped at 5 per day.", "5", "submissions", "per day"),
        ("Webhooks are restricted to 20 per repository.", "20", "webhooks", "per repository"),
        ("The number of team members is up to 8.", "8", "team members", "up to"),
        ("Your seat quota is 25.", "25", "seat", None),
        ("Concurrent builds are limited to 2.", "2", "builds", None),
        ("The free message limit is 1,000 per month.", "1,000", "message", "per month"),
    ],
)  # fmt: skip
def test_the_words_before_a_bare_number_may_name_what_it_counts(
    text: str, raw: str, unit: str, qualifier: str | None
) -> None:
    n = one(text, raw)
    assert (n.kind, n.unit, n.qualifier) == (NumberKind.COUNT, unit, qualifier)


@pytest.mark.parametrize(
    "text",
    [
        "The rate limit is 100.",
        "Prices are capped at 20.",
        "The storage limit is 5.",
        "It is one of 5.",
        "The number of the beast is 666 in the book.",
        "Limits are capped at 3.",
    ],
)
def test_words_before_that_name_no_counted_thing_leave_it_bare(text: str) -> None:
    assert [n for n in extract_numbers(text, NOW) if n.kind is NumberKind.COUNT] == []


@pytest.mark.parametrize(
    ("before", "header", "unit"),
    [
        ("Every key has a daily request quota.", "| Plan | Daily Quota |", "request"),
        ("Each workspace gets a seat limit.", "| Tier | Limit |", "seat"),
        ("Accounts have a monthly token allowance.", "| Plan | Allowance |", "token"),
        ("The message quota depends on your plan.", "| Plan | Quota |", "message"),
        ("Every project has an API call limit.", "| Plan | Monthly Limit |", "api call"),
        ("Your plan sets a query quota.", "| Plan | Max Quota |", "query"),
        ("Each tier has an invocation limit.", "| Tier | Limit |", "invocation"),
        ("Plans differ in their user limit.", "| Plan | Limit |", "user"),
        ("The SMS message quota resets daily.", "| Plan | Quota |", "sms message"),
        ("A credit allowance comes with each grant.", "| Grant | Allowance |", "credit"),
        ("Each app has a webhook call quota.", "| Plan | Quota |", "call"),
        ("Every org has an execution quota.", "| Plan | Included quota |", "execution"),
    ],
)
def test_a_quota_column_counts_what_the_text_before_names_a_quota_of(
    before: str, header: str, unit: str
) -> None:
    found = extract_numbers(f"{before}\n{header}\n|---|---|\n| Free | 1,000 |", NOW)
    assert [(n.kind, n.value, n.unit) for n in found] == [(NumberKind.COUNT, 1000, unit)]


@pytest.mark.parametrize(
    "before",
    [
        "The storage limit depends on the plan.",
        "The rate limit is strict.",
        "Plans are listed below.",
        "Each plan has a bandwidth allowance.",
    ],
)
def test_a_quota_column_of_no_counted_thing_stays_bare(before: str) -> None:
    assert extract_numbers(f"{before}\n| Plan | Quota |\n|---|---|\n| Free | 5 |", NOW) == []


@pytest.mark.parametrize(
    "text",
    [
        "The window opens at 9:30 AM and closes at 5 PM.",
        "Office hours run 10:00 to 16:00 CET.",
        "Quotas reset daily at 00:00 UTC.",
        "The webinar starts at 14:30 UTC on Tuesday.",
        "Submissions close at 11:59 PM Pacific Time.",
        "Maintenance happens at 3:15 am local time.",
        "Videos render in 16:9 aspect ratio.",
        "The call is at 8:45 pm EST sharp.",
        "Support replies between 09:00 and 17:00 GMT.",
        "The deadline is 23:59 AoE.",
        "Jobs queued after 18:00 run overnight.",
        "Doors open at 7:30 p.m. for finalists.",
        "Results are posted at 10:00 hrs.",
    ],
)
def test_a_time_of_day_or_a_ratio_is_no_figure(text: str) -> None:
    assert extract_numbers(text, NOW) == []


@pytest.mark.parametrize(
    ("text", "raw", "unit"),
    [
        ("The cluster has 1,024 H100s.", "1,024", "h100s"),
        ("We rent 8 A100s by the hour.", "8", "a100s"),
        ("The lab bought 4 L40s last spring.", "4", "l40s"),
        ("Each node holds 8 H200s.", "8", "h200s"),
        ("They trained on 2,048 A100s for a month.", "2,048", "a100s"),
        ("You can reserve 16 V100s per project.", "16", "v100s"),
        ("The provider added 512 MI300Xs.", "512", "mi300xs"),
        ("Our rack has 4 T4s and 2 A10s.", "2", "a10s"),
        ("We got 32 B200s through the programme.", "32", "b200s"),
        ("Kaggle gives 2 P100s per session.", "2", "p100s"),
        ("The grant covers 64 H100s for 3 months.", "64", "h100s"),
        ("Startups can request 8 GH200s.", "8", "gh200s"),
    ],
)
def test_a_models_plural_is_a_count_not_seconds(text: str, raw: str, unit: str) -> None:
    n = one(text, raw)
    assert (n.kind, n.unit) == (NumberKind.COUNT, unit)


@pytest.mark.parametrize(
    ("text", "raw", "unit"),
    [
        ("Includes 100k MAUs.", "100k", "maus"),
        ("Supports up to 50,000 MAUs on the free plan.", "50,000", "maus"),
        ("Deploy 4 VMs in any region.", "4", "vms"),
        ("Get 2 vCPUs and 4 GB of RAM.", "2", "vcpus"),
        ("Run 3 LLMs side by side.", "3", "llms"),
        ("Create 5 VPCs per account.", "5", "vpcs"),
        ("Attach 2 GPUs to each instance.", "2", "gpus"),
        ("Provision 10 IPs for free.", "10", "ips"),
        ("Store 1,000 PDFs in the free tier.", "1,000", "pdfs"),
        ("Allows 20 SKUs per catalogue.", "20", "skus"),
        ("Add 3 SSDs to any node.", "3", "ssds"),
        ("Connect 2 NICs per host.", "2", "nics"),
    ],
)
def test_an_acronyms_plural_after_an_opening_verb_is_counted(
    text: str, raw: str, unit: str
) -> None:
    n = one(text, raw)
    assert (n.kind, n.unit) == (NumberKind.COUNT, unit)


@pytest.mark.parametrize(
    ("text", "raw", "unit", "qualifier"),
    [
        ("The API allows 60 requests per minute and 1,000 per day.", "1,000", "requests", "day"),
        ("Builds: 3 builds/hour, 20/day.", "20/day", "builds", "day"),
        ("Free keys get 15 requests per minute, 1,500 a day.", "1,500", "requests", "day"),
        ("You can send 100 emails per day and 3,000 per month.", "3,000", "emails", "month"),
        ("The free tier allows 10 runs per hour or 50 per day.", "50 per", "runs", "day"),
        ("Each key may make 5 uploads per second and 10k per day.", "10k", "uploads", "day"),
        ("Workers handle 1,000 jobs/min, 50,000/hour at peak.", "50,000", "jobs", "hour"),
        ("Anonymous users get 60 calls per hour, 500 per day.", "500", "calls", "day"),
        ("Students may book 2 sessions per week and 6 per month.", "6 per", "sessions", "month"),
        ("The bot can post 30 messages per minute, and 2,000 per day.", "2,000", "messages", "day"),
        ("Trial accounts send 200 SMS per day and 1,000 per month.", "1,000", "sms", "month"),
        ("You may start 4 deployments per hour and 20 per day.", "20 per", "deployments", "day"),
    ],
)
def test_a_rate_by_another_time_counts_what_the_first_counted(
    text: str, raw: str, unit: str, qualifier: str
) -> None:
    n = one(text, raw)
    assert (n.kind, n.unit, n.qualifier) == (NumberKind.COUNT, unit, f"per {qualifier}")


@pytest.mark.parametrize(
    "text",
    [
        "The plan costs $5 per month and 20 per cent more on demand.",
        "We saw 60 requests per minute and 2024 was busy.",
        "It costs $3 per hour, 5 a piece.",
        "Support is 24/7 for 3/4 teams.",
    ],
)
def test_no_rate_by_another_time_without_a_counted_rate_before(text: str) -> None:
    counts = [n for n in extract_numbers(text, NOW) if n.kind is NumberKind.COUNT]
    assert all(n.unit != "requests" or n.value == 60 for n in counts), counts
    assert not [n for n in counts if n.raw.startswith(("20 ", "2024", "5 a", "3/4"))], counts


@pytest.mark.parametrize(
    ("text", "raw", "unit"),
    [
        ("I've used 3 of my 5 projects on the free tier.", "3", "projects"),
        ("We got 2 out of 3 applications approved.", "2", "applications"),
        ("Only 12 of the 400 proposals were funded.", "12", "proposals"),
        ("So far 4 of 10 seats are taken.", "4", "seats"),
        ("I burned 80 of my 100 free credits in a week.", "80", "credits"),
        ("You have used 45 of 50 build minutes.", "45", "minutes"),
        ("Just 1 of our 6 clusters is on GPUs.", "1", "clusters"),
        ("We placed 3 of 5 submissions in the final.", "3", "submissions"),
        ("Quota used: 7 of 10 deployments.", "7", "deployments"),
        ("2 of the 3 finalists were students.", "2", "finalists"),
        ("One team won 2 of 4 tracks.", "2", "tracks"),
        ("Only 150 out of 2,000 teams reached the final.", "150", "teams"),
    ],
)
def test_so_many_of_a_counted_whole_count_the_same_thing(text: str, raw: str, unit: str) -> None:
    n = next(n for n in extract_numbers(text, NOW) if n.raw == raw)
    assert (n.kind, n.unit) == (NumberKind.COUNT, unit)
    assert n.subject is not None and unit.rstrip("s") in n.subject.lower()


@pytest.mark.parametrize(
    ("text", "raw", "subject"),
    [
        # a clause opened by a connective names its subject after it
        ("So the monthly fee is $20.", "$20", "monthly fee"),
        ("Currently the free quota is 100 GB.", "100 GB", "free quota"),
        ("Thus the overage charge comes to $4.50.", "$4.50", "overage charge"),
        ("Overall, the storage allowance is 50 GB.", "50 GB", "storage allowance"),
        ("Today the prize pool stands at $25,000.", "$25,000", "prize pool"),
        # what a price starts at
        ("Plans start at $5/month.", "$5/month", "Plans"),
        ("GPU instances starting at $0.50/hr.", "$0.50/hr", "GPU instances"),
        ("Serverless endpoints start at $1.20/hour.", "$1.20/hour", "Serverless endpoints"),
        # a bound above which usage is billed
        ("Storage beyond 5 GB is billed at $0.02/GB.", "5 GB", "Storage"),
        ("Storage beyond 5 GB is billed at $0.02/GB.", "$0.02/GB", None),
        ("Egress above 100 GB is charged.", "100 GB", "Egress"),
        ("Bandwidth exceeding 2 TB is throttled.", "2 TB", "Bandwidth"),
        ("Usage above $50 triggers an alert.", "$50", "Usage"),
        # a noun that is a verb elsewhere, inside the phrase
        ("They burned through $5,000 in compute costs.", "$5,000", "compute costs"),
        ("The team racked up $800 in hosting costs.", "$800", "hosting costs"),
        # what a plan that holds the figure is, when nothing closer names it
        ("The free tier includes 400,000 GB-seconds per month.", "400,000", "free tier"),
        ("The starter tier offers 10 GB.", "10 GB", "starter tier"),
        ("The Hobby plan includes 100 GB of bandwidth.", "100 GB", "bandwidth"),
        ("Each team gets USD 20 per participant.", "USD 20", None),
        ("Each year of support includes $40,500 for the fellow’s salary.", "$40,500", None),
        # what money goes toward
        ("Contribute $500 toward the project.", "$500", "project"),
        ("Fellows receive up to $2,000 towards conference travel.", "$2,000", "conference travel"),
        # a price per so many of a thing
        ("Lambda charges $0.20 per million requests.", "$0.20", "requests"),
        ("The API bills $1.50 per thousand searches.", "$1.50", "searches"),
        # a line's label over its list of figures
        ("- GPT-4o: $2.50 per 1M input tokens, $10 per 1M output tokens", "$10", "GPT-4o"),
        ("- Pro: $20/month, $200/year", "$200/year", "Pro"),
        ("- Hosting: 10 GB storage, 100 GB bandwidth", "100 GB", "bandwidth"),
    ],
)
def test_what_a_figure_measures_in_the_clause_around_it(
    text: str, raw: str, subject: str | None
) -> None:
    assert one(text, raw).subject == subject


@pytest.mark.parametrize(
    ("text", "raw", "unit"),
    [
        ("You get 10 x 1 GB volumes.", "10", "volumes"),
        ("The node has 8 x 80GB GPUs.", "8", "gpus"),
        ("Attach 2 x 500 GB disks.", "2", "disks"),
        ("The instance ships with 4x 3.84 TB NVMe drives.", "4", "drives"),
        ("Each worker gets 2 × 16 GB RAM sticks.", "2", "sticks"),
        ("The server has 2x 1.92TB SSDs in RAID 1.", "2", "ssds"),
        ("Order 3 x 10 Gbps ports for the rack.", "3", "ports"),
        ("The plan bundles 5 x 100 GB buckets.", "5", "buckets"),
        ("Each box holds 12 x 4 TB drives.", "12", "drives"),
        ("You can mount 4 x 250 GB block volumes.", "4", "volumes"),
        ("We tested 16 x 32 GB DIMMs.", "16", "dimms"),
        ("The deal includes 6 x 2 TB backups per month.", "6", "backups"),
    ],
)
def test_so_many_things_of_a_size_count_the_things(text: str, raw: str, unit: str) -> None:
    found = extract_numbers(text, NOW)
    n = next(n for n in found if n.raw == raw)
    assert (n.kind, n.unit) == (NumberKind.COUNT, unit)
    assert not [m for m in found if m.unit == "x"]  # no multiple read as well


@pytest.mark.parametrize(
    "text",
    [
        "Resize to 1920x1080 pixels for 2 GB images.",
        "The 4x faster tier has 8 GB of RAM.",
        "It is 3x 2 GB cheaper.",
    ],
)
def test_a_multiple_or_a_resolution_counts_no_sized_things(text: str) -> None:
    assert [n for n in extract_numbers(text, NOW) if n.kind is NumberKind.COUNT] == []


@pytest.mark.parametrize(
    ("line", "value", "unit"),
    [
        ("Seats: 3 included", 3, "seats"),
        ("Awards: 25 per year, renewable.", 25, "awards"),
        ("Slots available: 50", 50, "slots"),
        ("Projects: 10 max", 10, "projects"),
        ("Team members: 5 each", 5, "team members"),
        ("Builds remaining: 12", 12, "builds"),
        ("Fellowships awarded: 40", 40, "fellowships"),
        ("- Collaborators: 3 free", 3, "collaborators"),
        ("Concurrent jobs: 2 total", 2, "concurrent jobs"),
        ("Credits granted: 500", 500, "credits"),
        ("Grants: 15, renewable", 15, "grants"),
        ("Sandboxes: 4 included.", 4, "sandboxes"),
    ],
)
def test_a_labels_count_with_a_word_of_how_it_is_given(line: str, value: int, unit: str) -> None:
    found = extract_numbers(line, NOW)
    assert [(n.kind, n.value, n.unit) for n in found] == [(NumberKind.COUNT, value, unit)]


@pytest.mark.parametrize(
    "line", ["Models: Llama 3 included", "Version: 2 included", "Status: 2 remaining"]
)
def test_a_label_that_counts_nothing_stays_bare_with_such_a_word(line: str) -> None:
    assert [n for n in extract_numbers(line, NOW) if n.kind is NumberKind.COUNT] == []


@pytest.mark.parametrize(
    ("text", "raw", "unit"),
    [
        ("It has 3 NVIDIA A100 80GB GPUs.", "3", "nvidia a100 80gb gpus"),
        ("We rented 8 H100 80GB SXM GPUs for a week.", "8", "h100 80gb sxm gpus"),
        ("You get 2 A100 40GB GPUs per node.", "2", "a100 40gb gpus"),
        ("Each node holds 8 A100 80 GB GPUs.", "8", "a100 80 gb gpus"),
        ("The grant buys 16 L40S 48GB accelerators.", "16", "l40s 48gb accelerators"),
        ("The lab runs 4 MI300X 192GB GPUs.", "4", "mi300x 192gb gpus"),
        ("Each team gets 2 H200 141GB GPUs.", "2", "h200 141gb gpus"),
        ("We bought 6 A6000 48GB cards.", "6", "a6000 48gb cards"),
        ("Quota: 4 V100 32GB GPUs per user.", "4", "v100 32gb gpus"),
        ("There are 12 A10G 24GB GPUs left.", "12", "a10g 24gb gpus"),
        ("We trained on 64 TPU v4 32GB chips.", "64", "tpu v4 32gb chips"),
        ("You can rent 2 A100 80GB GPUs hourly.", "2", "a100 80gb gpus"),
    ],
)
def test_a_count_runs_past_the_memory_size_in_a_models_name(text: str, raw: str, unit: str) -> None:
    n = next(n for n in extract_numbers(text, NOW) if n.raw.split()[0] == raw)
    assert (n.kind, n.unit) == (NumberKind.COUNT, unit)


@pytest.mark.parametrize(
    ("text", "raw", "subject"),
    [
        # a rate by time or size names what it is for after it
        ("It's $10/month for the Pro plan.", "$10/month", "Pro plan"),
        ("You pay $0.09/GB for egress.", "$0.09/GB", "egress"),
        ("Expect $0.02 per GB for cold storage.", "$0.02 per GB", "cold storage"),
        ("Budget $4/hour for your GPU instance.", "$4/hour", "GPU instance"),
        # what is priced, past the verb that prices it
        ("A single H100 rents for $2.49/hr.", "$2.49/hr", "single H100"),
        ("The A100 lists at $1.89/hour.", "$1.89/hour", "A100"),
        ("The starter box sells for $6/month.", "$6/month", "starter box"),
        # what a sum is worth
        ("Each grant is worth up to $50,000.", "$50,000", "grant"),
        ("Credits worth $100,000 are offered.", "$100,000", "Credits"),
        ("The award is worth about $30,000.", "$30,000", "award"),
        # a noun in -ing that opens its line
        ("Funding of $2 million is available for 10 projects.", "$2 million", "Funding"),
        ("Pricing: $0.40 per GB stored.", "$0.40 per GB", "Pricing"),
        ("Hosting: $5/month on the basic tier.", "$5/month", "Hosting"),
    ],
)
def test_what_a_price_or_a_sum_is_for(text: str, raw: str, subject: str) -> None:
    assert one(text, raw).subject == subject


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Section 4.2 lists 5 regions.", 5),
        ("See section 3.1.2 for 2 examples.", 2),
        ("Step 2.1 creates 3 buckets.", 3),
        ("Figure 3 shows 40 teams.", 40),
        ("Appendix 2 lists 12 providers.", 12),
        ("Clause 7.3 covers 5 cases.", 5),
        ("Item 4 allows 3 seats.", 3),
        ("Page 12 lists 30 grants.", 30),
        ("Paragraph 2 names 3 partners.", 3),
        ("Chapter 1.5 covers 4 tiers.", 4),
        ("Part 3 funds 10 teams.", 10),
        ("Article 12 gives 2 options.", 2),
        ("Round 2 funded 15 startups.", 15),
    ],
)
def test_a_sections_number_is_no_count(text: str, count: int) -> None:
    found = extract_numbers(text, NOW)
    assert [(n.kind, n.value) for n in found] == [(NumberKind.COUNT, count)]


@pytest.mark.parametrize(
    ("text", "raw", "subject"),
    [
        ("A 20% discount applies to annual plans.", "20%", "discount"),
        ("The $300 credit expires after 90 days.", "$300", "credit"),
        ("Your 100 GB quota resets every month.", "100 GB", "quota"),
        ("A 10% fee applies on payouts.", "10%", "fee"),
        ("The $5 credit renews monthly.", "$5", "credit"),
        ("A 15% surcharge applies after 1 TB.", "15%", "surcharge"),
        ("The 50 GB allowance lasts a month.", "50 GB", "allowance"),
        ("Each $200 grant lapses if unused.", "$200", "grant"),
        ("The 5% interest accrues daily.", "5%", "interest"),
        ("Unused $50 credits expire at year end.", "$50", "credits"),
        ("The 1 TB egress allowance refreshes monthly.", "1 TB", "egress allowance"),
        ("A 30% markup applies to reserved GPUs.", "30%", "markup"),
    ],
)
def test_a_verb_of_a_credits_life_ends_its_phrase(text: str, raw: str, subject: str) -> None:
    assert one(text, raw).subject == subject


@pytest.mark.parametrize(
    ("row", "raw", "value", "unit", "qualifier"),
    [
        # a multiplier's or a price's cell before the grouped number
        ("Llama 3.1 8B0.5200,000 tokens/day", "200,000", 2e5, "tokens", "per day"),
        ("Mistral Small1.0100,000 tokens/min", "100,000", 1e5, "tokens", "per minute"),
        ("Embeddings0.11,000,000 tokens/min", "1,000,000", 1e6, "tokens", "per minute"),
        ("Starter1.5150,000 requests/month", "150,000", 1.5e5, "requests", "per month"),
        ("Basic0.25500,000 emails/month", "500,000", 5e5, "emails", "per month"),
        ("Pro2.01,000,000 API calls", "1,000,000", 1e6, "api calls", None),
        ("Image model0.55,000 images/day", "5,000", 5000, "images", "per day"),
        ("Standard1.25250,000 queries per day", "250,000", 2.5e5, "queries", "per day"),
        # the included amount's cell before the next
        ("First 100,0001,000,000 Invocations", "1,000,000 Invocations", 1e6, "invocations", None),
        ("Free10,00050,000 executions", "50,000", 5e4, "executions", None),
        ("Hobby1,0005,000 build minutes", "5,000", 5000, "minutes", None),
        ("Included500,0002,000,000 requests", "2,000,000", 2e6, "requests", None),
        ("Team250,0001,000,000 events/month", "1,000,000", 1e6, "events", "per month"),
    ],
)
def test_a_count_run_into_the_number_of_the_cell_before(
    row: str, raw: str, value: float, unit: str, qualifier: str | None
) -> None:
    found = [n for n in extract_numbers(row, NOW) if n.raw.startswith(raw)]
    assert [(n.kind, n.value, n.unit, n.qualifier) for n in found] == [
        (NumberKind.COUNT, value, unit, qualifier)
    ]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Es kamen 1.234,567 Besucher.", None),  # a decimal comma after grouped thousands
        ("We served 1,000,000 users.", 1e6),
        ("The cap is 10,000,000 requests a month.", 1e7),
        ("Version 2.1 added 1,500 regions.", 1500),
        ("Rated 4.5 by 12,000 users.", 12000),
    ],
)
def test_a_number_that_goes_on_is_no_cell_run_into_another(text: str, value: float | None) -> None:
    counts = [n.value for n in extract_numbers(text, NOW) if n.kind is NumberKind.COUNT]
    assert counts == ([value] if value is not None else [])


def _rows(*lines: str) -> list[tuple[NumberKind, float | None, str | None, str | None]]:
    return [
        (n.kind, n.value, n.unit, n.qualifier)
        for n in extract_numbers("\n".join(lines), NOW)
        if n.kind is NumberKind.COUNT
    ]


@pytest.mark.parametrize(
    ("heading", "row", "value", "unit", "qualifier"),
    [
        ("PLAN MAXIMUM BUILDS", "Hobby (no card needed) 100 per month", 100, "builds", "per month"),
        ("Tier Max requests", "Free key 60 per minute", 60, "requests", "per minute"),
        (
            "PROGRAMME NUMBER OF AWARDS",
            "Seed grants (up to $25,000) 12 per year",
            12,
            "awards",
            "per year",
        ),
        ("Level Maximum GPU hours", "Student 500 per month", 500, "gpu hours", "per month"),
        ("Account Maximum monthly deployments", "Personal 30/day", 30, "deployments", "per day"),
        ("Role Included seats", "Owner 5 per quarter", 5, "seats", "per quarter"),
        (
            "SCHOLARSHIP MAXIMUM CREDITS",
            "Full award 12 per semester",
            12,
            "credits",
            "per semester",
        ),
        ("Status Total submissions", "Early career 3 per year", 3, "submissions", "per year"),
        ("Tier # of API calls", "Sandbox 1,000 per day", 1000, "api calls", "per day"),
        ("Plan Max concurrent jobs", "Open source 20/hour", 20, "concurrent jobs", "per hour"),
        ("Track MAXIMUM ENTRIES", "Student track 2 per term", 2, "entries", "per term"),
        ("Region Max instances", "eu-west 10k per month", 1e4, "instances", "per month"),
        ("Grant MAXIMUM TRIPS FUNDED", "Travel grant ($1,500) 0 per year", 0, "trips", "per year"),
    ],
)
def test_a_flattened_tables_bare_rates_count_what_its_header_line_names(
    heading: str, row: str, value: float, unit: str, qualifier: str
) -> None:
    assert _rows(heading, row) == [(NumberKind.COUNT, value, unit, qualifier)]


def test_every_row_under_the_header_line_counts_until_one_holds_no_rate() -> None:
    found = _rows(
        "FELLOWSHIP MAXIMUM CREDITS FOR TUITION",
        "Paid in 1 year ($20,000 in year one) 20 per year (10 per semester)",
        "Paid over 2 yrs ($10,000 a year) 10 per year (5 per semester)",
        "Fellows must apply by 1 March.",
        "Lab fees run 40 per month.",
    )
    assert [(v, u, q) for _, v, u, q in found] == [
        (20, "credits", "per year"),
        (10, "credits", "per semester"),
        (10, "credits", "per year"),
        (5, "credits", "per semester"),
    ]


@pytest.mark.parametrize(
    "lines",
    [
        ("Plan Maximum award amount", "Seed 12 per year"),  # counts nothing
        ("Tier Total costs", "Pro 20 per month"),
        ("The maximum seats are listed below.", "Pro 20 per month"),  # a sentence
        ("Plan Max seats", "Team 3 per project"),  # a rate by no time
        ("Plan Max seats", "Team $5 per month"),  # a price
        ("Plan Max seats", "Team 5 GB per month"),  # a measure
        ("Plan Max seats", "Team 30 per cent off"),
    ],
)
def test_no_count_under_a_line_that_names_none_or_of_a_rate_by_no_time(
    lines: tuple[str, str],
) -> None:
    assert _rows(*lines) == []


@pytest.mark.parametrize(
    ("text", "raw", "value", "unit"),
    [
        ("The free tier allows 1M TPM on the small model.", "1M TPM", 1e6, "TPM"),
        ("Limits are 60 RPM and 100K TPM for this model.", "100K TPM", 1e5, "TPM"),
        ("Tier 3 keys get 2.5M TPM and 5,000 RPM.", "2.5M TPM", 2.5e6, "TPM"),
        ("Enterprise projects can ask for 10k RPS.", "10k RPS", 1e4, "RPS"),
        ("Batch jobs run at 1 million TPD.", "1 million TPD", 1e6, "TPD"),
        ("The index serves 20K QPS in each region.", "20K QPS", 2e4, "QPS"),
        ("Provisioned volumes reach 64K IOPS.", "64K IOPS", 64e3, "IOPS"),
        ("Each seat adds 5K RPD to the pool.", "5K RPD", 5e3, "RPD"),
        ("Scale tier: 30M TPM, 10K RPM, 1B TPD.", "1B TPD", 1e9, "TPD"),
        ("The flash model gets 4 M TPM on tier 2.", "4 M TPM", 4e6, "TPM"),
        ("Free keys are held to 250K TPM.", "250K TPM", 25e4, "TPM"),
        ("The limit rose from 40K TPM to 80K TPM.", "80K TPM", 8e4, "TPM"),
    ],
)
def test_a_rate_limits_acronym_after_a_scaled_number(
    text: str, raw: str, value: float, unit: str
) -> None:
    n = one(text, raw)
    assert (n.kind, n.value, n.unit, n.raw) == (NumberKind.NUMBER, value, unit, raw)


@pytest.mark.parametrize(
    "text",
    [
        "The disk spins at 7200 RPM.",  # no scale: read as before
        "We raised 2M from angels; RPM rose too.",  # a scale before a sentence's words
    ],
)
def test_a_scale_joins_a_rate_acronym_only_right_before_it(text: str) -> None:
    scaled = [n for n in extract_numbers(text, NOW) if n.unit == "RPM" and n.value != 7200]
    assert scaled == []


@pytest.mark.parametrize(
    ("text", "raw", "value", "unit"),
    [
        ("The bucket includes 20,000 GET Requests per month.", "20,000", 20000, "get requests"),
        ("20,000 GET Requests and 2,000 PUT Requests per month.", "20,000", 20000, "get requests"),
        ("Free: 5,000 GET requests a day.", "5,000", 5000, "get requests"),
        ("We have 25 IT staff and 300 US employees.", "300", 300, "us employees"),
        ("The team hired 12 IT administrators last year.", "12", 12, "it administrators"),
        ("Support covers 40 US states and 3 EU countries.", "40", 40, "us states"),
        ("The plan allows 100 GET calls per minute.", "100", 100, "get calls"),
        ("Its cache answers 50 HEAD requests a second.", "50", 50, "head requests"),
        ("Up to 10 IT admins can manage a tenant.", "10", 10, "it admins"),
        ("The grant funded 8 US universities.", "8", 8, "us universities"),
        ("It keeps 3 AS numbers per customer.", "3", 3, "as numbers"),
        ("You may list 1,000 GET URLs in one batch.", "1,000", 1000, "get urls"),
    ],
)
def test_an_acronym_that_spells_a_little_word_may_head_what_is_counted(
    text: str, raw: str, value: float, unit: str
) -> None:
    n = one(text, raw)
    assert (n.kind, n.value, n.unit) == (NumberKind.COUNT, value, unit)


@pytest.mark.parametrize(
    "text",
    [
        "WE GAVE 5 OF THE PRIZES AWAY.",  # a page in capitals: its little words stay words
        "Ask for 3 IT.",  # nothing after it: the word, not an acronym
        "Send 2 TO THE LAB.",
    ],
)
def test_little_words_in_capitals_count_nothing_where_the_text_shouts(text: str) -> None:
    assert [n for n in extract_numbers(text, NOW) if n.kind is NumberKind.COUNT] == []


@pytest.mark.parametrize(
    ("rows", "raw", "unit"),
    [
        (("| Resource | Limit |", "|---|---|", "| vCPU | 4 |"), "4", "vcpu"),
        (("| Resource | Always Free |", "|---|---|", "| GPU | 1 |"), "1", "gpu"),
        (("| Item | Free |", "|---|---|", "| Seat | 3 |"), "3", "seat"),
        (("| Item | Included |", "|---|---|", "| Shared vCPU | 2 |"), "2", "shared vcpu"),
        (("| Spec | Value |", "|---|---|", "| Core | 8 |"), "8", "core"),
        (("| Spec | Value |", "|---|---|", "| Node | 16 |"), "16", "node"),
        (("| Quota | Free |", "|---|---|", "| Instance | 2 |"), "2", "instance"),
        (("| Quota | Pro |", "|---|---|", "| API call | 10,000 |"), "10,000", "api call"),
        (("| Quota | Pro |", "|---|---|", "| User | 25 |"), "25", "user"),
        (("| Spec | Value |", "|---|---|", "| OCPU | 4 |"), "4", "ocpu"),
        (("| Limit | Hobby |", "|---|---|", "| Request | 100 |"), "100", "request"),
        (("| Plan | Token |", "|---|---|", "| Free | 8,192 |"), "8,192", "token"),
    ],
)
def test_a_row_or_column_named_by_a_quota_noun_in_the_singular_counts_it(
    rows: tuple[str, ...], raw: str, unit: str
) -> None:
    found = [n for n in _table(*rows) if n.raw == raw]
    assert [(n.kind, n.unit) for n in found] == [(NumberKind.COUNT, unit)]


@pytest.mark.parametrize(
    "rows",
    [
        ("| Item | Free |", "|---|---|", "| Support | 1 |"),  # not a thing quotas count
        ("| Item | Free |", "|---|---|", "| Region | 3 |"),
        ("| Spec | Value |", "|---|---|", "| Version | 2 |"),
    ],
)
def test_a_singular_label_that_is_no_quota_noun_counts_nothing(rows: tuple[str, ...]) -> None:
    assert [n for n in _table(*rows) if n.kind is NumberKind.COUNT] == []


@pytest.mark.parametrize(
    ("text", "before", "after", "unit"),
    [
        ("Our quota increased from 8 to 32 vCPUs after the request.", 8, 32, "vcpus"),
        ("Seats grew from 5 to 20 seats on the team plan.", 5, 20, "seats"),
        ("The limit was raised from 100 to 500 requests per minute.", 100, 500, "requests"),
        ("The free tier went up from 3 to 10 projects.", 3, 10, "projects"),
        ("The cap was cut from 32 to 8 seats.", 32, 8, "seats"),
        ("Free builds dropped from 300 to 100 builds a month.", 300, 100, "builds"),
        ("The cohort doubled from 20 to 40 startups.", 20, 40, "startups"),
        ("Awards were reduced from 12 to 6 grants this year.", 12, 6, "grants"),
        ("Concurrency rose from 2 to 4 jobs in March.", 2, 4, "jobs"),
        ("The daily allowance fell from 1,500 to 1,000 requests.", 1500, 1000, "requests"),
        ("Invites increased from 3 to 5 collaborators per repo.", 3, 5, "collaborators"),
        ("The program grew from 10 to 25 fellows.", 10, 25, "fellows"),
    ],
)
def test_a_count_changed_from_one_figure_to_another_is_two_counts(
    text: str, before: float, after: float, unit: str
) -> None:
    counts = [n for n in extract_numbers(text, NOW) if n.kind is NumberKind.COUNT]
    assert [(n.value, n.value_end, n.unit) for n in counts] == [
        (before, None, unit),
        (after, None, unit),
    ]


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("Teams range from 2 to 5 people.", 2, 5),
        ("Each batch takes from 10 to 20 startups.", 10, 20),
        ("Workshops host 15 to 30 participants.", 15, 30),
    ],
)
def test_a_range_without_a_change_stays_one_count(text: str, low: float, high: float) -> None:
    counts = [n for n in extract_numbers(text, NOW) if n.kind is NumberKind.COUNT]
    assert [(n.value, n.value_end) for n in counts] == [(low, high)]


@pytest.mark.parametrize(
    ("text", "raw", "value", "unit"),
    [
        ("You get 100 vCPU-hours per month on the free plan.", "100 vCPU-hours", 100, "vCPU-hours"),
        ("Allocations of 50,000 core-hours are typical.", "50,000 core-hours", 5e4, "core-hours"),
        ("The award is 5,000 GPU-hours on the cluster.", "5,000 GPU-hours", 5e3, "GPU-hours"),
        ("Use 20,000 node-hours this year.", "20,000 node-hours", 2e4, "node-hours"),
        ("Each tenancy gets 3K OCPU-hrs a month.", "3K OCPU-hrs", 3e3, "OCPU-hrs"),
        ("Startups may ask for 1,000 TPU-hours.", "1,000 TPU-hours", 1e3, "TPU-hours"),
        ("The grant adds 250 instance-hours.", "250 instance-hours", 250, "instance-hours"),
        ("Jobs used 12.5 CPU-hrs in total.", "12.5 CPU-hrs", 12.5, "CPU-hrs"),
        ("The tier includes 18K GB-hrs per month.", "18K GB-hrs", 1.8e4, "GB-hrs"),
        ("Lambda gives 400,000 GB-s of compute a month.", "400,000 GB-s", 4e5, "GB-s"),
        ("Memory is billed per 1 GB-h after the first 50 GB-h.", "50 GB-h", 50, "GB-h"),
        ("Block storage: 10 GB-mo free.", "10 GB-mo", 10, "GB-mo"),
        ("Each lab receives 2,000 node-hrs a quarter.", "2,000 node-hrs", 2e3, "node-hrs"),
    ],
)
def test_a_resource_used_for_a_time_is_a_measure_with_its_compound_unit(
    text: str, raw: str, value: float, unit: str
) -> None:
    n = one(text, raw)
    assert (n.kind, n.value, n.unit) == (NumberKind.NUMBER, value, unit)


@pytest.mark.parametrize(
    ("text", "raw", "unit"),
    [
        ("Teams get 500 GPU hours per month.", "500 GPU hours", "hour"),  # hours of a GPU
        ("It includes 750 instance hours.", "750 instance hours", "hour"),
        ("Support answers within 5 business days.", "5 business days", "day"),
    ],
)
def test_hours_of_a_resource_written_apart_stay_a_duration(text: str, raw: str, unit: str) -> None:
    n = one(text, raw)
    assert (n.kind, n.unit) == (NumberKind.DURATION, unit)


def test_a_size_joined_to_another_word_keeps_its_own_unit() -> None:
    n = one("Use 10 GB-sized volumes.", "10 GB")
    assert (n.kind, n.unit) == (NumberKind.NUMBER, "GB")
    assert [m.raw for m in extract_numbers("We have 5 core-team members.", NOW)] == [
        "5 core-team members"
    ]


@pytest.mark.parametrize(
    ("text", "raw", "value", "unit", "qualifier"),
    [
        ("The Basic tier allows 5,000 SUs; the Small tier, 100,000.", "100,000", 1e5, "sus", None),
        ("Free accounts get 3 projects, Pro accounts 20.", "20", 20, "projects", None),
        ("We accepted 20 startups out of 400.", "400", 400, "startups", None),
        (
            "The free plan has 1,000 requests per day, the paid plan 100,000.",
            "100,000",
            1e5,
            "requests",
            "per day",
        ),
        ("Up to 5 users on Free and 50 on Team.", "50", 50, "users", None),
        ("Hobby includes 100 builds a month; Pro includes 400.", "400", 400, "builds", "per month"),
        ("We got 1,234 entries this year, up from 900 last year.", "900", 900, "entries", None),
        ("Students get 2 GPUs, faculty get 4.", "4", 4, "gpus", None),
        ("Published 3 papers in 2024 and 5 in 2025.", "5", 5, "papers", None),
        ("The lab was granted 40,000 SUs and then a second round of 60,000.", "60,000", 6e4, "sus",
         None),
        ("Seed teams get 10 seats, growth teams 50+.", "50+", 50, "seats", "at least"),
        ("Members can invite 3 guests each month, admins 10.", "10", 10, "guests", None),
    ],
)  # fmt: skip
def test_a_number_after_a_count_that_leaves_its_noun_out_counts_the_same(
    text: str, raw: str, value: float, unit: str, qualifier: str | None
) -> None:
    n = one(text, raw)
    assert (n.kind, n.value, n.unit, n.qualifier) == (NumberKind.COUNT, value, unit, qualifier)


@pytest.mark.parametrize(
    ("text", "bare"),
    [
        ("3 teams qualified for round 2.", "2"),  # a place in an order
        ("We have 20 seats (see note 3).", "3"),
        ("Over 50 projects got funding in Plan 3.", "3"),  # a name
        ("2,000 users rate it 4.8.", "4.8"),  # no whole number
        ("The team has 6 engineers; it was founded in 2019.", "2019"),  # a year
        ("It has 12 modules and costs $30, 40 with the labs.", "40"),  # after a price
        ("Up to 10 users for $5 each, 20 for $8.", "20"),  # after a price
        ("Two services launched, with more than 60 at the end.", "60"),  # a count in words
        ("We run 4 clusters across the region's data centres and, at peak, 900.", "900"),  # far
        ("We used 3 GPUs and 2 CPUs, 5 in all.", "5"),  # two things counted before it
        ("Join 2,000 developers at 14:00 on 5 March.", "14"),  # a time of day
        ("Rated by 500 users [12].", "12"),  # a citation
    ],
)
def test_a_bare_number_that_may_count_something_else_stays_bare(text: str, bare: str) -> None:
    assert [n for n in extract_numbers(text, NOW) if n.raw == bare] == []


@pytest.mark.parametrize(
    "text",
    [
        "Teams of up to 4 may compete.",
        "Up to 2 may be awarded each year.",
        "Applicants aged 18 may apply.",
        "Of the finalists, 3 may present on stage.",
        "At most 5 may be in the room.",
        "Only 10 may join the beta.",
    ],
)
def test_may_in_lower_case_after_a_number_is_the_verb(text: str) -> None:
    assert [n for n in extract_numbers(text, NOW) if n.kind is NumberKind.DATE] == []


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Applications close on 4 May.", date(2026, 5, 4)),
        ("The deadline was 4 may 2025.", date(2025, 5, 4)),
        ("Results on 12 May, awards after.", date(2026, 5, 12)),
    ],
)
def test_the_month_of_may_is_still_read(text: str, day: date) -> None:
    dates = [n.date_from for n in extract_numbers(text, NOW) if n.kind is NumberKind.DATE]
    assert [(d.month, d.day) for d in dates if d] == [(day.month, day.day)]
    assert "2025" not in text or dates == [day]


@pytest.mark.parametrize(
    ("text", "raw", "value", "unit"),
    [
        ("A 1M-token context window is available on request.", "1M-token", 1e6, "token"),
        ("It comes as a 2-core CPU with 4 GB.", "2-core", 2, "core"),
        ("We rent two 8-GPU nodes for the course.", "8-GPU", 8, "gpu"),
        ("A 10-person team won the track.", "10-person", 10, "person"),
        ("The 3-node cluster is free for a year.", "3-node", 3, "node"),
        ("It costs $5 for a 1-seat license.", "1-seat", 1, "seat"),
        ("Each 4-vCPU VM has 16 GB of memory.", "4-vCPU", 4, "vcpu"),
        ("The 100K-token limit applies to free keys.", "100K-token", 1e5, "token"),
        ("Startups get a 5-user workspace.", "5-user", 5, "user"),
        ("Try the 2-instance setup first.", "2-instance", 2, "instance"),
        ("A 128K-token window costs more.", "128K-token", 128e3, "token"),
        ("The 8-TPU pod slice is the smallest.", "8-TPU", 8, "tpu"),
    ],
)
def test_a_number_joined_to_what_it_counts(text: str, raw: str, value: float, unit: str) -> None:
    n = one(text, raw)
    assert (n.kind, n.value, n.unit, n.raw) == (NumberKind.COUNT, value, unit, raw)


@pytest.mark.parametrize(
    ("text", "raw", "kind"),
    [
        ("A 12-month plan is cheaper.", "12-month", NumberKind.DURATION),
        ("Teams of 2-4 users may apply.", "2-4 users", NumberKind.COUNT),
        ("Use 2-factor authentication.", None, None),  # not a thing quotas count
    ],
)
def test_other_joined_words_keep_their_reading(
    text: str, raw: str | None, kind: NumberKind | None
) -> None:
    found = [(n.raw, n.kind) for n in extract_numbers(text, NOW)]
    assert found == ([(raw, kind)] if raw else [])


@pytest.mark.parametrize(
    ("line", "raw", "value", "unit", "qualifier"),
    [
        ("Max requests per minute (RPM) – 500", "500", 500, "requests", "per minute"),
        ("Team members — up to 5", "5", 5, "team members", "up to"),
        ("- Seats - 3", "3", 3, "seats", None),
        ("• Concurrent builds — 2", "2", 2, "concurrent builds", None),
        ("API keys – 10 per project", "10", 10, "api keys", "per project"),
        ("Monthly credits: 500 (resets monthly)", "500", 500, "credits", None),
        ("- API keys: 10 (max)", "10", 10, "api keys", None),
        ("Seats: 3 (5 on Pro)", "3", 3, "seats", None),
        ("Webhooks per repository — 20", "20", 20, "webhooks", "per repository"),
        ("Invites — 5 a week", "5", 5, "invites", "per week"),
        ("Daily uploads — 50 (resets at midnight UTC)", "50", 50, "uploads", None),
        ("Build minutes - 6,000 a month", "6,000", 6000, "build minutes", "per month"),
    ],
)
def test_a_label_before_a_dash_or_values_with_a_note_after(
    line: str, raw: str, value: float, unit: str, qualifier: str | None
) -> None:
    n = one(line, raw)
    assert (n.kind, n.value, n.unit, n.qualifier) == (NumberKind.COUNT, value, unit, qualifier)


@pytest.mark.parametrize(
    ("line", "units"),
    [
        ("Winners - 3 announced next week", []),  # words after the value: a sentence
        ("Sign up now - 30 percent off", []),
        ("Python 3.11 - 2 versions back", ["versions"]),  # its own noun, not the label's
    ],
)
def test_a_dash_before_a_sentence_is_no_label(line: str, units: list[str]) -> None:
    counts = [n for n in extract_numbers(line, NOW) if n.kind is NumberKind.COUNT]
    assert [n.unit for n in counts] == units


@pytest.mark.parametrize(
    ("line", "raw", "unit"),
    [
        ("- # of seats: 5", "5", "seats"),
        ("# of API keys: 10", "10", "api keys"),
        ("• # of projects: 3", "3", "projects"),
    ],
)
def test_a_hash_of_a_thing_names_what_is_counted(line: str, raw: str, unit: str) -> None:
    n = one(line, raw)
    assert (n.kind, n.unit) == (NumberKind.COUNT, unit)


@pytest.mark.parametrize(
    ("text", "raw", "value", "unit"),
    [
        ("You have 14 days to cancel, or 30 for annual plans.", "30", 30, "day"),
        ("Trials last 30 days on Free, 60 on Pro.", "60", 60, "day"),
        ("Logs are kept 7 days; audit logs 90.", "90", 90, "day"),
        ("Jobs may run 6 hours, or 24 with a paid plan.", "24", 24, "hour"),
        ("Credits expire after 12 months, up from 6 last year.", "6", 6, "month"),
        ("Sessions time out after 15 minutes, admins after 60.", "60", 60, "minute"),
        ("It has 12 modules and takes 3 hours, 4 with the labs.", "4", 4, "hour"),
    ],
)
def test_a_number_after_a_duration_that_leaves_its_unit_out_lasts_as_long(
    text: str, raw: str, value: float, unit: str
) -> None:
    n = one(text, raw)
    assert (n.kind, n.value, n.unit) == (NumberKind.DURATION, value, unit)


def test_a_lists_next_number_after_a_figure_is_no_figure() -> None:
    found = extract_numbers("- **7-30 days** 1. Depending on the company", NOW)
    assert [n.raw for n in found] == ["7-30 days"]


@pytest.mark.parametrize(
    ("text", "bare"),
    [
        ("You get 500 build minutes; the Pro plan starts at 20.", "20"),  # a price
        ("Our team of 12 engineers shipped release 4.", "4"),
        ("Each user gets 5 seats, and the plan costs 10.", "10"),
        ("We support 100 languages, rated 4.", "4"),  # a score
        ("Up to 3 reviewers score each proposal from 1 to 10.", "10"),
        ("Join 5,000 members on our forum, now in its 3.", "3"),
        ("Over 200 startups have applied; acceptance is around 5.", "5"),
        ("The model has 7 billion parameters, ranking 3.", "3"),
        ("Each account has 3 API keys; keys rotate every 90.", "90"),
        ("The lab hosts 40 students per term and charges 15.", "15"),
    ],
)
def test_a_bare_number_after_a_price_score_or_place_word_is_not_more_of_the_same(
    text: str, bare: str
) -> None:
    assert [n for n in extract_numbers(text, NOW) if n.raw == bare] == []


# What a review of these rules found, each kept as it should read.
def _read(text: str) -> list[tuple[str, str, float | None, str | None, str | None]]:
    return [(n.kind.value, n.raw, n.value, n.unit, n.qualifier) for n in extract_numbers(text, NOW)]


@pytest.mark.parametrize(
    ("text", "kind", "raw"),
    [
        ("Submit the task 5 days before the deadline.", "duration", "5 days"),
        ("We solve the problem 10x faster.", "number", "10x"),
        ("Wait in line 20 minutes.", "duration", "20 minutes"),
    ],
)
def test_a_figure_after_a_word_of_reference_is_still_read(text: str, kind: str, raw: str) -> None:
    assert [(k, r) for k, r, *_ in _read(text)] == [(kind, raw)]


def test_a_resource_time_with_a_bound_and_a_rate_is_a_measure() -> None:
    assert _read("Projects receive up to 10,000 GPU-hours per month.") == [
        ("number", "up to 10,000 GPU-hours per month", 1e4, "GPU-hours", "up to")
    ]
    assert [(k, u) for k, _, _, u, _ in _read("Each lab gets 200 GPU-days.")] == [
        ("number", "GPU-days")
    ]


@pytest.mark.parametrize(
    ("line", "bare"),
    [
        ("Monthly credits: 500 (resets every 30 days)", "30"),
        ("API requests: 1,000 (see note 3)", "3"),
    ],
)
def test_a_labels_note_keeps_its_own_numbers(line: str, bare: str) -> None:
    assert [r for k, r, *_ in _read(line) if k == "count" and r == bare] == []


@pytest.mark.parametrize(
    ("text", "bare"),
    [
        ("The top 3 teams win 5,000 each.", "5,000"),
        ("We award 10 grants, totalling 50,000.", "50,000"),
        ("Clients over 60 requests per minute get error 429.", "429"),
        ("He retired nearly 10 years ago at age 51.", "51"),
        ("19 Paul Menard 777 0 0 0 4", "4"),
    ],
)
def test_no_count_left_out_after_a_prize_total_code_age_or_a_row_of_numbers(
    text: str, bare: str
) -> None:
    assert [r for _, r, *_ in _read(text) if r == bare] == []


def test_the_two_figures_of_a_change_keep_their_own_bound_and_scale() -> None:
    assert _read("Headcount rose from about 8 to 32 people.") == [
        ("count", "about 8", 8, "people", "about"),
        ("count", "32 people", 32, "people", None),
    ]
    assert [v for _, _, v, _, _ in _read("Users grew from 500 to 5 million users.")] == [500, 5e6]
    first, _ = _read("The cap was raised from up to 8 to 32 vCPUs.")
    assert first[1] == "up to 8"


def test_a_price_range_after_a_word_that_is_no_change_stays_one_range() -> None:
    found = _read("We expanded our lineup with plans priced from $10 to $50 per month.")
    assert [(k, v) for k, _, v, _, _ in found] == [("money", 10)]


def test_may_in_lower_case_after_a_range_is_the_verb() -> None:
    assert [k for k, *_ in _read("Teams of 2-4 may apply.") if k.startswith("date")] == []


@pytest.mark.parametrize("line", ["Message: 404", "Default node: 18", "Token: 12345"])
def test_a_lines_label_in_the_singular_counts_nothing(line: str) -> None:
    assert [k for k, *_ in _read(line) if k == "count"] == []
