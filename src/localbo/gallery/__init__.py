"""The committed gallery of the paper-scale runs: their figures and tables, with provenance.

`figures/gallery/` holds every figure (PNG) and table (CSV) of the paper scale, copied from the
run directories that made them, no pipeline run writing there, and `provenance.json`, which says
for each figure the runs its files come from and its CPU-hours, and for each run its commit,
config files, software and CPU-hours. A pipeline run never calls this package.

- `add`: add a run's figures and tables (Fig. 1's table grows run by run);
- `provenance`: what is recorded of a run (a run from a modified tree is refused);
- `parts`: which run made each Fig. 1 run, at which settings (a replay of the runs' configs);
- `still_to_run`: the Fig. 1 runs a config asks for that the gallery lacks, and their cost;
- `redraw`: every figure drawn again from the gallery's tables, with today's plotting code.

    python -m localbo.gallery add RUN_DIR --config config/config.yaml [OVERRIDE.yaml]
    python -m localbo.gallery still-to-run --config config/config.yaml
    python -m localbo.gallery redraw
"""

from pathlib import Path

GALLERY = Path("figures/gallery")  # the paper-scale gallery, from the repository's root
