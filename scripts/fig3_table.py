"""Fig. 3 tables: one row per run (results/fig3/restarts.csv), the median and band of the best
value after k restarts beside the paper's published curve (results/fig3/best_after_restarts.csv),
and the median curve of each other path (results/fig3/other_paths.csv: the spread between paths).
"""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import numpy as np

    from localbo.io import load_csv, load_npz, save_csv
    from localbo.restarts import best_after_restarts
    from localbo.seeding import rng_for

    smk = snakemake  # noqa: F821
    p = smk.params
    chunks = [load_npz(path) for path in smk.input.chunks]
    runs = {k: np.concatenate([c[k] for c in chunks]) for k in chunks[0]}
    columns = ["run", "value", "gradient_norm", "evaluations"]
    save_csv(
        smk.output.runs,
        [{k: runs[k][i].item() for k in columns} for i in range(len(runs["run"]))],
        columns,
    )
    best = best_after_restarts(
        runs["value"], p.max_restarts, p.orderings, p.band, rng_for(p.seed, "fig3", "orderings")
    )
    published = {int(r["restarts"]): r for r in load_csv(smk.input.published)}
    rows = []
    for i, k in enumerate(best.restarts):
        paper = published.get(int(k), {})
        rows.append(
            {
                "restarts": int(k),
                "median": best.median[i],
                "band_low": best.low[i],
                "band_high": best.high[i],
                "paper_median": float(paper.get("median", "nan")),
                "paper_band_low": float(paper.get("band_low", "nan")),
                "paper_band_high": float(paper.get("band_high", "nan")),
            }
        )
    save_csv(smk.output.best, rows, list(rows[0]))
    others = []
    for path in smk.input.others:
        arrays = load_npz(path)
        index = int(arrays["path_index"])
        curve = best_after_restarts(
            arrays["value"],
            p.max_restarts,
            p.orderings,
            p.band,
            rng_for(p.seed, "fig3", "orderings", index),
        )
        others += [
            {"path": index, "restarts": int(k), "median": m}
            for k, m in zip(curve.restarts, curve.median, strict=True)
        ]
        log.info("path %d: median single run %.4f", index, curve.median[0])
    save_csv(smk.output.other_paths, others, ["path", "restarts", "median"])
    log.info(
        "%d runs; median single run %.4f, median best of %d: %.4f",
        len(runs["run"]),
        best.median[0],
        best.restarts[-1],
        best.median[-1],
    )
