"""Curved shapes through the module: kinds, exact mass, a ball rolling down an incline."""

import math

import numpy as np

import pegsim


def test_curved_kinds_and_exact_mass():
    for name in ("sphere", "capsule", "cylinder", "cone", "disc", "capsule_2d"):
        assert name in pegsim.shape_kinds
    assert pegsim.sphere(0.5).kind == "sphere"
    assert pegsim.capsule(0.2, 1.0, planar=True).kind == "capsule_2d"
    assert pegsim.cylinder(0.3, 0.5).vertices is None
    scene = pegsim.Scene(dimension=3)
    i = scene.add_body(pegsim.sphere(0.5), density=1000.0)
    world = pegsim.World(scene)
    # 4/3 pi r^3 rho, exactly (closed form, not a tessellation)
    np.testing.assert_allclose(world.masses[i], 4.0 / 3.0 * math.pi * 0.125 * 1000.0, rtol=1e-15)


def test_ball_rolls_at_five_sevenths_g_sin_a():
    a = math.radians(20.0)
    n = [math.sin(a), 0.0, math.cos(a)]
    scene = pegsim.Scene(dimension=3)
    scene.h = 0.001
    scene.eps = 0.002
    scene.add_material("rubber")
    scene.set_friction("rubber", "rubber", 0.8)
    scene.add_body(pegsim.half_space(n, 0.0), static=True, material="rubber", name="incline")
    ball = scene.add_body(pegsim.sphere(0.1), position=[0.1 * c for c in n], density=1000.0,
                          material="rubber", name="ball")
    world = pegsim.World(scene, model="peg", solver="lemke")
    world.step(500)
    downhill = np.array([math.cos(a), 0.0, -math.sin(a)])
    measured = world.linear_velocities[ball] @ downhill / world.time
    # a flat incline makes the step's linearised contact exact: round-off only
    np.testing.assert_allclose(measured, 5.0 / 7.0 * 9.81 * math.sin(a), rtol=1e-9)
