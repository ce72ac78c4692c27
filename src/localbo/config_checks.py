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


SECTION_CHECKS: dict[str, Check] = {"fig2": check_fig2}


def check_config(config: dict[str, Any]) -> list[str]:
    """All semantic problems of a schema-valid config, as 'key: message' strings."""
    errors: list[str] = []
    for section, check in SECTION_CHECKS.items():
        if section in config:
            errors += check(config[section])
    return errors
