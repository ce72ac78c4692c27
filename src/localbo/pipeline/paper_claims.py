"""Every number the paper states of its figures, with the rule that judges ours against it.

Each `Claim` names the section whose run produces our value, where the paper states it, the
paper's value as printed and as a number, and the rule of its verdict
(`localbo.pipeline.paper_comparison`). A claim that `decides` gives a verdict; the others are
information beside one that does (another view of the same event: the grid size of Fig. 1's
median, Fig. 3's curve at k = 10 and 100, each component of a vector estimate). Sources: the
paper's text and captions (`../shared/paper/paper.tex`) and the published Fig. 3 curve
(`config/paper/fig3_published.csv`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from localbo.gradient_estimation import PAPER_ESTIMATES
from localbo.pipeline.gradient_estimation import PAPER_DISTANCE, PROCEDURES, Cases
from localbo.predictive import half_unit
from localbo.restarts import grid_size_log10


@dataclass(frozen=True)
class Claim:
    """One number the paper states.

    Attributes:
        figure: the config section whose run produces it, which decides whether the run is
            comparable ("fig1", "fig2", "fig3", "gradient_estimation").
        key: which of this run's values (`ours`) it is compared with.
        quantity: what is compared (the row's name). where: the place in the paper.
        paper: the paper's value as it states it. value: as a number, or a vector of numbers
            (None: none, a share).
        rule: how the verdict is made (`localbo.pipeline.paper_comparison.RULES`).
        note: what the row compares.
        decides: whether the row gives a verdict, or is information beside one that does.
        low, high: for the "words" rule, the values of ours that agree with the paper's words.
        count: for the "medians" rule, the draws behind the paper's median (its paths).
        rounding: the largest rounding error of `value` (None: half a unit of the last digit
            of `paper`; 0: read off the paper's source at full precision).
    """

    figure: str
    key: str
    quantity: str
    where: str
    paper: str
    value: float | tuple[float, ...] | None
    rule: str
    note: str
    decides: bool = True
    low: float = math.nan
    high: float = math.nan
    count: int | None = None
    rounding: float | None = None

    def half_units(self) -> tuple[float, ...]:
        """The largest rounding error of each component of `value`."""
        if self.rounding is not None:
            return (self.rounding,) * len(self.values())
        return tuple(half_unit(text) for text in self.paper.strip("()").split(","))

    def values(self) -> tuple[float, ...]:
        """`value` as a vector."""
        assert self.value is not None, self.key
        return self.value if isinstance(self.value, tuple) else (self.value,)


def as_stated(function: str, point: tuple[float, ...], n: int) -> str:
    """The paper's estimate of a gradient-estimation setting (`PAPER_ESTIMATES`) as the paper
    prints it: "(0.039, 1.018)", or "2.06e-5" alone."""
    texts = [f"{v:g}".replace("e-0", "e-") for v in PAPER_ESTIMATES[(function, point, n)]]
    return texts[0] if len(texts) == 1 else f"({', '.join(texts)})"


# the places in the paper of the gradient-estimation settings, by the default cases' names
WHERE = {
    "quadratic_n5": "Fig. 4 (a) caption",
    "l1_n5": "Fig. 4 (b) caption",
    "l1_n10": "Fig. 4 (c) caption",
    "relu_n2": "appendix, ReLU figure (a)",
    "relu_n4": "appendix, ReLU figure (b)",
}
PROCEDURE_NOTE = {
    "ours": "our design (8 starts) and ML-II fit (10 starts in a box)",
    "paper": "the paper code's design (one start) and fit (GPyTorch's start, 50 iterations)",
}
# the published Fig. 3 curve at k = 1, 10, 100 (config/paper/fig3_published.csv)
FIG3_PUBLISHED = {1: -18.3005515304944, 10: -18.9268687815646, 100: -19.3323760500296}


def _gradient_claims() -> list[Claim]:
    """For each estimate the paper reports, by each procedure: a claim of the vector (the
    verdict) and, for a vector of two or more components, one per component (information);
    then the paper's qualitative claims as shares of draws."""
    claims = []
    for name, case in Cases().cases.items():
        paper = PAPER_ESTIMATES.get((case.function, case.x, case.n))
        if paper is None or case.fit != "default":
            continue
        stated = as_stated(case.function, case.x, case.n)
        for procedure in PROCEDURES:
            note = (
                f"{PROCEDURE_NOTE[procedure]}; share: draws within {PAPER_DISTANCE} of the "
                "paper's estimate"
            )
            whole = paper if len(paper) > 1 else paper[0]
            where = WHERE[name]
            quantity = f"{name}: grad mu(x), {procedure} procedure"
            claims.append(
                Claim("gradient_estimation", f"draws:{name}:{procedure}", quantity, where,
                      stated, whole, "draws", note)
            )  # fmt: skip
            if len(paper) == 1:
                continue
            for i, value in enumerate(paper):
                claims.append(
                    Claim(
                        "gradient_estimation",
                        f"draws:{name}:{procedure}:{i + 1}",
                        f"{name}: grad mu(x) component {i + 1}, {procedure} procedure",
                        where,
                        stated,
                        value,
                        "draws",
                        f"information: our draws' median and central band of component "
                        f"{i + 1}; the vector's row decides",
                        decides=False,
                    )
                )
    for procedure in PROCEDURES:
        claims.append(
            Claim(
                "gradient_estimation",
                f"share:closer:l1_n10:l1_n5:{procedure}",
                f"l1: n = 10 closer to the subdifferential than n = 5, {procedure} procedure",
                "section 6.3 and Fig. 4",
                "yes",
                None,
                "share",
                "the share of draws (the same draw index of each case) that bear it out",
            )
        )
        for name in ("relu_n2", "relu_n4"):
            claims.append(
                Claim(
                    "gradient_estimation",
                    f"share:inside:{name}:{procedure}",
                    f"{name}: mu'(0) in the subdifferential [0, 1], {procedure} procedure",
                    WHERE[name],
                    "yes",
                    None,
                    "share",
                    "the share of draws whose estimate lies in [0, 1]",
                )
            )
    return claims


CLAIMS: tuple[Claim, ...] = (
    Claim(
        "fig1",
        "fig1_median",
        "median local solution, sigma = 0, d = 50",
        "section 3, text beside Fig. 1",
        "-12.9",
        -12.9,
        "medians",
        "the paper's median over its 50 paths against our 50 paths' values",
        count=50,
    ),
    Claim(
        "fig1",
        "fig1_grid_size",
        "log10 grid size matching that median (Remark 1)",
        "section 3, text beside Fig. 1",
        "at least 10^36",
        grid_size_log10(-12.9),
        "medians",
        "information: v^2 / (2 ln 10) of the median v (36.1 at the paper's -12.9, which it "
        "states as 'at least 10^36') and the image of our median's interval; the median's row "
        "decides",
        decides=False,
    ),
    *(
        Claim(
            "fig2",
            f"fig2_slope_in_{axis}",
            f"slope of log E in log {axis} (panel {panel})",
            where,
            paper,
            None,
            "words",
            note,
            low=low,
            high=high,
        )
        for panel, axis, where, paper, low, high, note in (
            (
                "a",
                "b",
                "section 6.1 and Fig. 2 caption: magnitude 'slightly larger than 1/2'",
                "< -0.5",
                -0.75,
                -0.5,
                "least-squares slope over panel a; 'slightly larger' read as a magnitude in "
                "[0.5, 0.75]",
            ),
            (
                "b",
                "d",
                "section 6.1: d^{3/2} 'quite tight' (Fig. 2 caption: 'seems to be tight')",
                "1.5",
                1.25,
                1.75,
                "least-squares slope over panel b; 'quite tight' read as within 0.25 of the "
                "bound's exponent",
            ),
        )
    ),
    *(
        Claim(
            "fig3",
            f"fig3_best_of_{k}",
            "median single local solution (k = 1)" if k == 1 else f"median best of {k} restarts",
            "Fig. 3 right, published curve",
            f"{value:.2f}",
            value,
            "paths",
            "the median over orderings on our main path; the paper's curve is one more path, "
            "judged among our paths' values"
            if k == 1
            else "information: the curve at k = 1 decides (one path's curve is one event); "
            "ours_low and ours_high are the range of our paths'",
            decides=k == 1,
            rounding=0.0,  # read off the paper's source (config/paper/fig3_published.csv)
        )
        for k, value in FIG3_PUBLISHED.items()
    ),
    *_gradient_claims(),
)
