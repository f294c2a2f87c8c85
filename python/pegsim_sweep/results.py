"""The results table: one row per run, every parameter and figure a column.

The CSV file is the study's record: each finished run's row is appended (and
flushed) as it arrives, so an interrupted study keeps every finished run, and
a study started again reads it, skips the runs it holds (by key) and runs the
rest. At the end the file is rewritten sorted by run index, never by
completion order: the same study gives the same file whatever the number of
workers, but for the TIMING columns. Values are written with runs.format_value
(floats by repr: they read back to the same double), and rows read back from a
file are written again unchanged.

Next to it, results.h5 (pandas + PyTables, Debian's python3-pandas and
python3-tables), where those are installed: the same table, typed.
"""

import csv
import os

from .runs import format_value

PARAMETERS = ["run", "key", "scene", "seed", "model", "formulation", "stepper", "solver", "solver_chain", "h", "eps",
              "friction_directions", "tolerance", "max_iterations", "friction", "position_correction", "duration"]
STATUS = ["status", "error"]  # ok | error (the run raised: its message) | lost (its workers kept dying)
FIGURES = ["steps", "solver_calls", "solver_failures", "solver_recoveries", "escalations", "penetration_exceeded",
           "max_penetration", "position_corrections", "overlap", "contacts_max", "traps", "worst_complementarity",
           "energy_initial", "energy_final", "energy_drift", "energy_max_rise", "momentum_drift", "recording"]
TIMING = ["seconds_per_step", "wall_seconds"]  # differ from run to run; every other column does not
COLUMNS = PARAMETERS + STATUS + FIGURES + TIMING


def text_row(row):
    """A row of values as the strings the CSV holds."""
    return {c: format_value(row.get(c)) for c in COLUMNS}


def read_rows(path):
    """The complete rows of a results file, by key; a row cut short by an interruption is dropped."""
    if not os.path.exists(path):
        return {}
    rows = {}
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header != COLUMNS:
            raise ValueError(f"{path}:1: not a results file of this pegsim (its columns differ); "
                             "move it away or pass resume=False")
        for fields in reader:
            if len(fields) != len(COLUMNS):
                continue  # the last line of a file whose writer was killed
            row = dict(zip(COLUMNS, fields))
            if row["status"] in ("ok", "error"):
                rows[row["key"]] = row
    return rows


class Journal:
    """The results file while a study runs: rows appended as they arrive."""

    def __init__(self, path, kept_rows):
        self.path = path
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        # start from the kept rows only: a cut-off line or a lost run is not carried over
        self._file = open(path, "w", newline="")
        self._writer = csv.DictWriter(self._file, COLUMNS)
        self._writer.writeheader()
        for row in kept_rows:
            self._writer.writerow(row)
        self._file.flush()

    def add(self, row):
        self._writer.writerow(text_row(row))
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self):
        self._file.close()


def write_sorted(path, rows):
    """Rewrites the results file with `rows` (strings) sorted by run index."""
    rows = sorted(rows, key=lambda r: int(r["run"]))
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        writer = csv.DictWriter(f, COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, path)
    return rows


def read_table(path):
    """The results file as a pandas DataFrame (floats read back exactly)."""
    import pandas as pd

    return pd.read_csv(path, float_precision="round_trip", keep_default_na=False,
                       na_values={c: [""] for c in FIGURES + TIMING + ["seed", "friction"]})


def write_hdf5(csv_path, h5_path):
    """results.h5 (key "runs") from the CSV; False (with the reason) when pandas or PyTables is missing."""
    try:
        import pandas  # noqa: F401
        import tables  # noqa: F401
    except ImportError as e:
        return False, f"no HDF5 table ({e.name} is not installed: apt-get install python3-pandas python3-tables)"
    table = read_table(csv_path)
    import warnings

    with warnings.catch_warnings():  # object (text) columns are pickled: PyTables warns, harmlessly
        warnings.simplefilter("ignore")
        table.to_hdf(h5_path, key="runs", mode="w")
    return True, h5_path
