"""The paper-vs-reproduced table: every number the paper states beside ours, with the interval
that agrees with it and a verdict (localbo.pipeline.paper_comparison)."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import csv

    from localbo.io import save_csv
    from localbo.pipeline.paper_comparison import COLUMNS, compare, ours

    smk = snakemake  # noqa: F821

    def rows(path):
        with open(path) as handle:
            return list(csv.DictReader(handle))

    values = ours(
        rows(smk.input.fig1),
        rows(smk.input.fig2),
        rows(smk.input.fig3),
        rows(smk.input.gradient_estimation),
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
