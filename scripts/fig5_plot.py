"""Plot Fig. 5 from the one-dimensional gradient-estimation cases: the ReLU, the noisy queries,
the fitted posterior mean with a two-standard-deviation band, and its tangent at x."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import matplotlib.pyplot as plt
    import numpy as np

    from localbo.io import load_json, load_npz
    from localbo.plotting import latex_number, palette, save_figure, set_style
    from localbo.subdifferentials import TEST_FUNCTIONS

    TANGENT_HALF_WIDTH = 0.15

    smk = snakemake  # noqa: F821
    set_style()
    colors = palette()
    panels = len(smk.input.summaries)
    fig, axes = plt.subplots(1, panels, figsize=(3.6 * panels, 2.9), squeeze=False, sharey=True)
    for k, (ax, summary_path, arrays_path) in enumerate(
        zip(axes[0], smk.input.summaries, smk.input.arrays, strict=True)
    ):
        summary, arrays = load_json(summary_path), load_npz(arrays_path)
        x, Z, y = arrays["x"], arrays["queries"], arrays["observations"]
        t, mu, sd = arrays["curve_grid"][:, None], arrays["curve_mean"], arrays["curve_std"]
        f = TEST_FUNCTIONS[summary["function"]].value
        slope = float(arrays["gradient"][0])
        mu_x = float(arrays["curve_mean_at_x"])
        ax.plot(
            t[:, 0],
            f(t),
            color="k",
            lw=1.2,
            label="ReLU" if summary["function"] == "relu" else summary["function"],
        )
        ax.plot(t[:, 0], mu, color=colors[0], lw=1.5, label=r"$\mu_{\mathcal{D}}$")
        ax.fill_between(t[:, 0], mu - 2 * sd, mu + 2 * sd, color=colors[0], alpha=0.2, lw=0)
        s = np.linspace(-TANGENT_HALF_WIDTH, TANGENT_HALF_WIDTH, 2)
        ax.plot(
            x[0] + s, mu_x + slope * s, color=colors[3], ls="--", lw=1.3, label=r"tangent at $x$"
        )
        ax.scatter(
            Z[:, 0], y, s=24, color=colors[1], edgecolor="k", lw=0.5, zorder=5, label="queries"
        )
        # The optimal designs repeat locations (n = 4: two points, twice each); say so.
        locations, counts = np.unique(np.round(Z[:, 0], 3), return_counts=True)
        for loc, count in zip(locations, counts, strict=True):
            if count > 1:
                top = float(np.max(y[np.abs(Z[:, 0] - loc) < 1e-3]))
                ax.annotate(
                    f"$\\times{count}$",
                    (loc, top),
                    xytext=(0, 7),
                    textcoords="offset points",
                    ha="center",
                    fontsize=8,
                )
        ax.set_xlim(t[0, 0], t[-1, 0])
        ax.set_xlabel("$x$")
        ax.set_title(
            f"({chr(ord('a') + k)}) $n = {summary['n']},\\ "
            f"\\mu_{{\\mathcal{{D}}}}'({x[0]:g}) = {latex_number(slope)}$"
        )
    axes[0, 0].legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    save_figure(fig, smk.output.pdf, smk.output.png)
    log.info("plotted %d panels", panels)
