#!/usr/bin/python3
"""A per-step plotting callback (thesis 6.2, Script 4 "plotPVA"): after every
step a callback logs a body's vertical position, velocity and acceleration
and the plot is drawn to plot_callback.png. The body is a box dropped on the
ground (the thesis's hanging rod needs joints, which pegsim does not have).
Checks: in free fall A = g, and the box ends at rest on the ground.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/plot_callback.py
"""

import os

import pegsim


def run_time(full, quick):
    """Simulated seconds: PEGSIM_EXAMPLE_TIME=quick (the test suite) or a number shortens the run."""
    env = os.environ.get("PEGSIM_EXAMPLE_TIME", "")
    return quick if env == "quick" else float(env) if env else full


scene = pegsim.Scene(dimension=3)
scene.model = "peg"
scene.eps = 0.02
scene.add_body(pegsim.half_space(), static=True, name="ground")
box = scene.add_body(pegsim.box([0.5, 0.5, 0.5]), position=[0, 0, 1.5], density=800, name="box")
world = pegsim.World(scene)


class PlotPVA:
    """RPIsim's userFunction with its userData: the logged P, V, A of one body."""

    def __init__(self, body):
        self.body, self.t, self.P, self.V, self.A = body, [], [], [], []
        self.previous_v = 0.0

    def __call__(self, world, report):
        v = world.linear_velocities[self.body, 2]
        self.t.append(world.time)
        self.P.append(world.positions[self.body, 2])
        self.V.append(v)
        self.A.append((v - self.previous_v) / world.h)  # acceleration over the step
        self.previous_v = v


pva = PlotPVA(box)
world.add_callback(pva)
world.run(run_time(2.0, 1.0))

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(pva.t, pva.P, "r", label="Position (m)")
    ax.plot(pva.t, pva.V, "g", label="Velocity (m/s)")
    ax.plot(pva.t, pva.A, "b", label="Acceleration (m/s^2)")
    ax.set_xlabel("Time (s)")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.savefig("plot_callback.png", dpi=100, metadata={"Software": None})
    print("wrote plot_callback.png")
except ImportError:
    print("matplotlib is not installed (Debian: python3-matplotlib): no plot drawn")

# the first 0.3 s are free fall (1.25 m takes 0.5 s): A = g to round-off
# (semi-implicit Euler adds exactly h g each step, thesis eq. 2.30)
falls = all(abs(a + 9.81) < 1e-9 for t, a in zip(pva.t, pva.A) if t <= 0.3)
rests = abs(pva.P[-1] - 0.25) < 1e-6 and abs(pva.V[-1]) < 1e-6
print(f"{len(pva.t)} steps logged; free fall at g: {'yes' if falls else 'NO'}; "
      f"at the end P = {pva.P[-1]:.9f} m, V = {pva.V[-1]:.1e} m/s: {'at rest' if rests else 'NOT at rest'}")
raise SystemExit(0 if falls and rests else 1)
