"""The impulse stepper (sim/impulse_stepping.hpp) through the module: chosen by
scene, by name, and by options built in Python."""

import numpy as np

import pegsim


def test_billiards_break_keeps_its_momentum(scenes):
    scene = pegsim.load_scene(str(scenes / "billiards-break.yaml"))
    assert scene.stepper == "impulse"
    world = pegsim.World(scene)
    masses = np.asarray(world.masses)
    p0 = masses @ np.asarray(world.linear_velocities)
    collisions = 0
    for _ in range(100):
        report = world.step()
        collisions += report.impulse["collisions"]
        assert report.impulse["min_distance"] >= 0.0
    p1 = masses @ np.asarray(world.linear_velocities)
    # pairwise impulses: momentum to round-off (tests/impulse/billiards_test.cpp)
    assert np.linalg.norm(p1 - p0) < 1e-12 * np.linalg.norm(p0)
    assert collisions > 15


def test_bouncing_ball_built_in_python():
    scene = pegsim.Scene(dimension=3)
    scene.h = 0.001
    scene.stepper = "impulse"
    scene.collision_tolerance = 1e-6
    scene.restitution_law = "poisson"
    scene.add_material("rubber")
    scene.set_restitution("rubber", "rubber", 0.5)
    assert scene.restitution("rubber", "rubber") == 0.5
    scene.add_body(pegsim.half_space([0, 0, 1], 0.0), static=True, name="ground", material="rubber")
    scene.add_body(pegsim.sphere(0.1), position=[0, 0, 1.1], mass=1.0, name="ball", material="rubber")
    world = pegsim.World(scene)
    ball = world.body("ball")
    top = 0.0
    for _ in range(700):  # falls 1 m in 0.45 s, rebounds at half the speed: a quarter of the height
        world.step()
        if world.linear_velocities[ball, 2] > 0:
            top = max(top, world.positions[ball, 2] - 0.1)
    assert abs(top - 0.25) < 1e-3
