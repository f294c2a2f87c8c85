"""C++ errors arrive as Python exceptions with the same messages."""

import numpy as np
import pytest

import pegsim


def test_bad_scene_file_names_file_line_and_field(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("bodies:\n  - name: a\n    shape: {box: [1, 1, 1]}\n    mass: -1\n")
    with pytest.raises(ValueError, match=r"bad\.yaml:4: bodies\[0\]\.mass: must be positive, got -1"):
        pegsim.load_scene(str(path))


def test_missing_scene_file():
    with pytest.raises(ValueError, match="cannot open the scene file"):
        pegsim.load_scene("/nonexistent/scene.yaml")


def test_yaml_string_errors_name_the_source():
    with pytest.raises(ValueError, match=r"^mine:1: .*unknown key"):
        pegsim.load_scene_string("colour: red\n", "mine")


def test_unknown_solver_and_model():
    scene = pegsim.Scene()
    scene.add_body(pegsim.cube(1), mass=1)
    with pytest.raises(ValueError, match=r"unknown solver 'simplex' \(available: lemke, pgs"):
        pegsim.World(scene, solver="simplex")
    world = pegsim.World(scene)
    with pytest.raises(ValueError, match="unknown solver 'nope'"):
        world.solver = "nope"
    with pytest.raises(ValueError, match="unknown contact model 'soft'"):
        world.model = "soft"


def test_bad_bodies_and_shapes():
    scene = pegsim.Scene()
    with pytest.raises(ValueError, match="needs mass or density"):
        scene.add_body(pegsim.cube(1))
    with pytest.raises(ValueError, match="half-space can only belong to a static body"):
        scene.add_body(pegsim.half_space(), mass=1)
    with pytest.raises(ValueError, match="a polygon in a 3D scene"):
        scene.add_body(pegsim.rectangle(1, 1), mass=1)
    with pytest.raises(ValueError, match="pegsim.polygon: .*"):
        pegsim.polygon([[0, 0], [0, 1], [1, 0]])  # clockwise
    with pytest.raises(ValueError, match=r"pegsim.polyhedron: "):
        pegsim.polyhedron([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]])  # coplanar
    with pytest.raises(ValueError, match="size: expected 3 numbers"):
        pegsim.box([1, 2])
    with pytest.raises(ValueError, match="unit quaternion"):
        scene.add_body(pegsim.cube(1), mass=1, orientation=[1, 1, 0, 0])


def test_state_arrays_are_checked():
    scene = pegsim.Scene()
    scene.add_body(pegsim.half_space(), static=True, name="ground")
    scene.add_body(pegsim.cube(1), mass=1, position=[0, 0, 2], name="cube")
    world = pegsim.World(scene)
    with pytest.raises(ValueError, match=r"expected an array of shape \(2, 3\), got shape \(3, 3\)"):
        world.positions = np.zeros((3, 3))
    with pytest.raises(ValueError, match=r"row 1 \(body 'cube'\) is not finite"):
        world.positions = [[0, 0, 0], [0, 0, np.nan]]
    with pytest.raises(ValueError, match=r"row 0 \(body 'ground'\) is static"):
        world.linear_velocities = [[1, 0, 0], [0, 0, 0]]
    with pytest.raises(ValueError, match="no body named 'wheel'"):
        world.apply_force("wheel", [1, 0, 0])


def test_non_finite_state_stops_the_step():
    scene = pegsim.Scene()
    scene.gravity = [0, 0, 0]
    scene.add_body(pegsim.cube(1), mass=1, name="cube")
    world = pegsim.World(scene)
    forces = world.forces
    forces[0, 0] = np.inf
    with pytest.raises(ValueError, match=r"row 0 \(body 'cube'\) is not finite"):
        world.forces = forces
    # an overflow inside the step: 1.797e308 + h F / m = 1.797e308 + 5e305 is
    # beyond the largest double, caught by the World's own check
    world.linear_velocities = [[1.797e308, 0, 0]]
    world.apply_force("cube", [1e308, 0, 0])
    with pytest.raises(RuntimeError, match="body 'cube' has a non-finite pose or velocity"):
        world.step()


def test_bad_recording(tmp_path):
    path = tmp_path / "broken.h5"
    path.write_bytes(b"\x89HDF\r\n\x1a\n" + b"\0" * 100)
    with pytest.raises(RuntimeError, match="broken.h5"):
        pegsim.read_recording(str(path))


def test_callback_errors_propagate():
    scene = pegsim.Scene()
    scene.add_body(pegsim.cube(1), mass=1)
    world = pegsim.World(scene)

    def failing(w, r):
        raise KeyError("from the callback")

    world.add_callback(failing)
    with pytest.raises(KeyError, match="from the callback"):
        world.step(5)
    assert world.step_count == 1  # stopped after the first step's callback
