"""The paper comparison's rules, and the rules they replaced, on numbers drawn as ours.

For each rule and distribution (a normal; two modes, 60 % narrow at 0 and 40 % wide at 3; for
the draws rules, the same in two components), the share of replicates in which a number drawn
from the same distribution as ours is called inconsistent: the false-disagreement rate the rule
claims is its level. The replaced rules:

- paths, 5-95 %: the paper's path inside the central 90 % (numpy's quantiles) of 11 of ours;
- medians, sqrt(2) bootstrap: the paper's median of 50 within ours +- sqrt(2) half-widths of
  our median's percentile bootstrap interval, at 95 % (the old level) and at 90 %;
- draws, per component: each component inside the central 90 % of its 200 draws.

And on the gallery's draws of l1 with n = 5 (two modes; the paper's estimate in the gap) and the
quadratic (our procedure nearly deterministic): the p-values of the density rule, of a density
rule with Scott's bandwidth, and of a distance-from-the-centre rule (the share of our draws at
least as far, in the draws' Mahalanobis metric, from their median as the paper's estimate).

    python bench/comparison_rules.py --replicates 4000
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from full_run import append_row  # bench/, the script's folder
from scipy import stats

from localbo.io import load_csv
from localbo.pipeline.paper_comparison import PaperComparisonSettings
from localbo.predictive import density_p_value, median_p_value, rank_p_value
from localbo.seeding import rng_for

ALPHA = PaperComparisonSettings().false_disagreement
GALLERY = Path(__file__).resolve().parents[1] / "figures" / "gallery"


def normal(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    return rng.normal(size=shape)


def two_modes(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    wide = (rng.uniform(size=shape[:1]) < 0.4).reshape((-1,) + (1,) * (len(shape) - 1))
    return np.where(wide, 3.0 + rng.normal(size=shape), 0.05 * rng.normal(size=shape))


def old_paths(rng, draw):
    low, high = np.quantile(draw((11,)), [0.05, 0.95])
    return not low <= draw((1,))[0] <= high


def new_paths(rng, draw):
    return rank_p_value(draw((19,)), draw((1,))[0], 0.0, rng) <= ALPHA


def old_medians(confidence):
    def rule(rng, draw):
        ours, paper = draw((50,)), np.median(draw((50,)))
        interval = stats.bootstrap(
            (ours,), np.median, n_resamples=999, confidence_level=confidence,
            method="percentile", rng=rng,
        ).confidence_interval  # fmt: skip
        reach = np.sqrt(2) * (interval.high - interval.low) / 2
        return abs(paper - np.median(ours)) > reach

    return rule


def new_medians(rng, draw):
    return median_p_value(draw((50,)), np.median(draw((50,))), 50, 0.0) <= ALPHA


def old_draws(rng, draw):
    ours, paper = draw((200, 2)), draw((1, 2))[0]
    low, high = np.quantile(ours, [0.05, 0.95], axis=0)
    return not np.all((low <= paper) & (paper <= high))


def new_draws(rng, draw):
    return density_p_value(draw((199, 2)), draw((1, 2))[0], np.zeros(2), rng) <= ALPHA


# each rule, with the false-disagreement rate it claims
RULES = {
    "paths, 5-95 % of 11": (old_paths, 0.1),
    "paths, range of 19": (new_paths, ALPHA),
    "medians, sqrt(2) bootstrap at 95 %": (old_medians(0.95), 0.05),
    "medians, sqrt(2) bootstrap at 90 %": (old_medians(0.90), 0.1),
    "medians, beta-binomial": (new_medians, ALPHA),
    "draws, per component 90 %": (old_draws, 0.1),
    "draws, density": (new_draws, ALPHA),
}


def gallery_cases(out: Path) -> None:
    """The p-values of three vector rules on the gallery's degenerate cases."""
    for case, procedure in (("l1_n5", "ours"), ("quadratic_n5", "ours"), ("l1_n5", "paper")):
        rows = load_csv(GALLERY / f"gradient_estimation-draws-{case}_{procedure}.csv")
        ours = np.array([[float(r["grad_1"]), float(r["grad_2"])] for r in rows])
        paper = np.array([float(rows[0]["paper_grad_1"]), float(rows[0]["paper_grad_2"])])
        rng = rng_for(0, "comparison rules", case, procedure)
        points = np.vstack([ours + rng.uniform(-5e-4, 5e-4, ours.shape), paper])
        scott = stats.gaussian_kde(points.T)(points.T)
        centre = np.median(ours, axis=0)
        inverse = np.linalg.inv(np.cov(points.T))

        def distance(x, centre=centre, inverse=inverse):
            return np.einsum("...i,ij,...j->...", x - centre, inverse, x - centre)

        append_row(
            {
                "case": f"{case}_{procedure}",
                "density": density_p_value(ours, paper, np.full(2, 5e-4), rng),
                "density, Scott's bandwidth": float(np.mean(scott <= scott[-1])),
                "distance from the centre": float(np.mean(distance(ours) >= distance(paper))),
            },
            out,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicates", type=int, default=4000)
    parser.add_argument("--out", type=Path, default=Path("bench/results/comparison_rules.jsonl"))
    args = parser.parse_args()
    for name, (rule, level) in RULES.items():
        for distribution in (normal, two_modes):
            rng = rng_for(20231210, "comparison rules", name, distribution.__name__)

            def draw(shape, rng=rng, distribution=distribution):
                return distribution(rng, shape)

            called = sum(bool(rule(rng, draw)) for _ in range(args.replicates))
            rate = called / args.replicates
            se = np.sqrt(rate * (1 - rate) / args.replicates)
            append_row(
                {
                    "rule": name,
                    "distribution": distribution.__name__,
                    "level": level,
                    "false_disagreement": rate,
                    "monte_carlo_se": float(se),
                    "replicates": args.replicates,
                },
                args.out,
            )
    gallery_cases(args.out)


if __name__ == "__main__":
    main()
