"""Collect the Fig. 2 estimates into results/fig2/error_function.csv, one row per (panel, d, b,
sigma); a job shared by both panels appears once in each."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from localbo.io import load_json, save_csv
    from localbo.pipeline.fig2 import estimates_by_panel

    smk = snakemake  # noqa: F821
    estimates = [est for path in smk.input for est in load_json(path)]
    rows = [
        {
            "panel": panel,
            "d": est["d"],
            "b": est["b"],
            "sigma": est["sigma"],
            "estimate": est["estimate"],
            "bound": est["bound"],
            "central_design": est["central_design"]["value"],
            "forward_design": est["forward_design"]["value"],
            "evaluations": est["evaluations"],
        }
        for panel, est in estimates_by_panel(estimates, smk.params.panels)
    ]
    rows.sort(key=lambda r: (r["panel"], r["sigma"], r["d"], r["b"]))
    columns = list(rows[0]) if rows else []
    save_csv(smk.output[0], rows, columns)
    log.info("wrote %d rows", len(rows))
