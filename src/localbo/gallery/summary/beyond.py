"""The writers of the numbers on the figures beyond the paper (rates, landscape, the RBF error
function) and of the gallery's CPU-hours."""

from __future__ import annotations

from pathlib import Path

from localbo.gallery.summary.text import fmt, percent, span, table, table_and_text, wrap
from localbo.io import load_json


def cpu_hours(gallery: Path) -> str:
    """The README's gallery CPU-hours."""
    total = load_json(gallery / "provenance.json")["cpu_hours"]
    return wrap(
        f"The gallery's own runs took {total:.0f} CPU-hours (its `provenance.json`), many of "
        "them alone on a core."
    )


def rates(gallery: Path) -> str:
    """docs/figures.md's table of the rates' median slopes, and what it says."""
    slopes = table(gallery, "rates-slopes")
    slopes = slopes[slopes["step_rule"] == "fixed"]
    dims = sorted(slopes["d"].unique())
    labels = {
        "d_plus_1": "b_t = d + 1",
        "d_log2_t": "b_t = d log^2 t",
        "d_t": "b_t = d t",
        "d_t2": "b_t = d t^2",
        "constant": "b_t = d",
    }
    theories = {-1.0: "-1", -0.25: "-1/4", -1 / 3: "-1/3", 0.0: "0 (plateau)"}
    lines = ["| schedule | theory | " + " | ".join(f"d = {d}" for d in dims) + " |"]
    lines.append("| --- | ---: |" + " ---: |" * len(dims))
    for schedule, label in labels.items():
        group = slopes[slopes["schedule"] == schedule].set_index("d")
        sigma, theory = group["sigma"].iloc[0], group["theory"].iloc[0]
        digits = 1 if sigma == 0 else 2
        cells = [fmt(group.loc[d, "slope_median"], digits) for d in dims]
        name = theories[min(theories, key=lambda t: abs(t - theory))]
        lines.append(f"| sigma = {sigma:g}, {label} | {name} | " + " | ".join(cells) + " |")
    factor = slopes["slope_median"] / slopes["theory"]
    noiseless = factor[slopes["sigma"] == 0]
    growing = factor[slopes["schedule"].isin(["d_t", "d_t2"])]
    below = slopes.loc[slopes["sigma"] == 0, "below_bound_share"].min()
    return table_and_text(
        lines,
        "The rates do not look tight on sample paths. Noiseless, "
        + ("every run stays" if below == 1 else f"{percent(below)} of the runs stay")
        + f" below Corollary 1's bound and falls {span(noiseless, 1)} times faster in log-log "
        "slope: near a nondegenerate minimum gradient descent converges linearly, which a "
        "worst-case bound over L-smooth functions cannot use. Noisy, the growing batches beat "
        f"their exponents by factors of {span(growing, 1)} at the median; the constant batch is "
        "the one schedule that plateaus, as Theorem 2 says. GIBO's normalized step (dashed) "
        "stalls: a fixed step length cannot converge.",
    )


def landscape(gallery: Path) -> str:
    """docs/figures.md's table of the landscape's median percentiles, and what it says."""
    summary = table(gallery, "landscape-summary").set_index(["d", "method"])
    dims = sorted({d for d, _ in summary.index})
    lines = [
        "| d | local BO | exact-gradient L-BFGS-B | exact-gradient BFGS | minima on the boundary |",
        "| ---: | ---: | ---: | ---: | ---: |",
    ]
    for d in dims:
        cells = [f"{summary.loc[(d, m), 'median_percentile']:.0f}"
                 for m in ("local_bo", "exact_gradient", "exact_bfgs")]  # fmt: skip
        boundary = summary.loc[(d, "population"), "boundary_share"]
        lines.append(f"| {d} | " + " | ".join(cells) + f" | {100 * boundary:.0f} % |")
    population = summary.xs("population", level="method")["boundary_share"] * 100
    local = summary.xs("local_bo", level="method")
    interior = local["median_interior_percentile"]
    never = (local["boundary_share"] == 0).all()
    return table_and_text(
        lines,
        "Local BO's solution beats the typical local minimum of its path, but not because of its "
        "GP: the same step rule with the exact gradient lands at the same percentiles. It is "
        "where it starts and ends: the box's boundary, where "
        f"{span(population, 0)} % of the minima from uniform starts lie, holds worse minima, "
        f"and local BO {'never ends' if never else 'rarely ends'} there. Among interior minima "
        f"alone its solution is typical (percentiles {interior.min():.0f} to "
        f"{interior.max():.0f}): the landscape, not an algorithmic bias, makes it good.",
    )


def rbf_error(gallery: Path) -> str:
    """The numbers of the RBF error function."""
    slopes = table(gallery, "rbf_error-slopes")
    points = table(gallery, "rbf_error-error_function")
    bounded = points[points["lambert_bound"].notna()]
    holds = (bounded["lambert_bound"] >= bounded["estimate"]).sum()
    central = bounded["lambert_bound"] / bounded["central_design"]
    a, b = slopes[slopes["panel"] == "a"], slopes[slopes["panel"] == "b"]
    return wrap(
        f"Lemma 3 holds at {holds} of the {len(bounded)} points where it is stated and is loose: "
        f"the bound is {slopes['ratio_min'].min():.1f} to {slopes['ratio_max'].max():.0f} times "
        "the estimate, looser the larger b and the smaller sigma. In b the estimate falls like "
        f"b^({span(a['estimate_slope'])}) against the bound's "
        f"b^({span(a['lambert_bound_slope'])}), so the rate is not tight in b for the RBF "
        f"kernel; in d it grows like d^({span(b['estimate_slope'])}) against the bound's "
        f"d^({span(b['lambert_bound_slope'])}). Most of the gap is in the lemma's own "
        "analysis: the central design it is proved through is already "
        f"{central.min():.1f} to {central.max():.0f} times below the bound."
    )
