"""Config sections <-> typed settings: the two conversions every section uses.

`build(cls, mapping, where)` makes a frozen settings dataclass from a config mapping: lists become
tuples, nested dataclasses are built recursively, a missing key takes the field's default (the
one place a default is written), and an unknown key or a value the dataclass rejects raises
`ConfigError` naming the dotted key. A class with a `from_config(mapping, where)` classmethod
builds itself (sections with a dictionary of sub-sections, such as Fig. 1's methods).

`as_config(settings)` is the inverse: the mapping a config file would hold. The defaults test
compares `as_config` of the default settings with the schema's defaults and with
`config/config.yaml`, so the three cannot drift apart.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Collection, Mapping
from typing import Any, TypeVar

from localbo.kernels import Kernel, make_kernel

T = TypeVar("T")


class ConfigError(ValueError):
    """A config value the pipeline cannot use; the message starts with its dotted key."""


def build(cls: type[T], mapping: Mapping[str, Any] | None, where: str) -> T:
    """The settings `cls` from a config mapping (missing keys: the field defaults).

    Args:
        cls: a dataclass, or a class with a `from_config(mapping, where)` classmethod.
        mapping: the config section (None: all defaults).
        where: its dotted key, for error messages (e.g. "fig1.box").

    Raises:
        ConfigError: an unknown key, a wrong type or a value the class rejects.
    """
    mapping = {} if mapping is None else mapping
    if not isinstance(mapping, Mapping):
        raise ConfigError(f"{where}: expected a mapping, got {mapping!r}")
    from_config = getattr(cls, "from_config", None)
    if from_config is not None:
        return from_config(mapping, where)
    hints = typing.get_type_hints(cls)
    fields = {f.name for f in dataclasses.fields(cls) if f.init}
    unknown = sorted(set(mapping) - fields)
    if unknown:
        raise ConfigError(f"{where or 'config'}: unknown key(s) {unknown}; known: {sorted(fields)}")
    values = {
        name: _convert(hints[name], value, f"{where}.{name}" if where else name)
        for name, value in mapping.items()
    }
    try:
        return cls(**values)
    except ValueError as error:  # the class's own checks (__post_init__)
        key, _, message = str(error).partition(": ")  # "KEY: message" names one of its keys
        if key in fields and message:
            raise ConfigError(f"{f'{where}.{key}' if where else key}: {message}") from None
        raise ConfigError(f"{where or 'config'}: {error}") from None


def _convert(hint: Any, value: Any, where: str) -> Any:
    """A config value as the field type wants it: a nested dataclass, a tuple (of converted
    items), or a number, string or flag of the right type.

    Raises:
        ConfigError: a value of the wrong type.
    """
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return build(hint, value, where)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [h for h in args if h is not type(None)]
        if value is None and type(None) in args:
            return None
        if len(inner) == 1:
            return _convert(inner[0], value, where)
        return value
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise ConfigError(f"{where}: expected a list, got {value!r}")
        items = args[:1] * len(value) if args[1:] == (Ellipsis,) else args
        if len(items) != len(value):
            raise ConfigError(f"{where}: expected {len(items)} values, got {value!r}")
        return tuple(
            _convert(h, v, f"{where}[{i}]")
            for i, (h, v) in enumerate(zip(items, value, strict=True))
        )
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if hint in (int, float, str, bool) and not (
        isinstance(value, hint) and (hint is bool or not isinstance(value, bool))
    ):
        raise ConfigError(f"{where}: expected {hint.__name__}, got {value!r}")
    return value


def as_config(settings: Any) -> Any:
    """The config mapping of a settings object: dataclasses become dicts, tuples lists.

    An object with an `as_config()` method gives its own mapping.
    """
    own = getattr(settings, "as_config", None)
    if own is not None and not isinstance(settings, type):
        return own()
    if dataclasses.is_dataclass(settings) and not isinstance(settings, type):
        return {
            f.name: as_config(getattr(settings, f.name))
            for f in dataclasses.fields(settings)
            if f.init
        }
    if isinstance(settings, tuple | list):
        return [as_config(v) for v in settings]
    if isinstance(settings, Mapping):
        return {k: as_config(v) for k, v in settings.items()}
    return settings


def knobs(settings: Any, only: Collection[str] | None = None) -> dict[str, Any]:
    """`as_config` of a settings dataclass, restricted to the fields `only` names (None: all):
    the knobs a job's params hold."""
    config = as_config(settings)
    return config if only is None else {k: v for k, v in config.items() if k in only}


def more_than(key: str, value: float, limit_key: str, limit: float) -> list[str]:
    """The config error of a value `key` above the value `limit_key` caps it at (none if not).

    Example:
        >>> more_than("fig3.max_restarts", 100, "fig3.num_restarts", 50)
        ['fig3.max_restarts: 100 is more than the fig3.num_restarts = 50']
    """
    return [f"{key}: {value} is more than the {limit_key} = {limit}"] if value > limit else []


def kernel_params(settings: Any) -> dict[str, Any]:
    """The kernel of a section with `kernel`, `lengthscale` and `outputscale` keys, as job
    parameters (the arguments of `localbo.kernels.make_kernel`)."""
    return {
        "kernel": settings.kernel,
        "lengthscale": settings.lengthscale,
        "outputscale": settings.outputscale,
    }


def kernel_of(params: Mapping[str, Any]) -> Kernel:
    """The kernel that job parameters made by `kernel_params` name."""
    return make_kernel(params["kernel"], params["lengthscale"], params["outputscale"])
