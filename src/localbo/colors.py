"""The figures' colours: seaborn's colorblind palette, and one colour per method.

A module of its own, without matplotlib, so that the workflow's parse can give each plot rule
the methods' colours (`localbo.pipeline.fig1.Fig1Jobs.colors`) without loading a plotting
library.
"""

from __future__ import annotations

from collections.abc import Sequence

# seaborn's "colorblind" palette
COLORS = (
    "#0173b2", "#de8f05", "#029e73", "#d55e00", "#cc78bc",
    "#ca9161", "#fbafe4", "#949494", "#ece133", "#56b4e9",
)  # fmt: skip
# A series that is no method (the landscape's exact-gradient BFGS): the palette's light pink,
# which is hard to tell from its pink, so that no method has it
NOT_A_METHOD = "#fbafe4"
# One colour per method, the same in every figure, given in the order of the config's methods
# (fig1.methods): the palette less NOT_A_METHOD.
METHOD_COLORS = tuple(c for c in COLORS if c != NOT_A_METHOD)


def method_colors(methods: Sequence[str]) -> dict[str, str]:
    """Each method's colour, by its place in `methods` (the config's order; it repeats after
    nine).

    Example:
        >>> method_colors(["local_bo", "gp_ucb"])
        {'local_bo': '#0173b2', 'gp_ucb': '#de8f05'}
    """
    return {m: METHOD_COLORS[k % len(METHOD_COLORS)] for k, m in enumerate(methods)}
