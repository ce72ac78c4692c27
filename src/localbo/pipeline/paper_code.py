"""The paper's own code beside Figs. 4 and 5: its draws, where the paper's numbers lie among
them, how far our procedures' draws lie from them, and what causes a disagreement.

The paper's code (kayween/local-bo-convergence at ee8c032) ran each case as its notebooks run it,
for seed 4321 and 200 other seeds, on the CPU (`bench/paper_code_against_reference.py`); its
estimates are `config/paper/paper_code_draws.csv`, a row per case and seed (`grad_1`, ... empty
and `error` its message where the code stopped).

- Printed numbers (the paper's, and the outputs its notebooks committed) are judged as one more
  draw of the code by the comparison's draws rule (`localbo.predictive.density_p_value`), among
  the draws of the 200 seeds (seed 4321 on the CPU is not the notebooks' CUDA draw, and is left
  out of the sample).
- Our draws against the code's, per component: the difference of medians (ours minus the
  code's) with its percentile bootstrap interval at 1 - alpha (each sample resampled on its
  own), and the two-sample Kolmogorov-Smirnov statistic with its p-value (`scipy.stats`).
- Our draws agree with the code's when, for every component, the KS test does not reject at
  alpha and the interval lies inside +-`PaperComparisonSettings.code_tolerance`.
- A disagreement's cause (`causes`): the paper's number is an unlikely draw of its own code
  (p <= alpha among the code's draws, while our paper procedure's draws agree with the code's:
  the paper printed something its code, as committed, does not make); or our procedure departs
  from the code in named settings, its draws differing from the code's (the KS test rejecting
  at alpha), with the difference that measures it; then the settings of the sensitivity study
  under which ours agrees. Where our draws neither agree with the code's nor differ from them
  (a law too wide for the rule's tolerance), no departure is named.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from localbo.pipeline.sections import as_config

CODE_SEED = 4321  # the notebooks' and the scripts' seed
# The outputs the notebooks committed (ran on CUDA): the quadratic's grad mu with n = 5
# (l2_vs_l1_norm.ipynb, cell 0: "nabla mu tensor([0.0149, 0.9831])") and the ReLU's with
# n = 2 (relu.ipynb, cell 1: "nabla mu tensor([0.0002])"), as printed
NOTEBOOK_OUTPUTS = {"quadratic_n5": "(0.0149, 0.9831)", "relu_n2": "0.0002"}
NUMBER_COLUMNS = [
    "case", "source", "printed", "code_draws", "code_failed", "p_value", "verdict",
    "code_seed_4321",
]  # fmt: skip
DRAW_COLUMNS = [
    "case", "procedure", "component", "code_median", "code_low", "code_high", "median", "low",
    "high", "difference", "difference_low", "difference_high", "ks_statistic", "ks_p_value",
    "differs", "agrees",
]  # fmt: skip


def code_draws(rows: list[dict[str, str]]) -> dict[str, tuple[np.ndarray, int, np.ndarray]]:
    """The code's draws table (CSV rows) by case: (the (n, p) estimates of the seeds other
    than `CODE_SEED` that completed, how many of those seeds failed, seed 4321's (p,) estimate
    or an empty array if it failed)."""
    cases: dict[str, tuple[list, int, np.ndarray]] = {}
    for row in rows:
        values, failed, own = cases.get(row["case"], ([], 0, np.array([])))
        estimate = np.array(
            [float(row[k]) for k in sorted(row) if k.startswith("grad_") and row[k]]
        )
        if int(row["seed"]) == CODE_SEED:
            own = estimate
        elif row["error"]:
            failed += 1
        else:
            values.append(estimate)
        cases[row["case"]] = (values, failed, own)
    return {case: (np.array(v), f, own) for case, (v, f, own) in cases.items()}


def printed_vector(text: str) -> tuple[np.ndarray, np.ndarray]:
    """A printed estimate "(0.039, 1.018)" or "2.06e-5": its values and half-units."""
    from localbo.predictive import half_unit

    parts = text.strip("()").split(",")
    return np.array([float(p) for p in parts]), np.array([half_unit(p) for p in parts])


def judge_among_code(
    code: np.ndarray, printed: str, alpha: float, rng: np.random.Generator
) -> tuple[float, str]:
    """(p, verdict) of a printed estimate as one more draw of the code's (n, p) draws."""
    from localbo.predictive import density_p_value

    value, half_units = printed_vector(printed)
    p = density_p_value(code, value, half_units, rng)
    return p, "unlikely draw of the code" if p <= alpha else "plausible draw of the code"


@dataclass(frozen=True)
class Against:
    """One component of our draws against the code's (the module docstring)."""

    code_median: float
    code_low: float
    code_high: float
    median: float
    low: float
    high: float
    difference: float
    difference_low: float
    difference_high: float
    ks_statistic: float
    ks_p_value: float


def against_code(
    ours: np.ndarray, code: np.ndarray, alpha: float, resamples: int, rng: np.random.Generator
) -> list[Against]:
    """Per component of (n, p) ours and (m, p) code's draws: the medians and central 1 - alpha
    bands, the difference of medians (ours minus the code's) with its percentile bootstrap
    interval at 1 - alpha, and the two-sample KS test.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> a = against_code(np.zeros((50, 1)), np.zeros((40, 1)), 0.1, 999, rng)[0]
        >>> a.difference, a.difference_low, a.difference_high, a.ks_statistic
        (0.0, 0.0, 0.0, 0.0)
    """
    from scipy import stats

    found = []
    quantiles = [alpha / 2, 1 - alpha / 2]
    for j in range(code.shape[1]):
        a, b = ours[:, j], code[:, j]
        difference = float(np.median(a) - np.median(b))
        if np.all(a == a[0]) and np.all(b == b[0]):
            low = high = difference
        else:
            interval = stats.bootstrap(
                (a, b),
                lambda x, y, axis=-1: np.median(x, axis=axis) - np.median(y, axis=axis),
                n_resamples=resamples,
                confidence_level=1 - alpha,
                method="percentile",
                vectorized=True,
                rng=rng,
            ).confidence_interval
            low, high = float(interval.low), float(interval.high)
        ks = stats.ks_2samp(a, b)
        found.append(
            Against(
                float(np.median(b)),
                *map(float, np.quantile(b, quantiles)),
                float(np.median(a)),
                *map(float, np.quantile(a, quantiles)),
                difference,
                low,
                high,
                float(ks.statistic),
                float(ks.pvalue),
            )
        )
    return found


def agrees(components: list[Against], alpha: float, tolerance: float) -> bool:
    """Whether draws agree with the code's: every component's KS test does not reject at alpha
    and its interval lies inside +-tolerance."""
    return all(
        c.ks_p_value > alpha and -tolerance <= c.difference_low and c.difference_high <= tolerance
        for c in components
    )


def departures(ours: Any, paper: Any) -> str:
    """The settings of two procedures' sections (dataclasses) that differ, as
    "key ours (paper's)"."""
    mine, theirs = as_config(ours), as_config(paper)
    return ", ".join(
        f"{key} {mine[key]} ({theirs[key]})" for key in mine if mine[key] != theirs.get(key)
    )


def causes(
    numbers: list[dict[str, str]],
    draws: list[dict[str, str]],
    named: str,
    sensitivity: dict[str, str],
) -> dict[str, str]:
    """The cause of each Figs. 4-5 claim `draws:CASE:PROCEDURE` whose paper number may disagree
    with our draws (the module docstring), from this module's two tables.

    Args:
        numbers: the printed numbers' table (`NUMBER_COLUMNS`). draws: our draws against the
            code's (`DRAW_COLUMNS`).
        named: how our procedure departs from the paper code's, as `departures` writes it.
        sensitivity: per claim key, what the sensitivity study found
            (`localbo.pipeline.sensitivity_table.causes`).

    Returns:
        Per claim key, the causes that hold, joined by "; ": for a case the code ran, those of
        the module docstring; for any other key, the sensitivity study's (`study_agreement`).
    """
    p_code = {r["case"]: r for r in numbers if r["source"] == "paper"}
    found = {key: study_agreement(study) for key, study in sensitivity.items()}
    for case, number in p_code.items():
        paper_is_code = _agree(draws, case, "paper")
        for procedure in ("ours", "paper"):
            key = f"draws:{case}:{procedure}"
            rows = [r for r in draws if r["case"] == case and r["procedure"] == procedure]
            if not rows:
                continue
            reasons = []
            p = float(number["p_value"])
            if number["verdict"].startswith("unlikely") and paper_is_code:
                reasons.append(
                    f"the paper's number is an unlikely draw of its own code (p = {p:.2g} among "
                    f"its {number['code_draws']} draws), which our paper procedure's agree with"
                )
            differing = [r for r in rows if r["differs"] == "True"]
            if differing:
                worst = min(differing, key=lambda r: float(r["ks_p_value"]))
                measured = (
                    f"component {worst['component']}: ours minus the code's median "
                    f"{float(worst['difference']):.3g} [{float(worst['difference_low']):.3g}, "
                    f"{float(worst['difference_high']):.3g}], KS p = "
                    f"{float(worst['ks_p_value']):.2g}"
                )
                who = f"our procedure departs from the code in {named}"
                if procedure == "paper":
                    who = "our paper procedure's draws differ from the code's"
                reasons.append(f"{who}: {measured}")
            study = sensitivity.get(key, "")
            if study and not study.startswith("none of"):
                reasons.append(study_agreement(study))
            found[key] = "; ".join(reasons) if reasons else study
    return found


def study_agreement(study: str) -> str:
    """The sensitivity study's finding as a cause: "a = 1; a = 2; b = 3" (the settings under
    which ours agrees) as "the sensitivity study agrees at a = 1 or 2 and at b = 3"; "none of:
    ..." as it is.

    Example:
        >>> study_agreement("noise_std = 0; design = paper; noise_std = 0.02")
        'the sensitivity study agrees at noise_std = 0 or 0.02 and at design = paper'
    """
    if not study or study.startswith("none of"):
        return study
    values: dict[str, list[str]] = {}
    for setting in study.split("; "):
        choice, _, value = setting.partition(" = ")
        values.setdefault(choice, []).append(value)
    return "the sensitivity study agrees at " + " and at ".join(
        f"{choice} = {' or '.join(v)}" for choice, v in values.items()
    )


def _agree(draws: list[dict[str, str]], case: str, procedure: str) -> bool:
    rows = [r for r in draws if r["case"] == case and r["procedure"] == procedure]
    return bool(rows) and all(r["agrees"] == "True" for r in rows)


def component_rows(
    case: str, procedure: str, components: list[Against], alpha: float, tolerance: float
) -> list[dict[str, Any]]:
    """The draws table's rows of one (case, procedure): per component, whether the KS test
    rejects at alpha (`differs`), and whether the procedure's draws agree with the code's
    (`agrees`, one value for all components)."""
    ok = agrees(components, alpha, tolerance)
    return [
        {"case": case, "procedure": procedure, "component": j + 1, **vars(c),
         "differs": c.ks_p_value <= alpha, "agrees": ok}
        for j, c in enumerate(components)
    ]  # fmt: skip
