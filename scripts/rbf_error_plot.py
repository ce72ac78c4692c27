"""Plot the RBF error function against Lemma 3 from results/rbf_error/error_function.csv: the
estimate (solid), the Lambert-W bound (dashed), its O(sigma d m^-1/2) form (dotted) and the better
differencing design (crosses) per noise level, (a) against b at fixed d, (b) against d at fixed b,
log-log."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from localbo.io import load_csv
    from localbo.plotting import ESTIMATE, Curve, error_function_panels, save_figure, set_style

    smk = snakemake  # noqa: F821
    rows = load_csv(smk.input[0])
    set_style()
    curves = [
        ESTIMATE,
        Curve(lambda r: float(r["lambert_bound"]), "--", "Lemma 3 (Lambert W)", kwargs={"lw": 1}),
        Curve(
            lambda r: float(r["taylor_bound"]),
            ":",
            "$d\\sqrt{2\\sigma^2 / (m + \\sigma^2)}$",
            kwargs={"lw": 1},
        ),
        Curve(
            lambda r: min(float(r["central_design"]), float(r["forward_design"])),
            "x",
            "best differencing design",
            kwargs={"ms": 4},
        ),
    ]
    fig = error_function_panels(rows, curves, "$E_{d,\\mathrm{RBF},\\sigma}(b)$", ncol=4)
    save_figure(fig, smk.output.pdf, smk.output.png)
    log.info("plotted %d rows", len(rows))
