"""Landscape tables from the per-job JSON files.

- results/landscape/population.csv: one row per (d, path, start): the local minimum's value,
  its gap f - f_best and whether it is on the box's boundary.
- results/landscape/percentiles.csv: one row per (d, path, method): the value, the gap, the
  mid-rank percentile within the path's own population (`localbo.landscape.percentile`, lower
  is better), the same within the population's interior minima only (none on the boundary;
  empty when a path has no interior minimum), on_boundary and outside_box.
- results/landscape/summary.csv: one row per (d, method): median and quartiles of the
  percentile, the median interior percentile, the shares on the boundary and outside the box,
  the median gap; and a row `population` with the pooled population's shares and median gap.

f_best of a path is the least value anything found on it (the population and the three
methods; local BO and the exact BFGS descent may have left the box). Wall times stay in the
JSON files: the tables hold only numbers identical runs reproduce.
"""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import numpy as np

    from localbo.io import load_json, save_csv
    from localbo.landscape import percentile

    smk = snakemake  # noqa: F821
    entries = sorted(
        (e for f in smk.input for e in load_json(f)), key=lambda e: (e["d"], e["path"])
    )
    methods = list(entries[0]["methods"])  # as landscape_run wrote them, in its order
    population_rows, method_rows = [], []
    for e in entries:
        values = np.asarray(e["values"], dtype=float)
        interior = values[~np.asarray(e["on_boundary"], dtype=bool)]
        f_best = min(values.min(), *(e["methods"][m]["value"] for m in methods))
        population_rows += [
            {
                "d": e["d"],
                "path": e["path"],
                "start": j,
                "value": v,
                "gap": v - f_best,
                "on_boundary": int(b),
            }
            for j, (v, b) in enumerate(zip(values.tolist(), e["on_boundary"], strict=True))
        ]
        for m in methods:
            sol = e["methods"][m]
            method_rows.append(
                {
                    "d": e["d"],
                    "path": e["path"],
                    "method": m,
                    "value": sol["value"],
                    "gap": sol["value"] - f_best,
                    "percentile": percentile(sol["value"], values),
                    "interior_percentile": (
                        percentile(sol["value"], interior) if interior.size else float("nan")
                    ),
                    "on_boundary": int(sol["on_boundary"]),
                    "outside_box": int(sol["outside_box"]),
                }
            )
    save_csv(smk.output.population, population_rows, list(population_rows[0]))
    save_csv(smk.output.percentiles, method_rows, list(method_rows[0]))

    summary = []
    for d in sorted({e["d"] for e in entries}):
        pop = [r for r in population_rows if r["d"] == d]
        summary.append(
            {
                "d": d,
                "method": "population",
                "paths": len({r["path"] for r in pop}),
                "median_percentile": "",
                "percentile_q25": "",
                "percentile_q75": "",
                "median_interior_percentile": "",
                "boundary_share": float(np.mean([r["on_boundary"] for r in pop])),
                "outside_share": 0.0,
                "median_gap": float(np.median([r["gap"] for r in pop])),
            }
        )
        for m in methods:
            rows = [r for r in method_rows if r["d"] == d and r["method"] == m]
            q25, q50, q75 = np.percentile([r["percentile"] for r in rows], [25, 50, 75])
            summary.append(
                {
                    "d": d,
                    "method": m,
                    "paths": len(rows),
                    "median_percentile": float(q50),
                    "percentile_q25": float(q25),
                    "percentile_q75": float(q75),
                    "median_interior_percentile": float(
                        np.nanmedian([r["interior_percentile"] for r in rows])
                    ),
                    "boundary_share": float(np.mean([r["on_boundary"] for r in rows])),
                    "outside_share": float(np.mean([r["outside_box"] for r in rows])),
                    "median_gap": float(np.median([r["gap"] for r in rows])),
                }
            )
            log.info(
                "d=%d %s: median percentile %.1f (IQR %.1f-%.1f; interior only %.1f), %.0f%% on"
                " the boundary",
                d,
                m,
                q50,
                q25,
                q75,
                summary[-1]["median_interior_percentile"],
                100 * summary[-1]["boundary_share"],
            )
    save_csv(smk.output.summary, summary, list(summary[0]))
