"""Recording from Python and reading recordings back; a scene file run from
Python equals the CLI's run of it."""

import subprocess

import numpy as np
import pytest

import pegsim

FIELDS = ["step", "time", "position", "orientation", "linear_velocity", "angular_velocity",
          "contacts_found", "contacts", "constraints_u", "constraints_i", "constraints_x", "traps",
          "solver_iterations", "complementarity", "max_penetration", "contact_offsets",
          "contact_body_a", "contact_body_b", "contact_gap", "contact_normal", "normal_impulse",
          "friction_impulse"]


@pytest.mark.parametrize("scene_name,steps", [("box-stack-2d.yaml", 120), ("box-stack-3d.yaml", 60)])
def test_python_run_equals_cli_run(tmp_path, scenes, cli, scene_name, steps):
    scene_path = scenes / scene_name
    cli_file = tmp_path / "cli.h5"
    subprocess.run([cli, "run", str(scene_path), "--steps", str(steps), "--record", str(cli_file), "--quiet"],
                   check=True, capture_output=True)

    world = pegsim.World(pegsim.load_scene(str(scene_path)))
    py_file = tmp_path / "python.h5"
    world.record(str(py_file))
    world.step(steps)
    world.close_recording()

    a, b = pegsim.read_recording(str(cli_file)), pegsim.read_recording(str(py_file))
    assert len(a.time) == steps + 1
    for name in FIELDS:  # same code, same input: equal bit for bit
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a.solver_status == b.solver_status
    assert a.scene_text == b.scene_text == scene_path.read_text()
    # and the files themselves (recordings carry no timestamps)
    assert cli_file.read_bytes() == py_file.read_bytes()


def test_recording_holds_what_the_callbacks_saw(tmp_path):
    scene = pegsim.Scene(dimension=2)
    scene.eps = 0.05
    scene.add_body(pegsim.half_space([0, 1], 0.0), static=True, name="floor")
    scene.add_body(pegsim.regular_polygon(5, 0.5), position=[0, 1], theta=0.2, mass=1.0, name="pentagon")
    world = pegsim.World(scene, model="peg")
    path = tmp_path / "run.h5"
    world.record(str(path), every=2)
    poses, penetration = [world.poses2d], [0.0]

    def log(w, r):
        if w.step_count % 2 == 0:
            poses.append(w.poses2d)
            penetration.append(r.max_penetration)

    world.add_callback(log)
    world.step(100)
    world.close_recording()
    rec = pegsim.read_recording(str(path))
    assert rec.dimension == 2 and rec.every == 2 and rec.body_names == ["floor", "pentagon"]
    assert rec.position.shape == (51, 2, 3) and rec.orientation.shape == (51, 2, 4)
    assert np.array_equal(rec.step, np.arange(0, 101, 2))
    logged = np.array(poses)
    assert np.array_equal(rec.position[:, :, :2], logged[:, :, :2])
    assert np.array_equal(rec.theta, logged[:, :, 2])
    assert np.array_equal(rec.max_penetration, penetration)
    assert rec.contact_offsets[-1] == len(rec.contact_gap)
