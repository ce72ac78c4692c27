"""The evaluations at which each Fig. 1 method's median over paths first reaches local BO's final
median at its budget, from results/fig1/curves.csv (`localbo.pipeline.progress.reach_table`)."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import pandas as pd

    from localbo.io import save_csv
    from localbo.pipeline.progress import REACH_COLUMNS, reach_table

    smk = snakemake  # noqa: F821
    curves, params = pd.read_csv(smk.input[0]), smk.params
    rows = reach_table(curves, params.methods, params.points, params.local_bo)
    save_csv(smk.output[0], rows, REACH_COLUMNS)
    log.info("wrote %d rows", len(rows))
