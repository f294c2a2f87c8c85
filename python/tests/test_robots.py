"""Robots (kinematic trees from URDF) from Python: joint state, M(q), bias
forces, inverse dynamics and link Jacobians as numpy arrays, checked against
each other (docs/python.md, "Robots")."""
import os

import numpy as np
import pegsim

ARM7 = os.path.join(os.path.dirname(__file__), "..", "..", "data", "robots", "arm7.urdf")


def arm_world():
    text = (
        "options: {h: 0.001}\n"
        "bodies:\n  - {name: ground, static: true, shape: {box: [4, 4, 1]}, position: [0, 0, -1]}\n"
        "robots:\n  - {name: arm, urdf: %s, joints: {shoulder_pitch: 0.4, elbow: -0.7, wrist_pitch: 0.3}}\n"
        % os.path.abspath(ARM7)
    )
    return pegsim.World(pegsim.load_scene_string(text))


def test_mass_matrix_matches_inverse_dynamics_columns():
    w = arm_world()
    assert w.robot_names == ["arm"]
    q, v = w.robot_q("arm"), w.robot_v(0)
    assert q.shape == (7,) and v.shape == (7,)
    M = w.mass_matrix("arm")
    assert M.shape == (7, 7)
    assert np.allclose(M, M.T, atol=1e-14)
    assert np.all(np.linalg.eigvalsh(M) > 0)
    # M's columns: inverse dynamics of unit accelerations minus the bias forces (eq. 6.3)
    c = w.bias_forces("arm")
    for k in range(7):
        e = np.zeros(7)
        e[k] = 1.0
        assert np.allclose(w.inverse_dynamics("arm", e) - c, M[:, k], atol=1e-12)


def test_gravity_compensation_holds_the_arm_still_and_jacobian_axes():
    w = arm_world()
    for _ in range(100):
        w.set_robot_torque("arm", w.bias_forces("arm"))  # tau = C(q, v): v* = v exactly
        w.step()
    assert np.abs(w.robot_v("arm")).max() < 1e-9
    J = w.link_jacobian("arm", "flange")
    assert J.shape == (6, 7)
    assert np.allclose(J[3:, 0], [0.0, 0.0, 1.0], atol=1e-15)  # the base yaw axis is world z
