"""The paper-vs-reproduced table: every number the paper states beside ours, with the interval
that agrees with it and a verdict (localbo.pipeline.paper_comparison)."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from localbo.io import load_csv, save_csv
    from localbo.pipeline.paper_comparison import COLUMNS, compare, ours

    smk = snakemake  # noqa: F821

    values = ours(
        load_csv(smk.input.fig1),
        load_csv(smk.input.fig2),
        load_csv(smk.input.fig3),
        load_csv(smk.input.gradient_estimation),
    )
    table = compare(values, smk.params.comparable)
    save_csv(smk.output[0], table, COLUMNS)
    for row in table:
        log.info(
            "%s: ours %.4g, paper %s -> %s",
            row["quantity"],
            row["ours"],
            row["paper"],
            row["verdict"],
        )
