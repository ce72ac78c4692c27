"""Semantic checks of the config (what the JSON schema cannot say), on the shipped config."""

import copy
from pathlib import Path

import pytest
import yaml

from localbo.config_checks import check_gradient_estimation

SECTION = yaml.safe_load(
    (Path(__file__).resolve().parents[2] / "config" / "config.yaml").read_text()
)["gradient_estimation"]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s.update(fig4=["quadratic_n5", "nope"]), "unknown case 'nope'"),
        (lambda s: s.update(fig5=["quadratic_n5"]), "dimension 2"),
        (lambda s: s["fit"].update(noise_var_bounds=[1.0, 0.1]), "fit.noise_var_bounds"),
    ],
)
def test_semantic_checks_name_the_key(edit, message):
    section = copy.deepcopy(SECTION)
    assert check_gradient_estimation(section) == []
    edit(section)
    errors = check_gradient_estimation(section)
    assert len(errors) == 1 and message in errors[0], errors
