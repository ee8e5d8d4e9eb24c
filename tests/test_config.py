"""Every config mistake of docs/configuration.md: one line naming file, line and fix;
nothing written."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from evidence_base.errors import ConfigError
from flows.catalog import load_catalog, parse_duration

GOOD = """\
id: icml-2026-repro-credits
title: ICML 2026 reproduction challenge GPU credits
freshness_window: 15d
fields:
  verdict: trial
sources:
  - id: hf-blog
    url: https://huggingface.co/blog/icml-2026-reproductions
    role: primary
  - id: howaiworks
    url: https://howaiworks.ai/blog/icml-2026-agent-reproduction-challenge
    role: third-party
claims:
  - id: prize-pool
    quote: "$4,000 in GPU credits for the best runs"
  - id: first-place
    quote: "First place: $2,000"
    sources: [howaiworks]
"""


def write(tmp_path: Path, records: dict[str, str], settings: str | None = None) -> Path:
    (tmp_path / "records").mkdir(parents=True, exist_ok=True)
    for name, text in records.items():
        (tmp_path / "records" / name).write_text(textwrap.dedent(text))
    if settings is not None:
        (tmp_path / "settings.yaml").write_text(textwrap.dedent(settings))
    return tmp_path


def test_the_documented_example_loads(tmp_path: Path) -> None:
    catalog = load_catalog(write(tmp_path, {"a.yaml": GOOD}))
    (record,) = catalog.records
    assert record.id == "icml-2026-repro-credits"
    assert [s.source_id for s in record.config.sources] == ["hf-blog", "howaiworks"]
    assert record.window.days == 15
    assert catalog.settings.fetch.per_host == 2  # defaults


def test_a_file_may_hold_a_list_and_source_ids_default_to_a_slug(tmp_path: Path) -> None:
    text = """\
    - id: a
      title: A
      sources: [{url: "https://www.Example.org/Free-GPU/", role: primary}]
    - id: b
      title: B
      sources: [{url: "https://example.org/x", role: third-party}]
    """
    catalog = load_catalog(write(tmp_path, {"many.yaml": text}))
    assert [r.id for r in catalog.records] == ["a", "b"]
    assert catalog.records[0].config.sources[0].source_id == "example-org-free-gpu"


@pytest.mark.parametrize(
    ("edit", "line", "words"),
    [
        (
            ("role: third-party", "role: thirdparty"),
            12,
            ["bad role 'thirdparty'", "primary or third-party"],
        ),
        (
            ("freshness_window: 15d", "freshness_window: 15 days"),
            3,
            ["bad duration", "s, m, h, d or w"],
        ),
        (("fields:", "feilds:"), 4, ["unknown key 'feilds'", "did you mean 'fields'"]),
        (
            ("sources: [howaiworks]", "sources: [howaiwork]"),
            18,
            ["unknown source 'howaiwork'", "did you mean 'howaiworks'"],
        ),
        (("id: first-place", "id: prize-pool"), 16, ["duplicate claim id 'prize-pool'"]),
        (("id: howaiworks", "id: hf-blog"), 10, ["duplicate source id 'hf-blog'"]),
        (
            ("id: icml-2026-repro-credits", "id: ICML 2026"),
            1,
            ["bad id 'ICML 2026'", "'icml-2026'"],
        ),
        (("    role: primary", "    role: primary\n  bad: [unclosed"), 10, ["unparseable YAML"]),
        (("https://howaiworks.ai", "ftp://howaiworks.ai"), 11, ["only http:// and https://"]),
        (
            ("title: ICML 2026 reproduction challenge GPU credits\n", ""),
            1,
            ["missing required key 'title'"],
        ),
        (
            ("    role: primary", "    role: primary\n    render: chrome"),
            10,
            ["bad render 'chrome'", "use http or browser"],
        ),
        (
            ("    role: primary", "    role: primary\n    wait_for: '#prices'"),
            10,
            ["wait_for at sources[0]", "add `render: browser`"],
        ),
        (  # a required key misspelled is the unknown key it is, not a missing one
            ('    quote: "$4,000', '    qoute: "$4,000'),
            15,
            ["unknown key 'claims[0].qoute' (did you mean 'quote'?)"],
        ),
    ],
)
def test_record_mistakes_name_file_line_and_fix(
    tmp_path: Path, edit: tuple[str, str], line: int, words: list[str]
) -> None:
    assert edit[0] in GOOD
    write(tmp_path, {"bad.yaml": GOOD.replace(edit[0], edit[1], 1)})
    with pytest.raises(ConfigError) as info:
        load_catalog(tmp_path)
    message = str(info.value)
    assert "\n" not in message
    assert f"bad.yaml:{line}:" in message, message
    for word in words:
        assert word in message, message


def test_render_and_wait_for(tmp_path: Path) -> None:
    browser = GOOD.replace("    role: primary", "    role: primary\n    wait_for: '#prices'", 1)
    settings = "fetch: {render: browser, browser_concurrency: 3}\n"
    catalog = load_catalog(write(tmp_path, {"a.yaml": browser}, settings))
    fetch = catalog.settings.fetch
    assert (fetch.render, fetch.browser_concurrency, fetch.browser_path) == ("browser", 3, None)
    source = catalog.records[0].config.sources[0]
    assert source.render is None and source.wait_for == "#prices"  # browser by default


def test_duplicate_record_ids_across_files(tmp_path: Path) -> None:
    write(tmp_path, {"a.yaml": GOOD, "b.yaml": GOOD})
    with pytest.raises(
        ConfigError, match=r"b\.yaml:1: duplicate record id .* \(also in .*a\.yaml\)"
    ):
        load_catalog(tmp_path)


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        (
            "fetch:\n  concurency: 3\n",
            ["settings.yaml:2:", "unknown key 'fetch.concurency'", "concurrency"],
        ),
        ("alerts:\n  resend_after: soon\n", ["settings.yaml:2:", "bad duration 'soon'"]),
        ("schedule:\n  cron: every day\n", ["settings.yaml:2:", "bad cron"]),
        ("task_runner: spark\n", ["settings.yaml:1:", "task_runner"]),
        ("fetch: [1, 2\n", ["settings.yaml:", "unparseable YAML"]),
    ],
)
def test_settings_mistakes(tmp_path: Path, settings: str, words: list[str]) -> None:
    write(tmp_path, {"a.yaml": GOOD}, settings)
    with pytest.raises(ConfigError) as info:
        load_catalog(tmp_path)
    for word in words:
        assert word in str(info.value), str(info.value)


def test_anchors_cannot_expand_without_bound(tmp_path: Path) -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    for i in range(1, 8):
        prev = chr(ord("a") + i - 1)
        cur = chr(ord("a") + i)
        refs = ", ".join([f"*{prev}"] * 10)
        bomb += f"{cur}: &{cur} [{refs}]\n"
    write(tmp_path, {"bomb.yaml": bomb})
    with pytest.raises(ConfigError, match="YAML nodes"):
        load_catalog(tmp_path)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("15d", 15 * 86400), ("24h", 86400), ("90s", 90), ("2w", 1209600), ("1.5h", 5400)],
)
def test_durations(text: str, seconds: int) -> None:
    assert parse_duration(text).total_seconds() == seconds


@pytest.mark.slow
def test_cli_config_error_is_one_line_exit_2_and_writes_nothing(tmp_path: Path) -> None:
    config = write(tmp_path / "config", {"bad.yaml": GOOD.replace("role: primary", "role: owner")})
    db = tmp_path / "data" / "evidence.duckdb"
    result = subprocess.run(
        [sys.executable, "-m", "evidence_cli", "refresh", "--config", str(config), "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert "bad.yaml:9:" in lines[0] and "bad role 'owner'" in lines[0]
    assert not db.exists() and not db.parent.exists()


def test_catalog_is_read_again_after_an_edit_of_the_same_size(tmp_path: Path) -> None:
    config = write(tmp_path, {"r.yaml": GOOD})
    first = load_catalog(config)
    assert load_catalog(config) is first  # unchanged files: read once per process
    path = config / "records" / "r.yaml"
    path.write_text(path.read_text().replace("verdict: trial", "verdict: final"))
    edited = load_catalog(config)
    assert edited.records[0].config.fields["verdict"] == "final"


def test_schedule_settings_for_what_is_due(tmp_path: Path) -> None:
    from datetime import UTC, datetime, timedelta

    from flows.catalog import load_settings

    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.yaml").write_text(
        "schedule: {cron: '0 */6 * * *', mode: all, margin: 2d, change_threshold: 0.1}\n"
    )
    schedule = load_settings(config).schedule
    now = datetime(2026, 12, 1, 7, 30, tzinfo=UTC)
    assert schedule.mode == "all" and schedule.change_threshold == 0.1
    assert schedule.interval(now) == timedelta(hours=6)
    assert schedule.kept_margin(now) == timedelta(days=2)
    (config / "settings.yaml").write_text("schedule: {cron: '0 6 * * *'}\n")
    daily = load_settings(config).schedule
    assert (daily.mode, daily.kept_margin(now)) == ("due", timedelta(days=1))
    for bad in ("mode: sometimes", "change_threshold: 0", "change_threshold: 1.5", "margin: soon"):
        (config / "settings.yaml").write_text(f"schedule: {{{bad}}}\n")
        with pytest.raises(ConfigError):
            load_settings(config)


FIVE_MISTAKES = """\
id: icml-2026-repro-credits
title: ICML 2026 reproduction challenge GPU credits
freshness_window: 15 days
fields:
  verdict: trial
sources:
  - id: hf-blog
    url: https://huggingface.co/blog/icml-2026-reproductions
    role: owner
  - id: howaiworks
    url: https://howaiworks.ai/blog/icml-2026-agent-reproduction-challenge
    role: third-party
claims:
  - id: prize-pool
    qoute: "$4,000 in GPU credits for the best runs"
  - id: prize-pool
    quote: "First place: $2,000"
    sources: [howaiwork]
"""


def test_every_mistake_of_every_file_in_one_pass(tmp_path: Path) -> None:
    from flows.catalog import check_catalog

    config = write(
        tmp_path,
        {
            "bad.yaml": FIVE_MISTAKES,
            "broken.yaml": "id: x\ntitle: [\n",
            "good.yaml": GOOD.replace("id: icml-2026-repro-credits", "id: good"),
        },
        "fetch:\n  concurency: 3\nalerts:\n  resend_after: soon\n",
    )
    checked = check_catalog(config)
    found = [(Path(e.file).name, e.line, e.reason) for e in checked.errors]
    assert [(f, line) for f, line, _ in found] == [
        ("settings.yaml", 2),
        ("settings.yaml", 4),
        ("bad.yaml", 15),
        ("bad.yaml", 3),
        ("bad.yaml", 9),
        ("bad.yaml", 16),
        ("bad.yaml", 18),
        ("broken.yaml", 3),
    ], found
    reasons = " | ".join(r for _, _, r in found)
    for words in [
        "unknown key 'fetch.concurency'",
        "bad duration 'soon'",
        "unknown key 'claims[0].qoute' (did you mean 'quote'?)",
        "bad duration '15 days'",
        "bad role 'owner'",
        "duplicate claim id 'prize-pool'",
        "names unknown source 'howaiwork' (did you mean 'howaiworks'?)",
        "unparseable YAML",
    ]:
        assert words in reasons, reasons
    assert "missing required key" not in reasons  # the misspelled key is said once
    assert [r.id for r in checked.catalog.records] == ["good"]
    with pytest.raises(ConfigError) as info:  # a refresh still stops at the first, as before
        load_catalog(config)
    assert str(info.value) == str(checked.errors[0])


def test_a_key_given_twice_is_found_beside_other_mistakes(tmp_path: Path) -> None:
    from flows.catalog import check_catalog

    text = GOOD.replace("title: ICML", "title: A\ntitle: ICML").replace("role: primary", "role: x")
    checked = check_catalog(write(tmp_path, {"a.yaml": text}))
    assert [(e.line, e.reason.split(":")[0]) for e in checked.errors] == [
        (3, "duplicate key 'title'"),
        (10, "bad role 'x' at sources[0].role"),
    ]


EXPECTS = """\
id: r
title: R
sources:
  - {id: p, url: "https://example.org/p", role: primary}
claims:
  - id: gpu-hours
    quote: "500 GPU hours per month on A100 nodes"
    expect: {at_least: 300, severity: error}
  - id: prize-pool
    quote: "$4,000 in GPU credits for the best runs"
    expect: {change: {down_by_more_than: "10%"}}
  - id: applications
    quote: "Applications are open"
    status: open
    expect: {status_in: [open, waitlist]}
  - id: second
    quote: "$5 a month, $50 a year"
    figure: 2
    expect: {between: [40, 60], at_most: 60}
"""


def test_expect_loads_in_the_documented_vocabulary(tmp_path: Path) -> None:
    (record,) = load_catalog(write(tmp_path, {"r.yaml": EXPECTS})).records
    hours, pool, applications, second = record.config.claims
    assert hours.expect is not None and hours.expect.to_expect().at_least == 300
    assert hours.expect.to_expect().severity == "fail"
    down = pool.expect.to_expect().down_by_more_than if pool.expect else None
    assert down is not None and down.percent and down.size == 10
    assert applications.expect and applications.expect.to_expect().status_in == ("open", "waitlist")
    assert second.figure == 2 and second.expect and second.expect.to_expect().between == (40, 60)


@pytest.mark.parametrize(
    ("edit", "line", "words"),
    [
        ("{at_least: 300, severity: error}", 8, ["severity", "warn", "error"]),
        ("{at_least: 300, severity: critical}", 8, ["severity"]),
        ("{at_leest: 300}", 8, ["unknown key", "did you mean 'at_least'"]),
        ("{}", 8, ["give at least one of at_least"]),
        ("{between: [60, 40]}", 8, ["between [60.0, 40.0] is empty"]),
        ("{at_least: 5, at_most: 1}", 8, ["at_least is above at_most"]),
        ("{change: {down_by_more_than: 'ten'}}", 8, ["bad change 'ten'"]),
        ("{change: {}}", 8, ["up_by_more_than or down_by_more_than"]),
        ("{status_in: [open]}", 6, ["status_in reads a status", "add `status:`"]),
        ("{status_in: [opened]}", 8, ["status_in[0]", "'waitlist'"]),
    ],
)
def test_a_bad_expect_is_a_config_error(
    tmp_path: Path, edit: str, line: int, words: list[str]
) -> None:
    text = EXPECTS.replace("{at_least: 300, severity: error}", edit, 1)
    if edit.endswith("severity: error}"):
        text = text.replace(
            '    quote: "500 GPU hours', '    status: open\n    quote: "500 GPU hours'
        )
        words = ["read a figure", "is a status claim"]
        line = 6
    write(tmp_path, {"bad.yaml": text})
    with pytest.raises(ConfigError) as info:
        load_catalog(tmp_path)
    message = str(info.value)
    assert "\n" not in message
    assert f"bad.yaml:{line}" in message, message
    for word in words:
        assert word in message, message


def test_figure_must_name_a_figure_of_the_quote(tmp_path: Path) -> None:
    write(tmp_path, {"bad.yaml": EXPECTS.replace("figure: 2", "figure: 3")})
    with pytest.raises(ConfigError, match="the quote has 2 figure"):
        load_catalog(tmp_path)
