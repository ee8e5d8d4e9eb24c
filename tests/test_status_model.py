"""The learned status reader's model: shipped small, for this extractor version, loaded
once, weights only; and what it weighs reaches the reading."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from extractors.status_model import (
    MODEL_FILE,
    STATUSES,
    StatusModel,
    bucket,
    checked,
    status_model,
)
from extractors.statuses import candidates, read_statuses
from extractors.values import Status
from extractors.version import EXTRACTOR_VERSION


def test_the_shipped_model_is_small_current_and_loaded_once() -> None:
    data = resources.files("extractors.data").joinpath(MODEL_FILE).read_bytes()
    assert len(data) < 20 << 20
    model = status_model()
    assert model is not None and model.version == EXTRACTOR_VERSION
    assert status_model() is model  # once per process
    assert StatusModel.from_bytes(model.to_bytes()) == model
    # weights and a version only: no run of words from the pages it was learned from
    assert not re.search(rb"[a-z ]{12,}", data)


def test_a_model_of_another_extractor_version_is_refused() -> None:
    model = status_model()
    assert model is not None
    old = StatusModel(model.weights, model.bias, model.add, model.keep, "1")
    with pytest.raises(ValueError, match="make statuses-model"):
        checked(old)


def test_what_the_model_weighs_reaches_the_reading() -> None:
    """A sentence the rules read nothing in is read as the model says, from its cue."""
    from extractors.status_rules import read_rules

    text = "The lab has left the Nimbus credits programme in limbo."
    assert read_rules(text).mentions == ()
    (candidate,), _, _ = candidates(text)
    paused = STATUSES.index(Status.PAUSED)
    heavy = {
        bucket(f): tuple(5.0 if i == paused else -5.0 for i in range(len(STATUSES)))
        for f in candidate.features
    }
    model = StatusModel(heavy, tuple(-1.0 for _ in STATUSES), (0.9,) * len(STATUSES), 0.0, "x")
    (read,) = read_statuses(text, model).mentions
    assert read.status is Status.PAUSED and read.phrase.endswith("limbo")
    assert read.sentence == text
