#!/usr/bin/python3
"""The hanging rod (thesis 6.2, Scripts 5 and 6): a rod on a spherical joint to
a static cylinder, swinging from pi/5 (scenes/hanging-rod.yaml). A per-step
callback logs the joint error, as Script 6's joint_constraintError, and the
plot is drawn to hanging_rod.png (thesis Fig. 6.4).
Checks: the error stays below the thesis's 7e-5 with the stabilization term
alone, and the swing stays in the x-z plane.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/hanging_rod.py
"""

import os
import pathlib

import pegsim


def run_time(full, quick):
    """Simulated seconds: PEGSIM_EXAMPLE_TIME=quick (the test suite) or a number shortens the run."""
    env = os.environ.get("PEGSIM_EXAMPLE_TIME", "")
    return quick if env == "quick" else float(env) if env else full


scenes = pathlib.Path(__file__).resolve().parents[2] / "scenes"
world = pegsim.World(pegsim.load_scene(str(scenes / "hanging-rod.yaml")))


class JointError:
    """RPIsim's userFunction with its userData: the joint error after every step."""

    def __init__(self):
        self.t, self.error = [], []

    def __call__(self, world, report):
        self.t.append(world.time)
        self.error.append(report.joint_position_error)


log = JointError()
world.add_callback(log)
world.run(run_time(5.0, 1.0))

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(log.t, log.error, "b")
    ax.set_xlabel("Time (s)")
    ax.set_ylabel("||C|| of the joint")
    ax.grid(alpha=0.3)
    fig.savefig("hanging_rod.png", dpi=100, metadata={"Software": None})
    print("wrote hanging_rod.png")
except ImportError:
    print("matplotlib is not installed (Debian: python3-matplotlib): no plot drawn")

largest = max(log.error)
planar = abs(world.positions[1, 1]) < 1e-9
print(f"{len(log.t)} steps; largest joint error {largest:.3e} (thesis: below 7e-5); "
      f"swing in the x-z plane: {'yes' if planar else 'NO'}")
raise SystemExit(0 if largest < 7e-5 and planar else 1)
