"""Plots of grasp-2d and grasp-2d-friction (thesis Figs. 5.18, 5.20, 5.21-5.22),
called by plot_experiment.py with its pyplot module and CSV helpers."""


def grasp(plt, d, name, read, num, by, save, floor):
    # Fig. 5.18 / 5.21: error against t per h, first polygon, one panel per model
    models = [m for m in ("standard", "peg", "corrective") if read(d, f"error_{m}.csv")]
    if models:
        fig, axes = plt.subplots(1, len(models), figsize=(5 * len(models), 4), sharey=True, squeeze=False)
        for ax, model in zip(axes[0], models):
            rows = [r for r in read(d, f"error_{model}.csv") if r["polygon"] == "1"]
            for h, group in by(rows, "h").items():
                ax.semilogy([num(r["t"]) for r in group], [max(num(r["error"]), floor) for r in group],
                            lw=1, label=f"h = {h}")
            ax.set_title(f"{model}, polygon 1", fontsize=10)
            ax.set_xlabel("t (s)")
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
        axes[0][0].set_ylabel(f"object position error to h = 1e-4 (m; 0 drawn at {floor:g})")
        fig.suptitle(f"{name}: error per step")
        fig.tight_layout()
        save(fig, d, f"{name.replace('-', '_')}_error_polygon1.png")

    # Fig. 5.20 / 5.22: median and quartiles of the pooled per-step errors against h
    summary = by(read(d, "summary.csv"), "model")
    if summary:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for model, rows in summary.items():
            h = [num(r["h"]) for r in rows]
            med = [max(num(r["median_error"]), floor) for r in rows]
            lo = [max(num(r["q1_error"]), floor) for r in rows]
            hi = [max(num(r["q3_error"]), floor) for r in rows]
            line, = ax.semilogy(h, med, "o-", label=model)
            ax.fill_between(h, lo, hi, color=line.get_color(), alpha=0.2)
        ax.set_xlabel("h (s)")
        ax.set_ylabel("position error to the reference (m)")
        ax.set_title(f"{name}: median, Q1-Q3 over ten polygons", fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        save(fig, d, f"{name.replace('-', '_')}_error_vs_h.png")

    # joint tracking, polygon 1 at h = 0.005 (the reading guide's plot (e))
    tracks = [m for m in models if read(d, f"joints_{m}.csv")]
    if tracks:
        fig, axes = plt.subplots(1, len(tracks), figsize=(5 * len(tracks), 4), sharey=True, squeeze=False)
        for ax, model in zip(axes[0], tracks):
            for joint, rows in by(read(d, f"joints_{model}.csv"), "joint").items():
                t = [num(r["t"]) for r in rows]
                line, = ax.plot(t, [num(r["angle"]) for r in rows], lw=1, label=f"joint {joint}")
                ax.plot(t, [num(r["target"]) for r in rows], "--", lw=0.8, color=line.get_color())
            ax.set_title(f"{model}: angle (solid) and target (dashed)", fontsize=10)
            ax.set_xlabel("t (s)")
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
        axes[0][0].set_ylabel("joint angle (rad)")
        fig.tight_layout()
        save(fig, d, f"{name.replace('-', '_')}_joints.png")
    if not (models or summary):
        print(f"{name}: no error_*.csv or summary.csv in {d}: nothing to plot")
