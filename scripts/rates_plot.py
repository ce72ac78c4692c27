"""Plot the rates figure from results/rates/curves.csv and slopes.csv: min_{t' <= t}
||grad f(x_t')||^2 against evaluations n, log-log, one column per d and one row per noise level;
median (line) and interquartile band (step 1 / L) over paths, GIBO's normalized step dashed,
Corollary 1's bound and E(d + 1) at sigma = 0 (one gradient estimate's expected squared error;
the running minimum ends below it, the luckiest of many estimates), and the theory's slope over
the last decade of each schedule at sigma > 0 (dotted, through the median at the decade's start;
flat for the plateaus of d log^2 t and a constant batch)."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import matplotlib.pyplot as plt
    import numpy as np

    from localbo.io import load_csv
    from localbo.plotting import palette, save_figure, set_style

    smk = snakemake  # noqa: F821
    rows = load_csv(smk.input.curves)
    slopes = {
        (int(r["d"]), float(r["sigma"]), r["schedule"], r["step_rule"]): r
        for r in load_csv(smk.input.slopes)
    }
    set_style()
    dims = sorted({int(r["d"]) for r in rows})
    sigmas = sorted({float(r["sigma"]) for r in rows})
    schedules = list(dict.fromkeys(r["schedule"] for r in rows))
    step_rules = list(dict.fromkeys(r["step_rule"] for r in rows))  # "fixed" is the theory's
    colors = dict(zip(schedules, palette(len(schedules)), strict=True))
    fig, axes = plt.subplots(
        len(sigmas),
        len(dims),
        figsize=(3.2 * len(dims), 2.9 * len(sigmas)),
        layout="constrained",
        squeeze=False,
    )
    for row, sigma in enumerate(sigmas):
        for col, d in enumerate(dims):
            ax = axes[row, col]
            for schedule in schedules:
                for rule in step_rules:
                    sel = [
                        r
                        for r in rows
                        if int(r["d"]) == d
                        and float(r["sigma"]) == sigma
                        and r["schedule"] == schedule
                        and r["step_rule"] == rule
                    ]
                    if not sel:
                        continue
                    n = np.array([int(r["n"]) for r in sel])
                    median = np.array([float(r["median"]) for r in sel])
                    if rule == "fixed":
                        ax.plot(
                            n,
                            median,
                            color=colors[schedule],
                            lw=1.5,
                            label=smk.params.labels[schedule],
                        )
                        ax.fill_between(
                            n,
                            [float(r["q25"]) for r in sel],
                            [float(r["q75"]) for r in sel],
                            color=colors[schedule],
                            alpha=0.2,
                            lw=0,
                        )
                    else:
                        ax.plot(n, median, "--", color=colors[schedule], lw=1)
                    if rule == "fixed" and sel[0]["bound"]:
                        ax.plot(n, [float(r["bound"]) for r in sel], "k-.", lw=1)
                    if rule == "fixed" and sel[0]["floor"]:
                        ax.axhline(float(sel[0]["floor"]), color="0.5", ls=":", lw=1)
                    theory = float(slopes[d, sigma, schedule, rule]["theory"])
                    if rule == "fixed" and sigma > 0:  # a flat guide is a plateau
                        end = float(slopes[d, sigma, schedule, rule]["fit_end_median"])
                        start = np.interp(np.log10(end / 10), np.log10(n), np.log10(median))
                        guide = np.array([end / 10, end])
                        ax.plot(
                            guide,
                            10**start * (guide / guide[0]) ** theory,
                            ":",
                            color=colors[schedule],
                            lw=2,
                        )
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title(f"$d$ = {d}, $\\sigma$ = {sigma:g}")
            ax.set_xlabel("evaluations $n$")
            if col == 0:
                ax.set_ylabel("$\\min_{t' \\leq t} \\|\\nabla f(x_{t'})\\|^2$")
    handles, names = [], []
    for ax in axes.flat:
        for h, name in zip(*ax.get_legend_handles_labels(), strict=True):
            if name not in names:
                handles.append(h)
                names.append(name)
    fixed = [r for r in rows if r["step_rule"] == "fixed"]  # the rows with bound, floor, slope
    dotted = [
        name
        for name, drawn in (
            ("theory's slope", any(float(r["sigma"]) > 0 for r in fixed)),
            ("$E(d + 1)$, one estimate's expected error", any(r["floor"] for r in fixed)),
        )
        if drawn
    ]
    for style, name, drawn in (
        ("--", "GIBO's normalized step", "normalized" in step_rules),
        ("-.", "Corollary 1's bound", any(r["bound"] for r in fixed)),
        (":", " / ".join(dotted), bool(dotted)),
    ):
        if drawn:  # only what some panel shows
            handles.append(plt.Line2D([], [], color="k", ls=style, lw=1))
            names.append(name)
    fig.legend(handles, names, loc="outside lower center", ncol=4)
    save_figure(fig, smk.output.pdf, smk.output.png)
    log.info("plotted %d curve rows", len(rows))
