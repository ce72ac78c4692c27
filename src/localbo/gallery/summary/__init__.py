"""The numbers the README and the docs quote about the gallery, written from its tables.

    python -m localbo.gallery summary            # rewrite every block from the gallery
    python -m localbo.gallery summary --check    # list the blocks that differ, exit 1 if any

A block is the text between a line `<!-- gallery: NAME -->` and the next `<!-- /gallery -->`
in README.md or a file of docs/; `BLOCKS` writes each from the gallery's tables, so that a
number the docs quote is the table's (a test holds every block to its writer). Numbers are
rounded to the digits the prose needs; a range is the least and largest over what it names.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from pathlib import Path

from localbo.gallery.summary.beyond import cpu_hours, landscape, rates, rbf_error
from localbo.gallery.summary.methods import (
    authors_pairs,
    fig1_medians,
    fig1_methods,
    method_comparison,
    progress_reach,
    reference_check,
    step_by_step,
)
from localbo.gallery.summary.paper import (
    comparison,
    fig2_code,
    fig2_slopes,
    fig3,
    fig4_paper_fit,
    paper_code,
    paper_code_basins,
    paper_code_cpu,
    paper_code_reference,
    readme_figures,
    verdicts,
)

BLOCK = re.compile(r"(<!-- gallery: (\w+) -->\n)(.*?)([ \t]*<!-- /gallery -->)", re.S)
DOCUMENTS = ("README.md", "docs/figures.md", "docs/methods.md", "docs/costs.md")
# The methods checked against their authors' code whose results docs/methods.md quotes
# (bench/METHOD_against_reference.py, bench/results/METHOD_reference.jsonl)
CHECKED_AGAINST_REFERENCE = ("mpd", "minucb", "nestbo")
# The paper's own code, checked the same way (bench/paper_code_against_reference.py)
CHECKED_PAPER_CODE = "paper_code"


BLOCKS: dict[str, Callable[[Path], str]] = {
    "verdicts": verdicts,
    "readme_figures": readme_figures,
    "fig4_paper_fit": fig4_paper_fit,
    "comparison": comparison,
    "cpu_hours": cpu_hours,
    "fig1_medians": fig1_medians,
    "fig1_methods": fig1_methods,
    "method_comparison": method_comparison,
    "authors_pairs": authors_pairs,
    "progress_reach": progress_reach,
    "fig2_slopes": fig2_slopes,
    "fig2_code": fig2_code,
    "paper_code": paper_code,
    f"{CHECKED_PAPER_CODE}_reference": paper_code_reference,
    "paper_code_cpu": paper_code_cpu,
    "paper_code_basins": paper_code_basins,
    "fig3": fig3,
    "rates": rates,
    "landscape": landscape,
    "rbf_error": rbf_error,
    **{
        f"{method}_reference": partial(reference_check, name=f"{method}_reference")
        for method in CHECKED_AGAINST_REFERENCE
    },
    **{
        f"{method}_step_by_step": partial(step_by_step, name=f"{method}_step_by_step")
        for method in ("mpd", "nestbo")
    },
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
