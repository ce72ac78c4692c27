"""Fig. 1, local solutions: its config section, its methods and what one job needs.

A method is in Fig. 1 when `fig1.methods` has a section for it (a `null` section leaves it out).
The section's job keys (`noise_levels`, `dims`, `paths_per_job`, `budget`, `module`) say where
and how it runs; every other key is a field of the optimizer's settings dataclass, found in the
registry of `localbo.optimizers` by the section's name. A job is (method, d, sigma, chunk of paths);
`localbo.pipeline.fig1_job` runs one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from localbo.colors import method_colors
from localbo.methods.local_bo import LocalBO, LocalBOSettings
from localbo.optimizers import Optimizer, optimizer_class
from localbo.pipeline.files import path_chunks, sigma_label
from localbo.pipeline.resources import START_UP, JobCost
from localbo.pipeline.sections import (
    ConfigError,
    as_config,
    build_all,
    build_each,
    kernel_params,
    knobs,
)


@dataclass(frozen=True)
class MethodJobs:
    """How a method's runs are laid out as jobs (the job keys of its `fig1.methods` section).

    Attributes:
        noise_levels: noise standard deviations run for this method (default: the optimizer
            class's `default_noise_levels`).
        dims: the dimensions of fig1.dims run for this method (None: all of them); a slow
            method can be left out where it is unaffordable, or run in parts, d by d.
        path_range: (first, stop): the paths first, ..., stop - 1 of fig1.num_paths run for
            this method (None: all), so a cell too dear for one go is run in parts, paths
            by paths; both fall on job boundaries (multiples of paths_per_job, or stop =
            num_paths), so a job's file holds the same paths in every part.
        paths_per_job: sample paths run one after the other in one job (default: the class's
            `default_paths_per_job`).
        budget: evaluations per run (None: fig1.budget).
        module: the module that registers the method (None: `localbo.methods.<name>`).
        optimizer: the registered method the section runs under its own name, a variant at
            other settings (None: the section's name).
        label: its name in the figures and tables (None: its optimizer's).
        drawn: whether Fig. 1 draws it (False: its runs are in the table only).
    """

    noise_levels: tuple[float, ...]
    paths_per_job: int
    dims: tuple[int, ...] | None = None
    path_range: tuple[int, int] | None = None
    budget: int | None = None
    module: str | None = None
    optimizer: str | None = None
    label: str | None = None
    drawn: bool = True


JOB_KEYS = tuple(MethodJobs.__dataclass_fields__)

# CPU seconds to draw and save one sample path (M = 4096, d <= 50)
PATH_DRAW_SECONDS = 0.2

# The columns of Fig. 1's table (results/fig1/local_solutions.csv) common to every method, in
# order; each method's other scalars follow in name order. A run is (method, d, sigma, path).
TABLE_COLUMNS = (
    "method",
    "d",
    "sigma",
    "path",
    "value",
    "gradient_norm",
    "evaluations",
    "iterations",
    "stop",
)


def table_order(row: dict[str, Any]) -> tuple[str, float, int, int]:
    """Where a run's row (values or their CSV strings) stands in the table: by method, sigma, d
    and path; the identity of the run."""
    return row["method"], float(row["sigma"]), int(row["d"]), int(row["path"])


@dataclass(frozen=True)
class Method:
    """One Fig. 1 method: its name, job layout and optimizer (with its settings)."""

    name: str
    jobs: MethodJobs
    optimizer: Optimizer

    def as_config(self) -> dict[str, Any]:
        return {**as_config(self.jobs), **as_config(self.optimizer.settings)}


def method_from_config(name: str, section: dict[str, Any] | None, where: str) -> Method:
    """A method from its config section: job keys to `MethodJobs`, the rest to its settings.

    Raises:
        ConfigError: an unknown method or module, an unknown knob, a bad value.
    """
    section = dict(section or {})
    try:
        cls = optimizer_class(section.get("optimizer") or name, section.get("module"))
    except ValueError as error:
        raise ConfigError(f"{where}: {error}") from None
    clash = sorted(set(JOB_KEYS) & set(cls.Settings.__dataclass_fields__))
    if clash:
        raise ConfigError(f"{where}: settings of {name!r} may not use the job keys {clash}")
    jobs = {
        "noise_levels": cls.default_noise_levels,
        "paths_per_job": cls.default_paths_per_job,
        **{k: section.pop(k) for k in JOB_KEYS if k in section},
    }
    job_keys, errors = build_all(MethodJobs, jobs, where)
    settings, more = build_all(cls.Settings, section, where)
    if errors + more:
        raise ConfigError("\n".join(errors + more))
    return Method(name, job_keys, cls(settings))


def method_defaults(name: str) -> dict[str, Any]:
    """The config section of a registered method with nothing set: every key at its default."""
    return method_from_config(name, {}, name).as_config()


@dataclass(frozen=True)
class Methods:
    """The `fig1.methods` section: the methods of Fig. 1 in config order (a null section is
    no method). There is no default list: the config names the methods."""

    methods: dict[str, Method] = field(default_factory=dict)

    @classmethod
    def from_config(cls, mapping: dict[str, Any], where: str) -> tuple[Methods, list[str]]:
        sections = {name: section for name, section in mapping.items() if section is not None}
        methods, errors = build_each(sections, where, method_from_config)
        return cls(methods), errors

    def as_config(self) -> dict[str, Any]:
        return {name: m.as_config() for name, m in self.methods.items()}


@dataclass(frozen=True)
class BoxBounds:
    """The box [lower, upper]^d of every Fig. 1 method but noiseless local BO (its domain, its
    designs or regions, or its projection)."""

    lower: float = -5.0
    upper: float = 5.0


@dataclass(frozen=True)
class Fig1Settings:
    """The `fig1` config section (paper section 3).

    Attributes:
        kernel, lengthscale, outputscale: the paths' GP and every method's model (known).
        num_features: random Fourier features per path.
        dims: dimensions. num_paths: sample paths per dimension.
        budget: evaluations per run (a method's own `budget` overrides it).
        box: the domain.
        methods: the methods, each with its job layout and settings.
        layout: the figure's layout, "compare" or "paper" (`local_solutions_figure`).
    """

    kernel: str = "rbf"
    lengthscale: float = 1.0
    outputscale: float = 1.0
    num_features: int = 4096
    dims: tuple[int, ...] = (1, 5, 10, 20, 30, 50)
    num_paths: int = 50
    budget: int = 5000
    box: BoxBounds = field(default_factory=BoxBounds)
    methods: Methods = field(default_factory=Methods)
    layout: str = "compare"

    def method(self, name: str) -> Method:
        return self.methods.methods[name]

    def dims_of(self, name: str) -> tuple[int, ...]:
        """Dimensions run for a method: its own `dims`, else fig1.dims."""
        dims = self.method(name).jobs.dims
        return self.dims if dims is None else dims

    def paths_of(self, name: str) -> range:
        """Paths run for a method: its own `path_range`, else all fig1.num_paths."""
        first, stop = self.method(name).jobs.path_range or (0, self.num_paths)
        return range(first, stop)

    def budget_of(self, name: str) -> int:
        """Evaluations per run of a method: its own `budget`, else fig1.budget."""
        return self.method(name).jobs.budget or self.budget

    def local_bo_settings(self) -> LocalBOSettings:
        """Local BO's settings (Fig. 3 runs local BO with them); the defaults if not a method."""
        local = self.methods.methods.get(LocalBO.name)
        return local.optimizer.settings if local is not None else LocalBOSettings()

    def local_bo_budget(self) -> tuple[int, str]:
        """Local BO's budget per run and the key that sets it (Fig. 3 uses it)."""
        local = self.methods.methods.get(LocalBO.name)
        if local is not None and local.jobs.budget is not None:
            return local.jobs.budget, f"fig1.methods.{LocalBO.name}.budget"
        return self.budget, "fig1.budget"

    def check(self) -> list[str]:
        """Problems the schema cannot see, each starting with its dotted key."""
        errors = []
        if not self.box.lower < 0 < self.box.upper:
            errors.append(
                f"fig1.box: the start x = 0 must lie inside (lower, upper), got "
                f"({self.box.lower}, {self.box.upper})"
            )
        if not self.methods.methods:
            errors.append("fig1.methods: no method to run (every section is null)")
        for name, m in self.methods.methods.items():
            d, budget = max(self.dims_of(name), default=1), self.budget_of(name)
            needed = m.optimizer.min_budget(d)
            if budget < needed:
                key = "fig1.budget" if m.jobs.budget is None else f"fig1.methods.{name}.budget"
                errors.append(
                    f"{key}: {budget} evaluations are below the {needed} a run of {name} "
                    f"needs in d = {d}"
                )
            if m.jobs.dims == ():
                errors.append(
                    f"fig1.methods.{name}.dims: empty (null runs every d of fig1.dims; "
                    f"`{name}: null` leaves the method out)"
                )
            errors += self._check_path_range(name, m.jobs)
            outside = sorted(set(m.jobs.dims or ()) - set(self.dims))
            if outside:
                errors.append(
                    f"fig1.methods.{name}.dims: {outside} not in fig1.dims {list(self.dims)} "
                    "(the figure's dimensions)"
                )
        local = self.methods.methods.get(LocalBO.name)
        if local is not None and 0 not in local.jobs.noise_levels:
            errors.append(
                f"fig1.methods.{LocalBO.name}.noise_levels: must contain 0 (the grid-size panel "
                "uses the sigma = 0 medians)"
            )
        return errors

    def _check_path_range(self, name: str, jobs: MethodJobs) -> list[str]:
        """A method's path_range lies in [0, num_paths] and falls on job boundaries."""
        if jobs.path_range is None:
            return []
        key, (first, stop) = f"fig1.methods.{name}.path_range", jobs.path_range
        if not 0 <= first < stop <= self.num_paths:
            return [
                f"{key}: [{first}, {stop}] must satisfy 0 <= first < stop <= fig1.num_paths "
                f"({self.num_paths})"
            ]
        size = jobs.paths_per_job
        if first % size or (stop % size and stop != self.num_paths):
            return [
                f"{key}: [{first}, {stop}] must fall on job boundaries: multiples of "
                f"paths_per_job ({size}), or stop = fig1.num_paths"
            ]
        return []


class Fig1Jobs:
    """What the Fig. 1 rules ask: job files, per-job parameters and resources.

    Args:
        seed: the config's base seed. settings: the `fig1` section.
    """

    def __init__(self, seed: int, settings: Fig1Settings) -> None:
        self.seed, self.settings = seed, settings

    @property
    def method_names(self) -> list[str]:
        return list(self.settings.methods.methods)

    def chunks(self, name: str) -> list[list[int]]:
        """Path indices of each job of a method: consecutive blocks of paths_per_job."""
        return path_chunks(self.settings.num_paths, self.settings.method(name).jobs.paths_per_job)

    def jobs_of(self, name: str) -> list[int]:
        """The chunks a method runs: those within its path range."""
        paths = self.settings.paths_of(name)
        return [c for c, chunk in enumerate(self.chunks(name)) if chunk[0] in paths]

    def run_files(self, pattern: str) -> list[str]:
        """Every job's file, from the rule's output pattern."""
        return [
            pattern.format(method=name, d=d, sigma=sigma_label(s), chunk=c)
            for name, m in self.settings.methods.methods.items()
            for d in self.settings.dims_of(name)
            for s in m.jobs.noise_levels
            for c in self.jobs_of(name)
        ]

    def chunk_paths(self, pattern: str, wildcards: Any) -> list[str]:
        """The path files of one job, from the path rule's output pattern."""
        indices = self.chunks(wildcards.method)[int(wildcards.chunk)]
        return [pattern.format(d=wildcards.d, i=i) for i in indices]

    def path_params(self, wildcards: Any = None) -> dict[str, Any]:
        """What a sample path depends on (the same for every path and every figure using it)."""
        return {
            "seed": self.seed,
            **kernel_params(self.settings),
            "num_features": self.settings.num_features,
        }

    def run_settings(self, name: str, sigma: float) -> dict[str, Any]:
        """What decides a run of method `name` at noise level sigma besides its d and path: the
        path's parameters, the budget, the box, the method's module and the knobs it reads at
        sigma only. Two runs of one path with equal settings are the same run."""
        m = self.settings.method(name)
        return {
            **self.path_params(),
            "budget": self.settings.budget_of(m.name),
            "box": as_config(self.settings.box),
            "module": m.jobs.module,
            # a variant names the method it runs (absent otherwise: a built-in's params stay)
            **({"optimizer": m.jobs.optimizer} if m.jobs.optimizer else {}),
            "method_settings": knobs(m.optimizer.settings, m.optimizer.settings_read(sigma)),
        }

    def run_params(self, wildcards: Any) -> dict[str, Any]:
        """What one job depends on: its runs' settings and its paths (after the box, where the
        jobs' recorded params have them: another order would rerun every job)."""
        run = list(self.run_settings(wildcards.method, float(wildcards.sigma)).items())
        after = [key for key, _ in run].index("box") + 1
        paths = ("paths", self.chunks(wildcards.method)[int(wildcards.chunk)])
        return dict([*run[:after], paths, *run[after:]])

    def label(self, name: str) -> str:
        """A method's name in figures and tables, with its budget where it is not fig1.budget
        (NeST-BO at 1000; the quick config's slow methods)."""
        m = self.settings.method(name)
        label, budget = m.jobs.label or m.optimizer.label, self.settings.budget_of(name)
        return label if budget == self.settings.budget else f"{label} ({budget} evaluations)"

    def labels(self) -> dict[str, str]:
        """Each drawn method's `label`."""
        methods = self.settings.methods.methods
        return {name: self.label(name) for name, m in methods.items() if m.jobs.drawn}

    def colors(self) -> dict[str, str]:
        """Each method's colour in every figure, by its place among the config's methods
        (drawn or not)."""
        return method_colors(list(self.settings.methods.methods))

    def returned(self) -> dict[str, str]:
        """What each method returns, as figures name it (`Optimizer.returned`)."""
        return {name: m.optimizer.returned for name, m in self.settings.methods.methods.items()}

    def path_mb(self, d: int) -> float:
        """Memory of one sample path in d: M x (d + 2) floats."""
        return self.settings.num_features * (d + 2) * 8 / 2**20

    def path_cost(self, wildcards: Any) -> JobCost:
        """One path drawn and saved: M (d + 2) normal and uniform draws, well under a second."""
        d = int(wildcards.d)
        return START_UP + JobCost(PATH_DRAW_SECONDS, START_UP.mem_mb + 2 * self.path_mb(d))

    def run_cost(self, wildcards: Any) -> JobCost:
        """The job's runs one after the other, each at the method's own cost model
        (`Optimizer.cost`), beside the chunk's paths."""
        d, name = int(wildcards.d), wildcards.method
        paths = len(self.chunks(name)[int(wildcards.chunk)])
        run = self.settings.method(name).optimizer.cost(d, self.settings.budget_of(name))
        memory = START_UP.mem_mb + paths * self.path_mb(d) + run.mem_mb
        return START_UP + JobCost(paths * run.seconds, memory)
