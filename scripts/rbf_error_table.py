"""The RBF error function against Lemma 3: one row per (panel, d, b, sigma) with the estimate,
the differencing designs, m = floor(b / (2d)), the Lambert-W bound and its O(sigma d m^-1/2) form
and their ratios to the estimate (results/rbf_error/error_function.csv); and the log-log slope of
each in b (panel a) and in d (panel b) per sigma, by least squares over the panel's points where
the bound is defined (results/rbf_error/slopes.csv)."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import numpy as np

    from localbo import error_function as ef
    from localbo.convergence import log_log_slope
    from localbo.io import load_json, save_csv
    from localbo.panels import PANEL_AXES
    from localbo.pipeline.fig2 import estimates_by_panel

    smk = snakemake  # noqa: F821
    rows = []
    for panel, est in estimates_by_panel(
        [est for path in smk.input for est in load_json(path)], smk.params.panels
    ):
        d, b, sigma = est["d"], est["b"], est["sigma"]
        m = ef.rbf_pairs(d, b)
        lambert = est["bound"]  # the job's `paper_bound`: Lemma 3 at m, NaN when m = 0
        taylor = ef.rbf_taylor_bound(d, m, sigma) if m > 0 else float("nan")
        rows.append(
            {
                "panel": panel,
                "d": d,
                "b": b,
                "sigma": sigma,
                "estimate": est["estimate"],
                "central_design": est["central_design"]["value"],
                "forward_design": est["forward_design"]["value"],
                "m": m,
                "lambert_bound": lambert,
                "taylor_bound": taylor,
                "ratio": lambert / est["estimate"],
                "taylor_ratio": taylor / est["estimate"],
                "evaluations": est["evaluations"],
            }
        )
    rows.sort(key=lambda r: (r["panel"], r["sigma"], r["d"], r["b"]))
    save_csv(smk.output.estimates, rows, list(rows[0]))

    slopes = []
    for panel, (x_key, _) in PANEL_AXES.items():
        for sigma in sorted({r["sigma"] for r in rows}):
            sel = [
                r
                for r in rows
                if r["panel"] == panel and r["sigma"] == sigma and np.isfinite(r["lambert_bound"])
            ]
            if len(sel) < 2:
                continue
            row = {"panel": panel, "variable": x_key, "sigma": sigma, "points": len(sel)}
            for key in ("estimate", "lambert_bound", "taylor_bound"):
                row[f"{key}_slope"] = log_log_slope([r[x_key] for r in sel], [r[key] for r in sel])
            ratios = [r["ratio"] for r in sel]
            row["ratio_min"], row["ratio_max"] = min(ratios), max(ratios)
            slopes.append(row)
            log.info(
                "panel %s, sigma = %g: slope in %s %.3f (Lambert %.3f), ratio %.2f-%.2f",
                panel,
                sigma,
                x_key,
                row["estimate_slope"],
                row["lambert_bound_slope"],
                row["ratio_min"],
                row["ratio_max"],
            )
    save_csv(smk.output.slopes, slopes, list(slopes[0]) if slopes else ["panel"])
