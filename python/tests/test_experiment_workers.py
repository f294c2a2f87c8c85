"""`pegsim experiment NAME --workers N` (python/pegsim_sweep/experiment.py): the experiment's runs as Dask
tasks, one `pegsim experiment NAME --run K` each, their files joined. The joined files must be those one
process writes, byte for byte: every number in them is deterministic, and rows are joined in run order."""

import filecmp
import subprocess

import pytest

pytest.importorskip("distributed")


def files(folder):
    return sorted(p.relative_to(folder) for p in folder.rglob("*") if p.is_file())


@pytest.mark.parametrize("name", ["rotation-overlap", "momentum-chain", "box-of-polygons"])
def test_workers_write_the_serial_files(tmp_path, cli, name):
    serial, parallel = tmp_path / "serial", tmp_path / "parallel"
    for out, extra in ((serial, []), (parallel, ["--workers", "2"])):
        done = subprocess.run([cli, "experiment", name, "--quick", "--no-plots", "--out", str(out)] + extra,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
    assert files(parallel) == files(serial)
    assert any(str(f).endswith(".csv") and f.name != "runs.csv" for f in files(serial))
    for f in files(serial):
        assert filecmp.cmp(serial / f, parallel / f, shallow=False), f
    runs = (serial / "runs.csv").read_text().splitlines()
    assert len(runs) > 2  # more than one run was split and joined


def test_count_and_one_run(tmp_path, cli):
    done = subprocess.run([cli, "experiment", "rotation-overlap", "--count-runs", "--out", str(tmp_path / "c")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    # four models x six time steps (thesis Fig. 5.25)
    assert "runs: 24" in done.stdout
    done = subprocess.run([cli, "experiment", "rotation-overlap", "--run", "7", "--no-plots", "--out",
                           str(tmp_path / "one")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    rows = (tmp_path / "one" / "runs.csv").read_text().splitlines()
    assert len(rows) == 2  # the header and run 7's row
    assert rows[1].startswith("peg,,0.1,")  # run 7: the second model (PEG), the second h
