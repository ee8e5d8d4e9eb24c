"""A catalog names no secret to send, no program to run and no remote engine to trust
beyond its bounds (flows/catalog/operator.py): what it names out of them is ignored and
said, and whoever runs evidence names them through the environment."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from flows.catalog import check_catalog, load_settings
from flows.commands.check import run_check


def catalog(root: Path, settings: str) -> Path:
    config = root / "config"
    (config / "records").mkdir(parents=True, exist_ok=True)
    (config / "settings.yaml").write_text(settings)
    (config / "records" / "r.yaml").write_text(
        "id: r\ntitle: R\nsources: [{id: p, url: 'https://example.org/p', role: primary}]\n"
    )
    return config


@pytest.fixture(autouse=True)
def _no_operator(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "EVIDENCE_BROWSER_PATH",
        "EVIDENCE_BROWSER_ENDPOINT",
        "EVIDENCE_DASK_ADDRESS",
        "EVIDENCE_ARCHIVE_KEY_ENV",
        "EVIDENCE_ALLOW_HOSTS",
    ):
        monkeypatch.delenv(name, raising=False)


def ignored(config: Path) -> dict[str, str]:
    return {i.key: i.why for i in check_catalog(config).ignored}


def test_a_program_committed_beside_the_catalog_is_never_run(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()  # the catalog's repository (what `git init` makes first)
    program = tmp_path / "tools" / "chromium"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\ntouch /tmp/ran\n")
    program.chmod(0o755)
    config = catalog(tmp_path, f"fetch: {{browser_path: {program}}}\n")
    assert load_settings(config).fetch.browser_path is None
    assert "inside the catalog's own repository" in ignored(config)["fetch.browser_path"]
    relative = catalog(tmp_path / "other", "fetch: {browser_path: bin/chromium}\n")
    assert load_settings(relative).fetch.browser_path is None
    assert "absolute path" in ignored(relative)["fetch.browser_path"]


def test_a_program_others_can_write_is_never_run(tmp_path: Path) -> None:
    program = tmp_path / "common" / "chromium"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\n")
    program.chmod(0o757)
    config = catalog(tmp_path / "cat", f"fetch: {{browser_path: {program}}}\n")
    assert load_settings(config).fetch.browser_path is None
    assert "other accounts can write" in ignored(config)["fetch.browser_path"]
    program.chmod(stat.S_IRWXU)
    assert load_settings(config).fetch.browser_path == str(program)


def test_the_operator_names_any_program(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = catalog(tmp_path, "fetch: {browser_path: bin/chromium}\n")
    monkeypatch.setenv("EVIDENCE_BROWSER_PATH", "/opt/mine/chromium")
    assert load_settings(config).fetch.browser_path == "/opt/mine/chromium"
    assert ignored(config) == {}


@pytest.mark.parametrize(
    ("key", "value", "path"),
    [
        ("fetch", "{browser_endpoint: ws://203.0.113.5:3000/}", ("fetch", "browser_endpoint")),
        ("", "dask_address: tcp://198.51.100.7:8786", ("dask_address",)),
    ],
)
def test_a_remote_engine_is_taken_on_loopback_or_an_allowed_host_only(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    key: str,
    value: str,
    path: tuple[str, ...],
) -> None:
    text = f"{key}: {value}\n" if key else value + "\n"
    config = catalog(tmp_path, text)

    def value_of() -> object:
        found: object = load_settings(config)
        for part in path:
            found = getattr(found, part)
        return found

    assert value_of() is None
    assert "loopback host only" in ignored(config)[".".join(path)]
    monkeypatch.setenv("EVIDENCE_ALLOW_HOSTS", "203.0.113.5 198.51.100.7")
    assert value_of() is not None
    local = catalog(
        tmp_path / "local",
        text.replace("203.0.113.5", "127.0.0.1").replace("198.51.100.7", "localhost"),
    )
    monkeypatch.delenv("EVIDENCE_ALLOW_HOSTS")
    config = local
    assert value_of() is not None


@pytest.mark.parametrize(
    ("settings", "why"),
    [
        ("archive: {save: https://web.archive.org, key_env: GITHUB_TOKEN}", "EVIDENCE_SECRET_"),
        ("archive: {save: http://archive.example, key_env: EVIDENCE_SECRET_KEY}", "https only"),
        (
            "archive: {save: https://collector.example, key_env: EVIDENCE_SECRET_KEY}",
            "web.archive.org",
        ),
    ],
)
def test_a_credential_goes_only_where_a_catalog_may_send_it(
    tmp_path: Path, settings: str, why: str
) -> None:
    config = catalog(tmp_path, settings + "\n")
    assert load_settings(config).archive.key_env is None
    assert why in ignored(config)["archive.key_env"]


def test_a_catalog_may_name_its_archive_key_within_bounds(tmp_path: Path) -> None:
    for save in ("https://web.archive.org", "http://127.0.0.1:9999"):
        config = catalog(
            tmp_path / save[-4:], f"archive: {{save: '{save}', key_env: EVIDENCE_SECRET_KEY}}\n"
        )
        assert load_settings(config).archive.key_env == "EVIDENCE_SECRET_KEY"


def test_check_says_which_keys_were_ignored_and_why(tmp_path: Path) -> None:
    config = catalog(
        tmp_path,
        "fetch:\n  retries: 0\n  browser_endpoint: ws://203.0.113.5:3000/\n"
        "archive:\n  save: https://web.archive.org\n  key_env: CI_TOKEN\n",
    )
    report = run_check(config, tmp_path / "none.duckdb")
    said = [(p.level, p.kind, p.line, p.message) for p in report.problems()]
    assert said == [
        (
            "warning",
            "settings",
            3,
            "fetch.browser_endpoint 'ws://203.0.113.5:3000/' ignored: a catalog may send "
            "pages or work to a loopback host only, or to one listed in EVIDENCE_ALLOW_HOSTS "
            "by whoever runs evidence",
        ),
        (
            "warning",
            "settings",
            6,
            "archive.key_env 'CI_TOKEN' ignored: a catalog may name a credential's variable "
            "only as EVIDENCE_SECRET_... (set EVIDENCE_ARCHIVE_KEY_ENV to name another)",
        ),
    ]
    assert report.exit_code == 0
    strict = run_check(config, tmp_path / "none.duckdb", strict=True)
    assert strict.exit_code == 1


def test_settings_linked_from_outside_the_catalog_are_refused(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text("database: /tmp/theirs.duckdb\n")
    config = catalog(tmp_path / "cat", "")
    (config / "settings.yaml").unlink()
    os.symlink(outside, config / "settings.yaml")
    errors = check_catalog(config).errors
    assert [e.reason for e in errors] == [
        f"a link to a file outside the catalog: settings.yaml must live in {config} (copy it there)"
    ]
    assert "theirs" not in str(errors[0])
