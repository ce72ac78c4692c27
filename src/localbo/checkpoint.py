"""The state of a long run, kept now and then, so that a run killed part way resumes from it.

A GP-UCB run at the paper's budget takes up to an hour of CPU (d = 10), longer than a cluster's
short queue may give it; `FinishedRuns` keeps whole runs only, so a job killed near a run's end
would lose all of it. A resumable optimizer (`Optimizer.resumable`) given a
`Checkpoint` saves its state every `every` seconds of CPU, between two of its steps, and starts a
run from the last state saved, if any. The state is a dict of arrays the optimizer alone reads;
it must hold everything the rest of the run depends on (the random streams' states included), so
that the resumed run ends with the same bits as one never stopped (tested per optimizer).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

# seconds of CPU between two saved states: a GP-UCB state at n = 5000 is about 200 MB (the packed
# Cholesky factor and kept inverse), written in about a second
CHECKPOINT_EVERY = 600.0

State = dict[str, np.ndarray]


@dataclass
class Checkpoint:
    """Where one run keeps its state.

    Attributes:
        load: the state saved last (None: there is none, or it belongs to another run).
        save: keeps a state, replacing the one before.
        every: seconds of CPU between two saves.
    """

    load: Callable[[], State | None]
    save: Callable[[State], None]
    every: float = CHECKPOINT_EVERY
    _saved_at: float = field(default_factory=time.process_time, init=False, repr=False)

    def keep(self, state: Callable[[], State]) -> None:
        """Save `state()` if `every` seconds of CPU have passed since the last save (or since
        this checkpoint was made); otherwise do not build it."""
        if time.process_time() - self._saved_at >= self.every:
            self.save(state())
            self._saved_at = time.process_time()


def generator_state(rng: np.random.Generator) -> np.ndarray:
    """A 0-d string array holding the state of `rng`'s bit generator (JSON)."""
    return np.array(json.dumps(rng.bit_generator.state))


def restore_generator(rng: np.random.Generator, state: np.ndarray) -> None:
    """Put `rng`'s bit generator back in a state `generator_state` recorded."""
    rng.bit_generator.state = json.loads(str(state))
