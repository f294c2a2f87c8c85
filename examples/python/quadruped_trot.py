#!/usr/bin/python3
"""The quadruped trotting (scenes/quadruped-trot.yaml; data/robots/quadruped.urdf, a
floating-base tree of 14 degrees of freedom): open-loop joint targets, the diagonal
leg pairs half a cycle apart. A per-step callback logs the torso's position and
tilt and the feet's contacts; the plot is drawn to quadruped_trot.png, the run
recorded to quadruped_trot.h5 (`build/pegsim replay quadruped_trot.h5`).
Checks: it walks forward (+x) once the gait has ramped in (0.5 s), its torso stays
within 20 degrees of level, and no foot sinks into the ground beyond 1e-6 m.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/quadruped_trot.py
"""

import os
import pathlib

import numpy as np

import pegsim


def run_time(full, quick):
    """Simulated seconds: PEGSIM_EXAMPLE_TIME=quick (the test suite) or a number shortens the run."""
    env = os.environ.get("PEGSIM_EXAMPLE_TIME", "")
    return quick if env == "quick" else float(env) if env else full


scenes = pathlib.Path(__file__).resolve().parents[2] / "scenes"
world = pegsim.World(pegsim.load_scene(str(scenes / "quadruped-trot.yaml")))
world.measure_penetration = True
torso = world.body("dog/torso")


class TorsoLog:
    """The torso's position, the cosine of its tilt, and the step's deepest overlap."""

    def __init__(self):
        self.t, self.position, self.up, self.deepest = [], [], [], 0.0

    def __call__(self, world, report):
        w, x, y, z = world.orientations[torso]
        self.t.append(world.time)
        self.position.append(world.positions[torso].copy())
        self.up.append(1 - 2 * (x * x + y * y))  # the torso's z axis, its world z component
        self.deepest = max(self.deepest, report.max_penetration)


log = TorsoLog()
world.add_callback(log)
world.record("quadruped_trot.h5", every=10)
world.run(run_time(4.0, 1.5))
world.close_recording()

position = np.array(log.position)
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(7, 5), sharex=True)
    ax1.plot(log.t, position[:, 0], label="x (forward)")
    ax1.plot(log.t, position[:, 1], label="y")
    ax1.set_ylabel("torso position (m)")
    ax1.legend(fontsize=8)
    ax2.plot(log.t, np.degrees(np.arccos(np.clip(log.up, -1, 1))))
    ax2.set_ylabel("torso tilt (degrees)")
    ax2.set_xlabel("Time (s)")
    for ax in (ax1, ax2):
        ax.grid(alpha=0.3)
    fig.savefig("quadruped_trot.png", dpi=100, metadata={"Software": None})
    print("wrote quadruped_trot.png")
except ImportError:
    print("matplotlib is not installed (Debian: python3-matplotlib): no plot drawn")

ramped = int(np.searchsorted(log.t, 0.5))
speed = (position[-1, 0] - position[ramped, 0]) / (log.t[-1] - log.t[ramped])
tilt = np.degrees(np.arccos(min(log.up)))
print(f"{len(log.t)} steps; torso walked {position[-1, 0]:.3f} m (x), {speed:.3f} m/s after the ramp; "
      f"largest tilt {tilt:.1f} degrees; deepest overlap {log.deepest:.2e} m; wrote quadruped_trot.h5")
ok = speed > 0.05 and tilt < 20 and log.deepest < 1e-6
print("it walks" if ok else "IT DID NOT WALK")
raise SystemExit(0 if ok else 1)
