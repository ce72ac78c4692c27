"""The writers of the numbers that set ours beside the paper's: the verdicts, the README's
bullets on the paper's figures, the comparison table, Figs. 2, 3 and 4."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import chi2_contingency

from localbo.gallery.parts import sections_settings
from localbo.gallery.summary.text import (
    fmt,
    paper_row,
    percent,
    span,
    table,
    table_and_text,
    wrap,
)
from localbo.io import load_json
from localbo.pipeline.settings import merged_config


def _deciding(gallery: Path) -> pd.DataFrame:
    """The paper comparison's rows that give a verdict."""
    rows = table(gallery, "paper_comparison")
    return rows[rows["verdict"].isin(["consistent", "inconsistent", "match", "miss"])]


def verdicts(gallery: Path) -> str:
    """The README's count of verdicts."""
    rows = table(gallery, "paper_comparison")
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

    return wrap(
        f"{int(agree.sum())} of its {len(deciding)} verdicts agree with the paper ({listed(True)}) "
        f"and {int((~agree).sum())} do not ({listed(False)}); the paper's {len(shares) // 2} "
        "qualitative claims, "
        "each by our procedure and the paper code's, hold in "
        f"{percent(shares.min())} to {percent(shares.max())} of our draws."
    )


def _draws(gallery: Path, case: str, procedure: str) -> tuple[pd.Series, list[pd.Series]]:
    """A case's deciding row of the comparison and its components' rows (ours, band)."""
    rows = table(gallery, "paper_comparison")
    mine = rows[
        rows["quantity"].str.startswith(f"{case}: ")
        & rows["quantity"].str.endswith(f"{procedure} procedure")
    ]
    deciding = mine[mine["verdict"] != "information"].iloc[0]
    components = mine[mine["quantity"].str.contains("component")]
    return deciding, [r for _, r in components.iterrows()] or [deciding]


def _vector(values: list[float], digits: int = 2) -> str:
    return values and (f"({', '.join(fmt(v, digits) for v in values)})" if len(values) > 1
                       else fmt(values[0], digits))  # fmt: skip


def readme_figures(gallery: Path) -> str:
    """The README's bullets on the paper's figures, Figs. 1, 3, 4 and 5."""
    median = paper_row(gallery, "median local solution, sigma = 0, d = 50")
    grid = paper_row(gallery, "log10 grid size matching that median (Remark 1)")
    runs = table(gallery, "fig1-local_solutions")
    runs = runs[runs["sigma"] == 0]
    random_level = runs[runs["method"] == "random_search"].groupby("d")["value"].median()
    best = table(gallery, "fig3-best_after_restarts").set_index("restarts")
    k1 = paper_row(gallery, "median single local solution (k = 1)")
    others = table(gallery, "fig3-other_paths")["path"].nunique()
    quad, quad_parts = _draws(gallery, "quadratic_n5", "ours")
    quad_paper, _ = _draws(gallery, "quadratic_n5", "paper")
    numbers = table(gallery, "paper_code-numbers")
    printed = numbers[numbers["source"] == "paper"]
    code_p = printed["p_value"]
    plausible = int(printed["verdict"].str.startswith("plausible").sum())
    l1_ours, _ = _draws(gallery, "l1_n5", "ours")
    l1_paper, _ = _draws(gallery, "l1_n5", "paper")
    l10_ours, _ = _draws(gallery, "l1_n10", "ours")
    l10_paper, _ = _draws(gallery, "l1_n10", "paper")
    relu_ours, _ = _draws(gallery, "relu_n4", "ours")
    relu_paper, _ = _draws(gallery, "relu_n4", "paper")
    rows = table(gallery, "paper_comparison")
    better = rows[rows["quantity"].str.startswith("l1: n = 10 closer")].set_index("quantity")
    share_ours = better["share"].iloc[0] if "ours" in better.index[0] else better["share"].iloc[1]
    share_paper = better["share"].sum() - share_ours
    inside = rows[rows["quantity"].str.contains("in the subdifferential")]["share"].min()
    bullets = [
        f"**Fig. 1** (above): local BO's single runs reach lower values as d grows, median "
        f"{fmt(median.ours)} at d = 50, 90 % bootstrap interval [{fmt(median.ours_low)}, "
        f"{fmt(median.ours_high)}] (the paper's median {median.paper} is {median.verdict}, "
        f"p = {median.p_value:.2g}; a grid would need 10^{fmt(grid.ours, 1)} points, the paper "
        f"{grid.paper}). TuRBO-1, MPD and MinUCB fall with d as local BO does; random search "
        f"stalls near {fmt(random_level[random_level.index >= 10].median(), 1)}, GP-UCB with it "
        "from d = 20 on.",
        "**Fig. 2** ([png](figures/gallery/fig2_error_function.png)): the error function falls "
        "with b a little faster than the bound's b^-1/2 and grows with d like its d^3/2.",
        f"**Fig. 3** ([png](figures/gallery/fig3_restarts.png)): on one d = 100 path, median "
        f"single run {fmt(best.loc[1, 'median'])} against the paper's "
        f"{fmt(best.loc[1, 'paper_median'])}, best of 100 restarts {fmt(best.loc[100, 'median'])} "
        f"against {fmt(best.loc[100, 'paper_median'])}; the thin lines are {others} other paths, "
        f"and at k = 1 the paper's path is {k1.verdict} with our {others + 1} (their range "
        f"[{fmt(k1.low)}, {fmt(k1.high)}], p = {k1.p_value:.2g}).",
        "**Fig. 4** ([png](figures/gallery/fig4_l1norm.png)): grad mu from five queries "
        f"recovers the quadratic's gradient, {_vector([r.ours for r in quad_parts])} (our median); "
        f"the paper's {quad.paper} is {quad.verdict} with ours (p = {quad.p_value:.2g}), "
        f"{quad_paper.verdict} with the paper code's (p = {quad_paper.p_value:.2g}); on the l1 "
        "norm the paper's n = 5 estimate is "
        f"{l1_paper.verdict} with the paper code's (p = {l1_paper.p_value:.2g}) and "
        f"{l1_ours.verdict} with ours (p = {l1_ours.p_value:.2g}), its n = 10 estimate "
        f"{l10_ours.verdict} with ours (p = {l10_ours.p_value:.2g}) and {l10_paper.verdict} with "
        f"the paper code's (p = {l10_paper.p_value:.2g}); n = 10 beats n = 5 in "
        f"{percent(share_ours)} of our draws ({percent(share_paper)} of the paper code's). The "
        f"paper's own code, run, makes {plausible} of the paper's {len(code_p)} estimates of "
        f"Figs. 4 and 5 typical draws (p = {span(code_p)}).",
        "**Fig. 5** ([png](figures/gallery/fig5_relu.png)): at the ReLU's kink the estimate lies "
        f"in the subdifferential [0, 1] in {percent(inside)} of draws; at n = 4 the paper's "
        f"{relu_ours.paper} is {relu_paper.verdict} with the paper code's procedure (median "
        f"{fmt(relu_paper.ours)}, p = {relu_paper.p_value:.2g}) and {relu_ours.verdict} with "
        f"ours (median {fmt(relu_ours.ours)}, band [{fmt(relu_ours.ours_low)}, "
        f"{fmt(relu_ours.ours_high)}], p = {relu_ours.p_value:.2g}).",
    ]
    return "".join(wrap("- " + b, "  ") for b in bullets)


def fig4_paper_fit(gallery: Path) -> str:
    """docs/figures.md's account of Fig. 4 (b)'s two fits of the figures' draw."""
    fits = table(gallery, "gradient_estimation-summary").set_index("case")
    ours, paper = fits.loc["l1_n5"], fits.loc["l1_n5_paper_fit"]
    bounds = str(ours.at_bound) if isinstance(ours.at_bound, str) else ""
    where = (
        f"sits on the lengthscale's lower bound ({fmt(ours.lengthscale)})"
        if "lengthscale" in bounds
        else f"ends at lengthscale {fmt(ours.lengthscale, 3)}"
    )
    return wrap(
        "Fig. 4 (b), the l1 norm with n = 5, is where the fits part. On the figures' draw our "
        f"best of ten starts {where}, so grad mu(0, 1) is about "
        f"{_vector([ours.grad_1, ours.grad_2], 4)} against the paper's "
        f"({fmt(ours.paper_grad_1, 3)}, {fmt(ours.paper_grad_2, 3)}); the paper code's fit on "
        "the same design and observations (`paper_fit`: the code's optimizer for 50 iterations "
        f"from GPyTorch's initial values) ends at lengthscale {fmt(paper.lengthscale, 3)} and "
        f"gives {_vector([paper.grad_1, paper.grad_2], 3)}. The comparison table shows both."
    )


# the longest cause the comparison's table holds in its row; a longer one is a numbered note
# under the table, so that no line passes the docs' 200 characters
SHORT_CAUSE = 60


def comparison(gallery: Path) -> str:
    """docs/figures.md's table of the comparison's verdicts, long causes as notes under it."""
    lines = [
        "| number | paper | ours | p | verdict | cause |",
        "| --- | --- | --- | ---: | --- | --- |",
    ]
    notes: list[str] = []
    for r in _deciding(gallery).itertuples():
        at = f", {r.at}" if isinstance(r.at, str) and r.at else ""
        if pd.isna(r.ours):
            ours = "(a vector: its density)"
        elif pd.isna(r.ours_low):
            ours = fmt(r.ours, 3)
        else:
            ours = f"{fmt(r.ours, 3)} [{fmt(r.ours_low, 3)}, {fmt(r.ours_high, 3)}]"
        p = "" if pd.isna(r.p_value) else f"{r.p_value:.2g}"
        cause = r.cause if isinstance(r.cause, str) else ""
        if cause.startswith("none of"):  # the settings tried are the sensitivity study's
            cause = "none of the sensitivity study's settings"
        if len(cause) > SHORT_CAUSE:  # a note under the table, one per row
            notes.append(cause)
            cause = f"note {len(notes)}"
        lines.append(f"| {r.quantity}{at} | {r.paper} | {ours} | {p} | {r.verdict} | {cause} |")
    lines += [""] * bool(notes) + [
        wrap(f"{i}. {note}", indent="   ").rstrip("\n") for i, note in enumerate(notes, 1)
    ]
    return "\n".join(lines) + "\n"


def fig2_slopes(gallery: Path) -> str:
    """The slopes of Fig. 2, from the comparison's rows."""
    rows = table(gallery, "paper_comparison")
    b = rows[rows["quantity"] == "slope of log E in log b (panel a)"]["ours"]
    d = rows[rows["quantity"] == "slope of log E in log d (panel b)"]["ours"]
    return wrap(
        f"The estimate falls with b a little faster than the bound's b^-1/2 (slopes "
        f"{span(b)}) and grows with d like its d^3/2 (slopes {span(d)})."
    )


def _run_settings(gallery: Path, figure: str, sections: tuple[str, ...]) -> Any:
    """The typed settings of `sections` of the last run that made `figure`, from the gallery's
    config copies."""
    provenance = load_json(gallery / "provenance.json")
    name = provenance["figures"][figure]["runs"][-1]
    configs = [gallery.parent.parent / c for c in provenance["runs"][name]["configs"]]
    return sections_settings(merged_config(configs), sections, name)


def fig3(gallery: Path) -> str:
    """The numbers of Fig. 3, and the sensitivity study's medians by number of features."""
    best = table(gallery, "fig3-best_after_restarts").set_index("restarts")
    k1 = paper_row(gallery, "median single local solution (k = 1)")
    paths = 1 + table(gallery, "fig3-other_paths")["path"].nunique()
    study = table(gallery, "sensitivity-fig3_paths")
    ours = _run_settings(gallery, "sensitivity", ("seed", "fig1", "fig3")).fig3_jobs().num_features
    study["features"] = study["value"].where(study["choice"] != "ours", ours)
    features = study[study["choice"].isin(["ours", "num_features"])].astype({"features": int})
    medians = (features["k1"] / features["amplitude"]).groupby(features["features"]).median()
    counts = ", ".join(str(m) for m in medians.index[:-1]) + f" and {medians.index[-1]}"
    values = ", ".join(fmt(v) for v in medians.iloc[:-1]) + f" and {fmt(medians.iloc[-1])}"
    return wrap(
        f"Median single run {fmt(best.loc[1, 'median'])} (the paper's path "
        f"{fmt(best.loc[1, 'paper_median'])}), best of 10 restarts {fmt(best.loc[10, 'median'])} "
        f"({fmt(best.loc[10, 'paper_median'])}), of 100 {fmt(best.loc[100, 'median'])} "
        f"({fmt(best.loc[100, 'paper_median'])}). At k = 1 the paper's path is {k1.verdict} "
        f"with our {paths} (their range [{fmt(k1.low)}, {fmt(k1.high)}], p = "
        f"{k1.p_value:.2g}). With {counts} features the sensitivity study's median single run, "
        f"each path divided by its amplitude, is {values} (the paper's path "
        f"{fmt(best.loc[1, 'paper_median'])})."
    )


def _paper_code_rows(gallery: Path, part: str) -> list[dict]:
    """The rows of one part of bench/results/paper_code_reference.jsonl (the results sit in
    bench/results/ beside the gallery's folder, figures/, in the repository)."""
    path = gallery.parents[1] / "bench" / "results" / "paper_code_reference.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    return [r for r in rows if r["part"] == part]


def paper_code_reference(gallery: Path) -> str:
    """docs/methods.md's account of our paper procedure on the paper code's own inputs, per
    case (bench/paper_code_against_reference.py, its gradient part)."""
    rows = _paper_code_rows(gallery, "gradient")
    summaries = {r["summary"]: r for r in rows if "summary" in r}
    lines = ["| case | draws | the code stopped (ours too) | grad mu within 1e-3 | largest design "
             "difference | largest grad mu difference |", "|---|---|---|---|---|---|"]  # fmt: skip
    for name, r in summaries.items():
        if not name.startswith("side by side: "):
            continue
        completed = r["draws"] - r["code_failed"]
        lines.append(
            f"| {name.removeprefix('side by side: ')} | {r['draws']} | {r['code_failed']} "
            f"({r['ours_failed_where_code_failed']}) | "
            f"{r['grad_mu_within_1e-3']} of {completed} | {r['design_difference']['max']:.1g} | "
            f"{r['grad_mu_difference']['max']:.2g} |"
        )
    first = rows[0]
    extra = sum(r["ours_failed_where_code_did_not"] for r in summaries.values() if "draws" in r)
    return table_and_text(
        lines,
        f"Our fit stopped on {extra or 'none'} of the draws the code completed. "
        f"The code at commit {first['commit'][:7]}, ours at {first['localbo']}: seed 4321 and "
        f"seeds 0-{max(r['seed'] for r in rows if 'seed' in r and r['seed'] != 4321)} of each "
        "case. A design difference is the largest coordinate of ours minus the code's from the "
        "code's start; a grad mu difference the largest component of ours minus the code's on "
        "the code's design and observations.",
    )


def paper_code_cpu(gallery: Path) -> str:
    """docs/costs.md's CPU seconds per draw of the paper's code and of our two procedures."""
    rows = _paper_code_rows(gallery, "gradient")
    lines = ["| case | the paper's code | our paper procedure | our procedure | code / paper "
             "procedure |", "|---|---|---|---|---|"]  # fmt: skip
    for r in rows:
        if r.get("summary", "").startswith("CPU seconds per draw: "):
            lines.append(
                f"| {r['summary'].removeprefix('CPU seconds per draw: ')} | {r['code']:.2f} | "
                f"{r['paper procedure']:.3f} | {r['ours procedure']:.3f} | "
                f"{r['code / paper procedure']:.1f} |"
            )
    timed = next(r["timed_draws"] for r in rows if "timed_draws" in r)
    return table_and_text(
        lines,
        "Median CPU seconds of one draw, one thread each: the code over its draws (torch 2.0.1, "
        f"float64, on the CPU), ours over the first {timed} draws of each case.",
    )


def paper_code(gallery: Path) -> str:
    """docs/figures.md's tables of the paper's numbers among its code's draws, and of each
    procedure's draws against the code's, per case and component."""
    numbers = table(gallery, "paper_code-numbers")
    draws = table(gallery, "paper_code-draws")
    lines = ["| case | printed | the code's median [90 % band] | p among its draws | seed 4321 on "
             "the CPU |", "|---|---|---|---|---|"]  # fmt: skip
    for r in numbers.itertuples():
        mine = draws[(draws["case"] == r.case) & (draws["procedure"] == "paper")]
        code = ", ".join(f"{c.code_median:.3g} [{c.code_low:.3g}, {c.code_high:.3g}]"
                         for c in mine.itertuples())  # fmt: skip
        source = "the paper's" if r.source == "paper" else "notebook's"
        lines.append(
            f"| {r.case} | {source} {r.printed} | {code} | {r.p_value:.2g} | {r.code_seed_4321} |"
        )
    lines += ["", "| case | component | paper procedure minus the code | KS p | ours minus the "
              "code | KS p |", "|---|---|---|---|---|---|"]  # fmt: skip
    for (case, component), rows in draws.groupby(["case", "component"], sort=False):
        cells = []
        for procedure in ("paper", "ours"):
            (c,) = rows[rows["procedure"] == procedure].itertuples()
            cells.append(
                f"{c.difference:.2g} [{c.difference_low:.2g}, {c.difference_high:.2g}] | "
                f"{c.ks_p_value:.2g}"
            )
        lines.append(f"| {case} | {component} | {' | '.join(cells)} |")
    return "\n".join(lines) + "\n"


def fig2_code(gallery: Path) -> str:
    """docs/figures.md's Fig. 2 beside the paper's error-function scripts: per (d, b) at sigma
    0.1, the code's value, its least try and that try's gradient part, beside the gallery's
    estimate (bench/paper_code_against_reference.py, its error_function part)."""
    points = table(gallery, "fig2-error_function")
    panels = points[points["sigma"] == 0.1].set_index(["d", "b"])["panel"]
    rows = sorted(
        _paper_code_rows(gallery, "error_function"),
        key=lambda r: (panels[r["d"], r["b"]], r["d"], r["b"]),
    )
    lines = ["| panel | d | b | tries | the code's value | its least try | the least try's "
             "gradient part | ours | ours / value | ours / least | ours / gradient part |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in rows:
        least = min(r["tries"], key=lambda t: t["criterion"])
        lines.append(
            f"| {panels[r['d'], r['b']]} | {r['d']} | {r['b']} | {len(r['tries'])} | "
            f"{r['value']:.4g} | {least['criterion']:.4g} | {least['gradient_trace']:.4g} | "
            f"{r['ours']:.4g} | {r['ours / code']:.3f} | {r['ours / least try']:.3f} | "
            f"{r['ours / gradient part']:.3f} |"
        )
    seconds = [r["cpu_seconds"] / len(r["tries"]) for r in rows]
    return table_and_text(
        lines,
        f"The code at commit {rows[0]['commit'][:7]} on the CPU (float64, torch 2.0.1), sigma "
        f"0.1, Matern-5/2; ours the gallery's estimate at the same (d, b, sigma). One try took "
        f"{min(seconds):.2g} to {max(seconds):.3g} CPU seconds.",
    )


def paper_code_basins(gallery: Path) -> str:
    """docs/methods.md's shares of the designs in each local minimum of the code's criterion:
    the code's seeds 0-199, its next seeds, and our paper procedure's draws, with the
    chi-squared test of each code sample against ours (the bench's basins part)."""
    rows = [r for r in _paper_code_rows(gallery, "basins") if "summary" in r]
    lines = ["| case | criterion edges | code, seeds 0-199 | code, more seeds | paper procedure "
             "| p, 0-199 against ours | p, more against ours |",
             "|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in rows:
        counts = [np.array(v) for k, v in r.items() if k.startswith(("code, ", "paper proc"))]
        p = [chi2_contingency(np.array([c, counts[2]])).pvalue for c in counts[:2]]
        shares = [f"{' / '.join(f'{s:.2f}' for s in c / c.sum())} ({c.sum()})" for c in counts]
        lines.append(
            f"| {r['summary'].removeprefix('design basins: ')} | "
            f"{', '.join(fmt(e, 3) for e in r['edges'])} | {' | '.join(shares)} | {p[0]:.2g} | "
            f"{p[1]:.2g} |"
        )
    more = next(k for k in rows[0] if k.startswith("code, seeds ") and k != "code, seeds 0-199")
    first, stop = more.removeprefix("code, seeds ").split(":")
    return table_and_text(
        lines,
        "The share of the designs whose criterion ends below, between and above the edges (the "
        "local minima it ends in), with the number of draws; the code's more seeds are "
        f"{first} to {int(stop) - 1}; p of the chi-squared test of each sample of the code's "
        "against ours.",
    )
