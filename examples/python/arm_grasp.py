#!/usr/bin/python3
"""The Drumwright-Shell grasp (reference 000, section 4; scenes/arm7-grasp-ball.yaml):
the 7-DOF arm with its two-jaw gripper (data/robots/arm7-gripper.urdf) holds a ball
while the shoulder's yaw and pitch follow sin(t)/4 and sin(2t)/4. Here the arm is
driven as in the paper, by inverse dynamics from Python: each step,

    tau = inverse_dynamics(qdd_d + kp (q_d - q) + kd (qd_d - qd))   (M qdd + C, RNEA)

on all nine joints (the fingers' desired motion is to stay where they are; the
scene's own PD controllers on the fingers add the squeeze). The ball's drift in the
left pad's frame is logged; it is recorded to arm_grasp.h5 for `pegsim replay`.
Checks: the jaws never let go (two contacts every step), the ball drifts less than
1 mm in the pad (the integrator's creep, about 6e-5 m a simulated second at h = 0.001:
tests/trees/robots_test.cpp), and the shoulder tracks its sines within 2e-3 rad (the
ball is not in the arm's model: its 1.1 N at up to 0.25 m from the pitch axis, over
the loop's stiffness kp M = 100 x 4.5 N m/rad, is 6e-4 rad).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/arm_grasp.py
"""

import os
import pathlib

import numpy as np

import pegsim


def run_time(full, quick):
    """Simulated seconds: PEGSIM_EXAMPLE_TIME=quick (the test suite) or a number shortens the run."""
    env = os.environ.get("PEGSIM_EXAMPLE_TIME", "")
    return quick if env == "quick" else float(env) if env else full


def rotation(q):
    """The rotation matrix of a unit quaternion [w, x, y, z]."""
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


# the scene without its PD controllers on the arm's seven joints (the fingers' stay)
path = pathlib.Path(__file__).resolve().parents[2] / "scenes" / "arm7-grasp-ball.yaml"
text = "".join(line for line in path.read_text().splitlines(keepends=True)
               if "joint:" not in line or "finger" in line)
world = pegsim.World(pegsim.load_scene_string(text, source=str(path)))
ball, pad = world.body("ball"), world.body("arm/left_pad")
q_fingers = world.robot_q("arm")[7:].copy()
kp, kd = 100.0, 20.0  # per joint: e'' + kd e' + kp e = 0, critically damped


def desired(t):
    """q_d, qd_d, qdd_d of the nine joints at time t."""
    q, qd, qdd = np.zeros(9), np.zeros(9), np.zeros(9)
    q[0], qd[0], qdd[0] = np.sin(t) / 4, np.cos(t) / 4, -np.sin(t) / 4
    q[1], qd[1], qdd[1] = np.sin(2 * t) / 4, np.cos(2 * t) / 2, -np.sin(2 * t)
    q[7:] = q_fingers
    return q, qd, qdd


def ball_in_pad():
    return rotation(world.orientations[pad]).T @ (world.positions[ball] - world.positions[pad])


start = ball_in_pad()
drift, tracking, let_go = 0.0, 0.0, 0
world.record("arm_grasp.h5", every=10)
steps = int(round(run_time(10.0, 1.0) / world.h))
for k in range(steps):
    q_d, qd_d, qdd_d = desired(world.time)
    q, v = world.robot_q("arm"), world.robot_v("arm")
    world.set_robot_torque("arm", world.inverse_dynamics("arm", qdd_d + kp * (q_d - q) + kd * (qd_d - v)))
    report = world.step()
    let_go += report.contacts_found != 2
    drift = max(drift, float(np.linalg.norm(ball_in_pad() - start)))
    tracking = max(tracking, float(np.abs(world.robot_q("arm")[:2] - desired(world.time)[0][:2]).max()))
    if (k + 1) % 1000 == 0:
        print(f"t = {world.time:5.2f} s: ball drift in the pad {drift:.3e} m, shoulder tracking error {tracking:.2e} rad")
world.close_recording()
print(f"{steps} steps; wrote arm_grasp.h5 (build/pegsim replay arm_grasp.h5); steps without both jaws touching: {let_go}")
ok = let_go == 0 and drift < 1e-3 and tracking < 2e-3
print("the grasp held" if ok else "THE GRASP FAILED")
raise SystemExit(0 if ok else 1)
