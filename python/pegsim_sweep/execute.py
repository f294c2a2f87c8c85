"""pegsim.sweep: a study's runs on Dask distributed (or in this process), gathered into one table.

Where the runs go:
  workers=0          in this process, one after the other (no Dask): the reference
  workers=N (N >= 1) a local Dask cluster of N worker processes, one thread each
  workers=None       a local cluster with one worker per core (os.cpu_count())
  scheduler=ADDRESS  an existing cluster (`dask scheduler` + `dask worker`, docs/sweeps.md)
  client=CLIENT      an existing distributed.Client (tests use this to kill a worker)

Nothing is lost: run_one turns an exception into a row (status "error"); a
worker that dies has its runs given to another worker by the scheduler, up to
`retries` deaths per run (the scheduler's allowed-failures); a run that reaches
them is tried again alone on the cluster (it may only have shared a worker with
the run that crashed), and only if it kills its workers there too does its row
say "lost" and why; every finished row is in the results file
(results.py) before the next arrives, and a study started again skips them.
"""

import os
import pathlib
import sys
import time

from . import results, runs
from .study import Study, load_study


class Progress:
    """done / failed / remaining on stderr: one line redrawn on a terminal, else one every 10%."""

    def __init__(self, total, skipped, stream=None):
        self.total, self.done, self.failed = total, skipped, 0
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.start = time.monotonic()
        self.next_report = 0.1
        if skipped:
            print(f"sweep: {skipped} of {total} runs already in the results file, skipped", file=self.stream)

    def add(self, row):
        self.done += 1
        if row["status"] != "ok":
            self.failed += 1
        line = (f"sweep: {self.done}/{self.total} done, {self.failed} failed, {self.total - self.done} remaining, "
                f"{time.monotonic() - self.start:.1f} s")
        if self.tty:
            self.stream.write("\r" + line + ("\n" if self.done == self.total else ""))
            self.stream.flush()
        elif self.done >= self.next_report * self.total or self.done == self.total:
            print(line, file=self.stream)
            while self.next_report * self.total <= self.done:
                self.next_report += 0.1


def _lost_row(run, error):
    row = runs.parameters_of(run)
    row.update(status="lost", error=error)
    return row


def _module_path():
    """PYTHONPATH entries a spawned worker needs: where pegsim and pegsim_sweep are."""
    import pegsim

    here = pathlib.Path(__file__).resolve().parent.parent
    return [str(here), str(pathlib.Path(pegsim.__file__).resolve().parent)]


def local_client(workers, retries):
    import dask
    from distributed import Client, LocalCluster

    # the worker processes import pegsim and pegsim_sweep from where this process found them
    path = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(_module_path() + path))
    dask.config.set({"distributed.scheduler.allowed-failures": retries})
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                           silence_logs=40)  # logging.ERROR: a killed worker's restart is reported in its row
    return Client(cluster), cluster


def _run_on_dask(client, pending, retries, on_row):
    """Runs `pending` on the cluster, then each run that came back KilledWorker again on its own.

    The scheduler counts a death against every run the dead worker held, not only the one that killed it, so
    under load a run that merely shared a worker with a crashing one can reach `retries` deaths too. Such
    suspects are submitted again one at a time, each with its own `retries`: a run is "lost" only when it kills
    workers while it is the only run on the cluster."""
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    token = f"{os.getpid()}-{time.monotonic_ns()}"

    def submit(run, attempt):
        key = f"pegsim-run-{run['index']}-{attempt}-{token}"
        return client.submit(runs.run_one, run, key=key, pure=False, retries=retries)

    futures = {}
    for run in pending:
        future = submit(run, "a")
        futures[future.key] = (future, run)
    suspects = []
    for future in as_completed([f for f, _ in futures.values()]):
        run = futures[future.key][1]
        try:
            row = future.result()
        except KilledWorker:
            suspects.append(run)
            future.release()
            continue
        except Exception as e:  # noqa: BLE001 -- a lost scheduler
            row = _lost_row(run, f"{type(e).__name__}: {e}")
        on_row(row)
        future.release()
    for run in sorted(suspects, key=lambda r: r["index"]):  # alone on the cluster, in the study's order
        future = submit(run, "alone")
        try:
            row = future.result()
        except Exception as e:  # noqa: BLE001 -- KilledWorker after `retries` deaths, or a lost scheduler
            row = _lost_row(run, f"{type(e).__name__}: {e}")
        on_row(row)
        future.release()


def sweep(study, out=None, *, workers=None, scheduler=None, client=None, resume=True, record=None, plots=True,
          progress=True, on_row=None):
    """Runs every run of `study` (a Study, or a study file's path) and returns the results table.

    out: the folder for results.csv, results.h5, plots/ and recordings/ (default: STUDY-results next to the
    study file). resume: skip the runs results.csv already holds (False: start afresh). record: write each
    run's recording (default: the study's `record:`). on_row(row): called with each new row (a dict).
    Returns a pandas DataFrame when pandas is installed, else the list of rows (dicts of strings).
    """
    if not isinstance(study, Study):
        study = load_study(study)
    if out is None:
        source = pathlib.Path(study.source)
        out = source.with_name(source.stem + "-results") if source.suffix else pathlib.Path(study.name + "-results")
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    csv_path = str(out / "results.csv")

    every = runs.expand(study)
    if record if record is not None else study.record:
        for run in every:
            run["record"] = str((out / "recordings" / f"run{run['index']:05d}.h5").resolve())
    kept = results.read_rows(csv_path) if resume else {}
    keys = {run["key"] for run in every}
    kept = {k: row for k, row in kept.items() if k in keys}  # rows of runs the study no longer has are dropped
    pending = [run for run in every if run["key"] not in kept]
    # a kept row's index follows the study as it is now
    index = {run["key"]: run["index"] for run in every}
    for row in kept.values():
        row["run"] = str(index[row["key"]])

    journal = results.Journal(csv_path, kept.values())
    bar = Progress(len(every), len(kept)) if progress else None
    new_rows = []

    def arrived(row):
        journal.add(row)
        new_rows.append(results.text_row(row))
        if bar:
            bar.add(row)
        if on_row:
            on_row(row)

    own = None
    try:
        if pending and workers == 0 and client is None and scheduler is None:
            for run in pending:
                arrived(runs.run_one(run))
        elif pending:
            if client is None and scheduler is not None:
                from distributed import Client

                client = own = Client(scheduler)
            elif client is None:
                client, cluster = local_client(workers or os.cpu_count() or 1, study.retries)
                own = (client, cluster)
            _run_on_dask(client, pending, study.retries, arrived)
    finally:
        journal.close()
        if isinstance(own, tuple):
            own[0].close()
            own[1].close()
        elif own is not None:
            own.close()

    rows = results.write_sorted(csv_path, list(kept.values()) + new_rows)
    ok, h5 = results.write_hdf5(csv_path, str(out / "results.h5"))
    if progress and not ok:
        print(f"sweep: {h5}", file=sys.stderr)
    if plots:
        from . import plots as plotting

        plotting.summary_plots(rows, out / "plots")
    try:
        return results.read_table(csv_path)
    except ImportError:
        return rows
