"""Plots of pegsim compare --out DIR (bench/peers/compare_main.cpp), one line per engine:
DIR/positions.png: each body's x, y and z against time (trajectory_<engine>.csv; up to eight bodies, the first);
DIR/penetration.png: the deepest penetration and the mechanical energy against time (series_<engine>.csv).
Exit status 3: matplotlib is missing."""

import csv
import pathlib
import sys

MAX_BODIES = 8


def main(folder):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_compare.py: matplotlib is missing (Debian: apt-get install python3-matplotlib)", file=sys.stderr)
        return 3
    folder = pathlib.Path(folder)
    runs = {}
    for path in sorted(folder.glob("trajectory_*.csv")):
        engine = path.stem[len("trajectory_"):]
        series = {}
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                s = series.setdefault(row["body"], ([], [], [], []))
                for k, key in enumerate(("t", "x", "y", "z")):
                    s[k].append(float(row[key]))
        runs[engine] = series
    if not runs:
        print(f"plot_compare.py: no trajectory_*.csv in {folder}", file=sys.stderr)
        return 1
    bodies = list(next(iter(runs.values())))[:MAX_BODIES]
    fig, axes = plt.subplots(len(bodies), 3, figsize=(12, 2.6 * len(bodies)), squeeze=False, sharex=True)
    for row, body in enumerate(bodies):
        for col, name in enumerate(("x", "y", "z")):
            ax = axes[row][col]
            for engine, series in runs.items():
                if body in series:
                    ax.plot(series[body][0], series[body][col + 1], label=engine)
            ax.set_ylabel(f"{body} {name} (m)")
            if row == len(bodies) - 1:
                ax.set_xlabel("t (s)")
    axes[0][0].legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(folder / "positions.png", dpi=90)
    plt.close(fig)
    series_plot(plt, folder)
    print(f"plots: {folder / 'positions.png'}, {folder / 'penetration.png'}")
    return 0


def series_plot(plt, folder):
    fig, axes = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    for path in sorted(folder.glob("series_*.csv")):
        engine = path.stem[len("series_"):]
        t, depth, energy = [], [], []
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                t.append(float(row["t"]))
                depth.append(1000.0 * float(row["penetration"]))
                energy.append(float(row["energy"]))
        axes[0].plot(t, depth, label=engine)
        axes[1].plot(t, energy, label=engine)
    axes[0].set_ylabel("deepest penetration (mm)")
    axes[1].set_ylabel("mechanical energy (J)")
    axes[1].set_xlabel("t (s)")
    axes[0].legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(folder / "penetration.png", dpi=90)
    plt.close(fig)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: plot_compare.py DIR", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
