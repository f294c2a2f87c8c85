#!/usr/bin/python3
"""Hello world (thesis 6.1.2, Script 1, with the recording and replay of 6.2):
a few bodies dropped on the ground, run while recording, then the recording
replayed. Checks: the cube comes to rest on its face, and the replay's last
frame is the run's final state bit for bit.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/hello_world.py
"""

import os

import numpy as np

import pegsim


def run_time(full, quick):
    """Simulated seconds: PEGSIM_EXAMPLE_TIME=quick (the test suite) or a number shortens the run."""
    env = os.environ.get("PEGSIM_EXAMPLE_TIME", "")
    return quick if env == "quick" else float(env) if env else full


scene = pegsim.Scene(dimension=3)
scene.model = "peg"
scene.eps = 0.02
scene.add_body(pegsim.half_space([0, 0, 1]), static=True, name="ground")
cube = scene.add_body(pegsim.cube(1.0), position=[0, 0, 1], density=1000, name="cube")
scene.add_body(pegsim.octahedron(0.8), position=[2, 0, 1.5], density=1000, name="octahedron",
               orientation=[np.cos(0.2), np.sin(0.2) / np.sqrt(2), np.sin(0.2) / np.sqrt(2), 0])
scene.add_body(pegsim.prism(8, 0.4, 0.5), position=[-2, 0, 1], density=1000, name="prism")

world = pegsim.World(scene)
world.record("hello_world.h5")
world.run(run_time(3.0, 1.0))
world.close_recording()

# replay: every tenth frame of the recording
rec = pegsim.read_recording("hello_world.h5")
print(f"replaying hello_world.h5: {len(rec.time)} frames of {len(rec.body_names)} bodies")
for k in range(0, len(rec.time), len(rec.time) // 10):
    heights = "  ".join(f"{name} z = {z:6.3f}" for name, z in zip(rec.body_names[1:], rec.position[k, 1:, 2]))
    print(f"  t = {rec.time[k]:5.3f} s  {heights}  contacts {rec.contacts[k]:.0f}")

z, speed = world.positions[cube, 2], np.linalg.norm(world.linear_velocities[cube])
# at rest on its face: centre 0.5 m up to within 1e-6 m (exact contact leaves
# only the solve's round-off), speed below 1e-6 m/s
resting = abs(z - 0.5) < 1e-6 and speed < 1e-6
replayed = np.array_equal(rec.position[-1], world.positions)
print(f"cube at z = {z:.9f} m, speed {speed:.2e} m/s: {'at rest' if resting else 'NOT at rest'}; "
      f"replay's last frame {'equals' if replayed else 'DIFFERS FROM'} the run's state")
raise SystemExit(0 if resting and replayed else 1)
