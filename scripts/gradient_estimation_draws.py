"""One case of Figs. 4 and 5 drawn `draws` times by one procedure (ours, or the paper code's
design and fit): a row per draw with the estimate grad mu_D(x), its distance to the
subdifferential and to the paper's estimate, the fit's NLML and the bounds it ended on; a draw
whose fit failed as the paper's code fails (`FitFailed`) has `failed`, the reason, and no
estimate."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import numpy as np

    from localbo import gradient_estimation as ge
    from localbo.hyperparameters import FitFailed
    from localbo.io import save_csv
    from localbo.pipeline.gradient_estimation import completed, run_job

    smk = snakemake  # noqa: F821
    s = smk.params.settings
    case = s["case"]
    x = np.asarray(case["x"], dtype=float)
    paper = ge.paper_estimate(case["function"], x, int(case["n"]))
    rows = []
    for draw in range(s["draws"]):
        row = {"draw": draw}
        try:
            _, _, est = run_job(s, draw)
        except FitFailed as failure:
            log.warning("draw %d: %s", draw, failure)
            row |= {f"grad_{i + 1}": "" for i in range(len(x))}
            row |= {
                f"paper_grad_{i + 1}": "" if paper is None else p for i, p in enumerate(paper or x)
            }
            rows.append(row | dict.fromkeys(["error", "paper_distance", "nlml", "at_bound"], ""))
            rows[-1]["failed"] = str(failure)
            continue
        row |= {f"grad_{i + 1}": g for i, g in enumerate(est.gradient)}
        row |= {f"paper_grad_{i + 1}": "" if paper is None else p for i, p in enumerate(paper or x)}
        row["error"] = est.error
        row["paper_distance"] = (
            "" if paper is None else float(np.linalg.norm(est.gradient - np.asarray(paper)))
        )
        row["nlml"] = est.fit.nlml
        row["at_bound"] = " ".join(est.fit.at_bound)
        row["failed"] = ""
        rows.append(row)
        if draw % 50 == 0:
            log.info("draw %d: grad mu(x) = %s", draw, est.gradient)
    save_csv(smk.output[0], rows, list(rows[0]))
    errors = np.array([r["error"] for r in completed(rows)])
    log.info("%d draws: distance to the subdifferential, median %.4g", len(rows), np.median(errors))
