"""Plot the RBF error function against Lemma 3 from results/rbf_error/error_function.csv: the
estimate (solid), the Lambert-W bound (dashed), its O(sigma d m^-1/2) form (dotted) and the better
differencing design (crosses) per noise level, (a) against b at fixed d, (b) against d at fixed b,
log-log."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import csv

    import matplotlib.pyplot as plt
    import seaborn as sns
    from matplotlib.ticker import NullFormatter

    from localbo.plotting import save_figure, set_style

    smk = snakemake  # noqa: F821
    with open(smk.input[0]) as handle:
        rows = list(csv.DictReader(handle))
    set_style()
    sigmas = sorted({float(r["sigma"]) for r in rows})
    colors = dict(zip(sigmas, sns.color_palette(n_colors=len(sigmas)), strict=True))
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.8), layout="constrained")
    for ax, panel, x_key, fixed_key in ((axes[0], "a", "b", "d"), (axes[1], "b", "d", "b")):
        fixed = None
        for sigma in sigmas:
            sel = sorted(
                (r for r in rows if r["panel"] == panel and float(r["sigma"]) == sigma),
                key=lambda r: int(r[x_key]),
            )
            if not sel:
                continue
            fixed = sel[0][fixed_key]
            x = [int(r[x_key]) for r in sel]
            color = colors[sigma]
            ax.plot(
                x,
                [float(r["estimate"]) for r in sel],
                "o-",
                color=color,
                ms=3,
                label=f"$\\sigma$ = {sigma:g}",
            )
            ax.plot(x, [float(r["lambert_bound"]) for r in sel], "--", color=color, lw=1)
            ax.plot(x, [float(r["taylor_bound"]) for r in sel], ":", color=color, lw=1)
            best = [min(float(r["central_design"]), float(r["forward_design"])) for r in sel]
            ax.plot(x, best, "x", color=color, ms=4)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel(f"${x_key}$")
        ax.set_ylabel("$E_{d,\\mathrm{RBF},\\sigma}(b)$")
        ax.set_title(f"({panel}) ${fixed_key}$ = {fixed}")
    axes[0].plot([], [], "k-", lw=1.5, label="estimate (L-BFGS)")
    axes[0].plot([], [], "k--", lw=1, label="Lemma 3 (Lambert W)")
    axes[0].plot([], [], "k:", lw=1, label="$d\\sqrt{2\\sigma^2 / (m + \\sigma^2)}$")
    axes[0].plot([], [], "kx", ms=4, label="best differencing design")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=4)
    save_figure(fig, smk.output.pdf, smk.output.png)
    log.info("plotted %d rows", len(rows))
