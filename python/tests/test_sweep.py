"""pegsim.sweep (python/pegsim_sweep, docs/sweeps.md): a study on a 2-worker local Dask cluster gives the
serial results in every column but the timings; a worker killed mid-study loses no run; a study started
again skips the runs its results file holds; a run that raises is a row; a malformed study file is
reported as FILE:LINE: field: what."""

import csv
import os
import signal
import subprocess
import threading

import pytest

import pegsim

pegsim_sweep = pytest.importorskip("pegsim_sweep")
distributed = pytest.importorskip("distributed")

from pegsim_sweep import results  # noqa: E402


def study_text(scenes):
    # tiny: a 2D stack of boxes from a file and a seeded pile of two polygons, 0.1 s each
    return f"""name: tiny
scenes:
  - file: {scenes / "box-stack-2d.yaml"}
  - generator: pile-2d
    parameters: {{count: 2}}
seeds: [1, 2]
grid:
  model: [standard, peg]
  h: [0.01, 0.005]
  duration: 0.1
"""


def kill_study_text(scenes):
    # 8 PEG runs of 1000 and 2000 steps of the 2D stack (about 0.1 s each; the standard model's are 50 times
    # slower there): the scheduler hands every worker its share at once, so when the first row arrives the
    # other worker still holds runs
    return f"""scenes:
  - file: {scenes / "box-stack-2d.yaml"}
grid:
  model: peg
  friction: [0.2, 0.4, 0.6, 0.8]
  h: [0.002, 0.001]
  duration: 2.0
"""


def write_study(tmp_path, text):
    path = tmp_path / "study.yaml"
    path.write_text(text)
    return path


def rows_of(out):
    with open(out / "results.csv", newline="") as f:
        return list(csv.DictReader(f))


def without_timing(rows):
    return [{k: v for k, v in r.items() if k not in results.TIMING} for r in rows]


def serial_rows(study, tmp_path):
    pegsim.sweep(study, tmp_path / "serial", workers=0, plots=False, progress=False)
    return rows_of(tmp_path / "serial")


def test_two_workers_equal_serial(tmp_path, scenes):
    study = write_study(tmp_path, study_text(scenes))
    serial = serial_rows(study, tmp_path)
    # 2 scenes x 2 models x 2 h, the generated scene x 2 seeds: 4 + 8 runs, all finished
    assert len(serial) == 12
    assert [r["status"] for r in serial] == ["ok"] * 12
    assert [int(r["run"]) for r in serial] == list(range(12))
    pegsim.sweep(study, tmp_path / "dask", workers=2, plots=False, progress=False)
    # bit for bit: the floats are written by repr, so equal text is equal doubles
    assert without_timing(rows_of(tmp_path / "dask")) == without_timing(serial)
    # the physics is checked by the simulator's own tests; here only that the figures are there and sane
    for r in serial:
        assert int(r["steps"]) == round(0.1 / float(r["h"]))
        assert float(r["max_penetration"]) >= 0.0


def test_killed_worker_loses_no_run(tmp_path, scenes):
    import dask

    study_file = write_study(tmp_path, kill_study_text(scenes))
    serial = serial_rows(study_file, tmp_path)
    with dask.config.set({"distributed.scheduler.allowed-failures": 3}):
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=50)
    client = distributed.Client(cluster)
    killed = []
    lock = threading.Lock()

    def kill_a_busy_worker(row):
        with lock:
            if killed:
                return
            busy = [w for w, tasks in client.processing().items() if tasks]
            if not busy:
                return  # between runs: try again at the next row
            pid = client.run(os.getpid, workers=[busy[0]])[busy[0]]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    try:
        pegsim.sweep(study_file, tmp_path / "killed", client=client, plots=False, progress=False,
                     on_row=kill_a_busy_worker)
        pids_after = set(client.run(os.getpid).values())
    finally:
        client.close()
        cluster.close()
    assert killed, "no worker was busy when a row arrived: the test killed nothing"
    assert killed[0] not in pids_after  # that process is gone (the nanny started another)
    rows = rows_of(tmp_path / "killed")
    assert [r["status"] for r in rows] == ["ok"] * 8
    assert without_timing(rows) == without_timing(serial)


class DieOnRun:
    """A worker plugin: the worker process running the run with this key dies at once (os._exit, as a crash in
    C++ would end it), on every attempt; the other runs are left alone. Registered through the scheduler, it is set
    up again in each worker the nanny starts in place of a dead one."""

    name = "pegsim-test-die-on-run"

    def __init__(self, key):
        self.key = key

    def setup(self, worker):
        from pegsim_sweep import runs

        original, key = runs.run_one, self.key

        def run_one(run):
            if run["key"] == key:
                os._exit(70)
            return original(run)

        runs.run_one = run_one  # Dask unpickles the task's function by name, so it finds this one


def test_run_whose_worker_always_dies_is_lost(tmp_path, scenes):
    # With allowed-failures 1 the scheduler gives a run whose worker dies a second worker; when that one dies too
    # the run is given up (KilledWorker). The scheduler counts a death against every run the dead worker held, so
    # on a loaded machine a bystander can reach KilledWorker too; sweep tries each such run again alone on the
    # cluster, where only the crashing run dies again: its row, and only its, says "lost".
    import dask
    import sys

    import cloudpickle

    study_file = write_study(tmp_path, study_text(scenes))
    serial = serial_rows(study_file, tmp_path)
    doomed = pegsim_sweep.runs.expand(pegsim_sweep.load_study(study_file))[-1]["key"]
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=50)
    client = distributed.Client(cluster)
    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import this test module
    try:
        client.register_worker_plugin(DieOnRun(doomed))
        pegsim.sweep(study_file, tmp_path / "lost", client=client, plots=False, progress=False)
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
        client.close()
        cluster.close()
    rows = rows_of(tmp_path / "lost")
    assert [r["status"] for r in rows] == ["ok"] * 11 + ["lost"]
    assert rows[-1]["key"] == doomed
    assert rows[-1]["error"].startswith("KilledWorker:")
    assert without_timing(rows[:-1]) == without_timing(serial[:-1])
    # a lost run is not a finished one: the study started again runs it, and only it
    again = []
    pegsim.sweep(study_file, tmp_path / "lost", workers=0, plots=False, progress=False, on_row=again.append)
    assert [r["key"] for r in again] == [doomed]
    assert without_timing(rows_of(tmp_path / "lost")) == without_timing(serial)


def test_resume_skips_finished_runs(tmp_path, scenes):
    study = write_study(tmp_path, study_text(scenes))
    out = tmp_path / "out"
    pegsim.sweep(study, out, workers=0, plots=False, progress=False)
    full = rows_of(out)
    # an interrupted study: its first five rows written, the sixth cut off mid-line
    lines = (out / "results.csv").read_text().splitlines(keepends=True)
    (out / "results.csv").write_text("".join(lines[:6]) + lines[6][:20])
    again = []
    pegsim.sweep(study, out, workers=0, plots=False, progress=False, on_row=again.append)
    assert sorted(int(r["run"]) for r in again) == list(range(5, 12))
    resumed = rows_of(out)
    assert resumed[:5] == full[:5]  # kept as they were, wall times included: not run again
    assert without_timing(resumed) == without_timing(full)
    # a third time there is nothing left to run
    third = []
    pegsim.sweep(study, out, workers=0, plots=False, progress=False, on_row=third.append)
    assert third == []
    assert rows_of(out) == resumed


def test_a_run_that_raises_is_a_row(tmp_path, scenes):
    # h = 0.5 s is longer than the 0.1 s duration: World.run raises for that run only
    study = write_study(tmp_path, f"""scenes:
  - file: {scenes / "box-stack-2d.yaml"}
grid:
  h: [0.01, 0.5]
  duration: 0.1
""")
    pegsim.sweep(study, tmp_path / "out", workers=0, plots=False, progress=False)
    rows = rows_of(tmp_path / "out")
    assert [r["status"] for r in rows] == ["ok", "error"]
    assert "duration must be at least one step" in rows[1]["error"]
    assert rows[1]["h"] == "0.5"


@pytest.mark.parametrize("text, message", [
    ("scenes:\n  - generator: pile-2d\ngrid:\n  h: [0.01, -0.005]\n", "study.yaml:4: grid.h[1]: must be positive, got -0.005"),
    ("scenes:\n  - generator: pile-2d\ngrid:\n  model: [peg, soft]\n",
     "study.yaml:4: grid.model[1]: unknown contact model 'soft' (available: standard, peg, lnc, corrective)"),
    ("scenes:\n  - generator: pile-2d\ngrid:\n  hh: [0.01]\n", "study.yaml:4: grid: unknown field 'hh'"),
    ("scenes:\n  - file: nowhere.yaml\n", "study.yaml:2: scenes[0].file: no scene file"),
    ("scenes:\n  - generator: pile-2d\n    parameters: {count: 0}\n",
     "study.yaml:3: scenes[0].parameters.count: must be >= 1, got 0"),
    ("scenes:\n  - generator: pile-2d\nseeds: [1, x]\n", "study.yaml:3: seeds[1]: expected an integer, got 'x'"),
    ("grid:\n  h: 0.01\n", "study.yaml:1: required field 'scenes' is missing"),
    ("scenes: [\n", "study.yaml:2: not valid YAML"),
])
def test_malformed_study_names_file_line_field(tmp_path, text, message):
    path = write_study(tmp_path, text)
    with pytest.raises(pegsim_sweep.StudyError) as error:
        pegsim_sweep.load_study(path)
    assert str(error.value).startswith(str(tmp_path / message.split(":")[0]) + message[len("study.yaml"):])


def test_malformed_scene_file_keeps_its_own_place(tmp_path):
    scene = tmp_path / "bad.yaml"
    scene.write_text("bodies:\n  - shape: {box: [1, 1, 1]}\n    mass: -1\n")
    study = write_study(tmp_path, "scenes:\n  - file: bad.yaml\n")
    with pytest.raises(pegsim_sweep.StudyError, match=r"study.yaml:2: scenes\[0\].file: the scene does not load: "
                                                       r".*bad.yaml:\d+: "):
        pegsim_sweep.load_study(study)


def test_cli_sweep(tmp_path, scenes, cli):
    study = write_study(tmp_path, study_text(scenes))
    done = subprocess.run([cli, "sweep", str(study), "--workers", "0", "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "12 runs, 0 failed" in done.stdout
    assert (tmp_path / "out" / "plots" / "box-stack-2d-max_penetration.png").exists()
    bad = write_study(tmp_path, "scenes:\n  - generator: pile-9d\n")
    done = subprocess.run([cli, "sweep", str(bad)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "study.yaml:2: scenes[0].generator: unknown generator 'pile-9d'" in done.stderr


def test_existing_cluster_by_scheduler_address(tmp_path, scenes):
    # `dask scheduler` and `dask worker` as docs/sweeps.md starts them on other machines
    import json
    import shutil
    import sys
    import time

    if not shutil.which("dask"):
        pytest.skip("no `dask` command (python3-distributed)")
    study = write_study(tmp_path, study_text(scenes))
    serial = serial_rows(study, tmp_path)
    scheduler_file = tmp_path / "scheduler.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    logs = open(tmp_path / "dask.log", "w")
    scheduler = subprocess.Popen(["dask", "scheduler", "--port", "0", "--no-dashboard", "--scheduler-file",
                                  str(scheduler_file)], env=env, stdout=logs, stderr=logs)
    worker = None
    try:
        for _ in range(300):  # the scheduler writes its address once it listens
            if scheduler_file.exists() and scheduler_file.stat().st_size > 0:
                break
            time.sleep(0.1)
        address = json.loads(scheduler_file.read_text())["address"]
        worker = subprocess.Popen(["dask", "worker", address, "--nworkers", "2", "--nthreads", "1",
                                   "--no-dashboard"], env=env, stdout=logs, stderr=logs)
        pegsim.sweep(study, tmp_path / "remote", scheduler=address, plots=False, progress=False)
    finally:
        for process in (worker, scheduler):
            if process is not None:
                process.terminate()
                process.wait(timeout=30)
        logs.close()
    assert without_timing(rows_of(tmp_path / "remote")) == without_timing(serial)


def test_recordings_hold_each_run(tmp_path, scenes):
    # record: true writes one HDF5 recording per run; it holds that run's steps (row 0: the start)
    study = write_study(tmp_path, f"""scenes:
  - file: {scenes / "box-stack-2d.yaml"}
grid:
  h: [0.01, 0.005]
  duration: 0.1
record: true
""")
    pegsim.sweep(study, tmp_path / "out", workers=0, plots=False, progress=False)
    for row in rows_of(tmp_path / "out"):
        recording = pegsim.read_recording(row["recording"])
        assert recording.step[-1] == int(row["steps"]) == round(0.1 / float(row["h"]))
        assert recording.h == float(row["h"])
