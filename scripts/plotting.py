"""The plotting helpers shared by scripts/plot_experiment.py and
scripts/plot_recording.py: loading matplotlib (or saying how to get it),
saving figures reproducibly, and the common look of the plots.
"""

import os
import sys

MATPLOTLIB_MISSING = 3  # exit status the pegsim commands read as "no plots: matplotlib is missing"
FLOOR = 1e-12  # zeros drawn on a log axis

plt = None  # matplotlib.pyplot once pyplot() has loaded it


def pyplot(rerun):
    """matplotlib.pyplot on the Agg backend, or None after telling the user
    how to install it (`rerun`: the command that redraws the plots then)."""
    global plt
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot_module
    except ImportError:
        print(f"{os.path.basename(sys.argv[0])}: matplotlib is not installed, no plots drawn "
              f"(Debian: apt-get install python3-matplotlib; then run {rerun})", file=sys.stderr)
        return None
    plt = pyplot_module
    return plt


def save(fig, directory, name):
    """Writes DIR/NAME (PNG, no timestamp or version in its metadata) and closes fig."""
    path = os.path.join(directory, name)
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
    print(f"  plot {path}")
    return path


def no_data(ax, text):
    """A grey note in the middle of an empty panel."""
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, fontsize=9, color="gray")


def log_range(ax, *series, smallest_top=1e-6):
    """A log y axis from just below FLOOR to above the largest value (at least
    `smallest_top`), so that series of zeros do not get a range of 1e-14."""
    top = max([smallest_top] + [max(v) for v in series if len(v)])
    ax.set_ylim(FLOOR / 3, top * 3)


def style(ax, xlabel=None, ylabel=None, title=None, legend=True):
    """The common look: light grid, small legend, 10-point titles."""
    if xlabel:
        ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3, which="both")
    if legend and ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)
