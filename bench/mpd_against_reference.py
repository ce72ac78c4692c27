"""MPD's reference mode (`MPDSettings.reference_code`) beside its authors' code on the same paths.

The authors' code is kayween/local-bo-mpd at commit fa2e2e4, in a checkout the caller brings
(the script checks its commit), run unmodified in its own environment, outside this repository:
a Python 3.8 with the versions its `environment.yaml` pins (torch 1.11.0, gpytorch 1.6.0,
botorch 0.6.3.1, numpy 1.19.2, gym 0.9.3, glfw 1.12.0; scipy 1.6.3, which it leaves open), given
as `--python`, with `configs/synthetic_experiment/mpd_default.yaml`, at the path's own points
(its domain is unbounded). Ours: MPD in its reference mode and at its defaults
(`localbo.methods.mpd`), each from the streams the gallery's MPD pair draws from
(config/mpd_reference.yaml); the reference mode at the evaluations the code spends
(`whole_iterations` of d + 1: the code stops at the first iteration that ends at or past the
budget, so its last iteration samples all its d points; 506 at budget 500, d = 10; ours, whose
budget is a cap, would end that iteration after 4 and move on less data). What the check does:
`reference_check.py`.

    python bench/mpd_against_reference.py CHECKOUT --python REFERENCE_PYTHON --paths 0 20 \\
        --d 10 --budget 500 --jobs 2 --dtypes float32 float64 --streams 5
"""

from reference_check import ReferenceCode, main, whole_iterations  # bench/, the script's folder

from localbo.methods.mpd import MPD, MPDSettings

MPD_CODE = ReferenceCode(
    repository="kayween/local-bo-mpd",
    commit="fa2e2e4",
    driver="reference_driver.py",
    driver_args=lambda lower, upper: ["--config", "configs/synthetic_experiment/mpd_default.yaml"],
    ours={
        "reference mode": ("mpd_reference", lambda: MPD(MPDSettings(reference_code=True))),
        "ours": ("mpd_short", lambda: MPD(MPDSettings())),
    },
    spent=lambda budget, d: whole_iterations(budget, d + 1),  # the iterate and d points
)

if __name__ == "__main__":
    main(MPD_CODE, __doc__.split("\n\n")[0], "bench/results/mpd_reference.jsonl")
