"""Config sections <-> typed settings: the two conversions every section uses.

`build(cls, mapping, where)` makes a frozen settings dataclass from a config mapping: lists become
tuples, nested dataclasses are built recursively, a missing key takes the field's default (the
one place a default is written), and every unknown key or value the dataclass rejects is
reported in one `ConfigError`, a line each naming the dotted key. A class with a
`from_config(mapping, where)` classmethod builds itself (sections with a dictionary of
sub-sections, such as Fig. 1's methods).

`as_config(settings)` is the inverse: the mapping a config file would hold. The defaults test
compares `as_config` of the default settings with the schema's defaults and with
`config/config.yaml`, so the three cannot drift apart.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Collection, Mapping
from typing import Any, TypeVar

from localbo.kernels import Kernel, make_kernel

T = TypeVar("T")
V = TypeVar("V")


class ConfigError(ValueError):
    """A config value the pipeline cannot use; the message starts with its dotted key."""


def build(cls: type[T], mapping: Mapping[str, Any] | None, where: str) -> T:
    """The settings `cls` from a config mapping (missing keys: the field defaults).

    Args:
        cls: a dataclass, or a class with a `from_config(mapping, where)` classmethod that
            returns the settings and a list of problems (as `build_all` does).
        mapping: the config section (None: all defaults).
        where: its dotted key, for error messages (e.g. "fig1.box").

    Raises:
        ConfigError: every unknown key, wrong type or value the class rejects, one per line.
    """
    settings, errors = build_all(cls, mapping, where)
    if errors:
        raise ConfigError("\n".join(errors))
    return settings


def build_all(cls: type[T], mapping: Mapping[str, Any] | None, where: str) -> tuple[T, list[str]]:
    """`build` that goes on past a problem: the settings with every bad field at its default,
    and every problem found ('dotted.key: message' lines), so that the rest can be checked.

    Raises:
        ConfigError: the problems, where `cls` has a field without a default.
    """
    mapping = {} if mapping is None else mapping
    if not isinstance(mapping, Mapping):
        return _defaults(cls, [f"{where}: expected a mapping, got {mapping!r}"])
    from_config = getattr(cls, "from_config", None)
    if from_config is not None:
        return from_config(mapping, where)
    hints = typing.get_type_hints(cls)
    fields = {f.name for f in dataclasses.fields(cls) if f.init}
    errors, values = [], {}
    errors += [
        f"{f'{where}.{key}' if where else key}: {unknown_key(fields)}"
        for key in sorted(set(mapping) - fields)
    ]
    for name in [name for name in mapping if name in fields]:
        key, hint = f"{where}.{name}" if where else name, hints[name]
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):  # a nested section
            values[name], more = build_all(hint, mapping[name], key)
            errors += more
            continue
        try:
            values[name] = _convert(hint, mapping[name], key)
        except ConfigError as error:
            errors += str(error).splitlines()
    while True:
        try:
            return cls(**values), errors
        except ValueError as error:  # the class's own checks (__post_init__)
            key, _, message = str(error).partition(": ")  # "KEY: message" names one of its keys
            if key not in values or not message:
                return _defaults(cls, [*errors, f"{where or 'config'}: {error}"])
            errors.append(f"{f'{where}.{key}' if where else key}: {message}")
            del values[key]


def _defaults(cls: type[T], errors: list[str]) -> tuple[T, list[str]]:
    """The settings at their defaults beside the problems; where `cls` has a field without a
    default there are no such settings, and the problems are raised.

    Raises:
        ConfigError: the problems, one per line, when `cls` has no defaults.
    """
    try:
        return cls(), errors
    except TypeError:
        raise ConfigError("\n".join(errors)) from None


def unknown_key(known: Collection[str]) -> str:
    """What an unknown key's problem line says after the key.

    Example:
        >>> unknown_key({"num_paths", "dims"})
        'unknown key; known: dims, num_paths'
    """
    return f"unknown key; known: {', '.join(sorted(known))}"


def build_each(
    mapping: Mapping[str, Any], where: str, make: Callable[[str, Any, str], V]
) -> tuple[dict[str, V], list[str]]:
    """`make(name, section, dotted key)` of each sub-section of a mapping (Fig. 1's methods, the
    gradient-estimation cases) that it accepts, and the problems of the others, one per line
    (`make` raises `ConfigError`)."""
    built, errors = {}, []
    for name, section in mapping.items():
        try:
            built[name] = make(name, section, f"{where}.{name}")
        except ConfigError as error:
            errors += str(error).splitlines()
    return built, errors


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
