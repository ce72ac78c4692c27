"""Rates tables: one row per run (results/rates/runs.csv), the median and quartiles of the running
minimum of ||grad f||^2 per case on the evaluation grid with Corollary 1's bound
(results/rates/curves.csv), and the fitted slopes beside the theory's exponents
(results/rates/slopes.csv).

f* of a path is the least true value any run on it reached (every run starts at x = 0): a value
found, so 2 L (f(x_1) - f*) / T is, if anything, below the corollary's bound with the true f*.
Wall times stay in the JSON files, so identical runs write identical tables.
The slope of a run is fitted over the decade of n that ends at the budget, or, at sigma = 0,
where the running minimum first reaches the estimation floor E(d + 1) of the design (with the
nugget, Theorem 1's second term), below which the curve only shows that floor.
"""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from collections import defaultdict

    import numpy as np

    from localbo import convergence as cv
    from localbo.io import load_json, load_npz, save_csv

    smk = snakemake  # noqa: F821
    runs = []  # (summary, grid, curve)
    for summary_file, curve_file in zip(smk.input.summaries, smk.input.curves, strict=True):
        arrays = load_npz(curve_file)
        for s in load_json(summary_file):
            runs.append((s, arrays["grid"], arrays[f"p{s['path']}"]))
    f_star: dict[tuple[int, int], float] = defaultdict(lambda: np.inf)
    for s, _, _ in runs:
        key = (s["d"], s["path"])
        f_star[key] = min(f_star[key], s["min_value"])

    rows, cases = [], defaultdict(list)
    for s, grid, curve in runs:
        floor = s["floor"] if s["floor"] is not None else 0.0
        end = cv.fit_end(grid, curve, floor)
        bound = cv.noiseless_bound(s["L"], s["f_start"], f_star[s["d"], s["path"]], grid, s["d"])
        row = {
            **{k: s[k] for k in ("d", "sigma", "schedule", "step_rule", "path", "L", "step_size")},
            "f_start": s["f_start"],
            "f_star": f_star[s["d"], s["path"]],
            "final_min_sq_grad": float(curve[-1]),
            "slope": cv.fit_slope(grid, curve, end),
            "fit_end": end,
            "floor": s["floor"],
            "below_bound": bool(np.all(curve[grid >= s["d"] + 1] <= bound[grid >= s["d"] + 1])),
            "left_box": s["left_box"],
        }
        rows.append(row)
        cases[s["d"], s["sigma"], s["schedule"], s["step_rule"]].append((row, grid, curve, bound))
    rows.sort(key=lambda r: (r["d"], r["sigma"], r["schedule"], r["step_rule"], r["path"]))
    save_csv(smk.output.runs, rows, list(rows[0]))

    curve_rows, slope_rows = [], []
    for (d, sigma, schedule, rule), members in sorted(cases.items()):
        grid = members[0][1]
        curves = np.array([m[2] for m in members])
        bounds = np.array([m[3] for m in members])
        has_bound = sigma == 0 and rule == "fixed"
        q25, median, q75 = np.nanpercentile(curves, [25, 50, 75], axis=0)
        floors = [m[0]["floor"] for m in members if m[0]["floor"] is not None]
        for j, n in enumerate(grid):
            curve_rows.append(
                {
                    "d": d,
                    "sigma": sigma,
                    "schedule": schedule,
                    "step_rule": rule,
                    "n": int(n),
                    "median": median[j],
                    "q25": q25[j],
                    "q75": q75[j],
                    "bound": float(np.median(bounds[:, j])) if has_bound else "",
                    "floor": float(np.median(floors)) if floors else "",
                }
            )
        slopes = np.array([m[0]["slope"] for m in members])
        s25, s50, s75 = np.nanpercentile(slopes, [25, 50, 75])
        slope_rows.append(
            {
                "sigma": sigma,
                "schedule": schedule,
                "step_rule": rule,
                "d": d,
                "theory": cv.THEORY_EXPONENTS[schedule],
                "slope_median": s50,
                "slope_q25": s25,
                "slope_q75": s75,
                "fit_end_median": float(np.median([m[0]["fit_end"] for m in members])),
                "paths": len(members),
                "below_bound_share": (
                    float(np.mean([m[0]["below_bound"] for m in members])) if has_bound else ""
                ),
                "left_box_share": float(np.mean([m[0]["left_box"] for m in members])),
            }
        )
        log.info(
            "d = %d, sigma = %g, %s, %s: slope %.3f [%.3f, %.3f] (theory %.3f)",
            d,
            sigma,
            schedule,
            rule,
            s50,
            s25,
            s75,
            cv.THEORY_EXPONENTS[schedule],
        )
    save_csv(smk.output.curves, curve_rows, list(curve_rows[0]))
    save_csv(smk.output.slopes, slope_rows, list(slope_rows[0]))
