"""Hostile config: every value that once crashed, hung or ate memory is one line naming
the file and the fix, exit 2, and nothing is written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from evidence_base.errors import ConfigError
from evidence_cli.main import main
from flows.catalog import load_catalog
from flows.catalog.yaml_lines import MAX_YAML_BYTES, MAX_YAML_NODES

RECORD = (
    "id: {id}\ntitle: T\n"
    "sources: [{{id: p, url: {url}, role: primary}}]\n"
    "claims: [{{id: c, quote: {quote}}}]\n"
)


def catalog(
    root: Path,
    *,
    id: str = "r",
    url: str = '"https://example.org/a"',
    quote: str = '"some words"',
    settings: str = "",
    record: str | None = None,
) -> Path:
    config = root / "config"
    (config / "records").mkdir(parents=True, exist_ok=True)
    (config / "settings.yaml").write_text(f"database: {root / 'w.duckdb'}\n{settings}")
    text = record if record is not None else RECORD.format(id=id, url=url, quote=quote)
    (config / "records" / "r.yaml").write_text(text)
    return config


def refused(config: Path, capsys: pytest.CaptureFixture[str], *words: str) -> str:
    """`evidence refresh` on config: exit 2, one line on stderr holding `words`, no db."""
    code = main(["refresh", "--config", str(config)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("evidence: config error: "), err
    for word in words:
        assert word in err, err
    assert not (config.parent / "w.duckdb").exists()
    return err


@pytest.mark.parametrize("char", ["\r\n", "\n", "\t", "\x1b", "\x00", "\x7f"])
def test_a_url_holding_a_control_character_is_a_config_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], char: str
) -> None:
    url = json.dumps(f"https://example.org/a{char}Host: evil")
    refused(catalog(tmp_path, url=url), capsys, "r.yaml:3", "control character")


def test_an_id_ending_in_a_newline_is_not_a_slug(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refused(catalog(tmp_path, id='"r\\n"'), capsys, "bad id", "r.yaml:1")


def test_a_quote_over_a_thousand_characters_is_a_config_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refused(catalog(tmp_path, quote="word " * 300), capsys, "quote of 1,499", "1,000")


def test_a_quote_of_a_thousand_characters_is_kept(tmp_path: Path) -> None:
    (record,) = load_catalog(catalog(tmp_path, quote="a" * 1000)).records
    assert len(record.config.claims[0].quote) == 1000


@pytest.mark.parametrize("cron", ["* * * * * *", "0 6 * *", "@hourly"])
def test_a_cron_of_other_than_five_fields_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cron: str
) -> None:
    config = catalog(tmp_path, settings=f'schedule: {{cron: "{cron}"}}\n')
    refused(config, capsys, "settings.yaml", "five fields")


@pytest.mark.parametrize(
    "tag",
    [
        "!!python/name:os.system",
        "!!python/object/apply:os.system",
        "!!python/tuple",
        "!custom",
        "!!binary",
    ],
)
def test_an_application_yaml_tag_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], tag: str
) -> None:
    refused(catalog(tmp_path, quote=f'{tag} "x"'), capsys, "r.yaml:4", "tag")


def test_an_overflowing_freshness_window_is_a_config_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = catalog(tmp_path, settings="freshness_window: 99999999999w\n")
    refused(config, capsys, "settings.yaml", "longer than a century")


@pytest.mark.parametrize("database", ["/proc/self/mem", "/dev/zero", "DIR"])
def test_a_database_that_is_not_a_regular_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], database: str
) -> None:
    database = str(tmp_path) if database == "DIR" else database
    config = catalog(tmp_path)
    (config / "settings.yaml").write_text(f"database: {database}\n")
    code = main(["refresh", "--config", str(config)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "regular file" in err and "Traceback" not in err, err


def test_a_symlink_to_a_database_file_is_allowed(tmp_path: Path) -> None:
    from flows.catalog import Settings, resolve_db

    (tmp_path / "real.duckdb").write_bytes(b"")
    (tmp_path / "link.duckdb").symlink_to(tmp_path / "real.duckdb")
    assert resolve_db(str(tmp_path / "link.duckdb"), Settings()) == tmp_path / "link.duckdb"


def test_site_license_must_be_a_web_address(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = catalog(tmp_path, settings='site: {license: "javascript:alert(1)"}\n')
    refused(config, capsys, "settings.yaml", "http")


def test_a_record_file_over_the_size_cap_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = catalog(tmp_path)
    with (config / "records" / "big.yaml").open("wb") as f:
        f.truncate(MAX_YAML_BYTES + 1)  # sparse: costs no disk, and no read
    refused(config, capsys, "big.yaml", "more than a config file may hold")


def test_a_record_file_that_is_a_fifo_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = catalog(tmp_path)
    fifo = config / "records" / "pipe.yaml"
    os.mkfifo(fifo)

    def feed() -> None:  # a reader would get a record (and wait for it)
        try:
            with fifo.open("w") as f:
                f.write(
                    "id: piped\ntitle: P\nsources: [{url: https://example.org, role: primary}]\n"
                )
        except BrokenPipeError:
            pass  # (the test's own reader below, which reads nothing)

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    refused(config, capsys, "pipe.yaml", "not a regular file")
    for _ in range(100):  # a reader that reads nothing: the feeder's open returns
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        feeder.join(timeout=0.1)
        if not feeder.is_alive():
            break


def test_a_document_of_too_many_nodes_is_refused_while_it_is_parsed(tmp_path: Path) -> None:
    config = catalog(tmp_path, record="[" + "1," * (MAX_YAML_NODES + 10) + "1]\n")
    with pytest.raises(ConfigError, match="more than 100,000 YAML nodes"):
        load_catalog(config)


BOMB = """\
import sys
sys.path.insert(0, {root!r})
from flows.catalog import load_catalog
from pathlib import Path
try:
    load_catalog(Path({config!r}))
except Exception as e:
    print(type(e).__name__)
# VmHWM is this program's own peak: ru_maxrss also counts the parent it was forked from
status = Path("/proc/self/status").read_text()
print(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM")))
"""


@pytest.mark.slow
def test_a_file_of_many_small_nodes_costs_little_memory(tmp_path: Path) -> None:
    """Just under the size cap, all of it tiny nodes: refused while parsed, before a
    tree of a million nodes is built."""
    config = catalog(tmp_path)
    row = "- [1, 2, 3, 4, 5, 6, 7, 8, 9]\n"
    (config / "records" / "bomb.yaml").write_text(row * (MAX_YAML_BYTES // len(row)))
    root = str(Path(__file__).resolve().parents[2])
    out = subprocess.run(
        [sys.executable, "-c", BOMB.format(root=root, config=str(config))],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.split()
    assert out[0] == "ConfigError"
    peak_mb = int(out[1]) / 1024
    assert peak_mb < 200, f"peak {peak_mb:.0f} MB"


MERGE = (
    "base: &b\n  role: primary\n"
    "id: r\ntitle: R\n"
    "sources:\n  - <<: *b\n    url: https://example.org/\n"
    "claims: [{id: c, quote: x y z}]\n"
)


def test_a_yaml_merge_key_is_one_config_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`<<:` (YAML 1.1's merge key) once reached a constructor that raised: a traceback
    in check, refresh and plan."""
    config = tmp_path / "config"
    (config / "records").mkdir(parents=True)
    (config / "records" / "r.yaml").write_text(MERGE)
    with pytest.raises(ConfigError, match=r"merge key \(<<\)"):
        load_catalog(config)
    assert main(["check", "--config", str(config)]) == 2
    said = capsys.readouterr()
    assert "r.yaml:6: error: a YAML merge key" in said.out and "Traceback" not in said.err
    assert main(["refresh", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "merge key" in err


@pytest.mark.slow  # plan asks git
def test_a_merge_key_only_in_the_base_commit_is_no_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config"
    (config / "records").mkdir(parents=True)
    (config / "records" / "r.yaml").write_text(MERGE)
    git = ["git", "-C", str(tmp_path), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "base"], check=True)
    (config / "records" / "r.yaml").write_text(
        'id: r\ntitle: R\nsources: [{id: s, url: "https://example.org/", role: primary}]\n'
    )
    code = main(["plan", "--config", str(config)])
    said = capsys.readouterr()
    assert code in (0, 2) and "Traceback" not in said.err + said.out


@pytest.mark.parametrize(
    ("license", "url"),
    [
        ("CC-BY-4.0", "https://creativecommons.org/licenses/by/4.0/"),
        ("CC0-1.0", "https://creativecommons.org/publicdomain/zero/1.0/"),
        ("MIT", "https://spdx.org/licenses/MIT.html"),
        ("https://example.org/licence", "https://example.org/licence"),
    ],
)
def test_site_license_is_an_spdx_id_or_a_url_and_given_as_a_url(
    tmp_path: Path, license: str, url: str
) -> None:
    from flows.catalog import license_url

    config = catalog(tmp_path, settings=f"site: {{license: {license!r}}}\n")
    assert load_catalog(config).settings.site.license == license
    assert license_url(license) == url
