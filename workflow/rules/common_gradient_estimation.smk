# Helpers of the Figs. 4 and 5 rules (gradient_estimation.smk): config, settings, inputs.
GRADIENT_ESTIMATION = config["gradient_estimation"]
GE_CASES = GRADIENT_ESTIMATION["cases"]


def gradient_estimation_settings(wildcards):
    """The knobs one case depends on, and nothing else (a new case never reruns the others)."""
    return {
        "seed": config["seed"],
        "kernel": GRADIENT_ESTIMATION["kernel"],
        "design": GRADIENT_ESTIMATION["design"],
        "fit": GRADIENT_ESTIMATION["fit"],
        "case": GE_CASES[wildcards.case],
    }


def gradient_estimation_results(cases, ext):
    return [f"results/gradient_estimation/{case}.{ext}" for case in cases]
