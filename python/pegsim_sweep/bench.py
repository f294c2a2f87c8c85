"""python3 -m pegsim_sweep.bench STUDY.yaml [--workers 2] [--project 1,2,16]: a study serially and on a local
cluster, the wall times and the speed-up; then the time the study would take on N workers, projected from the
measured per-run costs: the makespan of the longest-first schedule (each run to the worker free first), Dask's
start-up and transfers left out (docs/sweeps.md, "Benchmark")."""

import argparse
import heapq
import pathlib
import tempfile
import time

from .execute import sweep
from .study import load_study


def makespan(costs, workers):
    """Longest-processing-time-first list schedule of `costs` (s) on `workers` machines: its finish time."""
    finish = [0.0] * workers
    for cost in sorted(costs, reverse=True):
        heapq.heappush(finish, heapq.heappop(finish) + cost)
    return max(finish)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m pegsim_sweep.bench", description=__doc__)
    parser.add_argument("study")
    parser.add_argument("--workers", type=int, default=2, help="local workers of the parallel run (default 2)")
    parser.add_argument("--project", default="1,2,16", help="worker counts to project the study's time to")
    parser.add_argument("--projected-study", help="project this (larger) study's time instead, from the "
                        "per-run cost of the measured one per scene (mean wall time per step x its steps)")
    args = parser.parse_args(argv)
    study = load_study(args.study)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        serial = sweep(study, pathlib.Path(tmp) / "serial", workers=0, plots=False, progress=False)
        serial_wall = time.perf_counter() - start
        start = time.perf_counter()
        sweep(study, pathlib.Path(tmp) / "parallel", workers=args.workers, plots=False, progress=False)
        parallel_wall = time.perf_counter() - start
    costs = list(serial["wall_seconds"])
    print(f"study {study.name}: {len(costs)} runs, run cost {sum(costs):.2f} s in all "
          f"(mean {sum(costs) / len(costs):.3f} s, longest {max(costs):.3f} s)")
    print(f"serial (this process)      {serial_wall:8.2f} s")
    print(f"{args.workers} local workers            {parallel_wall:8.2f} s   (cluster start-up included)")
    print(f"speed-up                   {serial_wall / parallel_wall:8.2f} x")
    if args.projected_study:
        # seconds per simulated step, per scene label and h, from the measured study
        big = load_study(args.projected_study)
        from .runs import expand

        per_step = {}
        for r in serial.to_dict("records"):
            per_step.setdefault(r["scene"], []).append(r["wall_seconds"] / max(1, r["steps"]))
        rate = {k: sum(v) / len(v) for k, v in per_step.items()}
        costs = []
        for run in expand(big):
            if run["scene"] not in rate:
                parser.error(f"{args.projected_study}: scene '{run['scene']}' is not in the measured study")
            options = run["options"]
            if "h" not in options or "duration" not in options:
                parser.error(f"{args.projected_study}: the grid must give h and duration")
            costs.append(rate[run["scene"]] * round(options["duration"] / options["h"]))
        print(f"projected: {big.name}, {len(costs)} runs, from the measured seconds per step of each scene")
    for n in (int(x) for x in args.project.split(",")):
        print(f"projected on {n:3d} workers   {makespan(costs, n):8.2f} s")


if __name__ == "__main__":
    main()
