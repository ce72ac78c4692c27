"""Range checks of a settings dataclass that name the field they refuse.

A refusal reads "KEY: must be RULE, got VALUE"; the pipeline reports it under the key's dotted
config name (`localbo.pipeline.sections.build`), e.g. "fig1.methods.mpd.restarts: ...". A value
the condition cannot compare (None where a number is due) or NaN is refused too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def require(settings: object, holds: Callable[[Any], bool], rule: str, *keys: str) -> None:
    """Refuse the first of `keys` whose value in `settings` fails `holds`.

    Args:
        settings: the dataclass instance (its fields are read by name).
        holds: the condition each value must meet.
        rule: the condition in words, for the message (e.g. ">= 1").
        keys: field names.

    Raises:
        ValueError: "KEY: must be RULE, got VALUE".

    Example:
        >>> from types import SimpleNamespace
        >>> require(SimpleNamespace(restarts=0), lambda v: v >= 1, ">= 1", "restarts")
        Traceback (most recent call last):
        ...
        ValueError: restarts: must be >= 1, got 0
    """
    for key in keys:
        value = getattr(settings, key)
        try:
            held = bool(holds(value))
        except TypeError:  # None where a number is due, say
            held = False
        if not held:
            raise ValueError(f"{key}: must be {rule}, got {value!r}")
