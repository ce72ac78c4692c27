"""Collect the Fig. 1 runs into results/fig1/local_solutions.csv, one row per run.

The columns common to every method come first, then every other scalar a method reports (its
`OptimizationResult.info`, e.g. TuRBO's `restarts` and `first_region_value`), in name order and
empty for the methods without it: a plug-in's numbers reach the table without an edit here. Wall
and CPU times (`localbo.objective.TIMES`) stay in the per-job JSON files: the table holds only
numbers that identical runs reproduce byte for byte."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from localbo.io import load_json, save_csv
    from localbo.objective import TIMES
    from localbo.pipeline.fig1 import TABLE_COLUMNS, table_order

    smk = snakemake  # noqa: F821
    rows = [run for path in smk.input for run in load_json(path)]
    extra = sorted({key for row in rows for key in row} - set(TABLE_COLUMNS) - TIMES)
    columns = [*TABLE_COLUMNS, *extra]
    rows = [{key: row.get(key, "") for key in columns} for row in rows]
    rows.sort(key=table_order)
    save_csv(smk.output[0], rows, columns)
    log.info("wrote %d rows", len(rows))
