"""`pegsim experiment NAME --workers N` (or --scheduler ADDRESS): the chapter 5 experiments' runs on Dask.

The experiment code is C++ (apps/experiment_*.cpp) and writes its CSV files run after run. Every
simulate() call there is a run with a fixed number, and every CSV row belongs to one run
(apps/experiment.hpp, "Runs split over processes"). So:

1. `pegsim experiment NAME --count-runs` counts the runs (R);
2. each run K is a Dask task: `pegsim experiment NAME --run K --out PART/K`, which writes every file's
   header and run K's rows only (a run that others need, the triangle drop's reference, is simulated
   by every task, written by its own);
3. the parts are joined: each CSV file is the header and the parts' rows in run order, which is the
   file one process writes, byte for byte (python/tests/test_experiment_workers.py); every other file
   (the generated scenes) is the same in every part and copied once.

A task whose process fails is retried by Dask (a killed worker) and otherwise stops the experiment
with its output: a missing run would leave the files incomplete.
"""

import argparse
import filecmp
import os
import pathlib
import shutil
import subprocess
import sys

from .execute import Progress, local_client


class ExperimentError(RuntimeError):
    pass


def _cli_run(cli, name, quick, extra):
    command = [cli, "experiment", name, "--no-plots"] + (["--quick"] if quick else []) + extra
    done = subprocess.run(command, capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def count_runs(cli, name, quick, scratch):
    code, out, err = _cli_run(cli, name, quick, ["--count-runs", "--out", str(scratch)])
    lines = [line for line in out.splitlines() if line.startswith("runs: ")]
    if code != 0 or not lines:
        raise ExperimentError(f"pegsim experiment {name} --count-runs failed ({code}): {err.strip()}")
    return int(lines[-1].split()[1])


def run_part(cli, name, quick, index, folder):
    """One Dask task: run `index` of the experiment into `folder`; (index, exit status, stdout, stderr)."""
    code, out, err = _cli_run(cli, name, quick, ["--run", str(index), "--out", str(folder)])
    return index, code, out, err


def join_parts(parts, out):
    """Writes into `out` every file of the part folders (in run order), CSV rows concatenated."""
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    first = pathlib.Path(parts[0])
    for path in sorted(p for p in first.rglob("*") if p.is_file()):
        relative = path.relative_to(first)
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix != ".csv":
            for part in parts[1:]:
                if not filecmp.cmp(path, pathlib.Path(part) / relative, shallow=False):
                    raise ExperimentError(f"{relative} differs between the runs' folders: cannot join them")
            shutil.copyfile(path, target)
            continue
        with open(target, "w", newline="") as joined:
            for k, part in enumerate(parts):
                with open(pathlib.Path(part) / relative, newline="") as f:
                    header = f.readline()
                    if k == 0:
                        joined.write(header)
                    joined.write(f.read())


def run_experiment(name, out, cli, *, quick=False, workers=None, scheduler=None, client=None, progress=True):
    out = pathlib.Path(out)
    scratch = out / ".parts"
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    total = count_runs(cli, name, quick, scratch / "count")
    if total < 1:
        raise ExperimentError(f"pegsim experiment {name} --count-runs counted no runs")
    bar = Progress(total, 0) if progress else None
    own = None
    results = {}
    try:
        if client is None and scheduler is not None:
            from distributed import Client

            client = own = Client(scheduler)
        elif client is None:
            client, cluster = local_client(workers or os.cpu_count() or 1, 2)
            own = (client, cluster)
        from distributed import as_completed

        futures = [client.submit(run_part, cli, name, quick, k, str(scratch / f"run{k:05d}"), pure=False,
                                 key=f"pegsim-experiment-{name}-{k}-{os.getpid()}") for k in range(total)]
        for future in as_completed(futures):
            index, code, stdout, stderr = future.result()
            results[index] = (code, stdout, stderr)
            if bar:
                bar.add({"status": "ok" if code == 0 else "error"})
    finally:
        if isinstance(own, tuple):
            own[0].close()
            own[1].close()
        elif own is not None:
            own.close()
    failed = {k: r for k, r in results.items() if r[0] != 0}
    if failed:
        k, (code, _, stderr) = min(failed.items())
        raise ExperimentError(f"{len(failed)} of {total} runs failed; run {k} (exit {code}): {stderr.strip()}")
    join_parts([scratch / f"run{k:05d}" for k in range(total)], out)
    shutil.rmtree(scratch)
    return total


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m pegsim_sweep.experiment", description=__doc__)
    parser.add_argument("name")
    parser.add_argument("--out", required=True)
    parser.add_argument("--cli", required=True, help="the pegsim executable")
    parser.add_argument("--workers", type=int)
    parser.add_argument("--scheduler")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    try:
        total = run_experiment(args.name, args.out, args.cli, quick=args.quick, workers=args.workers,
                               scheduler=args.scheduler)
    except ExperimentError as e:
        print(f"pegsim experiment: {e}", file=sys.stderr)
        return 1
    print(f"  {total} runs on Dask, files joined in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
