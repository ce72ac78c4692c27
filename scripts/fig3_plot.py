"""Plot Fig. 3: density of single-run values (left); median and band of the best value after k
restarts, ours beside the paper's published curve and, thin, the other paths' medians (right)."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import matplotlib.pyplot as plt
    import numpy as np

    from localbo.io import load_csv
    from localbo.plotting import density, palette, save_figure, set_style

    smk = snakemake  # noqa: F821
    values = np.array([float(r["value"]) for r in load_csv(smk.input.runs)])
    rows = load_csv(smk.input.best)
    best = {key: np.array([float(r[key]) for r in rows]) for key in rows[0]}

    set_style()
    ours, paper = palette(2)
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6), layout="constrained")
    if values.size > 1 and np.ptp(values) > 0:
        density(left, values, ours)
    left.plot(values, np.zeros_like(values), "|", color=ours, ms=8, alpha=0.3)
    left.set_xlabel("value of a single local solution")
    left.set_ylabel("density")
    left.set_title(f"{values.size} runs, median {np.median(values):.2f}")

    k = best["restarts"]
    band = f"{100 * smk.params.band:g}% band"
    right.fill_between(k, best["band_low"], best["band_high"], color=ours, alpha=0.3, lw=0)
    right.plot(k, best["median"], color=ours, label=f"this pipeline: median, {band}")
    others = load_csv(smk.input.other_paths)  # the spread between paths: their medians, thin
    for index in sorted({r["path"] for r in others}, key=int):
        curve = [r for r in others if r["path"] == index]
        right.plot(
            [int(r["restarts"]) for r in curve],
            [float(r["median"]) for r in curve],
            color=ours,
            lw=0.6,
            alpha=0.6,
            label="other paths: median" if index == others[0]["path"] else None,
        )
    # the published curve belongs to a d = 100 path: drawn and listed only beside such a run
    has_paper = np.isfinite(best["paper_median"]) & smk.params.show_paper
    if has_paper.any():
        right.fill_between(
            k[has_paper],
            best["paper_band_low"][has_paper],
            best["paper_band_high"][has_paper],
            color=paper,
            alpha=0.2,
            lw=0,
        )
        right.plot(
            k[has_paper],
            best["paper_median"][has_paper],
            "--",
            color=paper,
            label="paper (Fig. 3): median, 90% band",
        )
    right.set_xlabel("restarts")
    right.set_ylabel("best value found")
    right.set_xlim(1, k[-1])
    legend = right.legend(fontsize=8, loc="upper right")
    log.info("legend: %s", "; ".join(text.get_text() for text in legend.get_texts()))
    save_figure(fig, smk.output.pdf, smk.output.png)
    log.info("plotted %d runs", values.size)
