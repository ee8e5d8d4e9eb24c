"""Every rule file of extractors/data/ is checked against its schema when loaded: each
loads as shipped, and a one-letter typo in a key, or a value of the wrong kind, is one
error naming the file and the key, never a silent drop of what the key held."""

from __future__ import annotations

import copy
from importlib import resources

import pytest
import yaml

from evidence_base.errors import RuleFileError
from extractors import soft, status_cues, status_lexicon
from extractors.rule_files import check_rule_file

FILES = {
    "statuses.yaml": status_lexicon.SCHEMA,
    "status_cues.yaml": status_cues.SCHEMA,
    "soft_failures.yaml": soft.SCHEMA,
}


def shipped(name: str) -> dict:
    return yaml.safe_load(resources.files("extractors.data").joinpath(name).read_text("utf-8"))


def test_every_rule_file_loads_as_shipped() -> None:
    assert status_lexicon.lexicon().by_head
    assert status_cues.cues().stems
    assert soft.signals().not_found_phrases
    for name, schema in FILES.items():
        check_rule_file(name, shipped(name), schema)
    names = {p.name for p in resources.files("extractors.data").iterdir()}
    assert {n for n in names if n.endswith(".yaml")} == set(FILES)  # none without a schema


@pytest.mark.parametrize("name", sorted(FILES))
def test_a_typo_in_a_key_names_the_file_and_the_key(name: str) -> None:
    data = copy.deepcopy(shipped(name))
    first = next(iter(data))
    typo = first[:-1] if first.endswith("s") else first + "s"  # one letter off
    data[typo] = data.pop(first)
    schema = FILES[name]
    with pytest.raises(RuleFileError) as raised:
        check_rule_file(name, data, schema)
    said = str(raised.value)
    assert said.startswith(f"extractors/data/{name}: ")
    assert typo in said and "\n" not in said


def test_the_status_lexicon_s_state_typo_is_refused() -> None:
    data = copy.deepcopy(shipped("statuses.yaml"))
    data["statuses"]["open"]["states"] = data["statuses"]["open"].pop("state")
    with pytest.raises(
        RuleFileError, match=r"unknown key 'statuses.open.states' \(did you mean 'state'\?\)"
    ):
        check_rule_file("statuses.yaml", data, status_lexicon.SCHEMA)


def test_a_value_of_the_wrong_kind_is_refused() -> None:
    data = copy.deepcopy(shipped("status_cues.yaml"))
    data["groups"]["open"] = "open"
    with pytest.raises(RuleFileError, match=r"groups\.open must be a list"):
        check_rule_file("status_cues.yaml", data, status_cues.SCHEMA)
