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


def test_set_robot_state_moves_the_links_with_the_joints():
    w = arm_world()
    link2 = w.body("arm/link2")
    q = np.zeros(7)
    q[1] = np.pi / 2  # shoulder pitch: link2 (centre of mass 0.1 m along it, pitch axis at z = 0.34) points along +x
    v = np.zeros(7)
    v[0] = 1.0  # shoulder yaw at 1 rad/s: link2's centre of mass moves at omega x r = (0, 0.1, 0)
    w.set_robot_state("arm", q=q, v=v)
    assert np.allclose(w.robot_q("arm"), q) and np.allclose(w.robot_v("arm"), v)
    assert np.allclose(w.positions[link2], [0.1, 0.0, 0.34], atol=1e-12)
    assert np.allclose(w.linear_velocities[link2], [0.0, 0.1, 0.0], atol=1e-12)
    assert np.allclose(w.angular_velocities[link2], [0.0, 0.0, 1.0], atol=1e-12)
    w.set_robot_state("arm", v=np.zeros(7))  # v alone: q kept
    assert np.allclose(w.robot_q("arm"), q)
    for bad, message in ((np.zeros(6), "needs 7 entries"), (np.full(7, np.nan), "must be finite")):
        try:
            w.set_robot_state("arm", q=bad)
        except ValueError as e:
            assert message in str(e)
        else:
            raise AssertionError("no error for " + message)
    assert np.allclose(w.robot_q("arm"), q)  # a refused state changes nothing


def test_ball_held_by_the_no_slip_model_sticks_and_reports_its_slip():
    """The arm holding the ball under reference 002's no-slip model (trees in
    joint space, docs/contact-models.md): the report's slip_residual, the
    largest |S v+|, |T v+| over touching contacts, is round-off (the rows are
    equalities solved by a Cholesky of Y), while under the convex model it is 0
    and the restitution residual is reported instead."""
    path = os.path.join(os.path.dirname(__file__), "..", "..", "scenes", "arm7-grasp-ball.yaml")
    scene = pegsim.load_scene(os.path.abspath(path))
    w = pegsim.World(scene, stepper="no-slip", model="standard", solver_chain=["ppm", "lemke"])
    worst = 0.0
    for _ in range(200):
        r = w.step()
        assert r.solver_failures == 0 and r.contacts_found == 2
        worst = max(worst, r.slip_residual)
    # the pads' contact velocities are ~0.5 m/s; 1e-12 m/s is round-off at that scale
    assert 0.0 < worst < 1e-12
    c = pegsim.World(scene, stepper="convex-impulse", model="standard")
    newton = 0
    for _ in range(50):
        r = c.step()
        assert r.slip_residual == 0.0 and r.restitution_residual < 1e-9
        newton += r.barrier_newton_steps
    assert newton > 0  # the grasp's contacts went through the barrier method


def test_contact_drift_correction_stops_the_ball_creeping_in_the_gripper():
    """The ball held while the shoulder swings creeps along the pads by the
    first-order position update's sag, 1/2 h^2 a a step (about 75 um/s here);
    with Scene.contact_drift_correction each step's sag is taken back in the
    next (docs/contact-models.md, "Contact drift correction"), so the drift
    stays at one step's, below 1e-6 m, and the option reaches the world's
    options."""
    path = os.path.join(os.path.dirname(__file__), "..", "..", "scenes", "arm7-grasp-ball.yaml")
    drifts = {}
    for corrected in (False, True):
        scene = pegsim.load_scene(os.path.abspath(path))
        scene.contact_drift_correction = corrected
        assert scene.contact_drift_correction == corrected
        w = pegsim.World(scene)
        assert w.options["contact_drift_correction"] == corrected
        ball, pad = w.body("ball"), w.body("arm/left_pad")

        def in_pad():
            qw, qx, qy, qz = w.orientations[pad]
            R = np.array([[1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qw * qz), 2 * (qx * qz + qw * qy)],
                          [2 * (qx * qy + qw * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qw * qx)],
                          [2 * (qx * qz - qw * qy), 2 * (qy * qz + qw * qx), 1 - 2 * (qx * qx + qy * qy)]])
            return R.T @ (np.asarray(w.positions[ball]) - np.asarray(w.positions[pad]))

        start = in_pad()
        for _ in range(1000):
            assert w.step().contacts_found == 2
        drifts[corrected] = float(np.linalg.norm(in_pad() - start))
    assert drifts[False] > 3e-5  # 5e-5 m in the first second
    assert drifts[True] < 1e-6
