"""Per-step callbacks (RPIsim's userFunction, thesis 6.2): a logger and a controller."""

import numpy as np

import pegsim


def falling_box():
    scene = pegsim.Scene(dimension=3)
    scene.add_body(pegsim.half_space(), static=True, name="ground")
    scene.add_body(pegsim.box([0.4, 0.4, 0.4]), position=[0, 0, 0.5], mass=1.0, name="box")
    return pegsim.World(scene, model="peg", eps=0.02)


def test_callback_sees_every_step_in_order():
    world = falling_box()
    seen = []
    world.add_callback(lambda w, r: seen.append((r.step, w.step_count, w.time, r.time)))
    world.step(7)
    world.step()
    world.run(0.05)  # 10 more steps of h = 0.005
    assert [s[0] for s in seen] == list(range(18))
    for step, count, time, report_time in seen:
        assert count == step + 1  # the callback runs after the step
        assert time == report_time


def test_report_contents_once_landed():
    world = falling_box()
    reports = []
    world.add_callback(lambda w, r: reports.append(r))
    world.step(200)
    last = reports[-1]
    # a box resting on a plane: its four bottom corners touch (vertex-plane)
    assert len(last.contacts) == 4 and last.u == 4
    assert all(c.kind == "vertex_plane" for c in last.contacts)
    assert last.contact_normals.shape == (4, 3)
    # the normal impulses carry its weight over the step: sum p_n = m g h
    np.testing.assert_allclose(last.normal_impulses.sum(), 1.0 * 9.81 * 0.005, rtol=1e-6)
    assert last.solver.ok and last.solver.status == "solved"
    assert reports[0].contacts == []  # 0.3 m up: nothing within eps at the start


def test_controller_holds_the_box_up():
    # a controller cancelling gravity each step: the box hangs in the air
    world = falling_box()
    box = world.body("box")
    world.apply_force(box, [0, 0, 9.81])  # the first step's force; then the callback's
    world.add_callback(lambda w, r: w.apply_force(box, [0, 0, 9.81 * w.masses[box]]))
    z0 = world.positions[box, 2]
    world.step(100)
    assert abs(world.positions[box, 2] - z0) < 1e-12
