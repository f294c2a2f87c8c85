"""Summary plots of a study (matplotlib, Debian's python3-matplotlib): each figure against the time step h,
one line per contact model (and per value of every other option the grid varies), the median over seeds
with the quartiles shaded -- the form of thesis Figs. 5.10b and 5.14b. One PNG per scene and figure:
plots/SCENE-FIGURE.png. Runs that did not finish (status error or lost) are left out; a figure needs at
least two time steps.
"""

import collections
import math
import pathlib

METRICS = {
    "max_penetration": "largest penetration (m)",
    "overlap": "overlap at the end (m^2 or m^3)",
    "energy_drift": "energy drift (relative)",
    "momentum_drift": "momentum drift |dp|/|p0|",
    "solver_failures": "solver failures",
    "escalations": "escalations along the solver chain",
    "seconds_per_step": "time per step (s)",
}
# the options whose values tell lines apart (h is the x axis, seeds are summarised)
_LINE_OPTIONS = ["model", "formulation", "stepper", "solver", "solver_chain", "eps", "friction_directions",
                 "tolerance", "max_iterations", "friction", "position_correction", "duration"]


def _quantiles(values):
    values = sorted(values)

    def q(p):  # linear interpolation between order statistics
        x = p * (len(values) - 1)
        lo = math.floor(x)
        hi = min(lo + 1, len(values) - 1)
        return values[lo] + (values[hi] - values[lo]) * (x - lo)

    return q(0.25), q(0.5), q(0.75)


def summary_plots(rows, folder):
    """Writes the plots of `rows` (dicts of strings, results.csv's) to `folder`; returns the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in rows if r["status"] == "ok"]
    varied = [o for o in _LINE_OPTIONS if len({r[o] for r in rows}) > 1 and o != "model"]
    written = []
    for scene in sorted({r["scene"] for r in rows}):
        scene_rows = [r for r in rows if r["scene"] == scene]
        if len({float(r["h"]) for r in scene_rows}) < 2:
            continue
        for metric, label in METRICS.items():
            lines = collections.defaultdict(lambda: collections.defaultdict(list))
            for r in scene_rows:
                if r[metric] == "":
                    continue
                name = ", ".join([r["model"]] + [f"{o}={r[o]}" for o in varied])
                lines[name][float(r["h"])].append(float(r[metric]))
            if not lines:
                continue
            fig, ax = plt.subplots(figsize=(6, 4))
            positive = True
            for name in sorted(lines):
                hs = sorted(lines[name])
                q = [_quantiles(lines[name][h]) for h in hs]
                ax.plot(hs, [m for _, m, _ in q], marker="o", label=name)
                ax.fill_between(hs, [lo for lo, _, _ in q], [hi for _, _, hi in q], alpha=0.2)
                positive &= all(lo > 0 for lo, _, _ in q)
            ax.set_xscale("log")
            if positive:
                ax.set_yscale("log")
            ax.set_xlabel("time step h (s)")
            ax.set_ylabel(label)
            ax.set_title(f"{scene}: median and quartiles over seeds")
            ax.legend(fontsize="small")
            fig.tight_layout()
            folder = pathlib.Path(folder)
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{scene}-{metric}.png"
            fig.savefig(path, dpi=100)
            plt.close(fig)
            written.append(path)
    return written
