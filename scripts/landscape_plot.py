"""Plot the landscape figure from results/landscape/{population,percentiles,summary}.csv.

One column per d. Row 1: the basin-weighted distribution of the population's gaps f - f_best,
pooled over paths (gaps share a scale within d: f_best is each path's own best), with each
method's per-path gaps as a rug and its median as a vertical line. Row 2: each method's
percentile within its own path's population, a box per method (50: a random basin-weighted
local minimum). Row 3: the share of solutions on the box's boundary, the population's first.
One legend above the columns; each method keeps its colour and its name in every row.
"""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import textwrap

    import matplotlib.pyplot as plt
    import pandas as pd

    from localbo.colors import NOT_A_METHOD
    from localbo.plotting import boxes, save_figure, set_style

    smk = snakemake  # noqa: F821
    labels = smk.params.labels
    population = pd.read_csv(smk.input.population)
    methods = pd.read_csv(smk.input.percentiles)
    summary = pd.read_csv(smk.input.summary)
    set_style()
    dims = sorted(population["d"].unique())
    names = list(labels)
    ticks = {m: textwrap.fill(labels[m], 14) for m in names}  # the names, wrapped, on the axes
    # each Fig. 1 method in its colour of every figure; local BO's step rule with the exact
    # gradient, no Fig. 1 method, in the colour no method has; the population of minima in grey
    colors = {m: smk.params.colors.get(m, NOT_A_METHOD) for m in names}
    fig, axes = plt.subplots(
        3, len(dims), figsize=(3.4 * len(dims), 9.0), layout="constrained", squeeze=False
    )
    for col, d in enumerate(dims):
        pop, sol = population[population["d"] == d], methods[methods["d"] == d]
        paths = pop["path"].nunique()
        ax = axes[0, col]
        ax.hist(pop["gap"], bins=40, density=True, color="0.7", label="local minima")
        for k, m in enumerate(names):
            gaps = sol.loc[sol["method"] == m, "gap"]
            ax.axvline(gaps.median(), color=colors[m], lw=1.5, label=labels[m])
            ax.plot(
                gaps,
                [0.03 + 0.05 * k] * len(gaps),
                "|",
                color=colors[m],
                ms=6,
                transform=ax.get_xaxis_transform(),
            )
        ax.set_title(f"d = {d} ({paths} paths, {len(pop) // paths} starts each)")
        ax.set_xlabel("$f - f_{\\mathrm{best}}$")
        ax.set_ylabel("density (basin-weighted)" if col == 0 else "")

        ax = axes[1, col]
        for k, m in enumerate(names):
            boxes(ax, [sol.loc[sol["method"] == m, "percentile"].to_numpy()], [k], colors[m])
        ax.axhline(50, color="0.5", ls=":", lw=1)
        ax.set_ylim(-2, 102)
        ax.set_xticks(range(len(names)), [ticks[m] for m in names], fontsize="small")
        ax.set_ylabel("percentile in own path's minima" if col == 0 else "")

        ax = axes[2, col]
        shares = summary[summary["d"] == d].set_index("method")["boundary_share"]
        bars = ["population", *names]
        ax.bar(
            range(len(bars)),
            [shares[b] for b in bars],
            color=["0.7", *(colors[m] for m in names)],
        )
        names_of_bars = ["local minima", *(labels[m] for m in names)]
        ax.set_xticks(range(len(bars)), names_of_bars, rotation=30, ha="right", fontsize="small")
        ax.set_ylim(0, 1)
        ax.set_ylabel("share on the box boundary" if col == 0 else "")
        log.info("d=%d: boundary shares %s", d, dict(shares))
    handles, names_in_legend = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, names_in_legend, loc="outside upper center", ncols=len(handles))
    save_figure(fig, smk.output.pdf, smk.output.png)
