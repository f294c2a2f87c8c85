#!/usr/bin/python3
"""Plots of `pegsim experiment NAME` (docs/experiments.md), from its CSV files.

    /usr/bin/python3 scripts/plot_experiment.py NAME DIR

`pegsim experiment` runs this itself after writing DIR; run it by hand to
redraw. Needs matplotlib (Debian: python3-matplotlib); without it, it says so
and exits with status 3, leaving the CSV files as they are.
"""

import csv
import math
import os
import sys

from plotting import FLOOR, MATPLOTLIB_MISSING, no_data, save
import plotting
import plot_grasp


def read(directory, name):
    """The rows of DIR/NAME as dicts of strings; [] if the file is absent."""
    path = os.path.join(directory, name)
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan


def models_in(directory, prefix):
    """Models with a DIR/PREFIX<model>.csv, in the experiments' order."""
    order = ["standard", "peg", "lnc", "corrective"]
    return [m for m in order if os.path.exists(os.path.join(directory, f"{prefix}{m}.csv"))]


def by(rows, key):
    """Rows grouped by the value of `key`, in order of first appearance."""
    groups = {}
    for r in rows:
        groups.setdefault(r[key], []).append(r)
    return groups


def quartiles(values):
    v = sorted(x for x in values if not math.isnan(x))
    if not v:
        return math.nan, math.nan, math.nan

    def q(p):
        k = (len(v) - 1) * p
        lo, hi = math.floor(k), math.ceil(k)
        return v[lo] + (v[hi] - v[lo]) * (k - lo)

    return q(0.25), q(0.5), q(0.75)


# ---- triangle-drop (thesis Fig. 5.6) ------------------------------------------

def triangle_drop(d):
    reference = read(d, "trajectory_reference.csv")
    for model in models_in(d, "trajectory_"):
        runs = by(read(d, f"trajectory_{model}.csv"), "h")
        fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
        colours = plt.cm.plasma([0.85 * i / max(len(runs) - 1, 1) for i in range(len(runs))])
        for (h, rows), colour in zip(runs.items(), colours):
            t = [num(r["t"]) for r in rows]
            for ax, key in zip(axes, ["x", "y", "theta"]):
                ax.plot(t, [num(r[key]) for r in rows], color=colour, lw=1, label=f"h = {h}")
        if reference:
            t = [num(r["t"]) for r in reference]
            for ax, key in zip(axes, ["x", "y", "theta"]):
                ax.plot(t, [num(r[key]) for r in reference], "k-", lw=1.6,
                        label=f"reference (peg, h = {reference[0]['h']})")
        for ax, label in zip(axes, ["x (m)", "y (m)", "rotation (rad)"]):
            ax.set_xlabel("t (s)")
            ax.set_ylabel(label)
            ax.grid(alpha=0.3)
        axes[2].legend(fontsize=6, ncol=2)
        fig.suptitle(f"triangle-drop, {model} model (brighter: larger h)")
        fig.tight_layout()
        save(fig, d, f"triangle_drop_{model}.png")

    deviation = by(read(d, "deviation.csv"), "model")
    if deviation:
        fig, ax = plt.subplots(figsize=(6.5, 4.2))
        for model, rows in deviation.items():
            ax.semilogy([num(r["h"]) for r in rows], [num(r["max_position_deviation"]) for r in rows], "o-",
                        label=model)
        ax.set_xlabel("h (s)")
        ax.set_ylabel("max |p - p_ref| (m)")
        ax.set_title("triangle-drop: largest distance from the reference")
        ax.grid(alpha=0.3, which="both")
        ax.legend()
        fig.tight_layout()
        save(fig, d, "triangle_drop_deviation.png")


# ---- box-stack-2d (thesis Figs. 5.7-5.9) ----------------------------------------

def box_stack_2d(d):
    models = models_in(d, "steps_")
    fig, axes = plt.subplots(2, 2, figsize=(12, 7), sharex=True)
    for model in models:
        rows = read(d, f"steps_{model}.csv")
        step = [num(r["step"]) for r in rows]
        axes[0, 0].plot(step, [num(r["contacts"]) for r in rows], lw=1, label=model)
        axes[0, 1].plot(step, [num(r["traps"]) for r in rows], lw=1, label=model)
        axes[1, 0].plot(step, [num(r["i"]) + num(r["x"]) for r in rows], lw=1, label=model)
        axes[1, 1].semilogy(step, [max(num(r["max_penetration"]), FLOOR) for r in rows], lw=1, label=model)
    titles = ["contacts found", "standard-model traps", "I- and X-constraints",
              f"max penetration, m (0 drawn at {FLOOR:g})"]
    for ax, title in zip(axes.flat, titles):
        ax.set_title(title, fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    for ax in axes[1]:
        ax.set_xlabel("step")
    fig.suptitle("box-stack-2d, per step")
    fig.tight_layout()
    save(fig, d, "box_stack_2d_steps.png")

    final = by(read(d, "final_positions.csv"), "model")
    if final:
        fig, axes = plt.subplots(1, len(final), figsize=(3.2 * len(final), 6), squeeze=False)
        for ax, (model, rows) in zip(axes[0], final.items()):
            away = 0
            for r in rows:  # unit squares (scenes/box-stack-2d.yaml)
                x, y, th = num(r["x"]), num(r["y"]), num(r["theta"])
                if not (-4 < x < 4 and -1 < y < 13):
                    away += 1
                    continue
                c, s = math.cos(th), math.sin(th)
                corners = [(x + c * u - s * v, y + s * u + c * v) for u, v in
                           [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5), (-0.5, -0.5)]]
                ax.plot(*zip(*corners), "k-" if r["body"] == "box0" else "b-", lw=1)
            ax.set_xlim(-4, 4)
            ax.set_ylim(-1, 13)
            ax.set_aspect("equal")
            ax.set_title(model + (f" ({away} fell out of view)" if away else ""), fontsize=10)
            ax.grid(alpha=0.3)
        fig.suptitle("box-stack-2d: final positions")
        fig.tight_layout()
        save(fig, d, "box_stack_2d_final.png")


# ---- box-of-polygons / box-of-polyhedra (thesis Figs. 5.10b, 5.13, 5.14b, 5.15) ----

def pour(d, name, measure):
    summary = by(read(d, "summary.csv"), "model")
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2))
    measured = False
    for model, all_rows in summary.items():
        rows = [r for r in all_rows if r["status"] == "ok"]  # runs that did not finish are left out
        failed = len(all_rows) - len(rows)
        if not rows:
            continue
        hs = sorted({num(r["h"]) for r in rows})
        for ax, key in zip(axes, ["mean_overlap", "max_penetration"]):
            q = [quartiles([max(num(r[key]), FLOOR) for r in rows if num(r["h"]) == h]) for h in hs]
            lo, med, hi = zip(*q)
            if key == "mean_overlap" and not all(math.isnan(m) for m in med):
                measured = True
            left_out = f", {failed} unfinished runs left out" if failed else ""
            line, = ax.plot(hs, med, "o-", label=f"{model} (median{left_out})")
            ax.fill_between(hs, lo, hi, color=line.get_color(), alpha=0.2, label=f"{model} (Q1-Q3)")
    axes[0].set_title(f"{measure} of overlap, mean over the steps (0 drawn at {FLOOR:g})", fontsize=10)
    axes[1].set_title(f"deepest penetration in the run, m (0 drawn at {FLOOR:g})", fontsize=10)
    for ax in axes:
        ax.set_xlabel("h (s)")
        ax.set_xscale("log")
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7)
    axes[1].set_yscale("log")
    if measured:
        axes[0].set_yscale("log")
    else:
        no_data(axes[0], "overlap not measured\n(src/analysis/overlap.hpp not built)")
    fig.suptitle(f"{name}: median and quartiles over the seeds")
    fig.tight_layout()
    save(fig, d, "overlap_vs_h.png")

    models = models_in(d, "steps_")
    if not models:
        return
    fig, axes = plt.subplots(len(models), 1, figsize=(10, 3.2 * len(models)), squeeze=False)
    for ax, model in zip(axes[:, 0], models):
        rows = read(d, f"steps_{model}.csv")
        seeds = sorted({r["seed"] for r in rows}, key=int)
        hs = sorted({r["h"] for r in rows}, key=float)
        h = "0.01" if "0.01" in hs else hs[-1]
        run = [r for r in rows if r["seed"] == seeds[0] and r["h"] == h]
        step = [num(r["step"]) for r in run]
        ax.plot(step, [num(r["contacts"]) for r in run], lw=1, label="contacts")
        ax.plot(step, [num(r["traps"]) for r in run], lw=1, color="tab:red", label="standard-model traps")
        ax.set_title(f"{model} model, seed {seeds[0]}, h = {h} s", fontsize=10)
        ax.set_xlabel("step")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(f"{name}: contacts and standard-model traps per step")
    fig.tight_layout()
    save(fig, d, "contacts_traps.png")


# ---- rotation-overlap (thesis Fig. 5.25), momentum-chain (Fig. 5.27) ------------

def rotation_overlap(d):
    rows = read(d, "overlap.csv")
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2))
    for model, group in by(rows, "model").items():
        hs = [num(r["h"]) for r in group]
        axes[0].plot(hs, [num(r["overlap"]) for r in group], "o-", label=model)
        axes[1].plot(hs, [num(r["max_penetration"]) for r in group], "o-", label=model)
    if rows:
        first = by(rows, "model")[rows[0]["model"]]
        axes[0].plot([num(r["h"]) for r in first], [num(r["thesis_overlap"]) for r in first], "kx--",
                     label="thesis Fig. 5.25")
    if all(math.isnan(num(r["overlap"])) for r in rows):
        no_data(axes[0], "overlap not measured\n(src/analysis/overlap.hpp not built)")
    axes[0].set_title("area of overlap after one step (m^2)", fontsize=10)
    axes[1].set_title("deepest penetration after one step (m)", fontsize=10)
    for ax in axes:
        ax.set_xlabel("h (s)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("rotation-overlap")
    fig.tight_layout()
    save(fig, d, "rotation_overlap.png")


def momentum_chain(d):
    models = models_in(d, "momentum_")
    if not models:
        return
    fig, axes = plt.subplots(1, len(models), figsize=(6 * len(models), 4.2), squeeze=False)
    for ax, model in zip(axes[0], models):
        for h, rows in by(read(d, f"momentum_{model}.csv"), "h").items():
            ax.plot([num(r["t"]) for r in rows], [num(r["px"]) for r in rows], lw=1, label=f"h = {h}")
        ax.axhline(3.0, color="k", ls="--", lw=0.8, label="1.5 kg x 2 m/s")
        ax.set_title(f"{model} model", fontsize=10)
        ax.set_xlabel("t (s)")
        ax.set_ylabel("total momentum p_x (kg m/s)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("momentum-chain")
    fig.tight_layout()
    save(fig, d, "momentum_chain.png")


# ---- spinning-platter (Mirtich & Canny 6) ------------------------------------------

def spinning_platter(d):
    """The ball's distance from the axis against time per run, with each run's
    explicit-Euler prediction r0 exp(sigma t) dashed; and its path."""
    rows = read(d, "orbit.csv")
    predicted = {(r["stepper"], r["h"], r["eps"]): num(r["euler_growth_rate"]) for r in read(d, "summary.csv")}
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6))
    runs = {}
    for r in rows:
        runs.setdefault((r["stepper"], r["h"], r["eps"]), []).append(r)
    for (stepper, h, eps), group in runs.items():
        label = f"impulse, eps = {eps}" if stepper == "impulse" else f"time-stepping, h = {h}"
        t = [num(r["t"]) for r in group]
        radius = [num(r["radius"]) for r in group]
        line, = axes[0].plot(t, radius, lw=1, label=label)
        sigma = predicted.get((stepper, h, eps), math.nan)
        if radius and not math.isnan(sigma):
            axes[0].plot(t, [radius[0] * math.exp(sigma * x) for x in t], "--", lw=0.8, color=line.get_color())
        axes[1].plot([num(r["x"]) for r in group], [num(r["y"]) for r in group], lw=0.5, color=line.get_color())
    if not runs:
        no_data(axes[0], "no orbit.csv")
    axes[0].set_title("distance from the axis (m); dashed: explicit-Euler growth", fontsize=10)
    axes[0].set_xlabel("t (s)")
    axes[0].legend(fontsize=8)
    axes[1].set_title("the ball's path (m)", fontsize=10)
    axes[1].set_aspect("equal")
    for ax in axes:
        ax.grid(alpha=0.3)
    fig.suptitle("spinning-platter: rolling without slip keeps the radius; each method grows it")
    fig.tight_layout()
    save(fig, d, "spinning_platter.png")


# ---- arm-grasp-ball (Drumwright-Shell 000, section 4) ---------------------------------

def arm_grasp_ball(d):
    """The ball's drift in the gripper (left pad's frame) against time, per model and control;
    left as the papers step, right with the contact drift correction (log axis: it is three
    orders of magnitude smaller)."""
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.6))
    rows = read(d, "drift.csv")
    groups = {}
    for r in rows:
        groups.setdefault((r.get("drift_correction", "off"), r["model"], r.get("control", "pd")), []).append(r)
    for (correction, model, control), group in groups.items():
        ax = axes[1] if correction == "on" else axes[0]
        style = "--" if control == "inverse-dynamics" else "-"
        ax.plot([num(r["t"]) for r in group], [max(num(r["drift"]), 1e-12) for r in group], style, lw=1,
                label=f"{model}, {control}")
    if not rows:
        no_data(axes[0], "no drift.csv")
    for ax, title in zip(axes, ["as the papers step", "with contact_drift_correction"]):
        ax.axhline(1e-4, color="k", ls="--", lw=0.8, label="0.1 mm (the paper's convex model)")
        ax.set_yscale("log")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("t (s)")
        ax.set_ylabel("drift of the ball in the gripper (m)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("arm-grasp-ball: h = 0.001, shoulder on sin(t)/4, sin(2t)/4")
    fig.tight_layout()
    save(fig, d, "arm_grasp_ball.png")


# ---- noslip-quadruped (Drumwright-Shell 002's walking experiments) --------------------

def noslip_quadruped(d):
    """The torso's progress along x and the contacts per step, per terrain and model."""
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.4))
    rows = read(d, "walk.csv")
    for (terrain, model), group in {(r["terrain"], r["model"]): None for r in rows}.items():
        runs = [r for r in rows if r["terrain"] == terrain and r["model"] == model]
        t = [num(r["t"]) for r in runs]
        axes[0].plot(t, [num(r["x"]) for r in runs], lw=1, label=f"{terrain}, {model}")
        axes[1].plot(t, [num(r["contacts"]) for r in runs], lw=0.6, label=f"{terrain}, {model}")
    if not rows:
        no_data(axes[0], "no walk.csv")
    axes[0].set_title("torso x (m)", fontsize=10)
    axes[1].set_title("contacts per step (sampled every 50 steps)", fontsize=10)
    for ax in axes:
        ax.set_xlabel("t (s)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("noslip-quadruped: open-loop trot, h = 0.001")
    fig.tight_layout()
    save(fig, d, "noslip_quadruped.png")


# ---- viscous-quadruped (Drumwright-Shell 002, Table III's model) ------------------------

def viscous_quadruped(d):
    """Table III's runs (torso x against t, ppm and Lemke; impulse form and RK4) and the distance against mu_v."""
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.4))
    rows = read(d, "walk.csv")
    summary = read(d, "summary.csv")
    table = [r for r in summary if r["solver"] == "lemke"]
    for lemke in table:
        model = lemke.get("contact_model", "standard")
        for solver, style in (("ppm", "-"), ("lemke", "--")):
            runs = [r for r in rows if r["terrain"] == lemke["terrain"] and r["law"] == lemke["law"]
                    and r["mu_v"] == lemke["mu_v"] and r["solver"] == solver
                    and r.get("contact_model", "standard") == model]
            axes[0].plot([num(r["t"]) for r in runs], [num(r["x"]) for r in runs], style, lw=1,
                         label=f"{lemke['terrain']}, {lemke['law']}, {model}, {solver}")
    if not rows:
        no_data(axes[0], "no walk.csv")
    for law, marker in (("explicit", "o"), ("implicit", "s")):
        runs = sorted((r for r in summary if r["terrain"] == "flat" and r["law"] == law and r["solver"] == "ppm"),
                      key=lambda r: num(r["mu_v"]))
        mu = [num(r["mu_v"]) for r in runs]
        axes[1].plot(mu, [num(r["distance"]) for r in runs], marker + "-", lw=1, label=f"{law} law")
        for r in runs:
            if num(r["overshoots"]) > 0 or r["status"] != "ok" or num(r["lowest_up"]) < 0.5:
                axes[1].annotate("unstable" if num(r["overshoots"]) > 0 else r["status"],
                                 (num(r["mu_v"]), num(r["distance"])), fontsize=7)
    rk4 = [r for r in summary if r["terrain"] == "flat" and r["law"] == "rk4" and r["solver"] == "ppm"]
    axes[1].plot([num(r["mu_v"]) for r in rk4], [num(r["distance"]) for r in rk4], "*", ms=10,
                 label="acceleration level, RK4")
    axes[1].set_xscale("log")
    axes[0].set_title("torso x (m), mu_v of Table III's runs: ppm (solid) and Lemke (dashed)", fontsize=10)
    axes[0].set_xlabel("t (s)")
    axes[1].set_title("distance walked on flat ground (m)", fontsize=10)
    axes[1].set_xlabel("mu_v (N s/m per contact)")
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("viscous-quadruped: open-loop trot, h = 0.001")
    fig.tight_layout()
    save(fig, d, "viscous_quadruped.png")


PLOTS = {
    "triangle-drop": triangle_drop,
    "box-stack-2d": box_stack_2d,
    "box-of-polygons": lambda d: pour(d, "box-of-polygons", "area (m^2)"),
    "box-of-polyhedra": lambda d: pour(d, "box-of-polyhedra", "volume (m^3)"),
    "rotation-overlap": rotation_overlap,
    "momentum-chain": momentum_chain,
    "grasp-2d": lambda d: plot_grasp.grasp(plt, d, "grasp-2d", read, num, by, save, FLOOR),
    "grasp-2d-friction": lambda d: plot_grasp.grasp(plt, d, "grasp-2d-friction", read, num, by, save, FLOOR),
    "spinning-platter": spinning_platter,
    "arm-grasp-ball": arm_grasp_ball,
    "noslip-quadruped": noslip_quadruped,
    "viscous-quadruped": viscous_quadruped,
}


def main(argv):
    if len(argv) != 3 or argv[1] not in PLOTS:
        print(f"usage: {argv[0]} NAME DIR   (NAME: {', '.join(PLOTS)})", file=sys.stderr)
        return 2
    if not os.path.isdir(argv[2]):
        print(f"plot_experiment.py: {argv[2]} is not a folder", file=sys.stderr)
        return 2
    global plt
    plt = plotting.pyplot(f"/usr/bin/python3 scripts/plot_experiment.py {argv[1]} {argv[2]}")
    if plt is None:
        return MATPLOTLIB_MISSING
    PLOTS[argv[1]](argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
