"""The paper-vs-reproduced table: every number the paper states beside ours with its
uncertainty, the rule that judges them and a verdict (localbo.pipeline.paper_comparison)."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from localbo.io import blank_nan, load_csv, save_csv
    from localbo.pipeline.gradient_estimation import GradientEstimationJobs
    from localbo.pipeline.paper_code import causes as code_causes
    from localbo.pipeline.paper_comparison import (
        COLUMNS,
        PaperComparisonSettings,
        compare,
        ours,
    )
    from localbo.pipeline.sections import build
    from localbo.pipeline.sensitivity_table import causes

    smk = snakemake  # noqa: F821
    settings = build(PaperComparisonSettings, smk.params.settings, "paper_comparison")
    values = ours(
        load_csv(smk.input.fig1),
        load_csv(smk.input.fig2),
        load_csv(smk.input.fig3),
        load_csv(smk.input.fig3_others),
        {"_".join(GradientEstimationJobs.draw_key(p)): load_csv(p) for p in smk.input.draws},
        settings,
        smk.params.seed,
    )
    study = causes(load_csv(smk.input.sensitivity))
    study = code_causes(
        load_csv(smk.input.code_numbers),
        load_csv(smk.input.code_draws),
        smk.params.departures,
        study,
    )
    table = compare(values, smk.params.comparable, settings, smk.params.seed, study)
    save_csv(smk.output[0], blank_nan(table), COLUMNS)
    for row in table:
        log.info(
            "%s %s: ours %.4g, paper %s, p %.3g -> %s",
            row["quantity"],
            row["at"],
            row["ours"],
            row["paper"],
            row["p_value"],
            row["verdict"],
        )
