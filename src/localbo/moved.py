"""Module paths that moved, kept importable for one version with a DeprecationWarning.

0.2.0 moved the methods of Fig. 1 into `localbo.methods`. Importing an old path (or a config's
`module:` key naming one) gives the module at its new path, the same module object, and warns
that the old path goes in 0.3.0. `install()` puts the finder on `sys.meta_path`.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from types import ModuleType

# old path -> new path (submodules follow their package)
MOVED = {
    "localbo.local_bo": "localbo.methods.local_bo",
    "localbo.gp_ucb": "localbo.methods.gp_ucb",
    "localbo.lower_confidence_bound": "localbo.methods.gp_ucb.lower_confidence_bound",
    "localbo.turbo": "localbo.methods.turbo",
    "localbo.mpd": "localbo.methods.mpd",
    "localbo.random_search": "localbo.methods.random_search",
    "localbo.exact_gradient": "localbo.methods.exact_gradient",
}
REMOVED_IN = "0.3.0"


def current_name(name: str) -> str:
    """The module path that `name` names today (itself unless it moved).

    Example:
        >>> current_name("localbo.local_bo.noiseless"), current_name("localbo.kernels")
        ('localbo.methods.local_bo.noiseless', 'localbo.kernels')
    """
    for old, new in MOVED.items():
        if name == old or name.startswith(old + "."):
            return new + name[len(old) :]
    return name


class MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old module path and loads it as the module at its new path."""

    def __init__(self) -> None:
        self.specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if current_name(fullname) == fullname:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = current_name(spec.name)
        warnings.warn(
            f"{spec.name} moved to {new}; the old path goes in localbo {REMOVED_IN}",
            DeprecationWarning,
            stacklevel=2,
        )
        module = importlib.import_module(new)
        self.specs[new] = module.__spec__  # the import system gives the module the old one
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module is the new path's, whose own spec it keeps."""
        module.__spec__ = self.specs[module.__name__]


def install() -> None:
    """Put the finder first on `sys.meta_path` (once)."""
    if not any(isinstance(finder, MovedModules) for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedModules())  # before the path finder: no second copy
