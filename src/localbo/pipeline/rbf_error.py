"""The RBF error function against Lemma 3: its config section and jobs.

Fig. 2's machinery with the unit RBF kernel, the kernel of Lemma 3 and of the paper's Fig. 1 and
3 paths: the same two panels, the same L-BFGS estimate (the `fig2` section's grids and knobs,
so the two figures stay comparable and have one owner), and its own noise levels. The restarts'
jitter comes from Fig. 2's streams at the same (d, b, sigma): common random numbers across the
two kernels.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from localbo.pipeline.fig2 import Fig2Jobs, Fig2Settings


@dataclass(frozen=True)
class RBFErrorSettings:
    """The `rbf_error` config section.

    Attributes:
        noise_levels: noise standard deviations, one line each (Fig. 2's by default).
    """

    noise_levels: tuple[float, ...] = Fig2Settings.noise_levels


def rbf_error_jobs(seed: int, settings: RBFErrorSettings, fig2: Fig2Settings) -> Fig2Jobs:
    """Fig. 2's jobs with the unit RBF kernel and this section's noise levels."""
    rbf = dataclasses.replace(
        fig2, kernel="rbf", lengthscale=1.0, outputscale=1.0, noise_levels=settings.noise_levels
    )
    return Fig2Jobs(seed, rbf)
