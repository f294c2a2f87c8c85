"""Building scenes in code: shapes, bodies, frames, options."""

import numpy as np
import pytest

import pegsim


def test_box_body_frame_at_the_centroid():
    # a wedge's centroid is not its shape-frame origin: the body's position is
    # the centroid, placed where the shape frame puts it (as scene files do)
    scene = pegsim.Scene(dimension=3)
    wedge = pegsim.polyhedron([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    i = scene.add_body(wedge, position=[2, 0, 0], density=6.0)
    world = pegsim.World(scene)
    # centroid of the unit corner tetrahedron: (1/4, 1/4, 1/4); volume 1/6
    np.testing.assert_allclose(world.positions[i], [2.25, 0.25, 0.25], atol=1e-12)
    np.testing.assert_allclose(world.masses[i], 1.0, rtol=1e-12)


def test_mass_and_density_give_the_same_inertia_per_kg():
    scene = pegsim.Scene()
    a = scene.add_body(pegsim.box([1, 2, 3]), mass=2.0)
    b = scene.add_body(pegsim.box([1, 2, 3]), density=1.0 / 3.0)  # 6 m^3 -> 2 kg
    world = pegsim.World(scene)
    np.testing.assert_allclose(world.masses[[a, b]], [2.0, 2.0], rtol=1e-12)


def test_options_and_overrides():
    scene = pegsim.Scene(dimension=2)
    scene.h = 0.01
    scene.eps = "auto"
    scene.model = "peg"
    scene.solver = "pgs"
    scene.friction_directions = 4
    np.testing.assert_array_equal(scene.gravity, [0.0, -9.81, 0.0])
    scene.add_body(pegsim.rectangle(1, 1), mass=1)
    world = pegsim.World(scene, solver="lemke", h=0.002, eps=0.05, tolerance=1e-8)
    o = world.options
    assert (o["h"], o["eps"], o["model"], o["solver"], o["solver_tolerance"]) == (0.002, 0.05, "peg", "lemke", 1e-8)
    world.solver = "path"
    world.model = "standard"
    assert (world.solver, world.model) == ("path", "standard")


def test_materials_and_friction():
    scene = pegsim.Scene()
    scene.add_material("rubber")
    scene.set_friction("rubber", "default", 0.8)
    assert scene.friction("default", "rubber") == 0.8
    assert scene.friction("rubber", "rubber") == 0.0
    assert scene.materials == ["default", "rubber"]


def test_every_shape_kind_builds():
    for shape in [pegsim.box([1, 1, 1]), pegsim.cube(1), pegsim.tetrahedron(1), pegsim.octahedron(1),
                  pegsim.dodecahedron(1), pegsim.icosahedron(1), pegsim.prism(8, 0.5, 1)]:
        assert shape.kind == "polyhedron"
    for shape in [pegsim.polygon([[0, 0], [1, 0], [0, 1]]), pegsim.rectangle(1, 2), pegsim.regular_polygon(6, 1)]:
        assert shape.kind == "polygon"
    assert pegsim.half_space().kind == "half_space"
    assert pegsim.box([1, 2, 3]).vertices.shape == (8, 3)


def test_shape_kinds_come_from_the_registry():
    assert pegsim.shape_kinds == ("polyhedron", "polygon", "half_space", "compound", "sphere", "capsule",
                                  "cylinder", "cone", "disc", "capsule_2d")
    assert pegsim.box([1, 1, 1]).kind in pegsim.shape_kinds


def test_compound_l_shape_mass_and_rest():
    # a non-convex L as two overlapping rectangles (thesis 4.5): the union's
    # area is 0.6 * 0.15 + 0.15 * 0.35 (the overlap counted once); dropped on
    # a half-plane it comes to rest on its bar without sinking into it
    scene = pegsim.Scene(dimension=2)
    scene.model = "peg"
    ell = pegsim.compound([(pegsim.rectangle(0.6, 0.15), None),
                           (pegsim.rectangle(0.15, 0.5), [-0.225, 0.175])])
    assert ell.kind == "compound"
    scene.add_body(pegsim.half_space([0, 1], 0.0), static=True)
    i = scene.add_body(ell, position=[0, 0.2], density=1.0)
    world = pegsim.World(scene)
    np.testing.assert_allclose(world.masses[i], 0.6 * 0.15 + 0.15 * 0.35, rtol=1e-12)
    world.run(1.5)
    # the bar's bottom (0.075 below the shape origin) rests on y = 0: the
    # centroid sits at 0.075 + its height above the shape origin
    centroid_y = (0.6 * 0.15 * 0.0 + 0.15 * 0.35 * (0.075 + 0.175)) / (0.6 * 0.15 + 0.15 * 0.35)
    np.testing.assert_allclose(world.positions[i][1], 0.075 + centroid_y, atol=1e-6)
    np.testing.assert_allclose(world.linear_velocities[i], 0.0, atol=1e-6)


def test_compound_rejects_mixed_parts():
    with pytest.raises(ValueError, match="compound"):
        pegsim.compound([(pegsim.rectangle(1, 1), None), (pegsim.box([1, 1, 1]), None)])
