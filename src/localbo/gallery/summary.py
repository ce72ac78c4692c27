"""The numbers the README and the docs quote about the gallery, written from its tables.

    python -m localbo.gallery summary            # rewrite every block from the gallery
    python -m localbo.gallery summary --check    # list the blocks that differ, exit 1 if any

A block is the text between a line `<!-- gallery: NAME -->` and the next `<!-- /gallery -->`
in README.md or a file of docs/; `BLOCKS` writes each from the gallery's tables, so that a
number the docs quote is the table's (a test holds every block to its writer). Numbers are
rounded to the digits the prose needs; a range is the least and largest over what it names.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from localbo.io import load_json
from localbo.pipeline.settings import load_settings, merged_config

BLOCK = re.compile(r"(<!-- gallery: (\w+) -->\n)(.*?)([ \t]*<!-- /gallery -->)", re.S)
DOCUMENTS = ("README.md", "docs/figures.md", "docs/methods.md")


def _wrap(text: str, indent: str = "", first: str = "") -> str:
    """A paragraph wrapped at 100 characters, its first line indented by `first`, the later ones
    by `indent` (a bullet: "- " in the text and `indent` two spaces)."""
    return textwrap.fill(text, 100, initial_indent=first, subsequent_indent=indent,
                         break_on_hyphens=False) + "\n"  # fmt: skip


def _table(gallery: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(gallery / f"{name}.csv", keep_default_na=False, na_values=[""])


def _f(x: float, digits: int = 2) -> str:
    """x with `digits` decimals, a minus sign for negatives and no '-0.00'."""
    text = f"{x:.{digits}f}"
    return text.lstrip("-") if float(text) == 0 else text


def _percent(share: float) -> str:
    """A share in percent, to one decimal where a whole number would round it to 0 or 100."""
    text = f"{100 * share:.0f}"
    if text in ("0", "100") and share not in (0.0, 1.0):
        text = f"{100 * share:.1f}"
    return f"{text} %"


def _range(values: pd.Series, digits: int = 2) -> str:
    low, high = float(values.min()), float(values.max())
    return (
        _f(low, digits)
        if _f(low, digits) == _f(high, digits)
        else (f"{_f(low, digits)} to {_f(high, digits)}")
    )


def _deciding(gallery: Path) -> pd.DataFrame:
    """The paper comparison's rows that give a verdict."""
    rows = _table(gallery, "paper_comparison")
    return rows[rows["verdict"].isin(["consistent", "inconsistent", "match", "miss"])]


def _row(gallery: Path, quantity: str) -> pd.Series:
    rows = _table(gallery, "paper_comparison")
    return rows[rows["quantity"] == quantity].iloc[0]


def verdicts(gallery: Path) -> str:
    """The README's count of verdicts."""
    rows = _table(gallery, "paper_comparison")
    deciding = _deciding(gallery)
    agree = deciding["verdict"].isin(["consistent", "match"])
    by_figure = deciding.groupby("figure")
    shares = rows[rows["rule"] == "share"]["share"].astype(float)
    names = {
        "fig1": "Fig. 1",
        "fig2": "Fig. 2",
        "fig3": "Fig. 3",
        "gradient_estimation": "Figs. 4-5",
    }

    def listed(agreeing: bool) -> str:
        parts = []
        for figure, group in by_figure:
            n = int((group["verdict"].isin(["consistent", "match"]) == agreeing).sum())
            if n:
                parts.append(f"{names[figure]}: {n} of {len(group)}")
        return "; ".join(parts)

    return _wrap(
        f"{int(agree.sum())} of its {len(deciding)} verdicts agree with the paper ({listed(True)}) "
        f"and {int((~agree).sum())} do not ({listed(False)}); the paper's {len(shares) // 2} "
        "qualitative claims, "
        "each by our procedure and the paper code's, hold in "
        f"{_percent(shares.min())} to {_percent(shares.max())} of our draws."
    )


def _draws(gallery: Path, case: str, procedure: str) -> tuple[pd.Series, list[pd.Series]]:
    """A case's deciding row of the comparison and its components' rows (ours, band)."""
    rows = _table(gallery, "paper_comparison")
    mine = rows[
        rows["quantity"].str.startswith(f"{case}: ")
        & rows["quantity"].str.endswith(f"{procedure} procedure")
    ]
    deciding = mine[mine["verdict"] != "information"].iloc[0]
    components = mine[mine["quantity"].str.contains("component")]
    return deciding, [r for _, r in components.iterrows()] or [deciding]


def _vector(values: list[float], digits: int = 2) -> str:
    return values and (f"({', '.join(_f(v, digits) for v in values)})" if len(values) > 1
                       else _f(values[0], digits))  # fmt: skip


def readme_figures(gallery: Path) -> str:
    """The README's bullets on the paper's figures, Figs. 1, 3, 4 and 5."""
    median = _row(gallery, "median local solution, sigma = 0, d = 50")
    grid = _row(gallery, "log10 grid size matching that median (Remark 1)")
    runs = _table(gallery, "fig1-local_solutions")
    runs = runs[runs["sigma"] == 0]
    random_level = runs[runs["method"] == "random_search"].groupby("d")["value"].median()
    best = _table(gallery, "fig3-best_after_restarts").set_index("restarts")
    k1 = _row(gallery, "median single local solution (k = 1)")
    others = _table(gallery, "fig3-other_paths")["path"].nunique()
    quad, quad_parts = _draws(gallery, "quadratic_n5", "ours")
    l1_ours, _ = _draws(gallery, "l1_n5", "ours")
    l1_paper, _ = _draws(gallery, "l1_n5", "paper")
    l10_ours, _ = _draws(gallery, "l1_n10", "ours")
    l10_paper, _ = _draws(gallery, "l1_n10", "paper")
    relu_ours, _ = _draws(gallery, "relu_n4", "ours")
    relu_paper, _ = _draws(gallery, "relu_n4", "paper")
    rows = _table(gallery, "paper_comparison")
    better = rows[rows["quantity"].str.startswith("l1: n = 10 closer")].set_index("quantity")
    share_ours = better["share"].iloc[0] if "ours" in better.index[0] else better["share"].iloc[1]
    share_paper = better["share"].sum() - share_ours
    inside = rows[rows["quantity"].str.contains("in the subdifferential")]["share"].min()
    bullets = [
        f"**Fig. 1** (above): local BO's single runs reach lower values as d grows, median "
        f"{_f(median.ours)} at d = 50, 90 % bootstrap interval [{_f(median.ours_low)}, "
        f"{_f(median.ours_high)}] (the paper's median {median.paper} is {median.verdict}, "
        f"p = {median.p_value:.2g}; a grid would need 10^{_f(grid.ours, 1)} points, the paper "
        f"{grid.paper}). TuRBO-1 and MPD fall with d as local BO does; random search stalls "
        f"near {_f(random_level[random_level.index >= 10].median(), 1)}, GP-UCB with it from "
        "d = 20 on.",
        "**Fig. 2** ([png](figures/gallery/fig2_error_function.png)): the error function falls "
        "with b a little faster than the bound's b^-1/2 and grows with d like its d^3/2.",
        f"**Fig. 3** ([png](figures/gallery/fig3_restarts.png)): on one d = 100 path, median "
        f"single run {_f(best.loc[1, 'median'])} against the paper's "
        f"{_f(best.loc[1, 'paper_median'])}, best of 100 restarts {_f(best.loc[100, 'median'])} "
        f"against {_f(best.loc[100, 'paper_median'])}; the thin lines are {others} other paths, "
        f"and at k = 1 the paper's path is {k1.verdict} with our {others + 1} (their range "
        f"[{_f(k1.low)}, {_f(k1.high)}], p = {k1.p_value:.2g}).",
        "**Fig. 4** ([png](figures/gallery/fig4_l1norm.png)): grad mu from five designed queries "
        f"recovers the quadratic's gradient, {_vector([r.ours for r in quad_parts])} by our "
        f"nearly fixed procedure, with which the paper's {quad.paper} is {quad.verdict} "
        f"(p = {quad.p_value:.2g}); on the l1 norm the paper's n = 5 estimate is "
        f"{l1_paper.verdict} with the paper code's procedure (p = {l1_paper.p_value:.2g}) and "
        f"{l1_ours.verdict} with ours (p = {l1_ours.p_value:.2g}), its n = 10 estimate "
        f"{l10_ours.verdict} with ours (p = {l10_ours.p_value:.2g}) and {l10_paper.verdict} with "
        f"the paper code's (p = {l10_paper.p_value:.2g}); n = 10 beats n = 5 in "
        f"{_percent(share_ours)} of our draws ({_percent(share_paper)} of the paper code's).",
        "**Fig. 5** ([png](figures/gallery/fig5_relu.png)): at the ReLU's kink the estimate lies "
        f"in the subdifferential [0, 1] in {_percent(inside)} of draws; at n = 4 the paper's "
        f"{relu_ours.paper} is {relu_paper.verdict} with the paper code's procedure (median "
        f"{_f(relu_paper.ours)}, p = {relu_paper.p_value:.2g}) and {relu_ours.verdict} with "
        f"ours (median {_f(relu_ours.ours)}, band [{_f(relu_ours.ours_low)}, "
        f"{_f(relu_ours.ours_high)}], p = {relu_ours.p_value:.2g}).",
    ]
    return "".join(_wrap("- " + b, "  ") for b in bullets)


def fig4_paper_fit(gallery: Path) -> str:
    """docs/figures.md's account of Fig. 4 (b)'s two fits."""
    fits = _table(gallery, "gradient_estimation-summary").set_index("case")
    ours, paper = fits.loc["l1_n5"], fits.loc["l1_n5_paper_fit"]
    return _wrap(
        "Fig. 4 (b), the l1 norm with n = 5, is where the fits part: our best of ten starts sits "
        f"on the lengthscale's lower bound ({_f(ours.lengthscale)}), so grad mu(0, 1) is about "
        f"{_vector([ours.grad_1, ours.grad_2], 4)} against the paper's "
        f"({_f(ours.paper_grad_1, 3)}, {_f(ours.paper_grad_2, 3)}); the paper code's fit "
        "(`paper_fit`, one L-BFGS run of 50 iterations from GPyTorch's initial values) ends at "
        f"lengthscale {_f(paper.lengthscale, 3)}, below our box, and gives "
        f"{_vector([paper.grad_1, paper.grad_2], 3)}. The comparison table shows both."
    )


def comparison(gallery: Path) -> str:
    """docs/figures.md's table of the comparison's verdicts."""
    lines = [
        "| number | paper | ours | p | verdict | cause (sensitivity study) |",
        "| --- | --- | --- | ---: | --- | --- |",
    ]
    for r in _deciding(gallery).itertuples():
        at = f", {r.at}" if isinstance(r.at, str) and r.at else ""
        if pd.isna(r.ours):
            ours = "(a vector: its density)"
        elif pd.isna(r.ours_low):
            ours = _f(r.ours, 3)
        else:
            ours = f"{_f(r.ours, 3)} [{_f(r.ours_low, 3)}, {_f(r.ours_high, 3)}]"
        p = "" if pd.isna(r.p_value) else f"{r.p_value:.2g}"
        cause = r.cause if isinstance(r.cause, str) else ""
        if cause.startswith("none of"):  # the settings tried are the sensitivity study's
            cause = "none of those tried"
        elif cause:  # "a = 1; a = 2; b = 3" as "a 1, 2; b 3"
            values: dict[str, list[str]] = {}
            for setting in cause.split("; "):
                choice, _, value = setting.partition(" = ")
                values.setdefault(choice, []).append(value)
            cause = "; ".join(f"{c} {', '.join(v)}" for c, v in values.items())
        lines.append(f"| {r.quantity}{at} | {r.paper} | {ours} | {p} | {r.verdict} | {cause} |")
    return "\n".join(lines) + "\n"


def cpu_hours(gallery: Path) -> str:
    """The README's gallery CPU-hours."""
    total = load_json(gallery / "provenance.json")["cpu_hours"]
    return _wrap(
        f"The gallery's own runs took {total:.0f} CPU-hours (its `provenance.json`), many of "
        "them alone on a core."
    )


def fig1_medians(gallery: Path) -> str:
    """docs/figures.md's table of Fig. 1's sigma = 0 medians by method and d."""
    from localbo.restarts import grid_size_log10

    runs = _table(gallery, "fig1-local_solutions")
    runs = runs[runs["sigma"] == 0]
    dims = sorted(runs["d"].unique())
    med = runs.groupby(["method", "d"])["value"].median()
    first = runs.groupby(["method", "d"])["first_region_value"].median()
    median = _row(gallery, "median local solution, sigma = 0, d = 50")
    rows = [
        ("local BO", [med["local_bo", d] for d in dims], f" (paper {median.paper})"),
        ("log10 of the matching grid size (Remark 1)",
         [float(grid_size_log10(med["local_bo", d])) for d in dims], " (paper 36)"),
        ("exact-gradient search", [med["exact_gradient", d] for d in dims], ""),
        ("TuRBO-1, first trust region", [first["turbo", d] for d in dims], ""),
        ("TuRBO-1, overall best", [med["turbo", d] for d in dims], ""),
        ("MPD, final iterate", [med["mpd", d] for d in dims], ""),
        ("GP-UCB", [med["gp_ucb", d] for d in dims], ""),
        ("random search", [med["random_search", d] for d in dims], ""),
    ]  # fmt: skip
    lines = ["| d | " + " | ".join(str(d) for d in dims) + " |"]
    lines.append("| --- |" + " ---: |" * len(dims))
    for label, values, last in rows:
        digits = 1 if label.startswith("log10") else 2
        cells = [_f(v, digits) for v in values]
        cells[-1] += last
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def fig1_methods(gallery: Path) -> str:
    """docs/figures.md's statements on Fig. 1's methods."""
    runs = _table(gallery, "fig1-local_solutions")
    runs = runs[runs["sigma"] == 0]
    med = runs.groupby(["method", "d"])["value"].median()
    first = runs.groupby(["method", "d"])["first_region_value"].median()
    dims = sorted(runs["d"].unique())
    top = dims[-1]
    regions = runs[runs["method"] == "turbo"].groupby("d")["restarts"].median() + 1
    gap = (med["mpd"] - med["local_bo"]).reindex(dims)
    mpd = runs[runs["method"] == "mpd"]
    best = (mpd["value"] - mpd["best_observation_value"]).abs().max()
    above = max(med["turbo", top], first["turbo", top]) > med["local_bo", top]
    grid = _row(gallery, "log10 grid size matching that median (Remark 1)")
    local = _wrap(
        "- Local BO's single runs reach lower values as d grows: a grid search would need "
        f"10^{_f(grid.ours, 1)} points to match its d = {top} median.",
        "  ",
    )
    turbo = _wrap(
        "- TuRBO-1's first region, a single local solution, is about as good as one local BO run "
        "up to d = 20 and worse from d = 30; its overall lead comes from its restarts, a "
        f"multi-start of, in the median, {regions.iloc[0]:.0f} regions at d = {dims[0]} down to "
        f"{regions.iloc[-1]:.0f} at d = {top} within the same budget."
        + (f" At d = {top} both its numbers lie above local BO's." if above else ""),
        "  ",
    )
    mpd_text = _wrap(
        "- MPD, one descent that spends the whole budget, ends a little above local BO at every "
        f"d in the difference of the two medians above ({_range(gap.iloc[:-1])} up to "
        f"d = {dims[-2]}, {_f(gap.iloc[-1])} at d = {top}); path by path it ends where "
        "local BO does on most paths up to d = 10 (the method comparison below). Its best "
        f"observation is within {_f(best)} of its final iterate in every run.",
        "  ",
    )
    return local + turbo + mpd_text


def method_comparison(gallery: Path) -> str:
    """docs/figures.md's numbers of the method comparison."""
    rows = _table(gallery, "method_comparison-summary")
    rows = rows[(rows["sigma"] == 0) & (rows["quantity"] == "returned point")]
    by = rows.set_index(["method", "d"])
    late = rows[(rows["method"].isin(["gp_ucb", "random_search"])) & (rows["d"] >= 10)]
    all_lose = (late["losses"] == late["paths"]).all()
    turbo, mpd, exact = by.loc["turbo"], by.loc["mpd"], by.loc["exact_gradient"]
    ties = ", ".join(str(int(mpd.loc[d, "ties"])) for d in (1, 5)) + f" and {mpd.loc[10, 'ties']}"
    medians = ", ".join(sorted({_f(mpd.loc[d, "median_difference"]) for d in (1, 5, 10)}))
    m10, e10 = mpd.loc[10], exact.loc[10]
    return _wrap(
        "In the gallery, at sigma = 0 (medians of paired differences): GP-UCB and random search "
        f"lose on {'every path' if all_lose else 'most paths'} from d = 10 on, by "
        f"{_range(late['median_difference'], 1)}; TuRBO-1's overall best wins on "
        f"{turbo.loc[5, 'wins']} of {turbo.loc[5, 'paths']} paths at d = 5 (median "
        f"{_f(turbo.loc[5, 'median_difference'])}) and on {turbo.loc[50, 'wins']} at d = 50 "
        f"(median {_f(turbo.loc[50, 'median_difference'])}); MPD's final iterate ties local BO "
        f"on {ties} paths at d = 1, 5 and 10 (median {medians}; at d = 10 Hodges-Lehmann "
        f"{_f(m10['hodges_lehmann'], 3)}, {m10['losses']} losses to {m10['wins']} wins, Holm's "
        f"p = {m10['holm_p']:.2g}) and ends higher by a median of "
        f"{_f(mpd.loc[50, 'median_difference'])} at d = 50. The exact-gradient search ties on "
        f"{e10['ties']} paths at d = 10, wins on {e10['wins']} and loses on {e10['losses']} "
        f"(median {_f(e10['median_difference'])}, Hodges-Lehmann "
        f"{_f(e10['hodges_lehmann'])}, Holm's p = {e10['holm_p']:.2g})."
    )


def mpd_pair(gallery: Path) -> str:
    """The README's sentence on the MPD pair, indented to continue a bullet."""
    rows = _table(gallery, "method_comparison-summary")
    pair = rows[(rows["method"] == "mpd_reference") & (rows["quantity"] == "returned point")]
    r = pair.iloc[0]
    higher = "higher" if r["median_difference"] > 0 else "lower"
    count = r["losses"] if higher == "higher" else r["wins"]
    side = "above" if higher == "higher" else "below"
    return _wrap(
        f"MPD with its authors' code's choices ({r['paths']} paths, d = {r['d']}, budget 500, a "
        f"small sample) ends {_f(abs(r['median_difference']))} {side} ours in the median paired "
        f"difference (interval [{_f(r['low'])}, {_f(r['high'])}], {higher} on {count} of "
        f"{r['paths']}; p = {r['wilcoxon_p']:.2g}).",
        "  ",
        "  ",
    )


def fig2_slopes(gallery: Path) -> str:
    """The slopes of Fig. 2, from the comparison's rows."""
    rows = _table(gallery, "paper_comparison")
    b = rows[rows["quantity"] == "slope of log E in log b (panel a)"]["ours"]
    d = rows[rows["quantity"] == "slope of log E in log d (panel b)"]["ours"]
    return _wrap(
        f"The estimate falls with b a little faster than the bound's b^-1/2 (slopes "
        f"{_range(b)}) and grows with d like its d^3/2 (slopes {_range(d)})."
    )


def _run_settings(gallery: Path, figure: str) -> Any:
    """The typed settings of the last run that made `figure`, from the gallery's config copies."""
    provenance = load_json(gallery / "provenance.json")
    run = provenance["runs"][provenance["figures"][figure]["runs"][-1]]
    return load_settings(merged_config([gallery.parent.parent / c for c in run["configs"]]))


def fig3(gallery: Path) -> str:
    """The numbers of Fig. 3, and the sensitivity study's medians by number of features."""
    best = _table(gallery, "fig3-best_after_restarts").set_index("restarts")
    k1 = _row(gallery, "median single local solution (k = 1)")
    paths = 1 + _table(gallery, "fig3-other_paths")["path"].nunique()
    study = _table(gallery, "sensitivity-fig3_paths")
    ours = _run_settings(gallery, "sensitivity").fig3_jobs().num_features
    study["features"] = study["value"].where(study["choice"] != "ours", ours)
    features = study[study["choice"].isin(["ours", "num_features"])].astype({"features": int})
    medians = (features["k1"] / features["amplitude"]).groupby(features["features"]).median()
    counts = ", ".join(str(m) for m in medians.index[:-1]) + f" and {medians.index[-1]}"
    values = ", ".join(_f(v) for v in medians.iloc[:-1]) + f" and {_f(medians.iloc[-1])}"
    return _wrap(
        f"Median single run {_f(best.loc[1, 'median'])} (the paper's path "
        f"{_f(best.loc[1, 'paper_median'])}), best of 10 restarts {_f(best.loc[10, 'median'])} "
        f"({_f(best.loc[10, 'paper_median'])}), of 100 {_f(best.loc[100, 'median'])} "
        f"({_f(best.loc[100, 'paper_median'])}). At k = 1 the paper's path is {k1.verdict} "
        f"with our {paths} (their range [{_f(k1.low)}, {_f(k1.high)}], p = "
        f"{k1.p_value:.2g}). With {counts} features the sensitivity study's median single run, "
        f"each path divided by its amplitude, is {values} (the paper's path "
        f"{_f(best.loc[1, 'paper_median'])})."
    )


def rates(gallery: Path) -> str:
    """docs/figures.md's table of the rates' median slopes, and what it says."""
    slopes = _table(gallery, "rates-slopes")
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
        cells = [_f(group.loc[d, "slope_median"], digits) for d in dims]
        name = theories[min(theories, key=lambda t: abs(t - theory))]
        lines.append(f"| sigma = {sigma:g}, {label} | {name} | " + " | ".join(cells) + " |")
    factor = slopes["slope_median"] / slopes["theory"]
    noiseless = factor[slopes["sigma"] == 0]
    growing = factor[slopes["schedule"].isin(["d_t", "d_t2"])]
    below = slopes.loc[slopes["sigma"] == 0, "below_bound_share"].min()
    return (
        "\n".join(lines)
        + "\n\n"
        + _wrap(
            "The rates do not look tight on sample paths. Noiseless, "
            + ("every run stays" if below == 1 else f"{_percent(below)} of the runs stay")
            + f" below Corollary 1's bound and falls {_range(noiseless, 1)} times faster in "
            "log-log "
            "slope: near a nondegenerate minimum gradient descent converges linearly, which a "
            "worst-case bound over L-smooth functions cannot use. Noisy, the growing batches beat "
            f"their exponents by factors of {_range(growing, 1)} at the median; the constant "
            "batch is "
            "the one schedule that plateaus, as Theorem 2 says. GIBO's normalized step (dashed) "
            "stalls: a fixed step length cannot converge."
        )
    )


def landscape(gallery: Path) -> str:
    """docs/figures.md's table of the landscape's median percentiles, and what it says."""
    summary = _table(gallery, "landscape-summary").set_index(["d", "method"])
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
    return (
        "\n".join(lines)
        + "\n\n"
        + _wrap(
            "Local BO's solution beats the typical local minimum of its path, but not because of "
            "its "
            "GP: the same step rule with the exact gradient lands at the same percentiles. It is "
            "where it starts and ends: the box's boundary, where "
            f"{_range(population, 0)} % of the minima from uniform starts lie, holds worse minima, "
            f"and local BO {'never ends' if never else 'rarely ends'} there. Among interior minima "
            f"alone its solution is typical (percentiles {interior.min():.0f} to "
            f"{interior.max():.0f}): the landscape, not an algorithmic bias, makes it good."
        )
    )


def rbf_error(gallery: Path) -> str:
    """The numbers of the RBF error function."""
    slopes = _table(gallery, "rbf_error-slopes")
    points = _table(gallery, "rbf_error-error_function")
    bounded = points[points["lambert_bound"].notna()]
    holds = (bounded["lambert_bound"] >= bounded["estimate"]).sum()
    central = bounded["lambert_bound"] / bounded["central_design"]
    a, b = slopes[slopes["panel"] == "a"], slopes[slopes["panel"] == "b"]
    return _wrap(
        f"Lemma 3 holds at {holds} of the {len(bounded)} points where it is stated and is loose: "
        f"the bound is {slopes['ratio_min'].min():.1f} to {slopes['ratio_max'].max():.0f} times "
        "the estimate, looser the larger b and the smaller sigma. In b the estimate falls like "
        f"b^({_range(a['estimate_slope'])}) against the bound's "
        f"b^({_range(a['lambert_bound_slope'])}), so the rate is not tight in b for the RBF "
        f"kernel; in d it grows like d^({_range(b['estimate_slope'])}) against the bound's "
        f"d^({_range(b['lambert_bound_slope'])}). Most of the gap is in the lemma's own "
        "analysis: the central design it is proved through is already "
        f"{central.min():.1f} to {central.max():.0f} times below the bound."
    )


def _mpd_bench(gallery: Path) -> list[dict]:
    """The last run's rows of bench/mpd_against_reference.py (its results sit beside the
    gallery's folder, figures/, in the repository)."""
    lines = (gallery.parents[1] / "bench" / "results" / "mpd_reference.jsonl").read_text()
    rows = [json.loads(line) for line in lines.splitlines()]
    last = {k: rows[-1][k] for k in ("commit", "localbo", "d", "budget")}
    return [r for r in rows if all(r[k] == v for k, v in last.items())]


def mpd_reference(gallery: Path) -> str:
    """docs/methods.md's comparison of MPD with its authors' code, from the bench's rows."""
    rows = _mpd_bench(gallery)
    runs = pd.DataFrame([r for r in rows if "method" in r])
    summaries = {r["summary"]: r for r in rows if "summary" in r}
    methods = list(dict.fromkeys(runs["method"]))
    medians = runs.groupby("method")[["value", "best_observation_value"]].median()
    lines = ["| run | paths | median final iterate | median best observation | CPU s a run |",
             "|---|---|---|---|---|"]  # fmt: skip
    for m in methods:
        cpu = summaries[f"CPU seconds per run: {m}"]["median"]
        n = int((runs["method"] == m).sum())
        lines.append(f"| {m} | {n} | {_f(medians.loc[m, 'value'])} | "
                     f"{_f(medians.loc[m, 'best_observation_value'])} | {cpu:.3g} |")  # fmt: skip
    differences = []
    for name, r in summaries.items():
        if name.startswith("CPU"):
            continue
        quantity, pair = name.split(": ", 1)
        differences.append(
            f"{pair.replace(' - ', ' minus ')}, {quantity}: {_f(r['difference_of_medians'])} "
            f"[{_f(r['low'])}, {_f(r['high'])}]"
        )
    first = rows[0]
    text = _wrap(
        f"Budget {first['budget']}, d = {first['d']}, the authors' code at commit "
        f"{first['commit'][:7]}. Differences of the medians, with 90 % paired bootstrap "
        "intervals over the paths: " + "; ".join(differences) + "."
    )
    return "\n".join(lines) + "\n\n" + text


BLOCKS: dict[str, Callable[[Path], str]] = {
    "verdicts": verdicts,
    "readme_figures": readme_figures,
    "fig4_paper_fit": fig4_paper_fit,
    "comparison": comparison,
    "cpu_hours": cpu_hours,
    "fig1_medians": fig1_medians,
    "fig1_methods": fig1_methods,
    "method_comparison": method_comparison,
    "mpd_pair": mpd_pair,
    "fig2_slopes": fig2_slopes,
    "fig3": fig3,
    "rates": rates,
    "landscape": landscape,
    "rbf_error": rbf_error,
    "mpd_reference": mpd_reference,
}


def rewritten(text: str, gallery: Path) -> str:
    """`text` with every block written anew from the gallery.

    Raises:
        KeyError: a block no writer of `BLOCKS` has.
    """
    return BLOCK.sub(lambda m: m.group(1) + BLOCKS[m.group(2)](gallery) + m.group(4), text)


def summary(gallery: Path, repo: Path, check: bool = False) -> list[Path]:
    """Write every block of the documents anew; with `check`, write nothing.

    Returns:
        The documents whose blocks changed (with `check`: would change).
    """
    changed = []
    for name in DOCUMENTS:
        path = repo / name
        text = path.read_text()
        new = rewritten(text, gallery)
        if new != text:
            changed.append(path)
            if not check:
                path.write_text(new)
    return changed
