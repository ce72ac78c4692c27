"""Semantic checks of the pipeline config, beyond what the JSON schema can say.

`check_config` returns one message per problem, each starting with the dotted key it is about,
so `workflow/rules/common.smk` can stop before any job runs and say which key to fix.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Check = Callable[[dict[str, Any]], list[str]]


def _ordered(section: str, cfg: dict[str, Any], low: str, high: str) -> list[str]:
    if cfg[low] > cfg[high]:
        return [f"{section}.{low}: {cfg[low]} is larger than {section}.{high} = {cfg[high]}"]
    return []


def check_fig2(cfg: dict[str, Any]) -> list[str]:
    errors = _ordered("fig2.panel_a", cfg["panel_a"], "b_min", "b_max")
    errors += _ordered("fig2.panel_b", cfg["panel_b"], "d_min", "d_max")
    return errors


def check_fig1(cfg: dict[str, Any]) -> list[str]:
    errors = []
    box = cfg["box"]
    if not box["lower"] < 0 < box["upper"]:
        errors.append(
            f"fig1.box: the start x = 0 must lie inside (lower, upper), got "
            f"({box['lower']}, {box['upper']})"
        )
    one_gradient = max(cfg["dims"]) + 1
    if cfg["budget"] < one_gradient:
        errors.append(
            f"fig1.budget: {cfg['budget']} evaluations cannot pay for one local-BO gradient in "
            f"d = {max(cfg['dims'])} (needs d + 1 = {one_gradient})"
        )
    if 0 not in cfg["local_bo"]["noise_levels"]:
        errors.append(
            "fig1.local_bo.noise_levels: must contain 0 (the grid-size panel uses the "
            "sigma = 0 medians)"
        )
    return errors


def check_gradient_estimation(cfg: dict[str, Any]) -> list[str]:
    """Bounds ordered, panels name existing cases of the right dimension (Fig. 4: 2, Fig. 5: 1)."""
    section = "gradient_estimation"
    errors = []
    for key in ("lengthscale_bounds", "outputscale_bounds", "noise_var_bounds"):
        low, high = cfg["fit"][key]
        if not low < high:
            errors.append(f"{section}.fit.{key}: lower bound {low} is not below upper {high}")
    cases = cfg["cases"]
    for figure, dim in (("fig4", 2), ("fig5", 1)):
        for name in cfg[figure]:
            if name not in cases:
                errors.append(f"{section}.{figure}: unknown case {name!r}; known: {sorted(cases)}")
            elif len(cases[name]["x"]) != dim:
                errors.append(
                    f"{section}.{figure}: case {name!r} has dimension {len(cases[name]['x'])}, "
                    f"the figure draws dimension {dim}"
                )
    return errors


SECTION_CHECKS: dict[str, Check] = {
    "fig2": check_fig2,
    "fig1": check_fig1,
    "gradient_estimation": check_gradient_estimation,
}


def check_fig3(config: dict[str, Any]) -> list[str]:
    """Fig. 3 runs local BO with the fig1 settings in its own dimension."""
    d, budget = config["fig3"]["d"], config["fig1"]["budget"]
    if budget < d + 1:
        return [
            f"fig1.budget: {budget} evaluations cannot pay for one local-BO gradient in "
            f"fig3.d = {d} (needs {d + 1})"
        ]
    return []


def check_config(config: dict[str, Any]) -> list[str]:
    """All semantic problems of a schema-valid config, as 'key: message' strings."""
    errors: list[str] = []
    for section, check in SECTION_CHECKS.items():
        if section in config:
            errors += check(config[section])
    if "fig1" in config and "fig3" in config:
        errors += check_fig3(config)
    return errors
