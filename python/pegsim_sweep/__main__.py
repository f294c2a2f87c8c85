"""python3 -m pegsim_sweep STUDY.yaml [options]: what `pegsim sweep` runs (docs/sweeps.md)."""

import argparse
import sys

from .execute import sweep
from .study import StudyError, load_study


def main(argv=None):
    parser = argparse.ArgumentParser(prog="pegsim sweep", description="Runs a parameter study (docs/sweeps.md).")
    parser.add_argument("study", help="the study file (YAML)")
    parser.add_argument("--out", help="results folder (default: STUDY-results next to the study file)")
    parser.add_argument("--workers", type=int, default=None,
                        help="local Dask workers (default: one per core; 0: run in this process, no Dask)")
    parser.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://host:8786)")
    parser.add_argument("--fresh", action="store_true", help="ignore the results file's rows; run everything")
    parser.add_argument("--record", action="store_true", help="write each run's recording (OUT/recordings/)")
    parser.add_argument("--no-plots", action="store_true", help="no summary plots")
    parser.add_argument("--check", action="store_true", help="only check the study file and count its runs")
    args = parser.parse_args(argv)
    if args.workers is not None and args.workers < 0:
        parser.error("--workers must be >= 0")
    if args.workers is not None and args.scheduler:
        parser.error("give --workers or --scheduler, not both")
    try:
        study = load_study(args.study)
        if args.check:
            from .runs import expand

            print(f"{args.study}: {len(expand(study))} runs")
            return 0
        table = sweep(study, args.out, workers=args.workers, scheduler=args.scheduler, resume=not args.fresh,
                      record=True if args.record else None, plots=not args.no_plots)
    except (StudyError, ValueError, OSError) as e:
        print(f"pegsim sweep: {e}", file=sys.stderr)
        return 2
    rows = table.to_dict("records") if hasattr(table, "to_dict") else table
    failed = [r for r in rows if r["status"] != "ok"]
    out = args.out or "the results folder"
    print(f"pegsim sweep: {len(rows)} runs, {len(failed)} failed; results.csv in {out}")
    for r in failed[:10]:
        print(f"  run {r['run']} ({r['key']}): {r['status']}: {r['error']}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
