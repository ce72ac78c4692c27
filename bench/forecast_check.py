"""The cost forecast against the CPU a run's jobs logged: per rule, per figure, per Fig. 1 method.

For every job of the run directory's DAG (the same config files the run was given) that logged
its CPU as it ended (the `job CPU` line of its log, `localbo.pipeline.job_cpu`), the forecast of
that job (its rule's cost model, `localbo.pipeline.plan`) beside what it spent. Rows: each rule,
each figure and Fig. 1 method (the forecast's rows), and each (Fig. 1 method, d). A ratio is
forecast / measured over the same jobs. Prints a table and appends one JSON line per row to
--out, with the date, the commit and the config files.

    python bench/forecast_check.py RUN_DIR --configfile OVERRIDE.yaml

`forecast_check.yaml` beside this script is the run the committed results come from: every
figure at paper scale and one path per d of the slow Fig. 1 methods (its comment has the
commands).
"""

from __future__ import annotations

import argparse
import datetime
import json
from collections import defaultdict
from pathlib import Path

from full_run import code_version  # bench/, the script's folder

from localbo.pipeline.job_cpu import logged_cpu_seconds
from localbo.pipeline.plan import planned_jobs

HERE = Path(__file__).resolve().parent


def rows_of(rule: str, row: str, log: str) -> list[str]:
    """The rows one job counts in: its rule, its forecast row (and its figure's), and for a
    Fig. 1 run its (method, d)."""
    rows = [f"rule {rule}", row]
    if " " in row:
        rows.append(row.split(" ", 1)[0])
    if rule == "fig1_run":
        rows.append(f"{row} d{Path(log).stem.split('_', 1)[0][1:]}")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("run", type=Path, help="the run directory")
    parser.add_argument("--configfile", nargs="*", type=Path, default=[])
    parser.add_argument("--out", type=Path, default=HERE / "results" / "forecast_check.jsonl")
    args = parser.parse_args()
    totals: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])  # jobs, forecast, logged
    for job in planned_jobs(args.configfile, args.run, everything=True):
        logged = logged_cpu_seconds(args.run / job.log) if job.log else None
        if logged is None:
            continue
        for row in rows_of(job.rule, job.row, job.log):
            total = totals[row]
            total[0] += 1
            total[1] += job.cost.cpu_seconds
            total[2] += logged
    commit = code_version()
    date = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    print(f"{'row':<34}{'jobs':>6}{'forecast CPU-h':>16}{'logged CPU-h':>14}{'ratio':>8}")
    with args.out.open("a") as out:
        for row in sorted(totals):
            jobs, forecast, logged = totals[row]
            ratio = forecast / logged if logged else float("nan")
            print(f"{row:<34}{jobs:>6}{forecast / 3600:>16.4f}{logged / 3600:>14.4f}{ratio:>8.2f}")
            record = {
                "date": date,
                "commit": commit,
                "configs": [str(p) for p in args.configfile],
                "row": row,
                "jobs": jobs,
                "forecast_cpu_seconds": round(forecast, 3),
                "logged_cpu_seconds": round(logged, 3),
            }
            out.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
