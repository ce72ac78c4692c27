"""The config's JSON schema (`config/schemas/`), every violation at once and one line each.

Snakemake's own `validate` stops at the first violation and prints the whole schema and config
after it; `schema_errors` lists every violation as "dotted.key: what was expected", the form of
the semantic checks (`localbo.pipeline.settings.load_settings` reports both together). The
schema files stay the one source of the rules: each `$ref` names a file beside the one that
refers to it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource

from localbo.pipeline.sections import unknown_key


@cache
def _validator(schema: Path) -> Draft202012Validator:
    """A validator of the schema file, its `$ref`s resolved to the files beside it."""

    def retrieve(uri: str) -> Resource:
        text = (schema.parent / uri.removeprefix("file://").rsplit("/", 1)[-1]).read_text()
        return Resource.from_contents(yaml.safe_load(text))

    return Draft202012Validator(
        yaml.safe_load(schema.read_text()), registry=Registry(retrieve=retrieve)
    )


def dotted(path: Iterable[Any]) -> str:
    """A config key from a path of mapping keys and list indices: fig1.dims[2]."""
    key = ""
    for part in path:
        key += f"[{part}]" if isinstance(part, int) else f".{part}" if key else str(part)
    return key or "config"


def _lines(error: ValidationError) -> list[str]:
    """One line per problem of a schema violation, each naming its dotted key."""
    where = list(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = set(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - known)
        return [f"{dotted([*where, key])}: {unknown_key(known)}" for key in extra]
    if error.validator == "required" and isinstance(error.instance, dict):
        missing = sorted(set(error.validator_value) - set(error.instance))
        return [f"{dotted([*where, key])}: missing" for key in missing]
    return [f"{dotted(where)}: {error.message}"]


def schema_errors(config: dict[str, Any], schema: Path) -> list[str]:
    """Every violation of the schema by `config`, one 'dotted.key: expectation' line each, in
    the order of their keys.

    Example:
        >>> errors = schema_errors({"seed": -1}, Path("config/schemas/config.schema.yaml"))
        >>> errors[0], [e for e in errors if e.startswith("seed")]
        ('fig1: missing', ['seed: -1 is less than the minimum of 0'])
    """
    errors = _validator(schema.resolve()).iter_errors(config)
    return sorted({line for error in errors for line in _lines(error)})
