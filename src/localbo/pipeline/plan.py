"""The cost of a run, printed before it starts: jobs, CPU-hours, peak memory and wall time.

    python -m localbo.pipeline.plan --configfile config/quick.yaml --cores 2 32 256
    python -m localbo.pipeline.plan figures/fig2_error_function.pdf --cores 2

Targets, as Snakemake takes them (before the options, so that they are not taken for config
files), forecast only the jobs that make them.

Snakemake builds the DAG of the jobs it would run in the directory given (all of them in a fresh
one), exactly as `snakemake -n` with the same config files does; each job's expected CPU
seconds and peak memory come from its rule's cost model (`PipelineSettings.job_costs`, the
models the rules' `runtime` and `mem_mb` are padded from; a table or plot job is counted at
`PLOT_START_UP`). Rows are the figures (a rules file each) and, for Fig. 1, its sample paths
and each method. The wall time at N cores is that of a greedy schedule of the same jobs in
dependency order, the job that heads the longest chain first, each job on min(threads, N) cores;
the last line gives it for a cluster under the SLURM profile, whose `jobs` caps the jobs
queued or running at once (queueing and start-up not counted).
"""

from __future__ import annotations

import argparse
import dataclasses
import heapq
import json
import logging
import os
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from localbo.pipeline.resources import PLOT_START_UP, JobCost

REPO = Path(__file__).resolve().parents[3]
DEFAULT_CORES = (2, 32, 256)
SLURM_PROFILE = REPO / "workflow" / "profiles" / "slurm" / "profile.yaml"


@dataclass(frozen=True)
class PlannedJob:
    """One job of the DAG as the forecast sees it.

    Attributes:
        rule: its rule. row: the forecast row it counts in ("fig2", "fig1 gp_ucb", ...).
        cost: its expected CPU seconds and peak memory. threads: the threads it runs on.
        after: the indices of the jobs it waits for. log: its log file, if it has one.
    """

    rule: str
    row: str
    cost: JobCost
    threads: int = 1
    after: tuple[int, ...] = ()
    log: str | None = None


@dataclass
class Row:
    """A forecast row: jobs, CPU seconds and the largest peak memory of its jobs."""

    jobs: int = 0
    cpu_seconds: float = 0.0
    peak_mb: float = 0.0

    def add(self, cost: JobCost) -> None:
        self.jobs += 1
        self.cpu_seconds += cost.cpu_seconds
        self.peak_mb = max(self.peak_mb, cost.mem_mb)


@dataclass
class Forecast:
    """The forecast of a list of jobs: its rows, their total and wall hours per core count."""

    rows: dict[str, Row] = field(default_factory=dict)
    total: Row = field(default_factory=Row)
    wall_hours: dict[int, float] = field(default_factory=dict)
    cluster: tuple[int, float] | None = None  # (the profile's job cap, wall hours)

    def as_json(self) -> dict[str, Any]:
        def row(r: Row) -> dict[str, float]:
            return {"jobs": r.jobs, "cpu_hours": r.cpu_seconds / 3600, "peak_mb": r.peak_mb}

        return {
            "rows": {name: row(r) for name, r in self.rows.items()},
            "total": row(self.total),
            "wall_hours": self.wall_hours,
            **({"cluster": {"jobs": self.cluster[0], "wall_hours": self.cluster[1]}}
               if self.cluster else {}),
        }  # fmt: skip

    def table(self) -> str:
        """The forecast as aligned text: a row per figure (Fig. 1's parts indented)."""
        lines = [f"{'':<28}{'jobs':>7}{'CPU-hours':>12}{'peak memory':>14}"]
        for name, r in [*self.rows.items(), ("all", self.total)]:
            label = f"  {name.split(' ', 1)[1]}" if " " in name else name
            memory = f"{r.peak_mb / 1024:.1f} GB" if r.peak_mb >= 1024 else f"{r.peak_mb:.0f} MB"
            lines.append(f"{label:<28}{r.jobs:>7}{hours(r.cpu_seconds):>12}{memory:>14}")
        walls = ", ".join(f"{n} cores {wall(h)}" for n, h in self.wall_hours.items())
        lines.append(f"wall time: {walls}")
        if self.cluster:
            jobs, hours_ = self.cluster
            lines.append(f"on SLURM with the profile (at most {jobs} jobs at once): {wall(hours_)}")
        return "\n".join(lines)


def hours(seconds: float) -> str:
    """CPU seconds as hours with two significant decimals ('< 0.01' below)."""
    return "< 0.01" if seconds < 36 else f"{seconds / 3600:.2f}"


def wall(hours: float) -> str:
    """A wall time in the unit that reads best."""
    if hours < 1 / 60:
        return f"{hours * 3600:.0f} s"
    return f"{hours * 60:.0f} min" if hours < 2 else f"{hours:.1f} h"


def forecast(
    jobs: Sequence[PlannedJob],
    cores: Iterable[int] = DEFAULT_CORES,
    cluster_jobs: int | None = None,
) -> Forecast:
    """Rows, total and wall times of jobs: the figures by name, each figure's parts ("fig1
    gp_ucb") after it, the dearest first; with `cluster_jobs`, the wall time with at most that
    many jobs at once, each on its own cores."""
    rows: dict[str, Row] = defaultdict(Row)
    result = Forecast()
    for job in jobs:
        result.total.add(job.cost)
        rows[job.row].add(job.cost)
        if " " in job.row:
            rows[job.row.split(" ", 1)[0]].add(job.cost)
    order = sorted(
        rows, key=lambda name: (name.split(" ", 1)[0], " " in name, -rows[name].cpu_seconds)
    )
    result.rows = {name: rows[name] for name in order}
    result.wall_hours = {n: schedule(jobs, n) / 3600 for n in cores}
    if cluster_jobs:
        one_core = [dataclasses.replace(job, threads=1) for job in jobs]  # the profile's cores
        result.cluster = (cluster_jobs, schedule(one_core, cluster_jobs) / 3600)
    return result


def run_directory(configfiles: Sequence[Path]) -> Path:
    """Where Snakemake started here with these config files writes: their `run_directory`,
    relative to the current directory (the Snakefile's `workdir`)."""
    from localbo.pipeline.settings import merged_config

    config = merged_config([REPO / "config" / "config.yaml", *configfiles])
    return Path(os.getcwd(), config.get("run_directory") or ".")


def profile_jobs(profile: Path = SLURM_PROFILE) -> int:
    """The SLURM profile's cap on jobs queued or running at once (`jobs`)."""
    import yaml

    return int(yaml.safe_load(profile.read_text())["jobs"])


def schedule(jobs: Sequence[PlannedJob], cores: int) -> float:
    """Seconds until the last job ends in a greedy schedule on `cores` cores: whenever cores are
    free, the ready job that heads the longest chain of remaining work starts if it fits.

    Example:
        >>> long, short = JobCost(10.0, 1), JobCost(5.0, 1)
        >>> after_1 = PlannedJob("r", "x", short, threads=1, after=(1,))
        >>> jobs = [PlannedJob("r", "x", long), PlannedJob("r", "x", short), after_1]
        >>> schedule(jobs, 1), schedule(jobs, 2)
        (20.0, 10.0)
    """
    width = [min(job.threads, cores) for job in jobs]
    duration = [job.cost.cpu_seconds / w for job, w in zip(jobs, width, strict=True)]
    children: dict[int, list[int]] = defaultdict(list)
    waiting = [len(job.after) for job in jobs]
    for i, job in enumerate(jobs):
        for parent in job.after:
            children[parent].append(i)
    chain = list(duration)  # the longest chain of work that starts with each job
    for i in reversed(_topological(jobs, children)):
        chain[i] += max((chain[c] for c in children[i]), default=0.0)
    ready = [(-chain[i], i) for i in range(len(jobs)) if not waiting[i]]
    heapq.heapify(ready)
    running: list[tuple[float, int]] = []
    now, free = 0.0, cores
    while ready or running:
        held = []
        while ready:
            priority, i = heapq.heappop(ready)
            if width[i] <= free:
                free -= width[i]
                heapq.heappush(running, (now + duration[i], i))
            else:
                held.append((priority, i))
        for item in held:
            heapq.heappush(ready, item)
        now, i = heapq.heappop(running)
        free += width[i]
        for child in children[i]:
            waiting[child] -= 1
            if not waiting[child]:
                heapq.heappush(ready, (-chain[child], child))
    return now


def _topological(jobs: Sequence[PlannedJob], children: dict[int, list[int]]) -> list[int]:
    """The job indices, each after every job it waits for."""
    waiting = [len(job.after) for job in jobs]
    order = [i for i in range(len(jobs)) if not waiting[i]]
    for i in order:  # grows while it is walked
        for child in children[i]:
            waiting[child] -= 1
            if not waiting[child]:
                order.append(child)
    return order


def planned_jobs(
    configfiles: Sequence[Path],
    directory: Path,
    everything: bool = False,
    targets: Sequence[str] = (),
) -> list[PlannedJob]:
    """The jobs `snakemake TARGETS --configfile CONFIGFILES` would run in `directory` now (with
    `everything`, every job of the DAG, finished or not; without targets, every figure's), with
    their costs (Snakemake's DAG, built as a dry run does; nothing is run or written but
    Snakemake's metadata folder)."""
    from snakemake.api import SnakemakeApi
    from snakemake.settings.types import (
        ConfigSettings,
        DAGSettings,
        OutputSettings,
        ResourceSettings,
    )

    logging.getLogger("snakemake").setLevel(logging.WARNING)
    with SnakemakeApi(OutputSettings(quiet={"all"})) as api:
        workflow_api = api.workflow(
            resource_settings=ResourceSettings(cores=1),
            config_settings=ConfigSettings(configfiles=[p.resolve() for p in configfiles]),
            snakefile=REPO / "Snakefile",
            workdir=directory.resolve(),
        )
        workflow_api.dag(DAGSettings(targets=set(targets)))
        workflow = workflow_api._workflow  # the DAG's jobs have no public accessor
        workflow._prepare_dag(forceall=everything, ignore_incomplete=True, lock_warn_only=True)
        workflow._build_dag()
        dag, costs = workflow.dag, workflow.globals["COSTS"]
        jobs = [job for job in dag.needrun_jobs() if job.rule.name != "all"]
        index = {job: i for i, job in enumerate(jobs)}
        return [
            PlannedJob(
                job.rule.name,
                _row(job),
                costs[job.rule.name](job.wildcards) if job.rule.name in costs else PLOT_START_UP,
                int(job.threads),
                tuple(index[d] for d in dag.dependencies[job] if d in index),
                str(job.log[0]) if job.log else None,
            )
            for job in jobs
        ]


def _row(job: Any) -> str:
    """The forecast row of a Snakemake job: its rules file's name, and for Fig. 1 its method
    ("fig1 gp_ucb") or its sample paths ("fig1 paths")."""
    figure = Path(job.rule.snakefile).stem
    if job.rule.name == "fig1_run":
        return f"{figure} {job.wildcards.method}"
    return f"{figure} paths" if job.rule.name == "fig1_path" else figure


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument(
        "targets", nargs="*", help="files to make, as snakemake takes them (default: all)"
    )
    parser.add_argument(
        "--configfile",
        nargs="+",
        type=Path,
        default=[],
        help="override config files, as given to snakemake (merged over config/config.yaml)",
    )
    parser.add_argument(
        "--cores",
        nargs="+",
        type=int,
        default=list(DEFAULT_CORES),
        help=f"core counts to give the wall time at (default: {' '.join(map(str, DEFAULT_CORES))})",
    )
    parser.add_argument(
        "--directory",
        type=Path,
        help="the run directory: jobs whose outputs are there and up to date are not counted "
        "(default: the configs' run_directory, as snakemake takes it)",
    )
    parser.add_argument("--json", action="store_true", help="print the forecast as JSON")
    args = parser.parse_args(argv)
    jobs = planned_jobs(
        args.configfile, args.directory or run_directory(args.configfile), targets=args.targets
    )
    result = forecast(jobs, args.cores, profile_jobs())
    print(json.dumps(result.as_json(), indent=1) if args.json else result.table())


if __name__ == "__main__":
    main()
