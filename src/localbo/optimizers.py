"""Optimizers as plug-ins: one small base class and a registry keyed by name.

An optimizer is a subclass of `Optimizer` with a `name`, a frozen settings dataclass `Settings`
(whose field defaults are the only defaults of its knobs) and one method to implement, `minimize`.
It may also give a `cost` model, the CPU seconds and memory of one run, which the pipeline's rules
turn into `runtime` and `mem_mb`. `@register` puts the class in the registry;
`optimizer_class(name)` finds it, importing `localbo.<name>` (or the module the caller names)
first, so the pipeline needs no list of methods:

    @register
    class StayAtStart(Optimizer):
        name = "stay"
        Settings = NoSettings

        def minimize(self, objective, kernel, x0, box, rng):
            ...

Every optimizer gets a `NoisyObjective` (the path, sigma, the budget and the noise stream) and
its own stream `rng`, and returns an `OptimizationResult` (`localbo.objective`).
"""

from __future__ import annotations

import dataclasses
import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from localbo.kernels import Kernel
from localbo.objective import Box, NoisyObjective, OptimizationResult
from localbo.sample_paths import FourierSamplePath


@dataclass(frozen=True)
class Cost:
    """What one run of an optimizer costs on one core.

    Attributes:
        seconds: CPU seconds of one run.
        mem_mb: memory of one run beyond the sample path, in MB.
    """

    seconds: float
    mem_mb: int = 0


@dataclass(frozen=True)
class NoSettings:
    """The settings of an optimizer without knobs."""


class Optimizer(ABC):
    """Base of every optimizer: a name, a settings dataclass and `minimize`.

    Args:
        settings: an instance of the class's `Settings` (None: its defaults).
    """

    name: ClassVar[str]
    label: ClassVar[str] = ""  # the name in figures (default: the name with spaces)
    Settings: ClassVar[type[Any]] = NoSettings

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.label and hasattr(cls, "name"):
            cls.label = cls.name.replace("_", " ")

    def __init__(self, settings: Any = None) -> None:
        self.settings = self.Settings() if settings is None else settings
        if not isinstance(self.settings, self.Settings):
            raise TypeError(f"{self.name} takes {self.Settings.__name__}, got {settings!r}")

    @classmethod
    def from_knobs(cls, knobs: dict[str, Any]) -> Optimizer:
        """The optimizer with its settings from a mapping (a config section's knobs).

        Raises:
            ValueError: a key that is not a field of `Settings` (named), or a bad value.
        """
        fields = {f.name for f in dataclasses.fields(cls.Settings)}
        unknown = sorted(set(knobs) - fields)
        if unknown:
            raise ValueError(f"{cls.name} has no setting {unknown}; known: {sorted(fields)}")
        return cls(cls.Settings(**knobs))

    @abstractmethod
    def minimize(
        self,
        objective: NoisyObjective,
        kernel: Kernel,
        x0: np.ndarray,
        box: Box,
        rng: np.random.Generator,
    ) -> OptimizationResult:
        """Minimize the objective from x0 within its budget.

        Args:
            objective: the (noisy) black box with its budget; the only way to see f.
            kernel: the GP model's kernel (hyperparameters known, the path's own).
            x0: (d,) start. box: the domain.
            rng: the optimizer's own stream (never the noise stream).
        """

    def cost(self, d: int, budget: int) -> Cost:
        """CPU seconds and memory of one run in dimension d; override with a measured model.

        The default is a cautious 10 ms per evaluation and no memory beyond the path.
        """
        return Cost(seconds=0.01 * budget)


class FunctionOptimizer(Optimizer):
    """An optimizer written as a function `(objective, kernel, x0, box, rng, settings) ->
    OptimizationResult`, as local BO, GP-UCB and random search are: set `function`."""

    function: ClassVar[Callable[..., OptimizationResult]]

    def minimize(
        self,
        objective: NoisyObjective,
        kernel: Kernel,
        x0: np.ndarray,
        box: Box,
        rng: np.random.Generator,
    ) -> OptimizationResult:
        return self.function(objective, kernel, x0, box, rng, self.settings)


_REGISTRY: dict[str, type[Optimizer]] = {}


def register(cls: type[Optimizer]) -> type[Optimizer]:
    """Class decorator: make `cls` findable by `optimizer_class(cls.name)`."""
    known = _REGISTRY.get(cls.name)
    if known is not None and (known.__module__, known.__qualname__) != (
        cls.__module__,
        cls.__qualname__,
    ):
        raise ValueError(f"two optimizers named {cls.name!r}: {known} and {cls}")
    _REGISTRY[cls.name] = cls
    return cls


def optimizer_class(name: str, module: str | None = None) -> type[Optimizer]:
    """The optimizer registered as `name`.

    Args:
        name: the registered name (a Fig. 1 method's config key).
        module: the module that registers it (default: `localbo.<name>`), imported first.

    Raises:
        ValueError: no such module, or the module registers no optimizer of that name.
    """
    if name not in _REGISTRY:
        module = module or f"localbo.{name}"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            raise ValueError(f"no optimizer {name!r}: cannot import {module!r} ({error})") from None
    if name not in _REGISTRY:
        raise ValueError(f"module {module!r} registers no optimizer named {name!r}")
    return _REGISTRY[name]


def run_on_path(
    optimizer: Optimizer,
    path: FourierSamplePath,
    kernel: Kernel,
    sigma: float,
    budget: int,
    box: Box,
    noise_rng: np.random.Generator,
    rng: np.random.Generator,
    x0: np.ndarray | None = None,
) -> OptimizationResult:
    """Run one optimizer on one sample path observed with noise sigma.

    Args:
        optimizer: the optimizer. path: the objective f. kernel: the GP model's kernel.
        sigma: observation noise standard deviation. budget: evaluations allowed.
        box: the domain. noise_rng: the observation-noise stream. rng: the optimizer's stream.
        x0: (d,) start (default: the origin, as in the paper).
    """
    x0 = np.zeros(box.d) if x0 is None else np.asarray(x0, dtype=float)
    objective = NoisyObjective(path, sigma, budget, noise_rng)
    return optimizer.minimize(objective, kernel, x0, box, rng)
