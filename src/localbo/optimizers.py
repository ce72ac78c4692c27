"""Optimizers as plug-ins: one small base class and a registry keyed by name.

An optimizer is a subclass of `Optimizer` with a `name`, a frozen settings dataclass `Settings`
(whose field defaults are the only defaults of its knobs) and one method to implement, `minimize`.
It may also give a `cost` model, the CPU seconds and memory of one run, which the pipeline's rules
turn into `runtime` and `mem_mb`, the fewest evaluations a run needs (`min_budget`, which the
config check enforces), the settings a run at a noise level reads (`settings_read`: a job's params
hold only those), and the noise levels and paths per job Fig. 1 runs it with unless its
config section says otherwise. `@register` puts the class in the registry;
`optimizer_class(name)` finds it, importing `localbo.methods.<name>` (or the module the caller
names) first, so the pipeline needs no list of methods:

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

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from localbo.checkpoint import Checkpoint
from localbo.kernels import Kernel
from localbo.moved import current_name
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
    label: ClassVar[str]  # the name in figures (default: the name with spaces)
    # what `minimize` returns, as figures name it (TuRBO-1's overall best, MPD's final iterate)
    returned: ClassVar[str] = "returned point"
    # the point whose f its trace records at each step, as the progress curves name it: the
    # iterate of a local method, the incumbent (best observation) of a global one
    traced: ClassVar[str] = "iterate"
    Settings: ClassVar[type[Any]] = NoSettings
    # how Fig. 1 runs the method when its config section does not say
    default_noise_levels: ClassVar[tuple[float, ...]] = (0.0,)
    default_paths_per_job: ClassVar[int] = 10
    # False for a method that draws nothing from its own stream (its runs differ by noise only)
    uses_rng: ClassVar[bool] = True
    # True for a method whose `minimize` takes a `checkpoint` (`localbo.checkpoint`): it keeps
    # its state there now and then and takes up a state found there
    resumable: ClassVar[bool] = False
    # False for a method whose run does not evaluate x0 (and so may return a point worse than it)
    evaluates_start: ClassVar[bool] = True
    # True for a reference that is no BO method (it uses what a method cannot, e.g. the gradient)
    oracle: ClassVar[bool] = False
    # settings its `Settings` refuses, each a few knobs whose first is named by the ValueError:
    # the contract tests check every one (tests/unit/test_optimizers.py)
    invalid_settings: ClassVar[tuple[dict[str, Any], ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" in cls.__dict__ and "label" not in cls.__dict__:
            cls.label = cls.name.replace("_", " ")

    def __init__(self, settings: Any = None) -> None:
        self.settings = self.Settings() if settings is None else settings
        if not isinstance(self.settings, self.Settings):
            raise TypeError(f"{self.name} takes {self.Settings.__name__}, got {settings!r}")

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.settings == other.settings  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.settings!r})"

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

    def spends_whole_budget(self, sigma: float) -> bool:
        """Whether every run at noise level sigma uses its whole budget; a method that stops
        when it has converged says no."""
        return True

    def settings_read(self, sigma: float) -> tuple[str, ...] | None:
        """The settings a run at noise level sigma reads (None: all); a Fig. 1 job's params hold
        only these, so changing another reruns none of its jobs."""
        return None

    def min_budget(self, d: int) -> int:
        """The fewest evaluations a run in dimension d needs to be the method's run (the config
        check refuses a smaller budget)."""
        return 1

    def cost(self, d: int, budget: int) -> Cost:
        """CPU seconds and memory of one run in dimension d; override with a measured model.

        The default is a cautious 10 ms per evaluation and no memory beyond the path.
        """
        return Cost(seconds=0.01 * budget)


class FunctionOptimizer(Optimizer):
    """An optimizer written as a function `(objective, kernel, x0, box, rng, settings) ->
    OptimizationResult`, as local BO, GP-UCB and random search are: set `function` (a resumable
    one also takes `checkpoint=`)."""

    function: ClassVar[Callable[..., OptimizationResult]]

    def minimize(
        self,
        objective: NoisyObjective,
        kernel: Kernel,
        x0: np.ndarray,
        box: Box,
        rng: np.random.Generator,
        checkpoint: Checkpoint | None = None,
    ) -> OptimizationResult:
        resume = {} if checkpoint is None else {"checkpoint": checkpoint}
        return self.function(objective, kernel, x0, box, rng, self.settings, **resume)


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
        module: the module that registers it, imported first if the name is not registered yet
            (default: `localbo.methods.<name>`); when given, the registered class must come from it.

    Raises:
        ValueError: no such module, the module registers no optimizer of that name, or the
            name is registered by another module.
    """
    module = current_name(module) if module is not None else None
    where = module or f"localbo.methods.{name}"
    if name not in _REGISTRY:
        try:
            importlib.import_module(where)
        except ModuleNotFoundError as error:
            raise ValueError(f"no optimizer {name!r}: cannot import {where!r} ({error})") from None
    cls = _REGISTRY.get(name)
    if cls is None:
        raise ValueError(f"module {where!r} registers no optimizer named {name!r}")
    if module is not None and cls.__module__ != module:
        raise ValueError(f"optimizer {name!r} is registered by {cls.__module__!r}, not {module!r}")
    return cls


def registered() -> dict[str, type[Optimizer]]:
    """Every optimizer registered so far (modules register when imported), by name."""
    return dict(_REGISTRY)


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
    checkpoint: Checkpoint | None = None,
) -> OptimizationResult:
    """Run one optimizer on one sample path observed with noise sigma.

    Args:
        optimizer: the optimizer. path: the objective f. kernel: the GP model's kernel.
        sigma: observation noise standard deviation. budget: evaluations allowed.
        box: the domain. noise_rng: the observation-noise stream. rng: the optimizer's stream.
        x0: (d,) start (default: the origin, as in the paper).
        checkpoint: where a resumable optimizer keeps its state (others run without).

    Raises:
        ValueError: x0, the box and the path are not of one dimension.
    """
    x0 = np.zeros(box.d) if x0 is None else np.asarray(x0, dtype=float)
    d = path.frequencies.shape[1] if isinstance(path, FourierSamplePath) else box.d
    if x0.shape != (box.d,) or d != box.d:
        raise ValueError(f"x0 {x0.shape}, the box (d = {box.d}) and the path (d = {d}) disagree")
    objective = NoisyObjective(path, sigma, budget, noise_rng)
    if checkpoint is not None and optimizer.resumable:
        return optimizer.minimize(objective, kernel, x0, box, rng, checkpoint=checkpoint)
    return optimizer.minimize(objective, kernel, x0, box, rng)
