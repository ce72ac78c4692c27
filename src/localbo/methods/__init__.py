"""The optimizers of Fig. 1, one module (or package) each, every one a plug-in of
`localbo.optimizers` that registers itself when imported:

- `local_bo`: Algorithm 1 / GIBO (BFGS on GP gradient estimates for sigma = 0, projected steps
  with a batch schedule else);
- `gp_ucb`: GP-UCB with an exact GP, its lower confidence bound and candidate screen beside it
  (`gp_ucb.lower_confidence_bound`);
- `turbo`: TuRBO-1, one trust region and Thompson sampling;
- `mpd`: MPD, local BO by maximizing the probability of descent;
- `minucb`: MinUCB, GIBO's sampling with moves to the minimizer of the upper confidence bound;
- `nestbo`: NeST-BO, Newton steps on the GP's mean from points chosen for gradient and Hessian
  information;
- `random_search`: uniform points in the box;
- `exact_gradient`: L-BFGS-B with the path's exact gradient, an oracle.

`builtin()` imports every one of them and returns the registry's classes by name: the one list of
the built-in methods (a module added here is in it).
"""

from __future__ import annotations

import importlib
import pkgutil

from localbo.optimizers import Optimizer, registered


def builtin() -> dict[str, type[Optimizer]]:
    """Every method of this package, by its registered name (each module imported once)."""
    modules = {f"{__name__}.{info.name}" for info in pkgutil.iter_modules(__path__)}
    for module in sorted(modules):
        importlib.import_module(module)
    return {name: cls for name, cls in registered().items() if cls.__module__ in modules}
