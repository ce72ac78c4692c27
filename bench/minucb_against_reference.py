"""MinUCB (`localbo.methods.minucb`) beside its authors' code on the same paths.

The authors' code is chinafzy1/Minimizing-UCB at commit b729ee7, its folder
`minimizing UCB/local acquisition` as CHECKOUT (the script checks the commit), run unmodified in
its own environment, outside this repository: a Python 3.8 with the versions its
`environment.yaml` pins (torch 1.6.0, gpytorch 1.2.0, botorch 0.3.1, numpy 1.19.2, gym 0.9.3,
glfw 1.12.0; scipy 1.6.3 and pyyaml 5.3.1, which it leaves open), given as `--python`, with
`configs/synthetic_experiment/minUCB_default.yaml`. The code works in the unit cube (its move is
bounded to it): the driver maps it onto Fig. 1's box [-5, 5]^d. Both sample in the same boxes of
the path, at one of two deltas (`--delta`):

- `ours` (the default): our delta, 0.25 path units; the driver sets the code's to it in the
  cube's units (`--set delta=0.025`); ours is MinUCB in its reference mode at that delta, and at
  its defaults;
- `authors`: the code's own delta, 0.25 of its unit cube (its config's; the driver sets none),
  2.5 path units; ours is config/config.yaml's `minucb_reference` (the reference mode at that
  delta, as Fig. 1's variant runs), and MinUCB at its defaults.

Each of ours draws from the streams of its name; the reference mode runs to the evaluations the
code spends (its loop stops at the first iteration of d + 2 evaluations that ends at or past the
budget: 504 at budget 500, d = 10). What the check does: `reference_check.py`.

    python bench/minucb_against_reference.py CHECKOUT --python REFERENCE_PYTHON --paths 0 20 \\
        --d 10 --budget 500 --jobs 2 [--delta authors]
"""

from dataclasses import replace

from reference_check import ReferenceCode, configured, main, whole_iterations  # bench/

from localbo.methods.minucb import MinUCB, MinUCBSettings

CONFIG = "configs/synthetic_experiment/minUCB_default.yaml"
AT_OURS = ReferenceCode(
    repository="chinafzy1/Minimizing-UCB",
    commit="b729ee7",
    driver="reference_driver.py",
    # the code's unit cube onto Fig. 1's box; its sampling box's half-width ours in its units
    driver_args=lambda lower, upper: [
        *("--config", CONFIG),
        *("--box", str(lower), str(upper)),
        *("--set", f"delta={MinUCBSettings().delta / (upper - lower)}"),
    ],
    ours={
        "reference mode": ("minucb", lambda: MinUCB(MinUCBSettings(reference_code=True))),
        "ours": ("minucb", lambda: MinUCB(MinUCBSettings())),
    },
    # the iterate, d points and the move's extra evaluation
    spent=lambda budget, d: whole_iterations(budget, d + 2),
)
AT_AUTHORS = replace(
    AT_OURS,
    driver_args=lambda lower, upper: [*("--config", CONFIG), *("--box", str(lower), str(upper))],
    ours={
        "reference mode": ("minucb_reference", lambda: configured("minucb_reference")),
        "ours": ("minucb", lambda: MinUCB(MinUCBSettings())),
    },
)

if __name__ == "__main__":
    main(AT_OURS, __doc__.split("\n\n")[0], "bench/results/minucb_reference.jsonl",
         deltas={"ours": AT_OURS, "authors": AT_AUTHORS})  # fmt: skip
