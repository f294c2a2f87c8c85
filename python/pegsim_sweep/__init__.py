"""pegsim_sweep: parameter studies of pegsim on Dask distributed (docs/sweeps.md).

    import pegsim
    table = pegsim.sweep("study.yaml", workers=2)   # = pegsim_sweep.sweep

`pegsim sweep STUDY.yaml` (the CLI) and `python3 -m pegsim_sweep STUDY.yaml` run the same code.
Modules: study (the file), generators (seeded scenes), runs (the grid, one run), execute (Dask),
results (the table, resume), plots (median and quartiles against h).
"""

from .execute import sweep
from .study import Study, StudyError, load_study, parse_study

__all__ = ["sweep", "Study", "StudyError", "load_study", "parse_study"]
