#!/usr/bin/python3
"""Plots of one recording (docs/recording-format.md) against time.

    /usr/bin/python3 scripts/plot_recording.py RECORDING OUTDIR [ROWS]

`pegsim plot RECORDING [--out DIR]` checks the file and runs this. It writes
  energy_momentum.png  mechanical energy (kinetic + gravitational) and linear momentum
  contacts.png         contacts found, the model's sub-contacts, U/I/X counts, traps, penetration
  solver.png           iterations, complementarity and feasibility residuals, failures
  trajectories.png     each dynamic body's centre of mass (2D: x, y, theta) against time
Needs h5py and numpy; matplotlib (Debian: python3-matplotlib), without which it
says so and exits with status 3. A file that is not a pegsim recording: status 2.
ROWS: plot only the first ROWS rows (`pegsim plot` passes it for an incomplete
recording, whose writer was killed: the rows up to its last checkpoint).
"""

import os
import sys

import plotting
from plotting import FLOOR, MATPLOTLIB_MISSING, log_range, no_data, save, style

MAX_TRAJECTORIES = 12  # bodies drawn in trajectories.png (the first dynamic ones)


class RecordingError(Exception):
    pass


def load(path, rows=None):
    """The recording's arrays as a dict of numpy arrays (plus 'names', 'gravity', ...)."""
    import h5py
    import numpy as np
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        try:  # a killed SWMR writer leaves the file marked open for writing
            f = h5py.File(path, "r", swmr=True)
        except OSError:
            raise RecordingError(f"{path}: not an HDF5 file or unreadable ({e})")
    with f:
        if f.attrs.get("format") not in ("pegsim-recording", b"pegsim-recording"):
            raise RecordingError(f"{path}: not a pegsim recording (root attribute format is missing)")
        try:
            model = f["model"].attrs
            steps = f["steps"]
            r = {
                "dimension": int(model["dimension"]),
                "gravity": np.asarray(model["gravity"], dtype=float),
                "names": [n.decode() if isinstance(n, bytes) else str(n) for n in f["bodies/name"][:]],
                "static": f["bodies/static"][:].astype(bool),
                "mass": f["bodies/mass"][:],
                "inertia": f["bodies/inertia"][:],
            }
            for key in ["time", "position", "orientation", "linear_velocity", "angular_velocity", "contacts",
                        "contacts_found", "constraints", "traps", "solver_iterations", "solver_failures",
                        "complementarity", "feasibility", "max_penetration"]:
                r[key] = steps[key][:rows]
            if r["dimension"] == 2:
                r["pose2d"] = steps["pose2d"][:rows]
        except (KeyError, OSError, ValueError) as e:
            raise RecordingError(f"{path}: incomplete or malformed recording ({e})")
    n = len(r["time"])
    if n == 0 or any(len(r[k]) != n for k in ["position", "contacts", "max_penetration"]):
        raise RecordingError(f"{path}: the /steps datasets have different lengths (a truncated file?)")
    return r


def rotation(q):
    """Rotation matrices of unit quaternions q[..., 4] = [w, x, y, z]."""
    import numpy as np
    w, x, y, z = np.moveaxis(q, -1, 0)
    return np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
                     np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
                     np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1)], -2)


def energy_momentum(r, out):
    import numpy as np
    dynamic = ~r["static"]
    m = r["mass"][dynamic]
    v, w = r["linear_velocity"][:, dynamic], r["angular_velocity"][:, dynamic]
    # rotational energy 1/2 w . (R J R^T) w with J the body-frame inertia (thesis eq. 2.5)
    R = rotation(r["orientation"][:, dynamic])
    J = r["inertia"][dynamic]
    w_body = np.einsum("nbji,nbj->nbi", R, w)
    kinetic = 0.5 * (m * (v ** 2).sum(-1)).sum(-1) + 0.5 * np.einsum("nbi,bij,nbj->n", w_body, J, w_body)
    potential = -(m[None, :, None] * r["position"][:, dynamic] * r["gravity"]).sum((-1, -2))
    momentum = (m[None, :, None] * v).sum(1)
    t = r["time"]
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2))
    axes[0].plot(t, kinetic + potential, "k-", lw=1.2, label="total")
    axes[0].plot(t, kinetic, lw=1, label="kinetic")
    axes[0].plot(t, potential, lw=1, label="potential (m g . x)")
    style(axes[0], "t (s)", "energy (J)", "mechanical energy of the dynamic bodies")
    for k, axis in enumerate("xyz"[:r["dimension"]]):
        axes[1].plot(t, momentum[:, k], lw=1, label=f"p_{axis}")
    style(axes[1], "t (s)", "kg m/s", "linear momentum of the dynamic bodies")
    fig.tight_layout()
    save(fig, out, "energy_momentum.png")


def contacts(r, out):
    t = r["time"]
    fig, axes = plt.subplots(2, 2, figsize=(12, 7), sharex=True)
    axes[0, 0].plot(t, r["contacts_found"], lw=1, label="found (narrowphase feature pairs)")
    axes[0, 0].plot(t, r["contacts"], lw=1, label="sub-contacts of the contact model")
    style(axes[0, 0], None, "count", "contacts")
    for k, name in enumerate("UIX"):
        axes[0, 1].plot(t, r["constraints"][:, k], lw=1, label=f"{name}-constraints")
    style(axes[0, 1], None, "count", "U/I/X constraints (thesis ch. 4)")
    axes[1, 0].plot(t, r["traps"], lw=1, color="tab:red", label="standard-model traps")
    style(axes[1, 0], "t (s)", "count", "standard-model traps among the contacts found")
    axes[1, 1].semilogy(t, [max(p, FLOOR) for p in r["max_penetration"]], lw=1)
    log_range(axes[1, 1], r["max_penetration"])
    style(axes[1, 1], "t (s)", "m", f"deepest penetration after the step (0 drawn at {FLOOR:g})", legend=False)
    fig.tight_layout()
    save(fig, out, "contacts.png")


def solver(r, out):
    t = r["time"]
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2))
    axes[0].plot(t, r["solver_iterations"], lw=1, label="iterations (pivots or sweeps)")
    failed = r["solver_failures"] > 0
    if failed.any():
        axes[0].plot(t[failed], r["solver_iterations"][failed], "rx", label="steps with a failed solve")
    style(axes[0], "t (s)", "count", "solver iterations of the step's last solve")
    axes[1].semilogy(t, [max(x, FLOOR) for x in r["complementarity"]], lw=1, label="complementarity")
    axes[1].semilogy(t, [max(x, FLOOR) for x in r["feasibility"]], lw=1, label="feasibility")
    log_range(axes[1], r["complementarity"], r["feasibility"])
    style(axes[1], "t (s)", "residual", f"solver residuals (0 drawn at {FLOOR:g})")
    fig.tight_layout()
    save(fig, out, "solver.png")


def trajectories(r, out):
    t = r["time"]
    bodies = [i for i in range(len(r["names"])) if not r["static"][i]][:MAX_TRAJECTORIES]
    planar = r["dimension"] == 2
    labels = ["x (m)", "y (m)", "theta (rad)"] if planar else ["x (m)", "y (m)", "z (m)"]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    for i in bodies:
        values = r["pose2d"][:, i] if planar else r["position"][:, i]
        for k, ax in enumerate(axes):
            ax.plot(t, values[:, k], lw=1, label=r["names"][i])
    for ax, label in zip(axes, labels):
        style(ax, "t (s)", label, legend=False)
    if bodies:
        axes[-1].legend(fontsize=7, ncol=2)
    else:
        no_data(axes[0], "no dynamic bodies")
    shown = f" (first {MAX_TRAJECTORIES} of {int((~r['static']).sum())})" if len(bodies) < (~r["static"]).sum() else ""
    fig.suptitle(f"centres of mass of the dynamic bodies{shown}")
    fig.tight_layout()
    save(fig, out, "trajectories.png")


def main(argv):
    if len(argv) not in (3, 4):
        print(f"usage: {argv[0]} RECORDING OUTDIR [ROWS]", file=sys.stderr)
        return 2
    path, out = argv[1], argv[2]
    try:
        recording = load(path, int(argv[3]) if len(argv) == 4 else None)
    except RecordingError as e:
        print(f"plot_recording.py: {e}", file=sys.stderr)
        return 2
    global plt
    plt = plotting.pyplot(f"/usr/bin/python3 scripts/plot_recording.py {path} {out}")
    if plt is None:
        return MATPLOTLIB_MISSING
    os.makedirs(out, exist_ok=True)
    for plot in (energy_momentum, contacts, solver, trajectories):
        plot(recording, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
