"""The methods of Fig. 1 compared path by path, from Fig. 1's table: the summary (a row per
method, quantity and (d, sigma)) and the paired differences (localbo.pipeline.method_comparison)."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import pandas as pd

    from localbo.io import blank_nan, save_csv
    from localbo.pipeline.method_comparison import (
        DIFFERENCE_COLUMNS,
        SUMMARY_COLUMNS,
        MethodComparisonSettings,
        compare,
    )
    from localbo.pipeline.sections import build

    smk = snakemake  # noqa: F821
    settings = build(MethodComparisonSettings, smk.params.settings, "method_comparison")
    summary, differences = compare(
        pd.read_csv(smk.input[0]), settings, smk.params.methods, smk.params.seed
    )
    save_csv(smk.output.summary, blank_nan(summary), SUMMARY_COLUMNS)
    save_csv(smk.output.differences, differences, DIFFERENCE_COLUMNS)
    for row in summary:
        log.info(
            "%s (%s) - %s, d = %d, sigma = %g: median %.3g [%.3g, %.3g], %d/%d/%d, Holm p %.3g",
            row["method"],
            row["quantity"],
            row["against"],
            row["d"],
            row["sigma"],
            row["median_difference"],
            row["low"],
            row["high"],
            row["wins"],
            row["ties"],
            row["losses"],
            row["holm_p"],
        )
