"""NeST-BO (`localbo.methods.nestbo`) beside its authors' code on the same paths.

The authors' code is PaulsonLab/NeST-BO at commit df51d33, in a checkout the caller brings (the
script checks its commit), run unmodified in its own environment, outside this repository: a
Python 3.11 with botorch 0.16.1 and gpytorch 1.14.3 as its `requirements.txt` pins, torch 2.13.0
(CPU; it pins 2.6.0, whose only build here is CUDA's), hydra-core and omegaconf, given as
`--python`; `nestbo_reference_driver.py` lists what it sets. The code refits its GP by ML-II
every iteration and has no switch for known hyperparameters, so the check runs ours in the
same mode: "reference mode" is config/config.yaml's `nestbo_reference`, the variant Fig. 1 runs:
NeST-BO refitting by ML-II as the code does (`refit`: on standardized observations with a zero
mean, from the code's initial values, the second fit of an iteration from the first's), with the
code's lengths, given in its unit cube, read in the path's units (delta 0.2, the gradient step
0.5 and its floor 0.05, each times the box's width 10: the code runs at its own delta), and its
acquisition's weighing of the Hessian against the gradient (`hessian_scale`, the width);
"ours" is NeST-BO as Fig. 1 runs it (known hyperparameters, our defaults). Two more of ours
each undo one of the reference mode's choices, to measure what it does: "reference mode, mean
fitted" fits the GP's constant mean too (`fit_mean`), "reference mode, Hessian in path units"
weighs the acquisition's parts as ours (`hessian_scale` 1). The code fits one lengthscale per
dimension, the reference mode one: the diagnosis "one lengthscale" runs the code with one
(`--diagnoses`). The code computes in float64 only. What the check does: `reference_check.py`.

    python bench/nestbo_against_reference.py NESTBO_CHECKOUT --python NESTBO_PYTHON \\
        --paths 0 20 --d 10 --budget 300 --jobs 2 --streams 5 --diagnoses "one lengthscale"
"""

from dataclasses import replace

from reference_check import ReferenceCode, configured, main  # bench/, the script's folder

from localbo.methods.nestbo import NeSTBO, NeSTBOSettings
from localbo.pipeline.fig1 import Fig1Settings

BOX = Fig1Settings().box
WIDTH = BOX.upper - BOX.lower  # Fig. 1's box, the code's unit cube
AS_THE_CODE = configured("nestbo_reference").settings
MEAN_FITTED = replace(AS_THE_CODE, fit_mean=True)
PATH_UNITS_HESSIAN = replace(AS_THE_CODE, hessian_scale=1.0)
NESTBO_CODE = ReferenceCode(
    repository="PaulsonLab/NeST-BO",
    commit="df51d33",
    driver="nestbo_reference_driver.py",
    driver_args=lambda lower, upper: ["--box", str(lower), str(upper)],
    ours={
        "reference mode": ("nestbo", lambda: NeSTBO(AS_THE_CODE)),
        "ours": ("nestbo", lambda: NeSTBO(NeSTBOSettings())),
        "reference mode, mean fitted": ("nestbo", lambda: NeSTBO(MEAN_FITTED)),
        "reference mode, Hessian in path units": ("nestbo", lambda: NeSTBO(PATH_UNITS_HESSIAN)),
    },
    dtypes=("float64",),
    diagnoses={"one lengthscale": ["--isotropic"]},
)

if __name__ == "__main__":
    main(NESTBO_CODE, __doc__.split("\n\n")[0], "bench/results/nestbo_reference.jsonl")
