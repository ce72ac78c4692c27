"""The module paths of 0.1.0 that moved into `localbo.methods` import for one more version, as the
same module objects, with a warning naming the new path."""

import importlib
import sys
from contextlib import nullcontext

import pytest

from localbo.moved import MOVED, current_name
from localbo.optimizers import optimizer_class


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_gives_the_new_module_and_names_it(old):
    new = importlib.import_module(MOVED[old])
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=rf"{old} moved to {MOVED[old]}"):
        module = importlib.import_module(old)
    assert module is new and module.__spec__.name == MOVED[old]


def test_a_submodule_of_an_old_path_is_the_new_one():
    for name in [n for n in sys.modules if n.startswith("localbo.local_bo")]:
        sys.modules.pop(name)
    with pytest.warns(DeprecationWarning):
        old = importlib.import_module("localbo.local_bo.noiseless")
    assert old is importlib.import_module("localbo.methods.local_bo.noiseless")


def test_a_config_module_key_may_name_an_old_path():
    with pytest.warns(DeprecationWarning) if "localbo.turbo" not in sys.modules else nullcontext():
        cls = optimizer_class("turbo", "localbo.turbo")
    assert cls.__module__ == current_name("localbo.turbo") == "localbo.methods.turbo"


def test_paths_that_did_not_move_are_left_alone():
    assert current_name("localbo.kernels") == "localbo.kernels"
    assert current_name("localbo.mpd_extra") == "localbo.mpd_extra"  # a prefix is not a move
