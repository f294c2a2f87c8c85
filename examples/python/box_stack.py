#!/usr/bin/python3
"""A box stack: five 1 m cubes stacked 1 cm apart on the ground, released.
Checks: the stack stands: every box ends on the one below (centre within
1e-4 m of its height k + 0.5), has not slid sideways (1e-4 m), and is still.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/box_stack.py
"""

import os

import numpy as np

import pegsim


def run_time(full, quick):
    """Simulated seconds: PEGSIM_EXAMPLE_TIME=quick (the test suite) or a number shortens the run."""
    env = os.environ.get("PEGSIM_EXAMPLE_TIME", "")
    return quick if env == "quick" else float(env) if env else full


BOXES = 5
scene = pegsim.Scene(dimension=3)
scene.model = "peg"
scene.eps = 0.03
scene.add_material("wood")
scene.set_friction("wood", "wood", 0.5)
scene.set_friction("wood", "default", 0.5)
scene.add_body(pegsim.half_space(), static=True, name="ground")
boxes = [scene.add_body(pegsim.cube(1.0), position=[0, 0, 0.5 + 1.01 * k], density=500, material="wood",
                        name=f"box{k}") for k in range(BOXES)]

world = pegsim.World(scene)
deepest = [0.0]
world.add_callback(lambda w, r: deepest.__setitem__(0, max(deepest[0], r.max_penetration)))
world.run(run_time(3.0, 1.0))

p, v = world.positions[boxes], world.linear_velocities[boxes]
# 1e-4 m: the 1 cm drops settle within a few steps; what is left is the
# solver's residual, orders of magnitude below it
height_ok = np.abs(p[:, 2] - (np.arange(BOXES) + 0.5)) < 1e-4
still = (np.hypot(p[:, 0], p[:, 1]) < 1e-4) & (np.linalg.norm(v, axis=1) < 1e-4)
for k in range(BOXES):
    print(f"box{k}: centre ({p[k, 0]:.2e}, {p[k, 1]:.2e}, {p[k, 2]:.6f}) m, speed {np.linalg.norm(v[k]):.1e} m/s")
stands = bool(height_ok.all() and still.all() and deepest[0] < 1e-4)
print(f"deepest penetration {deepest[0]:.2e} m; the stack {'stands' if stands else 'DID NOT STAND'}")
raise SystemExit(0 if stands else 1)
