"""The quick config's wall time, and each rule's start-up against its work.

Runs `snakemake --cores CORES --configfile config/quick.yaml` `--runs` times, each in a fresh
directory, and reports the median wall time. From one run's jobs it takes, per rule, the jobs,
their wall seconds (Snakemake's benchmark files) and their CPU seconds (the `job CPU` line each
job logs as it ends). A rule's start-up is timed apart: a fresh Python doing what a job of the
rule does before its work (Snakemake's script preamble, then the script's imports, read off its
`import` lines), median CPU seconds of `--repeats`; work is a job's CPU less that start-up.
The floor is the work of every job spread over the cores with no start-up, no Snakemake and no
idle core: no layout of the same jobs' work runs faster. Prints a table and appends one JSON
line per run and per rule and one of the totals to --out.

    python bench/quick_run.py --runs 3 --cores 2
"""

from __future__ import annotations

import argparse
import ast
import datetime
import json
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from full_run import code_version  # bench/, the script's folder

from localbo.pipeline.job_cpu import logged_cpu_seconds

REPO = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
# what Snakemake's script preamble imports before the script runs (snakemake.script, 9.27.1)
PREAMBLE = "\n".join(
    [
        "import pickle",
        "from snakemake.logging import logger",
        "from snakemake.iocontainers import Snakemake",
        "",
    ]
)
SCRIPT = re.compile(r'^    script:\n\s+"\.\./\.\./scripts/(\w+)\.py"', re.M)
RULE = re.compile(r"^(?:rule|use rule \w+ as) (\w+)(?: with)?:\n((?:    .*\n|\n)+)", re.M)


def children_cpu_seconds() -> float:
    """User and system CPU seconds of every child process waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def quick_run(cores: int) -> tuple[float, float, Path]:
    """One quick run in a fresh directory: its wall seconds, the CPU seconds of its every process
    (Snakemake's own and the jobs') and the directory."""
    work = Path(tempfile.mkdtemp(prefix="quick-"))
    command = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile")]
    command += ["--directory", str(work), "--cores", str(cores), "--quiet", "all"]
    command += ["--configfile", str(REPO / "config" / "quick.yaml")]
    cpu, start = children_cpu_seconds(), time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start, children_cpu_seconds() - cpu, work


def rule_scripts() -> dict[str, str]:
    """Each rule's script name (a `use rule` rule has its parent's)."""
    scripts = {}
    for smk in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        text = smk.read_text()
        for name, body in RULE.findall(text):
            found = SCRIPT.search(body)
            if found:
                scripts[name] = found.group(1)
    scripts.setdefault("rbf_error_function", scripts.get("error_function", ""))
    return scripts


def start_up_seconds(script: str, repeats: int) -> float:
    """Median CPU seconds of a fresh Python importing what the script imports (and the
    preamble), the script's imports read off its syntax tree wherever they stand."""
    tree = ast.parse((REPO / "scripts" / f"{script}.py").read_text())
    statements = ast.walk(tree)
    imports = [ast.unparse(s) for s in statements if isinstance(s, ast.Import | ast.ImportFrom)]
    code = PREAMBLE + "\n".join(imports)
    times = []
    for _ in range(repeats):
        before = children_cpu_seconds()
        subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)
        times.append(children_cpu_seconds() - before)
    return statistics.median(times)


def per_rule(work: Path) -> dict[str, dict[str, float]]:
    """Jobs, wall and logged CPU seconds per rule of a run directory."""
    rules: dict[str, dict[str, float]] = defaultdict(lambda: {"jobs": 0, "wall": 0.0, "cpu": 0.0})
    for tsv in sorted((work / "benchmarks").rglob("*.tsv")):
        relative = tsv.relative_to(work / "benchmarks")
        rule = relative.parts[0] if len(relative.parts) > 1 else tsv.stem
        lines = tsv.read_text().splitlines()
        wall = float(lines[1].split("\t")[0]) if len(lines) > 1 else 0.0
        cpu = logged_cpu_seconds((work / "logs" / relative).with_suffix(".log")) or 0.0
        rules[rule]["jobs"] += 1
        rules[rule]["wall"] += wall
        rules[rule]["cpu"] += cpu
    return dict(rules)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3, help="start-up timings per rule")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "quick_run.jsonl")
    args = parser.parse_args()
    commit = code_version()
    date = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    walls, cpus, work = [], [], None
    for _ in range(args.runs):
        wall, cpu, work = quick_run(args.cores)
        walls.append(wall)
        cpus.append(cpu)
        print(f"quick run: {wall:.1f} s wall, {cpu:.1f} CPU-s on {args.cores} cores", flush=True)
    run = {"date": date, "commit": commit, "cores": args.cores, "walls": walls,
           "median_wall": statistics.median(walls), "cpus": cpus}  # fmt: skip
    rules = []
    scripts = rule_scripts()
    print(f"{'rule':<34}{'jobs':>5}{'wall s':>9}{'CPU s':>9}{'start-up s':>12}{'work s':>9}")
    for rule, total in sorted(per_rule(work).items(), key=lambda item: -item[1]["wall"]):
        start = start_up_seconds(scripts[rule], args.repeats) if rule in scripts else 0.0
        work_s = max(total["cpu"] - total["jobs"] * start, 0.0)
        print(
            f"{rule:<34}{total['jobs']:>5}{total['wall']:>9.1f}{total['cpu']:>9.1f}"
            f"{total['jobs'] * start:>12.1f}{work_s:>9.1f}"
        )
        rules.append({"date": date, "commit": commit, "rule": rule, **total,
                      "start_up_per_job": start, "work": work_s})  # fmt: skip
    totals = {key: sum(r[key] for r in rules) for key in ("jobs", "cpu", "work")}
    totals["start_up"] = sum(r["jobs"] * r["start_up_per_job"] for r in rules)
    totals["floor"] = totals["work"] / args.cores
    print(
        f"{'all jobs':<34}{totals['jobs']:>5}{'':>9}{totals['cpu']:>9.1f}"
        f"{totals['start_up']:>12.1f}{totals['work']:>9.1f}\n"
        f"floor: {totals['floor']:.1f} s (the jobs' work on {args.cores} cores);"
        f" Snakemake and the jobs' processes: {statistics.median(cpus):.1f} CPU-s (median)"
    )
    with args.out.open("a") as out:
        for record in [run, *rules, {"date": date, "commit": commit, "totals": totals}]:
            out.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
