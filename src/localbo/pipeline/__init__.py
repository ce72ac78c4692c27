"""Everything that knows the pipeline's config; `localbo` itself never reads a config.

- `sections`: config mapping <-> typed settings dataclasses, errors naming the dotted key;
- `settings`: `PipelineSettings` (every section, the defaults) and `load_settings`;
- `fig1`, `fig2`, `fig3`, `gradient_estimation`: each figure's section, its checks, grids, and
  what its rules ask (files, per-job parameters, threads, `mem_mb`, `runtime`);
- `files`: how values appear in file names;
- `runtime`: what every pipeline script does first (log, BLAS threads, memory).

The method registry is `localbo.optimizers`: Fig. 1's methods are the sections of
`fig1.methods`, each found there by name.
"""
