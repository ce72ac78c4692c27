"""How pipeline values appear in file names, and which paths a job's chunk number stands for."""

from pathlib import Path


def sigma_label(sigma: float) -> str:
    """The text of a noise level in file names: the shortest repr of the float.

    Example:
        >>> sigma_label(0), sigma_label(0.05)
        ('0.0', '0.05')
    """
    return repr(float(sigma))


def path_chunks(num_paths: int, paths_per_job: int) -> list[list[int]]:
    """Path indices of each job: consecutive blocks of paths_per_job of paths 0 .. num_paths - 1."""
    return [
        list(range(start, min(start + paths_per_job, num_paths)))
        for start in range(0, num_paths, paths_per_job)
    ]


def gallery_name(relative: Path | str) -> str:
    """The name in a gallery of a file at `relative` in a run directory: tables keep their
    folder in the name, so two tables of one name cannot overwrite each other.

    Example:
        >>> gallery_name("results/fig1/local_solutions.csv"), gallery_name("figures/rates.png")
        ('fig1-local_solutions.csv', 'rates.png')
    """
    return "-".join(Path(relative).parts[1:])
