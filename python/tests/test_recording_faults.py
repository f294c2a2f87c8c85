"""Damaged and interrupted recordings from Python (docs/reliability.md, "Faults"):
pegsim.read_recording on a truncated file, on the file of a process killed while
recording, and a World whose recording hits a file size limit (a full disk's
error): the error names the file and the World keeps its state and steps on."""

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pegsim


def record(path, scene, steps):
    world = pegsim.World(pegsim.load_scene(str(scene)))
    world.record(str(path))
    world.step(steps)
    world.close_recording()


@pytest.mark.parametrize("fraction", [0.0, 0.01, 0.3, 0.5, 0.9, 0.999])
def test_truncated_file_raises_naming_the_file(tmp_path, scenes, fraction):
    whole = tmp_path / "whole.h5"
    record(whole, scenes / "box-stack-3d.yaml", 150)
    data = whole.read_bytes()
    cut = tmp_path / "cut.h5"
    cut.write_bytes(data[:int(len(data) * fraction)])
    with pytest.raises(RuntimeError) as error:
        pegsim.read_recording(str(cut))
    assert str(error.value).startswith(f"{cut}: "), str(error.value)


# a child process that records, then kills itself (SIGKILL: nothing is closed)
KILLED = textwrap.dedent("""
    import os, signal, sys
    import pegsim
    world = pegsim.World(pegsim.load_scene(sys.argv[1]))
    world.record(sys.argv[2])
    world.step(int(sys.argv[3]))
    os.kill(os.getpid(), signal.SIGKILL)
""")


def test_killed_writer_reads_up_to_its_last_checkpoint(tmp_path, scenes):
    scene, killed, whole = scenes / "box-stack-2d.yaml", tmp_path / "killed.h5", tmp_path / "whole.h5"
    run = subprocess.run([sys.executable, "-c", KILLED, str(scene), str(killed), "600"], capture_output=True)
    assert run.returncode == -9, run.stderr
    with pytest.warns(RuntimeWarning, match="incomplete recording"):
        partial = pegsim.read_recording(str(killed))
    assert not partial.complete
    n = len(partial.time)
    # checkpoints every 256 rows (src/io/recorder.cpp): of 601 rows, at least 257 reached the file
    assert 257 <= n <= 601
    record(whole, scene, 600)
    full = pegsim.read_recording(str(whole))
    assert full.complete and len(full.time) == 601
    # the rows it holds are the uninterrupted run's, bit for bit
    assert np.array_equal(partial.step, np.arange(n))
    assert np.array_equal(partial.position, full.position[:n])
    assert np.array_equal(partial.contacts, full.contacts[:n])
    k = partial.contact_offsets[-1]
    assert np.array_equal(partial.normal_impulse, full.normal_impulse[:k])


# a child process limited to 200 kB files (SIGXFSZ ignored, so write() fails
# with EFBIG as it fails with ENOSPC on a full disk): it records until the write
# fails, then steps on without the recording and reports as JSON
FULL_DISK = textwrap.dedent("""
    import json, resource, signal, sys
    import pegsim
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (200000, 200000))
    world = pegsim.World(pegsim.load_scene(sys.argv[1]))
    world.record(sys.argv[2])
    error, failed_at = None, None
    for k in range(2000):
        try:
            world.step()
        except RuntimeError as e:
            error, failed_at = str(e), world.step_count
            break
    world.step(100)  # the World steps on
    print(json.dumps({"error": error, "failed_at": failed_at, "steps": world.step_count,
                      "positions": world.positions.tolist()}))
""")


def test_full_disk_names_the_file_and_keeps_the_world(tmp_path, scenes):
    scene, path = scenes / "box-stack-3d.yaml", tmp_path / "full.h5"
    run = subprocess.run([sys.executable, "-c", FULL_DISK, str(scene), str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["error"] is not None, "the recording never failed"
    assert out["error"].startswith(f"{path}: ") and "File too large" in out["error"], out["error"]
    assert "the World is at step" in out["error"]
    # the state was not lost: the same steps without a recording give the same positions, bit for bit
    world = pegsim.World(pegsim.load_scene(str(scene)))
    world.step(out["steps"])
    assert out["steps"] == out["failed_at"] + 100
    assert np.array_equal(world.positions, np.array(out["positions"]))
    # the file: the rows up to the last checkpoint, or (when HDF5 had already
    # recorded an end of file past the limit) a clear error naming it
    try:
        with pytest.warns(RuntimeWarning, match="incomplete recording"):
            rec = pegsim.read_recording(str(path))
        assert 1 <= len(rec.time) <= out["failed_at"] + 1
    except RuntimeError as e:
        assert str(e).startswith(f"{path}: "), str(e)
