"""The writers of the numbers on Fig. 1's methods: medians by method and d, the method
comparison, the successors as their authors run them beside ours, and MPD beside its authors'
code. Every method is named by its Fig. 1 section's label (`Fig1Jobs.label`)."""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

import pandas as pd

from localbo.gallery.summary.text import fmt, paper_row, span, table, table_and_text, wrap
from localbo.methods.local_bo import LocalBO
from localbo.methods.minucb import MinUCB
from localbo.methods.nestbo import NeSTBO
from localbo.pipeline.fig1 import Fig1Jobs, Fig1Settings
from localbo.pipeline.settings import PipelineSettings, load_settings, merged_config


def fig1_medians(gallery: Path) -> str:
    """docs/figures.md's table of Fig. 1's sigma = 0 medians by method and d."""
    from localbo.restarts import grid_size_log10

    runs = table(gallery, "fig1-local_solutions")
    runs = runs[runs["sigma"] == 0]
    dims = sorted(runs["d"].unique())
    med = runs.groupby(["method", "d"])["value"].median()
    series = {  # the medians a row reads, by method and d
        "final": med,
        "first region": runs.groupby(["method", "d"])["first_region_value"].median(),
        "grid": med.map(lambda v: float(grid_size_log10(v))),
    }
    median = paper_row(gallery, "median local solution, sigma = 0, d = 50")
    fig1 = paper_scale(gallery).fig1
    fixed = [  # (label, section, its series, what the last cell adds)
        (row_label(fig1, "local_bo"), "local_bo", "final", f" (paper {median.paper})"),
        ("log10 of the matching grid size (Remark 1)", "local_bo", "grid", " (paper 36)"),
        (row_label(fig1, "exact_gradient"), "exact_gradient", "final", ""),
        (row_label(fig1, "turbo", "first trust region"), "turbo", "first region", ""),
        (row_label(fig1, "turbo"), "turbo", "final", ""),
        (row_label(fig1, "mpd"), "mpd", "final", ""),
        (row_label(fig1, "minucb"), "minucb", "final", ""),
        (row_label(fig1, "gp_ucb"), "gp_ucb", "final", ""),
        (row_label(fig1, "random_search"), "random_search", "final", ""),
    ]
    rows = [(label, name, kind, [series[kind][name, d] for d in dims], last)
            for label, name, kind, last in fixed]  # fmt: skip
    for name in own_runs(fig1):  # None at a d the section does not run at, NaN still to run
        if name in set(runs["method"]):
            planned = fig1.dims_of(name)
            values = [med.get((name, d), math.nan) if d in planned else None for d in dims]
            rows.append((row_label(fig1, name), name, "final", values, ""))
    count = runs.groupby(["method", "d"]).size()
    lines = ["| d | " + " | ".join(str(d) for d in dims) + " |"]
    lines.append("| --- |" + " ---: |" * len(dims))
    for label, name, kind, values, last in rows:
        digits, paths = 1 if kind == "grid" else 2, len(fig1.paths_of(name))
        cells = []
        for d, v in zip(dims, values, strict=True):
            held = count.get((name, d), 0)
            part = f" ({held} of {paths} paths)" if 0 < held < paths else ""
            cells.append("—" if v is None else fmt(v, digits) + part if v == v else "to run")
        cells[-1] += last
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def own_runs(fig1: Fig1Settings) -> list[str]:
    """The paper scale's Fig. 1 sections that run at d or a budget of their own (NeST-BO's two
    and the local BO beside the second), in config order."""
    return [name for name, m in fig1.methods.methods.items()
            if m.jobs.dims is not None or fig1.budget_of(name) != fig1.budget]  # fmt: skip


def row_label(fig1: Fig1Settings, name: str, quantity: str | None = None) -> str:
    """A section's name in the table of medians: its label (`Fig1Jobs.label`: the config's,
    with its budget where it is not fig1.budget), then the quantity where it is not the
    returned point (None: what the method returns)."""
    quantity = quantity or fig1.method(name).optimizer.returned
    label = Fig1Jobs(0, fig1).label(name)
    return label if quantity == "returned point" else f"{label}, {quantity}"


@cache
def paper_scale(gallery: Path) -> PipelineSettings:
    """The settings of the paper scale the gallery holds: its repository's config/config.yaml
    (a run at other settings is listed by `localbo.gallery.still_to_run`); read once a gallery,
    though three writers ask for it."""
    return load_settings(merged_config([gallery.parents[1] / "config" / "config.yaml"]))


def fig1_methods(gallery: Path) -> str:
    """docs/figures.md's statements on Fig. 1's methods."""
    runs = table(gallery, "fig1-local_solutions")
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
    grid = paper_row(gallery, "log10 grid size matching that median (Remark 1)")
    local = wrap(
        "- Local BO's single runs reach lower values as d grows: a grid search would need "
        f"10^{fmt(grid.ours, 1)} points to match its d = {top} median.",
        "  ",
    )
    turbo = wrap(
        "- TuRBO-1's first region, a single local solution, is about as good as one local BO run "
        "up to d = 20 and worse from d = 30; its overall lead comes from its restarts, a "
        f"multi-start of, in the median, {regions.iloc[0]:.0f} regions at d = {dims[0]} down to "
        f"{regions.iloc[-1]:.0f} at d = {top} within the same budget."
        + (f" At d = {top} both its numbers lie above local BO's." if above else ""),
        "  ",
    )
    mpd_text = wrap(
        "- MPD, one descent that spends the whole budget, ends a little above local BO at every "
        f"d in the difference of the two medians above ({span(gap.iloc[:-1])} up to "
        f"d = {dims[-2]}, {fmt(gap.iloc[-1])} at d = {top}); path by path it ends where "
        "local BO does on most paths up to d = 10 (the method comparison below). Its best "
        f"observation is within {fmt(best)} of its final iterate in every run.",
        "  ",
    )
    minucb_gap = (med["minucb"] - med["local_bo"]).reindex(dims)
    side = "above" if (minucb_gap > 0).all() else "below" if (minucb_gap < 0).all() else None
    where = f"{side} local BO at every d" if side else "on either side of local BO"
    minucb = wrap(
        "- MinUCB, GIBO's sampling with a move to the minimum of the upper confidence bound, "
        f"ends {where} in the difference of the two medians above ({span(minucb_gap)}); path "
        "by path, the method comparison below.",
        "  ",
    )
    return local + turbo + mpd_text + minucb + nestbo_medians(gallery, med)


def nestbo_medians(gallery: Path, med: pd.Series) -> str:
    """fig1_methods' bullet on NeST-BO (empty before its runs are in the gallery): where the
    medians of each of its sections lie against those of the local BO it is compared with, at
    the paper's budget and at its own."""
    settings = paper_scale(gallery)
    parts = []
    for method, baseline in compared(settings, NeSTBO.name):
        own = baseline != settings.method_comparison.baseline
        budget = f"{settings.fig1.budget_of(method)} evaluations" if own else "the paper's budget"
        if not {method, baseline} <= set(med.index.get_level_values(0)):
            continue
        gap = (med[method] - med[baseline]).dropna()
        side = "above" if (gap > 0).all() else "below" if (gap < 0).all() else "on either side of"
        dims = ", ".join(str(d) for d in gap.index)
        parts.append(f"at {budget} (d = {dims}) {side} local BO's at that budget ({span(gap)})")
    if not parts:
        return ""
    return wrap(
        "- NeST-BO, Newton steps on the GP's mean from points chosen for gradient and Hessian "
        f"information, ends {'; '.join(parts)}, in the difference of the medians above; path by "
        "path, the method comparison below.",
        "  ",
    )


def method_comparison(gallery: Path) -> str:
    """docs/figures.md's numbers of the method comparison."""
    rows = table(gallery, "method_comparison-summary")
    rows = rows[(rows["sigma"] == 0) & (rows["quantity"] == "returned point")]
    by = rows.set_index(["method", "d"])
    late = rows[(rows["method"].isin(["gp_ucb", "random_search"])) & (rows["d"] >= 10)]
    all_lose = (late["losses"] == late["paths"]).all()
    turbo, mpd, exact = by.loc["turbo"], by.loc["mpd"], by.loc["exact_gradient"]
    ties = ", ".join(str(int(mpd.loc[d, "ties"])) for d in (1, 5)) + f" and {mpd.loc[10, 'ties']}"
    medians = ", ".join(sorted({fmt(mpd.loc[d, "median_difference"]) for d in (1, 5, 10)}))
    m10, e10 = mpd.loc[10], exact.loc[10]
    successors = [against_local_bo(gallery, MinUCB.name), against_local_bo(gallery, NeSTBO.name)]
    return wrap(
        "In the gallery, at sigma = 0 (medians of paired differences): GP-UCB and random search "
        f"lose on {'every path' if all_lose else 'most paths'} from d = 10 on, by "
        f"{span(late['median_difference'], 1)}; TuRBO-1's overall best wins on "
        f"{turbo.loc[5, 'wins']} of {turbo.loc[5, 'paths']} paths at d = 5 (median "
        f"{fmt(turbo.loc[5, 'median_difference'])}) and on {turbo.loc[50, 'wins']} at d = 50 "
        f"(median {fmt(turbo.loc[50, 'median_difference'])}); MPD's final iterate ties local BO "
        f"on {ties} paths at d = 1, 5 and 10 (median {medians}; at d = 10 Hodges-Lehmann "
        f"{fmt(m10['hodges_lehmann'], 3)}, {m10['losses']} losses to {m10['wins']} wins, Holm's "
        f"p = {m10['holm_p']:.2g}) and ends higher by a median of "
        f"{fmt(mpd.loc[50, 'median_difference'])} at d = 50. The exact-gradient search ties on "
        f"{e10['ties']} paths at d = 10, wins on {e10['wins']} and loses on {e10['losses']} "
        f"(median {fmt(e10['median_difference'])}, Hodges-Lehmann "
        f"{fmt(e10['hodges_lehmann'])}, Holm's p = {e10['holm_p']:.2g}). "
        + " ".join(filter(None, successors))
    )


def compared(settings: PipelineSettings, optimizer: str) -> list[tuple[str, str]]:
    """(section, the local BO section it is compared with) of each paper-scale Fig. 1 section
    that runs the registered `optimizer` against local BO: the baseline, or its pair in
    `method_comparison.pairs` where that runs local BO (a variant paired with another section
    of its own method is `authors_pairs`')."""
    about, methods = settings.method_comparison, settings.fig1.methods.methods
    found = []
    for name, m in methods.items():
        against = about.pairs.get(name, about.baseline)
        if m.optimizer.name == optimizer and methods[against].optimizer.name == LocalBO.name:
            found.append((name, against))
    return found


def against_local_bo(gallery: Path, optimizer: str) -> str:
    """The method comparison's sentence on a registered method, run as the paper scale's
    sections of it (itself, and a variant at a budget of its own): its wins, ties and losses
    against local BO at the same budget, per noise level and d; empty before its runs are in
    the gallery."""
    settings = paper_scale(gallery)
    rows = table(gallery, "method_comparison-summary")
    rows = rows[rows["quantity"] == "returned point"]
    sections = []
    for method, against in compared(settings, optimizer):
        levels = []
        for sigma, at in rows[rows["method"] == method].groupby("sigma"):
            counts = "; ".join(
                f"d = {r['d']}: {r['wins']}, {r['ties']}, {r['losses']} (median "
                f"{fmt(r['median_difference'])}, Holm's p = {r['holm_p']:.2g})"
                for _, r in at.iterrows()
            )
            levels.append(f"at sigma = {sigma:g} on {counts}")
        if levels:
            own = against != settings.method_comparison.baseline
            budget = settings.fig1.budget_of(method)
            where = f"at {budget} evaluations against local BO's at {budget}, " if own else ""
            sections.append(where + "; ".join(levels))
    if not sections:
        return ""
    label = Fig1Jobs(0, settings.fig1).label(optimizer)
    return f"{label}: its final iterate wins, ties and loses " + "; ".join(sections) + "."


def authors_pairs(gallery: Path) -> str:
    """The README's sentences on each successor as its authors run it against ours (the pairs
    of `method_comparison.pairs` of two sections of one method), the returned point at
    sigma = 0, indented to continue a bullet; a pair whose runs are not in the gallery is left
    out."""
    settings = paper_scale(gallery)
    jobs, methods = settings.fig1_jobs(), settings.fig1.methods.methods
    rows = table(gallery, "method_comparison-summary")
    rows = rows[(rows["quantity"] == "returned point") & (rows["sigma"] == 0)]
    sentences = []
    for method, against in settings.method_comparison.pairs.items():
        if methods[method].optimizer.name != methods[against].optimizer.name:
            continue
        pair = rows[(rows["method"] == method) & (rows["against"] == against)]
        if pair.empty:
            continue
        cells = "; ".join(
            f"d = {r['d']}, {r['paths']} paths: {fmt(r['median_difference'])} "
            f"[{fmt(r['low'])}, {fmt(r['high'])}], {r['wins']}/{r['ties']}/{r['losses']}, "
            f"Holm's p = {r['holm_p']:.2g}"
            for _, r in pair.sort_values("d").iterrows()
        )
        sentences.append(f"{jobs.label(method)} minus {jobs.label(against)}: {cells}.")
    if not sentences:
        return ""
    return wrap(
        "Each successor as its authors run it, minus ours on the same paths (median paired "
        "difference of the final iterate, its 95 % interval, wins/ties/losses): "
        + " ".join(sentences),
        "  ",
        "  ",
    )


def _bench_rows(gallery: Path, name: str, delta: str = "ours") -> list[dict]:
    """The last run's rows of a bench result on a method and its authors' code (the results
    sit in bench/results/ beside the gallery's folder, figures/, in the repository) at one
    sampling delta (`--delta` of the check; a row without one is at ours): those made with the
    last such row's commits, d and budget."""
    lines = (gallery.parents[1] / "bench" / "results" / f"{name}.jsonl").read_text()
    rows = [json.loads(line) for line in lines.splitlines()]
    rows = [r for r in rows if r.get("delta", "ours") == delta]
    last = {k: rows[-1][k] for k in ("commit", "localbo", "d", "budget")}
    return [r for r in rows if all(r[k] == v for k, v in last.items())]


def step_by_step(gallery: Path, name: str) -> str:
    """docs/methods.md's table of a reference mode on the authors' code's own states, from the
    rows of `bench/results/NAME.jsonl` (bench/mpd_step_by_step.py, bench/nestbo_step_by_step.py):
    per question and run (a path, and a precision where the bench has several), the median with
    the 10 % and 90 % quantiles over the run's steps, or a share of them."""
    rows = _bench_rows(gallery, name)
    runs = list(dict.fromkeys((r["path"], r.get("dtype")) for r in rows))
    heads = [", ".join(filter(None, [f"path {p}", t])) for p, t in runs]
    lines = ["| question | " + " | ".join(heads) + " |", "|---|" + "---|" * len(runs)]
    by = {(r["question"], r["path"], r.get("dtype")): r for r in rows}
    for question in dict.fromkeys(r["question"] for r in rows):
        cells = [by[question, *run] for run in runs]
        spans = [f"{r['share']:.0%} of {r['steps']}" if "share" in r else
                 f"{r['median']:.3g} [{r['q10']:.3g}, {r['q90']:.3g}]" for r in cells]  # fmt: skip
        lines.append(f"| {question} | " + " | ".join(spans) + " |")
    first = rows[0]
    steps = {r["question"].split(":")[0]: r["steps"] for r in rows}
    acquisitions = steps["acquisition at the code's point"]
    return table_and_text(
        lines,
        f"Medians over the run's steps with their 10 % and 90 % quantiles (one run at budget "
        f"{first['budget']}, d = {first['d']}: {steps['move']} moves, {acquisitions} "
        f"acquisition optimizations), the authors' code at commit {first['commit'][:7]}.",
    )


def reference_check(gallery: Path, name: str, delta: str = "ours") -> str:
    """docs/methods.md's comparison of a method with its authors' code, from the rows of
    `bench/results/NAME.jsonl` (bench/reference_check.py) at one sampling delta."""
    rows = _bench_rows(gallery, name, delta)
    runs = pd.DataFrame([r for r in rows if "method" in r])
    summaries = {r["summary"]: r for r in rows if "summary" in r}
    methods = list(dict.fromkeys(runs["method"]))
    medians = runs.groupby("method")[["value", "best_observation_value"]].median()
    lines = ["| run | paths | median final iterate | median best observation | CPU s a run |",
             "|---|---|---|---|---|"]  # fmt: skip
    for m in methods:
        cpu = summaries[f"CPU seconds per run: {m}"]["median"]
        n = int((runs["method"] == m).sum())
        lines.append(f"| {m} | {n} | {fmt(medians.loc[m, 'value'])} | "
                     f"{fmt(medians.loc[m, 'best_observation_value'])} | {cpu:.3g} |")  # fmt: skip
    differences = []
    for name, r in summaries.items():
        if name.startswith("CPU"):
            continue
        quantity, pair = name.split(": ", 1)
        differences.append(
            f"{pair.replace(' - ', ' minus ')}, {quantity}: {fmt(r['difference_of_medians'])} "
            f"[{fmt(r['low'])}, {fmt(r['high'])}]"
        )
    first = rows[0]
    return table_and_text(
        lines,
        f"Budget {first['budget']}, d = {first['d']}, the authors' code at commit "
        f"{first['commit'][:7]}. Differences of the medians, with 90 % paired bootstrap "
        "intervals over the paths: " + "; ".join(differences + explaining(runs)) + ".",
    )


def explaining(runs: pd.DataFrame) -> list[str]:
    """The differences a check's rows support its explanations with, beyond the check's own
    pairs (code minus ours): each diagnosis of the code minus the code as it is (what the
    diagnosed choice does to the code), and the reference mode minus ours (what the choices
    the reference mode takes from the code do to ours), final iterate, 90 % paired bootstrap
    interval (`localbo.paired_comparison.difference_of_medians`, seeded as the check)."""
    from localbo.paired_comparison import difference_of_medians

    by = {m: rows.set_index("path")["value"] for m, rows in runs.groupby("method")}
    codes = [m for m in by if m.startswith("reference code, ")]
    pairs = [(code, diagnosed) for code in codes for diagnosed in codes
             if diagnosed.startswith(f"{code}, ")]  # fmt: skip
    pairs += [("reference mode", "ours")] if {"reference mode", "ours"} <= set(by) else []
    found = []
    for first, other in pairs:
        paths = by[first].index.intersection(by[other].index).sort_values()
        low_path = int(paths[0])  # the check's seed: its first path
        diff, low, high = difference_of_medians(
            by[first][paths].to_numpy(), by[other][paths].to_numpy(), low_path
        )
        found.append(f"{first} minus {other}, final iterate: {fmt(diff)} [{fmt(low)}, {fmt(high)}]")
    return found


def progress_reach(gallery: Path) -> str:
    """docs/figures.md's table of when each method's median reaches local BO's final median at
    sigma = 0 (the gallery's `progress-reach.csv`; the noisy rows are in the table), by d, the
    methods in the config's order: the evaluations, or 'not reached' within its budget."""
    reach = table(gallery, "progress-reach")
    reach = reach[reach["sigma"] == 0]
    settings = paper_scale(gallery)
    order = {name: k for k, name in enumerate(settings.fig1.methods.methods)}
    reach = reach.assign(order=reach["method"].map(order)).sort_values(["order", "d"])
    dims = sorted(reach["d"].unique())
    lines = ["| method (budget, paths) | " + " | ".join(f"d = {d}" for d in dims) + " |"]
    lines.append("| --- |" + " ---: |" * len(dims))
    for _, rows in reach.groupby("method", sort=False):
        at = rows.set_index("d")
        cells = [
            "—" if d not in at.index
            else str(at.loc[d, "reached_at"]) if str(at.loc[d, "reached_at"]).isdigit()
            else "not reached"
            for d in dims
        ]  # fmt: skip
        paths = "-".join(str(n) for n in sorted({rows["paths"].min(), rows["paths"].max()}))
        about = f"{rows['label'].iloc[0]} ({rows['budget'].iloc[0]}, {paths})"
        lines.append(f"| {about} | " + " | ".join(cells) + " |")
    return table_and_text(
        lines,
        "Evaluations at which the method's median over its paths first reaches the final median "
        "of local BO at its budget on the same paths, sigma = 0, read at "
        f"{settings.progress.points} log-spaced counts; '—': not run there (or its curves not "
        "yet in the gallery).",
    )
