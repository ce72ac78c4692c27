"""Everything that knows the pipeline's config; `localbo` itself never reads a config.

- `sections`: config mapping <-> typed settings dataclasses, errors naming the dotted key;
- `settings`: `PipelineSettings` (every section, the defaults) and `load_settings`;
- `fig1`, `fig2`, `fig3`, `gradient_estimation`, `landscape`, `rates`, `rbf_error`: each
  figure's section, its checks, grids, and what its rules ask (files, per-job parameters,
  threads, `mem_mb`, `runtime`); `fig1_job` runs one Fig. 1 job and `finished_runs` keeps its
  finished runs; `local_solutions_figure` draws Fig. 1 from its table;
- `paper_comparison`: the paper's numbers beside ours;
- `gallery` and `still_to_run`: the committed gallery of a paper-scale run, grown by parts;
- `files`: how values appear in file names; `resources`: cluster resources per retry attempt;
- `runtime`: what every pipeline script does first (log, BLAS threads, memory).

The method registry is `localbo.optimizers`: Fig. 1's methods are the sections of
`fig1.methods`, each found there by name.
"""
