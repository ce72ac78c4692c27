"""Plot the methods of Fig. 1 compared path by path, from results/method_comparison/.

Left: one panel per method (and quantity) against the baseline at sigma = 0, in the config's
order, on one symmetric-log y axis (linear within +-1) so that panels compare; in each, the
paired differences per d (boxes in the method's colour, hatched for its second quantity), the
median difference's bootstrap interval (black bar), the Hodges-Lehmann estimate (white
diamond), under each d the wins, ties and losses, and a star above it where Holm's correction
within the panel leaves p < 0.05. Right, set apart: each pair of `method_comparison.pairs` (a
method run at a budget of its own against the method it is paired with) at sigma = 0, a box per d
and quantity, on a y axis of its own. A legend and the statistics' note below.
"""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import matplotlib.pyplot as plt
    import pandas as pd
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import FixedLocator, NullFormatter, StrMethodFormatter

    from localbo.plotting import INK, boxes, notes_above, save_figure, set_style

    smk = snakemake  # noqa: F821
    summary = pd.read_csv(smk.input.summary)
    differences = pd.read_csv(smk.input.differences)
    methods, baseline = smk.params.methods, smk.params.baseline
    quantities = list(smk.params.quantities)  # the table's, the returned point first
    against_baseline = (summary["against"] == baseline) & (summary["sigma"] == 0)
    order = list(methods)  # the config's order, then the variants
    groups = sorted(
        set(zip(summary["method"], summary["against"], summary["quantity"], strict=True)),
        key=lambda g: (
            order.index(g[0]) if g[0] in order else len(order),
            g[0],
            quantities.index(g[2]),
        ),
    )
    main = [g for g in groups if g[1] == baseline]
    noiseless = summary[summary["sigma"] == 0]
    pairs = sorted(
        {
            (m, a)
            for m, a in zip(noiseless["method"], noiseless["against"], strict=True)
            if a != baseline
        }
    )
    LIMIT = 1.0  # the symmetric-log axis is linear within +-LIMIT
    TICKS = [-10, -3, -1, -0.5, 0, 0.5, 1, 3, 10]
    SIGNIFICANT = 0.05
    GREY = "0.6"  # a difference of two variants, not a method

    def title(method: str, quantity: str) -> str:
        """The method's label and what is compared: its returned point by its own name."""
        about = methods.get(method, {})
        label = about.get("label", method)
        if quantity == quantities[0]:
            returned = about.get("returned")
            return label if returned in (None, quantities[0]) else f"{label}, {returned}"
        return f"{label}, {quantity}"

    def panel(ax, rows, diff, color, hatch, x_of):
        """Boxes of the differences, the median's interval, the Hodges-Lehmann estimate and a
        star of each row (one per box, at x_of(row)); returns each row's wins, ties and losses,
        one a line."""
        xs = [x_of(r) for r in rows.itertuples()]
        values = [diff(r) for r in rows.itertuples()]
        boxes(ax, values, xs, color, width=0.55, hatch=hatch)
        ax.axhline(0.0, color=INK, lw=0.8, ls=":")
        counts, stars = [], {}
        for x, r in zip(xs, rows.itertuples(), strict=True):
            ax.plot([x, x], [r.low, r.high], color="k", lw=3, solid_capstyle="butt", zorder=4)
            ax.plot(x, r.hodges_lehmann, "D", ms=4.5, mfc="white", mec="k", mew=0.8, zorder=5)
            if r.holm_p < SIGNIFICANT:
                stars[x] = "*"
            counts.append(f"{r.wins}\n{r.ties}\n{r.losses}")
        return counts, stars

    set_style()
    columns = min(4, len(main)) if main else 1
    rows_main = -(-len(main) // columns) if main else 0
    width = 3.3 * columns + (3.0 if pairs else 0.0)
    fig = plt.figure(figsize=(width, 3.4 * max(rows_main, 1) + 1.0), layout="constrained")
    if pairs:
        left, right = fig.subfigures(1, 2, width_ratios=(3.3 * columns, 3.0), wspace=0.04)
    else:
        left, right = fig, None
    if main:
        axes = left.subplots(rows_main, columns, squeeze=False, sharey=True)
        for ax in axes.flat[len(main) :]:
            ax.set_visible(False)
        for ax, (method, _, quantity) in zip(axes.flat, main, strict=False):
            mine = summary[
                against_baseline & (summary["method"] == method) & (summary["quantity"] == quantity)
            ].sort_values("d")
            dims = list(mine["d"])
            diff = differences[
                (differences["method"] == method)
                & (differences["against"] == baseline)
                & (differences["quantity"] == quantity)
                & (differences["sigma"] == 0)
            ]
            counts, stars = panel(
                ax,
                mine,
                lambda r, diff=diff: diff.loc[diff["d"] == r.d, "difference"].to_numpy(),
                methods.get(method, {}).get("color") or GREY,
                None if quantity == quantities[0] else "///",
                lambda r, dims=dims: dims.index(r.d),
            )
            ax.set_yscale("symlog", linthresh=LIMIT)
            ax.yaxis.set_major_locator(FixedLocator(TICKS))
            ax.yaxis.set_major_formatter(StrMethodFormatter("{x:g}"))
            ax.yaxis.set_minor_formatter(NullFormatter())
            ax.set_xticks(
                range(len(dims)),
                [f"{d}\n{c}" for d, c in zip(dims, counts, strict=True)],
                fontsize="x-small",
            )
            notes_above(ax, stars, room=0.0)  # room on the shared axis below, once
            oracle = " (oracle)" if mine["oracle"].iloc[0] else ""
            ax.set_title(title(method, quantity) + oracle, fontsize="small")
            log.info("panel: %s - %s (%s), d = %s", method, baseline, quantity, dims)
        # room for the stars: 10 % of the shared axis on top, in its symmetric-log scale
        scale = axes[0, 0].yaxis.get_transform()
        low, high = scale.transform(axes[0, 0].get_ylim())
        top = scale.inverted().transform([high + 0.1 * (high - low)])[0]
        axes[0, 0].set_ylim(axes[0, 0].get_ylim()[0], top)
        for ax in axes[:, 0]:
            ax.set_ylabel(
                f"method minus {methods.get(baseline, {}).get('label', baseline)}\n"
                "(below 0: the method ends lower)"
            )
        for ax in axes[-1, :]:
            ax.set_xlabel("$d$, then wins, ties, losses")
        left.suptitle(
            f"each method minus {methods.get(baseline, {}).get('label', baseline)} on the same "
            f"paths, $\\sigma$ = 0 (symmetric log scale, linear within $\\pm${LIMIT:g})",
            fontsize="medium",
        )
    if right is not None:
        pair_axes = right.subplots(len(pairs), 1, squeeze=False)[:, 0]
        for ax, (method, against) in zip(pair_axes, pairs, strict=True):
            mine = noiseless[(noiseless["method"] == method) & (noiseless["against"] == against)]
            mine = mine.sort_values(
                ["d", "quantity"],
                key=lambda c: c.map(quantities.index) if c.name == "quantity" else c,
            )
            diff = differences[
                (differences["method"] == method)
                & (differences["against"] == against)
                & (differences["sigma"] == 0)
            ]
            cells = list(zip(mine["d"], mine["quantity"], strict=True))
            counts, stars = panel(
                ax,
                mine,
                lambda r, diff=diff: diff.loc[
                    (diff["quantity"] == r.quantity) & (diff["d"] == r.d), "difference"
                ].to_numpy(),
                GREY,
                None,
                lambda r, cells=cells: cells.index((r.d, r.quantity)),
            )
            # a box per (d, quantity): each named by what varies among them
            names = [
                "\n".join(
                    ([f"d = {d}"] if mine["d"].nunique() > 1 else [])
                    + ([q] if mine["quantity"].nunique() > 1 else [])
                )
                for d, q in cells
            ]
            ax.set_xticks(
                range(len(mine)),
                [f"{n}\n{c}" for n, c in zip(names, counts, strict=True)],
                fontsize="x-small",
            )
            ax.set_xlim(-0.7, len(mine) - 0.3)
            notes_above(ax, stars)
            small = ", small" if mine["small"].any() else ""
            where = ", ".join(f"d = {d}" for d in sorted(set(mine["d"])))
            ax.set_title(
                f"{title(method, quantities[0])}\nminus {title(against, quantities[0])}\n"
                f"({where}, {mine['paths'].max()} paths{small})",
                fontsize="small",
            )
            ax.set_ylabel("method minus its pair")
            log.info("pair: %s - %s", method, against)
        right.suptitle("pairs at a budget of their own, $\\sigma$ = 0", fontsize="medium")
    interval = f"median difference, {smk.params.confidence:.0%} interval"
    legend = [
        Patch(facecolor="0.85", edgecolor="0.25", label="paired differences over paths"),
        Patch(facecolor="0.85", edgecolor="0.25", hatch="///", label="a second quantity"),
        Line2D([], [], color="k", lw=3, label=interval),
        Line2D([], [], ls="", marker="D", mfc="white", mec="k", label="Hodges-Lehmann estimate"),
        Line2D([], [], ls="", marker="$*$", color="k", label=f"Holm's p < {SIGNIFICANT:g}"),
    ]
    fig.legend(
        handles=legend,
        loc="outside lower center",
        ncols=len(legend),
        fontsize="small",
        title=smk.params.note,
        title_fontsize="x-small",
    )
    save_figure(fig, smk.output.pdf, smk.output.png)
