"""Kinematic (prescribed-motion) bodies from Python: a belt whose velocity a
script changes between steps carries a box with it (docs/scene-format.md)."""

import numpy as np
import pytest

import pegsim


def belt_and_box():
    scene = pegsim.Scene(dimension=3)
    scene.set_friction("default", "default", 0.4)
    scene.add_body(pegsim.box([3, 1, 0.1]), position=[0, 0, -0.05], velocity=[0.5, 0, 0], kinematic=True,
                   name="belt")
    scene.add_body(pegsim.cube(0.2), position=[0, 0, 0.1], mass=1.0, name="box")
    return pegsim.World(scene, model="peg")


def test_kinematic_bodies_are_static_and_say_so():
    world = belt_and_box()
    assert world.kinematic == [True, False]
    assert world.static == [True, False]
    assert world.masses[0] == 0.0


def test_a_belt_carries_the_box_and_a_script_can_reverse_it():
    world = belt_and_box()
    world.run(0.5)  # mu g = 3.9 m/s^2: the box catches the belt in 0.13 s
    # sticking: the box's velocity is the belt's to the solver's tolerance
    assert np.allclose(world.linear_velocities[1], [0.5, 0, 0], atol=1e-8)
    assert world.positions[0][0] == pytest.approx(0.25, abs=1e-12)  # the belt moved 0.5 m/s x 0.5 s
    # the script reverses the belt: the box follows after sliding
    v = world.linear_velocities
    v[0] = [-0.5, 0, 0]
    world.linear_velocities = v
    world.run(0.5)
    assert np.allclose(world.linear_velocities[1], [-0.5, 0, 0], atol=1e-8)
    assert world.positions[0][0] == pytest.approx(0.0, abs=1e-12)


def test_a_kinematic_half_space_is_refused():
    scene = pegsim.Scene(dimension=3)
    with pytest.raises(ValueError, match="a half-space cannot move"):
        scene.add_body(pegsim.half_space(), kinematic=True)
