"""The paper's own code beside Figs. 4 and 5 (localbo.pipeline.paper_code): the printed numbers
among the code's draws, and each procedure's draws against the code's."""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import numpy as np

    from localbo.io import load_csv, save_csv
    from localbo.pipeline import paper_code as pc
    from localbo.pipeline.gradient_estimation import GradientEstimationJobs, completed
    from localbo.pipeline.paper_claims import as_stated
    from localbo.seeding import rng_for

    smk = snakemake  # noqa: F821
    p = smk.params
    code = pc.code_draws(load_csv(smk.input.code))
    numbers = []
    for case, settings in p.cases.items():
        draws, failed, own = code[case]
        point = tuple(float(v) for v in settings["x"])
        printed = {"paper": as_stated(settings["function"], point, int(settings["n"]))}
        if case in pc.NOTEBOOK_OUTPUTS:
            printed["notebook"] = pc.NOTEBOOK_OUTPUTS[case]
        for source, text in printed.items():
            rng = rng_for(p.seed, "paper_code", case, source)
            p_value, verdict = pc.judge_among_code(draws, text, p.alpha, rng)
            numbers.append(
                {
                    "case": case,
                    "source": source,
                    "printed": text,
                    "code_draws": len(draws),
                    "code_failed": failed,
                    "p_value": p_value,
                    "verdict": verdict,
                    "code_seed_4321": " ".join(f"{v:.4g}" for v in own),
                }
            )
            log.info("%s, %s %s: p = %.3g among the code's draws", case, source, text, p_value)
    rows = []
    for path in smk.input.draws:
        case, procedure = GradientEstimationJobs.draw_key(path)
        if case not in p.cases:
            continue
        table = completed(load_csv(path))
        components = sorted(k for k in table[0] if k.startswith("grad_"))
        ours = np.array([[float(r[k]) for k in components] for r in table])
        rng = rng_for(p.seed, "paper_code", case, procedure)
        against = pc.against_code(ours, code[case][0], p.alpha, p.resamples, rng)
        rows += pc.component_rows(case, procedure, against, p.alpha, p.tolerance)
    save_csv(smk.output.code_numbers, numbers, pc.NUMBER_COLUMNS)
    save_csv(smk.output.code_draws, rows, pc.DRAW_COLUMNS)
    for row in rows:
        log.info(
            "%s (%s) component %d: ours minus the code's median %.3g [%.3g, %.3g], KS p %.2g",
            row["case"],
            row["procedure"],
            row["component"],
            row["difference"],
            row["difference_low"],
            row["difference_high"],
            row["ks_p_value"],
        )
