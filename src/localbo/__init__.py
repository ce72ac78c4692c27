"""localbo: local Bayesian optimization on GP sample paths, in numpy/scipy and float64.

The library behind the reproduction of "The Behavior and Convergence of Local Bayesian
Optimization" (Wu, Kim, Garnett and Gardner, NeurIPS 2023). Modules follow the math:

- `kernels`: RBF and Matern-5/2 and their derivatives;
- `linalg`: the one Cholesky helper (escalating jitter) and factor updates;
- `gram`: the symmetric kernel and slope matrices in cache-sized blocks;
- `gp`: exact GP posterior, its gradient mean and covariance;
- `sample_paths`: random-Fourier-feature GP sample paths with exact gradients;
- `acquisition`: alpha_trace of GIBO with its analytic gradient in the design;
- `designs`: the one `Design` type, differencing designs, L-BFGS over a design;
- `error_function`: E_{d,k,sigma}(b), its bounds and its estimate;
- `hyperparameters`: ML-II fit of constant mean, lengthscale, outputscale and noise;
- `gradient_estimation`: (sub)gradient estimates of non-smooth functions (Figs. 4, 5);
- `objective`: the noisy, budget-counting black box, results and traces of optimizers;
- `optimizers`: the plug-in base of every optimizer and the registry keyed by name;
- `methods`: the optimizers of Fig. 1, a module each (local BO, GP-UCB, TuRBO-1, MPD, random
  search, the exact-gradient search);
- `precision`, `blas`: the kept inverse of an exact GP and the BLAS calls it needs (GP-UCB);
- `convergence`, `smoothness`, `landscape`: the analyses of the figures beyond the paper;
- `restarts`: the best value after k restarts (Fig. 3);
- `seeding`, `io`, `plotting`: named random streams, atomic outputs, figure style.

`localbo.pipeline` holds everything that knows the pipeline's config; nothing above reads one.
"""

from importlib.metadata import version

from localbo import moved

__version__ = version("localbo")  # pyproject.toml's
moved.install()  # the module paths of 0.1.0 that moved (`localbo.moved`) import for one version
