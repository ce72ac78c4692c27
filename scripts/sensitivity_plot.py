"""Plot the sensitivity study from results/sensitivity/{table,fig3_paths}.csv. Top: Fig. 3's
median single run (k = 1) on each of its paths against each choice's values (dots; the main
path a diamond), the paper's path dashed, the p-value of the paper's curve among ours above
each value. Bottom: the same against the number of features divided by each path's amplitude;
Fig. 1's d = 50 median against the number of features with its interval and the paper's; each
gradient estimate's p-value under each setting, the level dotted."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import matplotlib.pyplot as plt
    import numpy as np
    import pandas as pd

    from localbo.colors import COLORS
    from localbo.plotting import INK, notes_above, save_figure, set_style

    smk = snakemake  # noqa: F821
    rows = pd.read_csv(smk.input.table, keep_default_na=False)
    paths = pd.read_csv(smk.input.paths, keep_default_na=False)
    defaults, alpha = smk.params.defaults, smk.params.alpha
    set_style()
    fig = plt.figure(figsize=(16.0, 9.0), layout="constrained")
    top, bottom = fig.subfigures(2, 1, height_ratios=(1, 1.1))
    choices = list(defaults)
    axes = top.subplots(1, len(choices), sharey=True)
    k1 = rows[rows["explains"] == "fig3_best_of_1"]
    paper = float(k1["paper"].iloc[0])

    def number(value):
        """A value as the table writes it, as a number where it is one (its text else)."""
        try:
            return float(value)
        except ValueError:
            return value

    def values_of(choice):
        """The choice's values, ours among them, as the table writes them: numbers in order,
        names in the config's order."""
        mine = [str(v) for v in dict.fromkeys(paths.loc[paths["choice"] == choice, "value"])]
        values = list(dict.fromkeys([str(defaults[choice]), *mine]))  # ours first
        numeric = all(isinstance(number(v), float) for v in values)
        return sorted(values, key=number) if numeric else values

    notes = {}
    for ax, choice in zip(axes, choices, strict=True):
        values = values_of(choice)
        notes[choice] = {}
        for x, value in enumerate(values):
            ours = value == str(defaults[choice])
            mine = (paths["choice"] == choice) & (paths["value"].astype(str) == value)
            sel = paths[paths["choice"] == "ours"] if ours else paths[mine]
            jitter = np.linspace(-0.15, 0.15, len(sel))
            ax.plot(x + jitter, sel["k1"], "o", ms=3, color=COLORS[0], alpha=0.6)
            main = sel[sel["path"] == sel["path"].min()]
            ax.plot([x] * len(main), main["k1"], "D", ms=6, mfc="white", mec=INK)
            judged = (k1["choice"] == choice) & (k1["value"].astype(str) == value)
            row = k1[k1["choice"] == "ours"] if ours else k1[judged]
            if len(row):
                notes[choice][x] = f"p = {float(row['p_value'].iloc[0]):.2g}"
        ax.axhline(paper, color=COLORS[1], ls="--", lw=1.2)
        ticks = [v + (" (ours)" if v == str(defaults[choice]) else "") for v in values]
        ax.set_xticks(range(len(values)), ticks, fontsize="small")
        ax.set_xlim(-0.5, len(values) - 0.5)
        ax.set_xlabel(choice.replace("_", " "))
        log.info("panel: Fig. 3 against %s: %s", choice, values)
    for k, choice in enumerate(choices):  # after every panel's points: the shared axis holds all
        notes_above(axes[k], notes[choice], room=0.0 if k else 0.1)
    axes[0].set_ylabel("median single run (k = 1)")
    top.suptitle(
        f"Fig. 3, d = {smk.params.fig3_d}: each path's median single run against each choice "
        "(diamond: the "
        f"main path; dashed: the paper's path, {paper:.2f}; above: its p-value among ours)",
        fontsize="medium",
    )
    ax_scaled, ax_fig1, ax_gradient = bottom.subplots(1, 3, width_ratios=(1, 1, 2.2))
    values = values_of("num_features")
    for x, value in enumerate(values):
        ours = value == str(defaults["num_features"])
        mine = (paths["choice"] == "num_features") & (paths["value"].astype(str) == value)
        sel = paths[paths["choice"] == "ours"] if ours else paths[mine]
        jitter = np.linspace(-0.15, 0.15, len(sel))
        ax_scaled.plot(x + jitter, sel["k1"] / sel["amplitude"], "o", ms=3, color=COLORS[2])
    ax_scaled.set_xticks(range(len(values)), values, fontsize="small")
    ax_scaled.set_xlabel("number of features")
    ax_scaled.set_ylabel("median single run / path amplitude")
    ax_scaled.set_title("Fig. 3, each path divided by its amplitude", fontsize="small")
    fig1 = rows[rows["explains"] == "fig1_median"].copy()
    fig1["m"] = [defaults["num_features"] if c == "ours" else int(v)
                 for c, v in zip(fig1["choice"], fig1["value"], strict=True)]  # fmt: skip
    fig1 = fig1.sort_values("m")
    x = np.arange(len(fig1))
    ours = fig1["ours"].astype(float).to_numpy()
    low, high = fig1["ours_low"].astype(float), fig1["ours_high"].astype(float)
    ax_fig1.errorbar(x, ours, yerr=[ours - low, high - ours], fmt="o", color=COLORS[0], capsize=3)
    if len(fig1):
        ax_fig1.axhline(float(fig1["paper"].iloc[0]), color=COLORS[1], ls="--", lw=1.2)
    ax_fig1.set_xticks(x, [str(m) for m in fig1["m"]], fontsize="small")
    notes_above(
        ax_fig1, {k: f"p = {float(p):.2g}" for k, p in zip(x, fig1["p_value"], strict=True)}
    )
    ax_fig1.set_xlabel(f"number of features (ours: {defaults['num_features']})")
    ax_fig1.set_ylabel("median over the paths")
    ax_fig1.set_title(
        f"Fig. 1, d = {smk.params.fig1_d}, sigma = 0: median and its interval", fontsize="small"
    )
    gradient = rows[rows["explains"].str.startswith("draws:")].copy()
    cases = list(dict.fromkeys(gradient["explains"]))
    settings = list(dict.fromkeys(zip(gradient["choice"], gradient["value"], strict=True)))
    markers = "osD^v<>pPX*h"
    for k, (choice, value) in enumerate(settings):
        sel = gradient[(gradient["choice"] == choice) & (gradient["value"] == value)]
        y = [cases.index(c) for c in sel["explains"]]
        label = "own procedure" if choice == "ours" else f"{choice} = {value}"
        ax_gradient.plot(sel["p_value"].astype(float), y, markers[k % len(markers)], ms=5,
                         color=COLORS[k % len(COLORS)], label=label, alpha=0.8)  # fmt: skip
    ax_gradient.axvline(alpha, color=INK, ls=":", lw=1)
    ax_gradient.set_xscale("log")
    least = gradient["p_value"].astype(float).min() if len(gradient) else alpha
    ax_gradient.set_xlim(least / 1.5, 1.5)
    ax_gradient.set_yticks(range(len(cases)), [c.removeprefix("draws:") for c in cases],
                           fontsize="small")  # fmt: skip
    ax_gradient.set_xlabel(f"p-value of the paper's estimate among our draws (dotted: {alpha:g})")
    ax_gradient.set_title("Figs. 4 and 5: each estimate under each setting", fontsize="small")
    ax_gradient.legend(fontsize="x-small", loc="center left", bbox_to_anchor=(1.0, 0.5))
    save_figure(fig, smk.output.pdf, smk.output.png)
