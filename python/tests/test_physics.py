"""Physics through the module: landing and resting, free flight, determinism."""

import numpy as np
import pytest

import pegsim


def drop_scene(height=1.0):
    scene = pegsim.Scene(dimension=3)
    scene.h = 0.005
    scene.eps = 0.02
    scene.add_body(pegsim.half_space([0, 0, 1], 0.0), static=True, name="ground")
    scene.add_body(pegsim.box([1, 1, 1]), position=[0, 0, height], mass=1.0, name="box")
    return scene


def test_dropped_box_lands_and_rests():
    world = pegsim.World(drop_scene(), model="peg")
    box = world.body("box")
    deepest = 0.0
    for _ in range(400):  # 2 s: a 0.5 m fall takes 0.32 s
        report = world.step()
        deepest = max(deepest, report.max_penetration)
        assert report.solver.ok, report.solver.message
    # at rest on its face: centre 0.5 m above the ground, still. Exact contact
    # (Stewart-Trinkle with the gap term, thesis eq. 2.34) keeps the overlap to
    # round-off of the solve: 1e-6 m is many orders above it and far below any
    # visible sinking.
    assert abs(world.positions[box, 2] - 0.5) < 1e-6
    assert np.linalg.norm(world.linear_velocities[box]) < 1e-6
    assert deepest < 1e-6


def test_free_flight_conserves_momentum():
    # no gravity, no contact: two spinning bodies keep their momentum (thesis
    # eq. 2.36 integrates the velocity unchanged when no impulse acts)
    scene = pegsim.Scene(dimension=3)
    scene.gravity = [0, 0, 0]
    scene.add_body(pegsim.box([1, 0.5, 0.2]), position=[0, 0, 0], velocity=[1, 2, 3],
                   angular_velocity=[0.3, -1, 2], mass=2.0)
    scene.add_body(pegsim.tetrahedron(1), position=[10, 0, 0], velocity=[-1, 0, 0.5], density=3.0)
    world = pegsim.World(scene)
    p0 = world.momentum()
    world.step(200)
    # 200 additions of the same velocities: a relative drift of a few ulps
    np.testing.assert_allclose(world.momentum(), p0, rtol=1e-12, atol=1e-12)
    masses = world.masses
    np.testing.assert_allclose(masses @ world.linear_velocities, p0, rtol=1e-12, atol=1e-12)


def test_applied_force_accelerates_as_f_over_m():
    scene = pegsim.Scene(dimension=3)
    scene.gravity = [0, 0, 0]
    scene.add_body(pegsim.cube(1), mass=2.0)
    world = pegsim.World(scene)
    world.apply_force(0, [4.0, 0, 0])
    world.step()
    # one step of semi-implicit Euler (thesis eq. 2.30): v = h F / m, forces cleared after the step
    np.testing.assert_allclose(world.linear_velocities[0], [0.005 * 2.0, 0, 0], rtol=1e-14)
    np.testing.assert_array_equal(world.forces, np.zeros((1, 3)))


def run_stack():
    scene = drop_scene(0.6)
    scene.add_body(pegsim.box([1, 1, 1]), position=[0.1, 0.05, 1.8], mass=1.0, name="top")
    world = pegsim.World(scene, model="peg")
    trace = []
    world.add_callback(lambda w, r: trace.append((w.positions, w.orientations, r.normal_impulses)))
    world.step(150)
    return trace


def test_same_run_twice_is_bit_identical():
    a, b = run_stack(), run_stack()
    assert len(a) == len(b) == 150
    for (pa, qa, ia), (pb, qb, ib) in zip(a, b):
        assert pa.tobytes() == pb.tobytes()
        assert qa.tobytes() == qb.tobytes()
        assert ia.tobytes() == ib.tobytes()


def test_set_state_between_steps():
    world = pegsim.World(drop_scene(5.0))
    pos = world.positions
    pos[1] = [3.0, 0.0, 5.0]
    world.positions = pos
    world.linear_velocities = np.array([[0, 0, 0], [1.0, 0, 0]])
    q = np.array([[1, 0, 0, 0], [np.cos(0.3), 0, 0, np.sin(0.3)]])
    world.orientations = q
    np.testing.assert_allclose(world.orientations, q, atol=1e-15)
    world.step()
    np.testing.assert_allclose(world.positions[1, 0], 3.0 + 0.005, rtol=1e-14)


def test_planar_state_arrays():
    scene = pegsim.Scene(dimension=2)
    scene.gravity = [0, 0]
    scene.add_body(pegsim.regular_polygon(4, 1.0), position=[1, 2], theta=0.5, mass=1.0, angular_velocity=2.0)
    world = pegsim.World(scene)
    np.testing.assert_allclose(world.poses2d, [[1, 2, 0.5]], atol=1e-15)
    np.testing.assert_allclose(world.orientations, [[np.cos(0.25), 0, 0, np.sin(0.25)]], atol=1e-15)
    world.step(10)
    # no torque, no contact: theta advances by h w a step (thesis eq. 2.36 in the plane)
    np.testing.assert_allclose(world.poses2d[0, 2], 0.5 + 10 * 0.005 * 2.0, rtol=1e-14)
    world.orientations = [[np.cos(0.1), 0, 0, np.sin(0.1)]]
    np.testing.assert_allclose(world.poses2d[0, 2], 0.2, rtol=1e-14)
    world.apply_force(0, [1.0, 0.0], torque=0.5)
    assert world.torques[0, 2] == 0.5 and world.forces[0, 0] == 1.0
    with pytest.raises(ValueError, match="about z only"):
        world.orientations = [[np.cos(0.1), np.sin(0.1), 0, 0]]
    with pytest.raises(ValueError, match="in the plane"):
        world.linear_velocities = [[0, 0, 1]]


def test_position_correction_removes_the_rotation_overlap(scenes):
    # thesis 5.3: two bars spinning at 1 rad/s overlap by 0.5 (1 - cos h) m^2
    # after a step; the position correction projects the poses out of it and
    # leaves the velocities exactly as the step made them
    plain = pegsim.load_scene(str(scenes / "rotation-overlap.yaml"))
    corrected = pegsim.load_scene(str(scenes / "rotation-overlap.yaml"))
    corrected.position_correction = True
    a, b = pegsim.World(plain), pegsim.World(corrected)
    ra, rb = a.step(), b.step()
    assert ra.max_penetration > 1e-3 and ra.position_corrections == 0
    assert rb.position_corrections > 0
    assert rb.penetration_before_correction == ra.max_penetration
    assert rb.max_penetration <= 1e-6
    np.testing.assert_array_equal(a.linear_velocities, b.linear_velocities)
    np.testing.assert_array_equal(a.angular_velocities, b.angular_velocities)


def test_gyroscopic_term_keeps_a_fast_spin_bounded():
    # a 0.1 x 0.2 x 0.4 m box spinning at |w| h = 2.3 rad a step, no gravity:
    # the default (implicit midpoint) keeps its kinetic energy; thesis eq.
    # 2.30's explicit term, chosen from Python, pumps energy in (unstable from
    # about 2 rad a step; docs/scene-format.md, `gyroscopic`)
    text = ("options: {dimension: 3, h: 0.005, gravity: [0, 0, 0]}\n"
            "bodies:\n  - {name: box, shape: {box: [0.1, 0.2, 0.4]}, mass: 1, angular_velocity: [300, 300, 200]}\n")
    implicit = pegsim.load_scene_string(text)
    explicit = pegsim.load_scene_string(text)
    assert implicit.gyroscopic == "implicit"
    explicit.gyroscopic = "explicit"
    with pytest.raises(ValueError, match="expected implicit or explicit"):
        explicit.gyroscopic = "midpoint"
    a, b = pegsim.World(implicit), pegsim.World(explicit)
    e0 = a.energy()
    a.step(200)
    # midpoint rule: energy kept to round-off of 200 steps
    assert abs(a.energy() - e0) <= 1e-10 * e0
    # the explicit term: |w| squares each step until the state is not finite,
    # which the step refuses by name (step 11 here)
    with pytest.raises(RuntimeError, match="body 'box' has a non-finite pose or velocity"):
        b.step(200)
