"""`evidence schema`: made from the loader's models, every key described, and in step
with the loader: what it reads the schema accepts, what it rejects for a key the schema
rejects too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from pydantic import BaseModel

from evidence_cli.main import main
from flows.catalog import RecordConfig, Settings, check_catalog
from flows.catalog.descriptions import FIELDS, MODELS
from flows.catalog.schema import duration_text, json_schema

ROOT = Path(__file__).resolve().parent.parent
GOOD = """\
id: icml-2026-repro-credits
title: ICML 2026 reproduction challenge GPU credits
freshness_window: 15d
fields:
  verdict: trial
  seats: 40
sources:
  - id: hf-blog
    url: https://huggingface.co/blog/icml-2026-reproductions
    role: primary
  - url: https://howaiworks.ai/blog/icml-2026-agent-reproduction-challenge
    role: third-party
    render: browser
    wait_for: "#main"
claims:
  - id: prize-pool
    quote: "$4,000 in GPU credits for the best runs"
  - id: slots
    quote: "fully claimed within days of launch"
    status: exhausted
    sources: [hf-blog]
    expect: {status_in: [exhausted, closed]}
  - id: first-place
    quote: "First place: $2,000 and 500 GPU hours"
    figure: 2
    expect: {between: [100, 1000], change: {down_by_more_than: "10%", up_by_more_than: 200}}
"""


def validator(kind: str) -> jsonschema.protocols.Validator:
    schema = json_schema(kind)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


def models(root: type[BaseModel]) -> set[type[BaseModel]]:
    found, todo = set(), [root]
    while todo:
        cls = todo.pop()
        found.add(cls)
        for field in cls.model_fields.values():
            for arg in (field.annotation, *getattr(field.annotation, "__args__", ())):
                if isinstance(arg, type) and issubclass(arg, BaseModel) and arg not in found:
                    todo.append(arg)
    return found


@pytest.mark.parametrize("kind", ["records", "settings"])
def test_every_key_of_the_models_is_in_the_schema_with_its_description(kind: str) -> None:
    root = RecordConfig if kind == "records" else Settings
    schema = json_schema(kind)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    for cls in models(root):
        definition = schema["$defs"][cls.__name__]
        assert definition["additionalProperties"] is False, cls.__name__
        assert definition["description"] == MODELS[cls.__name__]
        assert set(definition["properties"]) == set(cls.model_fields), cls.__name__
        for key, prop in definition["properties"].items():
            assert prop.get("description"), f"{cls.__name__}.{key} has no description"
            assert prop["description"] == FIELDS[cls.__name__][key]


def bundled() -> list[Path]:
    return sorted(
        [
            *ROOT.glob("config/records/*.y*ml"),
            *ROOT.glob("evidence_cli/demo_site/config/records/*.y*ml"),
        ]
    )


@pytest.mark.parametrize("path", bundled(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_bundled_and_demo_catalogs_are_valid(path: Path) -> None:
    # as they stand: an editor with the schema marks nothing in the first catalog opened
    errors = list(validator("records").iter_errors(yaml.safe_load(path.read_text())))
    assert not errors, [e.message for e in errors]


def test_the_demo_settings_and_the_defaults_are_valid() -> None:
    settings = validator("settings")
    settings.validate(
        yaml.safe_load((ROOT / "evidence_cli/demo_site/config/settings.yaml").read_text())
    )
    settings.validate(None)  # an empty settings.yaml
    defaults = json_schema("settings")["$defs"]
    assert defaults["Settings"]["properties"]["freshness_window"]["default"] == "15d"
    assert defaults["AlertSettings"]["properties"]["resend_after"]["default"] == "24h"


def load(tmp_path: Path, text: str, settings: str | None = None) -> list[str]:
    (tmp_path / "records").mkdir(exist_ok=True)
    (tmp_path / "records" / "r.yaml").write_text(text)
    if settings is not None:
        (tmp_path / "settings.yaml").write_text(settings)
    return [e.reason for e in check_catalog(tmp_path).errors]


@pytest.mark.parametrize(
    "text",
    [
        GOOD,
        f"- {GOOD.replace(chr(10), chr(10) + '  ').rstrip()}\n",  # a list of records
        GOOD.replace("freshness_window: 15d", "freshness_window: 1.5h"),
    ],
)
def test_what_the_loader_reads_the_schema_accepts(tmp_path: Path, text: str) -> None:
    assert load(tmp_path, text) == []
    validator("records").validate(yaml.safe_load(text))


def test_settings_the_loader_reads_the_schema_accepts(tmp_path: Path) -> None:
    text = (
        "fetch: {browser_endpoint: 'ws://127.0.0.1:3000/', render: browser}\n"
        "alerts: {resend_after: 2w, notify: ['json://localhost']}\n"
        "archive: {save: 'https://web.archive.org'}\n"
    )
    assert load(tmp_path, GOOD, text) == []
    validator("settings").validate(yaml.safe_load(text))


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("fields:", "feilds:", "unknown key 'feilds'"),
        (
            "    role: primary",
            "    role: primary\n    weight: 2",
            "unknown key 'sources[0].weight'",
        ),
        ('    quote: "$4', '    qoute: "$4', "unknown key 'claims[0].qoute'"),
        ("    status: exhausted", "    state: exhausted", "unknown key 'claims[1].state'"),
        ("role: primary", "role: owner", "bad role 'owner'"),
        ("freshness_window: 15d", "freshness_window: 15 days", "bad duration"),
        ("status: exhausted", "status: sold-out", "bad status 'sold-out'"),
        ("render: browser", "render: chrome", "bad render 'chrome'"),
        ("https://huggingface.co", "ftp://huggingface.co", "bad url"),
        ("id: prize-pool", "id: Prize Pool", "bad id 'Prize Pool'"),
        ("  seats: 40", "  seats: [40]", "fields.seats"),
        ("sources: [hf-blog]", "sources: hf-blog", "claims[1].sources"),
        ("{status_in:", "{state_in:", "unknown key 'claims[1].expect.state_in"),
        ("between: [100, 1000]", "between: [100]", "claims[2].expect.between"),
        ('down_by_more_than: "10%"', 'down_by_more_than: "a lot"', "bad change 'a lot'"),
        ("figure: 2", "figure: 0", "claims[2].figure"),
        ("up_by_more_than: 200}", "up_by_more_than: 200, severity: fatal}", "severity"),
    ],
)
def test_a_key_the_loader_rejects_the_schema_rejects(
    tmp_path: Path, old: str, new: str, said: str
) -> None:
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    reasons = load(tmp_path, text)
    assert any(said in r for r in reasons), reasons
    assert list(validator("records").iter_errors(yaml.safe_load(text)))


@pytest.mark.parametrize(
    "settings",
    [
        "fetch: {concurency: 3}\n",
        "alerts: {resend_after: soon}\n",
        "task_runner: spark\n",
        "fetch: {archive_fallback: 'file:///tmp/x'}\n",
        "databse: x.duckdb\n",
    ],
)
def test_settings_the_loader_rejects_the_schema_rejects(tmp_path: Path, settings: str) -> None:
    assert load(tmp_path, GOOD, settings)
    assert list(validator("settings").iter_errors(yaml.safe_load(settings)))


def test_the_command_prints_each_schema(capsys: pytest.CaptureFixture[str]) -> None:
    for kind in ("records", "settings"):
        assert main(["schema", kind]) == 0
        printed: dict[str, Any] = json.loads(capsys.readouterr().out)
        assert printed == json.loads(json.dumps(json_schema(kind)))
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out)["title"] == "evidence-pipeline record file"


@pytest.mark.parametrize(
    ("text", "back"), [("15d", "15d"), ("24h", "24h"), ("2w", "2w"), ("90s", "90s"), ("1d", "24h")]
)
def test_durations_are_written_as_settings_write_them(text: str, back: str) -> None:
    from flows.catalog import parse_duration

    assert duration_text(parse_duration(text)) == back
