"""Plot Fig. 4 from the two-dimensional gradient-estimation cases: contours of f around x, the
queries, x, the estimate grad mu_D(x) and the true (sub)gradient, one panel per case.

The (sub)gradient is a broad pale arrow under the estimate's narrow one, so each shows where
they coincide; an estimate too short to draw as an arrow is a ring around x, labelled.
"""

from localbo.pipeline.runtime import snakemake_job

with snakemake_job(snakemake) as log:  # noqa: F821
    import matplotlib.pyplot as plt
    import numpy as np

    from localbo.io import load_json, load_npz
    from localbo.plotting import palette, save_figure, set_style
    from localbo.subdifferentials import TEST_FUNCTIONS

    HALF_WIDTH = 0.45  # of the window around x
    ARROW_SCALE = 0.3  # a gradient g is drawn from x to x + ARROW_SCALE * g
    SHORTEST = 0.02  # an arrow shorter than this (in the plot's units) is drawn as a ring
    TITLES = {
        "quadratic": r"$f(\mathbf{x}) = \frac{1}{2}\|\mathbf{x}\|_2^2$",
        "l1": r"$f(\mathbf{x}) = \|\mathbf{x}\|_1$",
    }

    def interval(low: float, high: float) -> str:
        return f"\\{{{low:g}\\}}" if low == high else f"[{low:g}, {high:g}]"

    def truth_text(box: np.ndarray) -> str:
        if np.all(box[:, 0] == box[:, 1]):
            return "ground truth $(" + ", ".join(f"{v:g}" for v in box[:, 0]) + ")$"
        return "subgradient $" + r" \times ".join(interval(lo, hi) for lo, hi in box) + "$"

    smk = snakemake  # noqa: F821
    set_style()
    colors = palette()
    panels = len(smk.input.summaries)
    fig, axes = plt.subplots(1, panels, figsize=(3.3 * panels, 3.6), squeeze=False)
    for k, (ax, summary_path, arrays_path) in enumerate(
        zip(axes[0], smk.input.summaries, smk.input.arrays, strict=True)
    ):
        summary, arrays = load_json(summary_path), load_npz(arrays_path)
        x, Z, g = arrays["x"], arrays["queries"], arrays["gradient"]
        box = arrays["subdifferential"]
        f = TEST_FUNCTIONS[summary["function"]].value
        u = np.linspace(x[0] - HALF_WIDTH, x[0] + HALF_WIDTH, 201)
        v = np.linspace(x[1] - HALF_WIDTH, x[1] + HALF_WIDTH, 201)
        U, V = np.meshgrid(u, v)
        F = f(np.column_stack([U.ravel(), V.ravel()])).reshape(U.shape)
        ax.contourf(U, V, F, levels=14, cmap="Blues", alpha=0.55)
        ax.contour(U, V, F, levels=14, colors="0.35", linewidths=0.4)
        # The subdifferential as a segment (a point for differentiable f), its least-norm
        # element as the "true" arrow, the estimate as the other arrow.
        corners = x + ARROW_SCALE * np.array([box[:, 0], box[:, 1]])
        if not np.allclose(corners[0], corners[1]):
            ax.plot(*corners.T, color=colors[2], lw=5, alpha=0.45, solid_capstyle="round")
        truth = np.clip(0.0, box[:, 0], box[:, 1])
        arrow = {"angles": "xy", "scale_units": "xy", "scale": 1.0 / ARROW_SCALE}
        ax.quiver(*x, *truth, color=colors[2], alpha=0.6, width=0.03, zorder=3, **arrow)
        if ARROW_SCALE * np.linalg.norm(g) >= SHORTEST:
            ax.quiver(*x, *g, color=colors[3], width=0.01, zorder=4, **arrow)
        else:  # nothing to draw as an arrow: mark the estimate at x itself
            ax.scatter(*x, s=420, facecolor="none", edgecolor=colors[3], lw=2, zorder=4)
            ax.annotate(
                r"$\nabla\mu_{\mathcal{D}}(\mathbf{x}) \approx \mathbf{0}$",
                x,
                xytext=(14, -16),
                textcoords="offset points",
                color=colors[3],
                fontsize="small",
            )
        ax.scatter(*Z.T, s=22, color=colors[1], edgecolor="k", lw=0.5, zorder=5)
        ax.scatter(*x, marker="*", s=110, color="k", zorder=6)
        ax.set_xlim(u[0], u[-1])
        ax.set_ylim(v[0], v[-1])
        ax.set_aspect("equal")
        ax.grid(False)
        ax.set_title(
            f"{TITLES.get(summary['function'], summary['function'])}, $n = {summary['n']}$"
        )
        estimate = ", ".join(f"{c:.3f}".replace("-0.000", "0.000") for c in g)
        label = f"({chr(ord('a') + k)})"
        grad_mu = r"$\nabla\mu_{\mathcal{D}}(\mathbf{x})"
        ax.set_xlabel(f"{label} {grad_mu} = ({estimate})$\n{truth_text(box)}")
    handles = [
        plt.Line2D([], [], marker="*", ls="", color="k", ms=10, label=r"$\mathbf{x}$"),
        plt.Line2D([], [], marker="o", ls="", color=colors[1], mec="k", label="queries"),
        plt.Line2D([], [], color=colors[3], lw=2, label=r"$\nabla\mu_{\mathcal{D}}(\mathbf{x})$"),
        plt.Line2D([], [], color=colors[2], lw=2, label="(sub)gradient"),
    ]
    fig.tight_layout()
    fig.legend(
        handles=handles, loc="upper center", ncol=4, bbox_to_anchor=(0.5, 0.0), frameon=False
    )
    save_figure(fig, smk.output.pdf, smk.output.png)
    log.info("plotted %d panels", panels)
