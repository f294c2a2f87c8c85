#!/usr/bin/python3
"""Performance profiles of `pegsim solve-bench ... --out DIR` (docs/solve-bench.md).

    /usr/bin/python3 scripts/plot_solve_bench.py DIR

Reads DIR/profile.csv (solver, tau, share: Dolan & More, Math. Program. 91,
2002) and draws DIR/profile.png: per solver, the share of problems it solved
within the tolerance in at most tau times the fastest solver's time. Needs
matplotlib (Debian: python3-matplotlib); without it, says so and exits with
status 3.
"""

import csv
import os
import sys


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    directory = sys.argv[1]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_solve_bench: matplotlib is missing (Debian: python3-matplotlib)")
        return 3
    curves = {}
    with open(os.path.join(directory, "profile.csv"), newline="") as f:
        for row in csv.DictReader(f):
            curves.setdefault(row["solver"], []).append((float(row["tau"]), float(row["share"])))
    largest = max([t for points in curves.values() for t, _ in points] + [2.0])
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for solver, points in curves.items():
        taus = [t for t, _ in points] + [largest * 1.5]
        shares = [s for _, s in points] + [points[-1][1]]
        ax.step(taus, shares, where="post", label=solver)
    ax.set_xscale("log", base=2)
    ax.set_xlim(1, largest * 1.5)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("tau: time / fastest solver's time on the problem")
    ax.set_ylabel("share of problems solved")
    ax.set_title("Performance profiles (Dolan & More), solve time")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(os.path.join(directory, "profile.png"), dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
