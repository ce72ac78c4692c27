"""Semantic checks of the pipeline config, beyond what the JSON schema can say.

`check_config` returns one message per problem, each starting with the dotted key it is about,
so `workflow/rules/common.smk` can stop before any job runs and say which key to fix.
"""

from __future__ import annotations

from typing import Any


def _budget_pays_one_gradient(budget: int, d: int, where: str) -> list[str]:
    """fig1.budget must pay for one local-BO gradient (d + 1 evaluations) in dimension d."""
    if budget < d + 1:
        return [
            f"fig1.budget: {budget} evaluations cannot pay for one local-BO gradient in "
            f"{where} = {d} (needs d + 1 = {d + 1})"
        ]
    return []


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
    errors += _budget_pays_one_gradient(cfg["budget"], max(cfg["dims"]), "d")
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


def check_config(config: dict[str, Any]) -> list[str]:
    """All semantic problems of a schema-valid config (every section present), as
    'key: message' strings."""
    errors = check_fig2(config["fig2"])
    errors += check_fig1(config["fig1"])
    # Fig. 3 runs local BO with the fig1 settings in its own dimension
    errors += _budget_pays_one_gradient(config["fig1"]["budget"], config["fig3"]["d"], "fig3.d")
    errors += check_gradient_estimation(config["gradient_estimation"])
    return errors
