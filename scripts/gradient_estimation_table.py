"""Collect the Fig. 4/5 cases into results/gradient_estimation/summary.csv: each estimate
grad mu_D(x) beside the paper's reported value, both with their distance to the subdifferential."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    from localbo.io import load_json, save_csv

    smk = snakemake  # noqa: F821
    cases = [load_json(path) for path in smk.input]
    d_max = max(len(c["x"]) for c in cases)
    rows = []
    for c in cases:
        paper = c["paper_gradient"] or []
        row = {
            "case": c["case"],
            "function": c["function"],
            "x": " ".join(repr(v) for v in c["x"]),
            "n": c["n"],
            "noise_std": c["noise_std"],
            "fit": c["fit"],
        }
        for i in range(d_max):
            row[f"grad_{i + 1}"] = c["gradient"][i] if i < len(c["gradient"]) else ""
        for i in range(d_max):
            row[f"paper_grad_{i + 1}"] = paper[i] if i < len(paper) else ""
        # distances of the estimate and of the paper's value to the subdifferential at x
        row["error"] = c["error"]
        row["paper_error"] = "" if c["paper_error"] is None else c["paper_error"]
        for key in ("mean", "lengthscale", "outputscale", "noise_var"):
            row[key] = c["hyperparameters"][key]
        row["at_bound"] = " ".join(c["at_bound"])
        rows.append(row)
    save_csv(smk.output[0], rows, list(rows[0]))
    log.info("wrote %d rows", len(rows))
