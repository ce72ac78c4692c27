"""The sensitivity study's table (results/sensitivity/table.csv: a row per setting and row of the
paper comparison it explains, judged by that row's rule) and Fig. 3's paths
(results/sensitivity/fig3_paths.csv: each path's amplitude and curve at k = 1 and 10, per
setting), from the study's runs (`localbo.pipeline.sensitivity`)."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from pathlib import Path

    import numpy as np

    from localbo.io import blank_nan, load_csv, load_json, save_csv
    from localbo.pipeline.gradient_estimation import GradientEstimationJobs
    from localbo.pipeline.paper_comparison import PaperComparisonSettings
    from localbo.pipeline.sections import build
    from localbo.pipeline.sensitivity import DEFAULT
    from localbo.pipeline.sensitivity_table import PATH_COLUMNS, TABLE_COLUMNS, fig3_curve, table

    smk = snakemake  # noqa: F821
    p = smk.params
    comparison = build(PaperComparisonSettings, p.comparison, "paper_comparison")
    fig3, paths = {}, []
    for file in smk.input.fig3:
        setting = Path(file).stem
        choice, value = p.settings["fig3"][setting]
        for run in load_json(file):
            k1, k10 = fig3_curve(np.array(run["values"]), run["path"], p.seed, p.orderings)
            row = {"path": run["path"], "amplitude": run["amplitude"], "k1": k1, "k10": k10}
            fig3.setdefault(setting, []).append(row)
            named = {"choice": choice or "ours", "value": "" if value is None else value}
            paths.append({**named, **row})
    fig1 = {}
    for file in smk.input.fig1:
        runs = [r["value"] for r in load_json(file)]
        fig1.setdefault(Path(file).parent.name, []).extend(runs)
    gradient = {(Path(f).parent.name, Path(f).stem): load_csv(f) for f in smk.input.gradient}
    for file in smk.input.draws:  # each procedure's own draws: "case_procedure"
        case, procedure = GradientEstimationJobs.draw_key(file)
        gradient[f"{DEFAULT}-{procedure}", case] = load_csv(file)
    rows = table(
        fig3,
        {name: np.array(values) for name, values in fig1.items()},
        gradient,
        p.settings,
        comparison.false_disagreement,
        comparison.resamples,
        p.seed,
    )
    save_csv(smk.output.table, blank_nan(rows), TABLE_COLUMNS)
    save_csv(smk.output.paths, blank_nan(paths), PATH_COLUMNS)
    for r in rows:
        log.info(
            "%s: %s = %s -> ours %.4g, p %.3g, %s",
            r["explains"],
            r["choice"],
            r["value"],
            r["ours"],
            r["p_value"],
            r["verdict"],
        )
