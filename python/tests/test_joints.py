"""Joints from Python: a scene's joints, joint state as numpy arrays, joint
torques set by a per-step callback, and joints built in code."""

import math

import numpy as np
import pytest

import pegsim


def test_pendulum_scene_joint_state_and_errors(scenes):
    world = pegsim.World(pegsim.load_scene(str(scenes / "pendulum.yaml")))
    assert world.joint_names == ["pivot"]
    q0 = world.joint_positions()
    assert q0.shape == (1,)
    report = None
    for _ in range(50):
        report = world.step()
    # the rod swings back from pi/5 toward the vertical: its angle relative to the start grows
    assert world.joint_positions()[0] != q0[0]
    assert abs(world.joint_velocities()[0]) > 0.1
    # Algorithm 1 is on in this scene: the error after the correction is within eps_p = 1e-5
    assert report.joint_position_error <= 1e-5
    assert report.joint_position_error_before > report.joint_position_error


def test_a_callback_holds_the_hinge_with_a_joint_torque(scenes):
    # a horizontal bar on a hinge: the torque m g L / 2 about the hinge, applied
    # each step before the step (the callback runs after a step, for the next),
    # holds it still against gravity
    world = pegsim.World(pegsim.load_scene(str(scenes / "hinge-limit.yaml")))
    hold = -1.0 * 9.81 * 0.25  # the angle is positive downward: lift with a negative torque
    world.apply_joint_torque("hinge", hold)
    world.add_callback(lambda w, r: w.apply_joint_torque(0, hold))
    for _ in range(200):
        world.step()
    assert abs(world.joint_positions()[0]) < 1e-8
    # the hinge carries the bar's weight: its force on the bar is m g up
    report = world.step()
    np.testing.assert_allclose(report.joint_wrenches[0, :3], [0.0, 0.0, 9.81], atol=1e-9)
    with pytest.raises(ValueError):
        world.apply_joint_torque("nope", 1.0)
    with pytest.raises(IndexError):
        world.apply_joint_torque(3, 1.0)


def test_add_joint_in_code():
    scene = pegsim.Scene(dimension=3)
    scene.solver = "path"
    rod = scene.add_body(pegsim.box([0.05, 0.05, 0.5]), position=[0, 0, -0.25], mass=1.0)
    j = scene.add_joint("revolute", "world", rod, anchor=[0, 0, 0], axis=[0, 1, 0], name="pivot")
    assert j == 0 and scene.joint_names == ["pivot"]
    with pytest.raises(ValueError):
        scene.add_joint("weld", "world", rod, anchor=[0, 0, 0])
    with pytest.raises(ValueError):
        scene.add_joint("revolute", rod, rod, anchor=[0, 0, 0], axis=[0, 0, 1])
    world = pegsim.World(scene)
    world.angular_velocities = np.array([[0.0, 1.0, 0.0]])
    world.linear_velocities = np.array([[-0.25, 0.0, 0.0]])  # rotating about the pivot
    for _ in range(100):
        world.step()
    # the rod's top stays at the pivot: its centre stays 0.25 m from it
    assert abs(np.linalg.norm(world.positions[0]) - 0.25) < 1e-3
