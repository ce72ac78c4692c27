"""Thin every Fig. 1 run's trace to its curve: results/fig1/curves.csv, one row per kept record
(`localbo.pipeline.progress`: the first and last records, and the last at or below each of
`progress.points` log-spaced evaluation counts), in table order."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from localbo.io import load_json, load_npz, save_csv
    from localbo.pipeline.fig1 import table_order
    from localbo.pipeline.progress import CURVE_COLUMNS, run_curves

    smk = snakemake  # noqa: F821
    rows = []
    for summary, traces in zip(smk.input.summaries, smk.input.traces, strict=True):
        runs = load_json(summary)
        budget = smk.params.budgets[runs[0]["method"]] if runs else 0
        rows += run_curves(runs, load_npz(traces), budget, smk.params.points)
    rows.sort(key=lambda row: (*table_order(row), row["evaluations"]))
    save_csv(smk.output[0], rows, CURVE_COLUMNS)
    log.info("wrote %d rows of %d runs", len(rows), len({table_order(r) for r in rows}))
