"""Collect the Fig. 1 runs into results/fig1/local_solutions.csv, one row per run.

Wall times stay in the per-job JSON files: the table holds only numbers that identical runs
reproduce byte for byte."""

from localbo.pipeline.runtime import snakemake_job

COLUMNS = [
    "method",
    "d",
    "sigma",
    "path",
    "value",
    "gradient_norm",
    "evaluations",
    "iterations",
    "stop",
]

with snakemake_job(snakemake) as log:  # noqa: F821
    from localbo.io import load_json, save_csv

    smk = snakemake  # noqa: F821
    rows = [run for path in smk.input for run in load_json(path)]
    for row in rows:
        row.setdefault("iterations", "")  # random search has none
    rows.sort(key=lambda r: (r["method"], r["sigma"], r["d"], r["path"]))
    save_csv(smk.output[0], rows, COLUMNS)
    log.info("wrote %d rows", len(rows))
