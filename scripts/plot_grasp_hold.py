#!/usr/bin/python3
"""Creep of the held cube of scenes/grasp-hold.yaml, from a recording.

    build/pegsim run scenes/grasp-hold.yaml --time 30 --record grasp-hold.h5 --quiet
    /usr/bin/python3 scripts/plot_grasp_hold.py grasp-hold.h5 OUTDIR [--settled 1.5]

The cube's centre in each finger's frame (the fingers are bodies
finger_left and finger_right, the object cube), and its distance from where it
was at t = SETTLED (default 1.5 s: the lift ends at 1 s and the palm's PD has
settled by then): the creep of the object in the fingers. Prints the largest
creep after SETTLED and writes OUTDIR/grasp_hold_creep.png (creep on a log axis,
and the cube's height). Needs h5py, numpy and matplotlib (exit status 3
without matplotlib, like the other plot scripts).
"""

import argparse
import os
import sys

import plotting
from plotting import MATPLOTLIB_MISSING, save, style
from plot_recording import RecordingError, load, rotation

# zeros on the log axis: PEG's creep is round-off (1e-15 m), below plotting.FLOOR
CREEP_FLOOR = 1e-18


def creep(r, settled):
    """t, the cube's height, and per finger the distance of the cube's centre
    (in that finger's frame) from its value at the first step at or after settled."""
    import numpy as np
    names = r["names"]
    try:
        cube, fingers = names.index("cube"), [names.index("finger_left"), names.index("finger_right")]
    except ValueError:
        raise RecordingError("the recording has no bodies named cube, finger_left and finger_right "
                             "(not a recording of scenes/grasp-hold.yaml?)")
    t, position = r["time"], r["position"]
    k0 = int(np.searchsorted(t, settled - 1e-9))
    if k0 >= len(t):
        raise RecordingError(f"the recording ends at t = {t[-1]:g} s, before --settled {settled:g} s")
    R = rotation(r["orientation"])
    drifts = []
    for f in fingers:
        # R_f^T (x_cube - x_f): the cube's centre in the finger's frame
        rel = np.einsum("nji,nj->ni", R[:, f], position[:, cube] - position[:, f])
        drifts.append(np.linalg.norm(rel - rel[k0], axis=1))
    return t, position[:, cube, 2], drifts, k0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("recording")
    parser.add_argument("outdir")
    parser.add_argument("--settled", type=float, default=1.5, help="start of the checked window (s)")
    args = parser.parse_args()
    try:
        r = load(args.recording)
        t, height, drifts, k0 = creep(r, args.settled)
    except RecordingError as e:
        print(f"plot_grasp_hold.py: {e}", file=sys.stderr)
        return 2
    for name, d in zip(["left", "right"], drifts):
        print(f"creep in finger_{name} from t = {t[k0]:.4g} s to {t[-1]:.4g} s: max {d[k0:].max():.3g} m")
    if plotting.pyplot(f"/usr/bin/python3 scripts/plot_grasp_hold.py {args.recording} {args.outdir}") is None:
        return MATPLOTLIB_MISSING
    plt = plotting.plt
    os.makedirs(args.outdir, exist_ok=True)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2))
    for name, d in zip(["left", "right"], drifts):
        axes[0].semilogy(t[k0:], [max(x, CREEP_FLOOR) for x in d[k0:]], lw=1, label=f"in finger_{name}")
    axes[0].axhline(1e-6, color="tab:red", ls="--", lw=1, label="bar: 1e-6 m")
    axes[0].set_ylim(CREEP_FLOOR / 3, max(1e-5, 3 * max(d[k0:].max() for d in drifts)))
    style(axes[0], "t (s)", "m", f"creep: the cube's displacement in each finger since t = {t[k0]:g} s")
    axes[1].plot(t, height, lw=1.2, label="cube centre z")
    axes[1].axvline(t[k0], color="gray", ls=":", lw=1, label="settled")
    style(axes[1], "t (s)", "m", "the cube's height (lifted 0.4-1 s)")
    fig.tight_layout()
    save(fig, args.outdir, "grasp_hold_creep.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
