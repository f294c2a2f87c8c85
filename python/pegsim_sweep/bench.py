"""python3 -m pegsim_sweep.bench STUDY.yaml [--workers 2] [--project 1,2,16]: a study serially and on a local
cluster, the wall times and the speed-up; then the time the study would take on N workers, projected from the
measured per-run costs: the makespan of the longest-first schedule (each run to the worker free first), Dask's
start-up and transfers left out (docs/sweeps.md, "Benchmark").

python3 -m pegsim_sweep.bench --experiment NAME --cli build/pegsim [--quick] [--workers 2]: a chapter 5
experiment's grid (`pegsim experiment NAME --no-plots`) in one process and with --workers N, the wall times,
the speed-up, and whether the two wrote the same files byte for byte."""

import argparse
import filecmp
import heapq
import pathlib
import subprocess
import sys
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


def _same_files(a, b):
    """The relative paths that differ between two folders' files (or exist in one only)."""
    files_a = {p.relative_to(a) for p in pathlib.Path(a).rglob("*") if p.is_file()}
    files_b = {p.relative_to(b) for p in pathlib.Path(b).rglob("*") if p.is_file()}
    return sorted(str(p) for p in files_a ^ files_b) + sorted(
        str(p) for p in files_a & files_b if not filecmp.cmp(pathlib.Path(a) / p, pathlib.Path(b) / p, shallow=False))


def experiment_bench(name, cli, quick, workers):
    """`pegsim experiment NAME` serially and on `workers` local workers: prints the times and the speed-up."""
    base = [cli, "experiment", name, "--no-plots"] + (["--quick"] if quick else [])
    walls = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label, extra in (("serial", []), ("workers", ["--workers", str(workers)])):
            start = time.perf_counter()
            done = subprocess.run(base + extra + ["--out", str(pathlib.Path(tmp) / label)], capture_output=True,
                                  text=True)
            walls[label] = time.perf_counter() - start
            if done.returncode != 0:
                print(f"pegsim experiment {name} ({label}) failed ({done.returncode}): {done.stderr.strip()}",
                      file=sys.stderr)
                return 1
        count = subprocess.run(base + ["--count-runs", "--out", str(pathlib.Path(tmp) / "count")],
                               capture_output=True, text=True).stdout.split()
        differ = _same_files(pathlib.Path(tmp) / "serial", pathlib.Path(tmp) / "workers")
    runs = count[count.index("runs:") + 1] if "runs:" in count else "?"
    print(f"experiment {name}{' --quick' if quick else ''}: {runs} runs")
    print(f"serial (one pegsim process)   {walls['serial']:8.2f} s")
    print(f"{workers} local workers               {walls['workers']:8.2f} s   (cluster start-up included)")
    print(f"speed-up                      {walls['serial'] / walls['workers']:8.2f} x")
    print("files: the same, byte for byte" if not differ else f"files DIFFER: {', '.join(differ[:5])}")
    return 0 if not differ else 1


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m pegsim_sweep.bench", description=__doc__)
    parser.add_argument("study", nargs="?")
    parser.add_argument("--experiment", help="time this chapter 5 experiment instead of a study")
    parser.add_argument("--cli", help="the pegsim executable (with --experiment)")
    parser.add_argument("--quick", action="store_true", help="with --experiment: its --quick grid")
    parser.add_argument("--workers", type=int, default=2, help="local workers of the parallel run (default 2)")
    parser.add_argument("--project", default="1,2,16", help="worker counts to project the study's time to")
    parser.add_argument("--projected-study", help="project this (larger) study's time instead, from the "
                        "per-run cost of the measured one per scene (mean wall time per step x its steps)")
    args = parser.parse_args(argv)
    if args.experiment:
        if not args.cli:
            parser.error("--experiment needs --cli (the pegsim executable)")
        return experiment_bench(args.experiment, args.cli, args.quick, args.workers)
    if not args.study:
        parser.error("a study file, or --experiment NAME")
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
    sys.exit(main())
