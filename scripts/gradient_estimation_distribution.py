"""The distributions of Figs. 4 and 5's estimates over draws, from each (case, procedure)'s draws
table: a row per component (`localbo.pipeline.gradient_estimation.distribution`)."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from pathlib import Path

    from localbo.io import load_csv, save_csv
    from localbo.pipeline.gradient_estimation import DISTRIBUTION_COLUMNS, distribution

    smk = snakemake  # noqa: F821
    rows = []
    for path in smk.input:
        case, procedure = Path(path).stem.rsplit("_", 1)
        rows += distribution(case, procedure, load_csv(path))
    save_csv(smk.output[0], rows, DISTRIBUTION_COLUMNS)
    for row in rows:
        log.info(
            "%s (%s) component %d: median %.4g [%.4g, %.4g], paper %s",
            row["case"],
            row["procedure"],
            row["component"],
            row["median"],
            row["low"],
            row["high"],
            row["paper"],
        )
