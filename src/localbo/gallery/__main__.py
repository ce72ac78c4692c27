"""The gallery's command: `python -m localbo.gallery {add,still-to-run,redraw,summary} ...`
(`--help`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from localbo.gallery import GALLERY
from localbo.gallery.add import add_run
from localbo.gallery.redraw import redraw
from localbo.gallery.still_to_run import still_to_run
from localbo.gallery.summary import summary

REPO = Path(__file__).resolve().parents[3]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m localbo.gallery", description=__doc__)
    parser.add_argument("--gallery", type=Path, default=REPO / GALLERY, help="its folder")
    commands = parser.add_subparsers(dest="command", required=True)
    add = commands.add_parser("add", help="add a run directory's figures and tables")
    add.add_argument("run", type=Path, help="the run directory (figures/, results/, ...)")
    add.add_argument("--config", type=Path, nargs="+", required=True, help="its config files")
    add.add_argument(
        "--code",
        type=Path,
        help="the checkout the run's jobs imported localbo from, if not this repository (a "
        "pinned worktree): its commit is recorded; give its config/config.yaml as --config",
    )
    add.add_argument(
        "--supersede",
        nargs="+",
        default=[],
        metavar="METHOD",
        help="the run's Fig. 1 runs of these methods replace the gallery's of the same "
        "(d, sigma, path), as after a change of the method's default settings",
    )
    add.add_argument(
        "--replace",
        nargs="+",
        default=[],
        choices=["fig3"],
        help="the run's files of these figures replace the gallery's instead of growing them, "
        "as after a change of the figure's default settings",
    )
    still = commands.add_parser("still-to-run", help="the Fig. 1 runs a config still asks for")
    still.add_argument("--config", type=Path, nargs="+", required=True, help="its config files")
    again = commands.add_parser("redraw", help="redraw every figure from the gallery's tables")
    again.add_argument("--cores", type=int, default=2, help="Snakemake's cores")
    quoted = commands.add_parser(
        "summary", help="write the numbers the README and docs quote from the gallery's tables"
    )
    quoted.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if a block differs"
    )
    args = parser.parse_args(argv)
    if args.command == "add":
        supersede, replace = frozenset(args.supersede), frozenset(args.replace)
        written = add_run(args.run, args.gallery, args.config, REPO, args.code, supersede, replace)
    elif args.command == "redraw":
        written = redraw(args.gallery, REPO, args.cores)
    elif args.command == "summary":
        written = summary(args.gallery, REPO, args.check)
        if args.check and written:
            raise SystemExit("stale blocks in: " + ", ".join(map(str, written)))
    else:
        written = still_to_run(args.gallery, args.config)
    print("\n".join(map(str, written)))


if __name__ == "__main__":
    main()
