"""Plot the methods of Fig. 1 compared path by path, from results/method_comparison/: one panel
per method (and quantity) against the baseline at sigma = 0, then one per pair of variants; in
each, the paired differences per d (boxes; below zero the method ends lower), the median's
bootstrap interval (black bar) and the wins, ties and losses above each box."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import matplotlib.pyplot as plt
    import pandas as pd

    from localbo.plotting import boxes, notes_above, palette, save_figure, set_style

    smk = snakemake  # noqa: F821
    summary = pd.read_csv(smk.input.summary)
    differences = pd.read_csv(smk.input.differences)
    baseline = smk.params.labels.get(smk.params.baseline, smk.params.baseline)
    against_baseline = (summary["against"] == smk.params.baseline) & (summary["sigma"] == 0)
    order = list(smk.params.labels)  # Fig. 1's panels: the config's order
    quantities = ["returned point", "first region", "best observation"]
    groups = sorted(
        set(zip(summary["method"], summary["against"], summary["quantity"], strict=True)),
        key=lambda g: (
            g[1] != smk.params.baseline,  # the pairs of variants last
            order.index(g[0]) if g[0] in order else len(order),
            g[0],
            quantities.index(g[2]),
        ),
    )
    set_style()
    colors = palette(len(groups) + 1)[1:]  # the baseline's colour left out, as in Fig. 1
    columns = min(4, len(groups))
    rows = -(-len(groups) // columns)
    fig, axes = plt.subplots(
        rows, columns, figsize=(3.6 * columns, 3.2 * rows), squeeze=False, layout="constrained"
    )
    for ax in axes.flat[len(groups) :]:
        ax.set_visible(False)
    for ax, color, (method, against, quantity) in zip(axes.flat, colors, groups, strict=False):
        mine = summary[
            (summary["method"] == method)
            & (summary["against"] == against)
            & (summary["quantity"] == quantity)
            & ((summary["sigma"] == 0) | ~against_baseline)
        ].sort_values("d")
        dims = list(mine["d"])
        diff = differences[
            (differences["method"] == method)
            & (differences["against"] == against)
            & (differences["quantity"] == quantity)
            & differences["sigma"].isin(mine["sigma"])
        ]
        values = [diff.loc[diff["d"] == d, "difference"].to_numpy() for d in dims]
        boxes(ax, values, range(len(dims)), color, width=0.55)
        ax.axhline(0.0, color="0.3", lw=0.8, ls=":")
        for k, row in enumerate(mine.itertuples()):
            ax.plot([k, k], [row.low, row.high], color="k", lw=2.5, solid_capstyle="butt")
        counts = [f"{r.wins}/{r.ties}/{r.losses}" for r in mine.itertuples()]
        notes_above(ax, dict(enumerate(counts)), room=0.12)
        ax.set_xticks(range(len(dims)), [str(d) for d in dims])
        label = mine["label"].iloc[0]
        other = baseline if against == smk.params.baseline else against
        oracle = " (oracle)" if mine["oracle"].iloc[0] else ""
        which = "" if quantity == "returned point" else f", {quantity}"
        ax.set_title(f"{label}{which}{oracle}\nminus {other}", fontsize="small")
        ax.set_xlabel("$d$")
        ax.set_ylabel("paired difference of $f$")
        log.info("panel: %s - %s (%s), d = %s", method, against, quantity, dims)
    fig.suptitle("wins / ties / losses above each box", fontsize="small")
    save_figure(fig, smk.output.pdf, smk.output.png)
