"""Plot Fig. 2 from results/fig2/error_function.csv: estimate (solid) and bound (dashed) per
noise level, (a) against b at fixed d, (b) against d at fixed b, log-log."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from localbo.io import load_csv
    from localbo.plotting import ESTIMATE, Curve, error_function_panels, save_figure, set_style

    smk = snakemake  # noqa: F821
    rows = load_csv(smk.input[0])
    set_style()
    curves = [
        ESTIMATE,
        Curve(lambda r: float(r["bound"]), "--", f"bound ({smk.params.lemma})", kwargs={"lw": 1}),
    ]
    fig = error_function_panels(rows, curves, "$E_{d,k,\\sigma}(b)$", ncol=5)
    save_figure(fig, smk.output.pdf, smk.output.png)
    log.info("plotted %d rows", len(rows))
