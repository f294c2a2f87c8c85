#!/usr/bin/python3
"""The rolling cart (thesis 6.1.2, Script 2): a chassis on four 20-sided wheels,
each on a revolute joint, dropped onto a 5.71 degree slope
(scenes/rolling-cart.yaml). A per-step callback reads the joints' rates as a
numpy array and logs the chassis speed against the wheels' rolling speed
|omega| r; the plot is drawn to rolling_cart.png.
Checks: the cart rolls downhill (+y), and once it has landed the wheels roll
without slipping: |omega| r equals the chassis speed within 5% (a 20-gon's
centre speed varies by 1 - cos(pi / 20) = 1.2% over a roll, and the four
wheels are not in phase).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/rolling_cart.py
"""

import os
import pathlib

import numpy as np

import pegsim

WHEEL_RADIUS = 0.25  # m, the scene's prisms' circumradius


def run_time(full, quick):
    """Simulated seconds: PEGSIM_EXAMPLE_TIME=quick (the test suite) or a number shortens the run."""
    env = os.environ.get("PEGSIM_EXAMPLE_TIME", "")
    return quick if env == "quick" else float(env) if env else full


scenes = pathlib.Path(__file__).resolve().parents[2] / "scenes"
world = pegsim.World(pegsim.load_scene(str(scenes / "rolling-cart.yaml")))
CHASSIS = 1


class RollLog:
    """The chassis speed and each wheel's rolling speed after every step."""

    def __init__(self):
        self.t, self.speed, self.rolling = [], [], []

    def __call__(self, world, report):
        self.t.append(world.time)
        self.speed.append(float(np.linalg.norm(world.linear_velocities[CHASSIS])))
        self.rolling.append(np.abs(world.joint_velocities()) * WHEEL_RADIUS)


log = RollLog()
world.add_callback(log)
world.run(run_time(3.0, 1.5))

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(log.t, log.speed, "k", lw=2, label="chassis speed")
    for j, name in enumerate(["fl", "fr", "bl", "br"]):
        ax.plot(log.t, [r[j] for r in log.rolling], lw=0.8, label=f"wheel {name}: |omega| r")
    ax.set_xlabel("Time (s)")
    ax.set_ylabel("m/s")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.savefig("rolling_cart.png", dpi=100, metadata={"Software": None})
    print("wrote rolling_cart.png")
except ImportError:
    print("matplotlib is not installed (Debian: python3-matplotlib): no plot drawn")

downhill = world.positions[CHASSIS, 1]
v = log.speed[-1]
slip = max(abs(r - v) for r in log.rolling[-1]) / v
print(f"{len(log.t)} steps; chassis {downhill:.3f} m downhill at {v:.3f} m/s; "
      f"wheels' |omega| r within {100 * slip:.2f}% of it")
raise SystemExit(0 if downhill > 0.05 and slip < 0.05 else 1)
