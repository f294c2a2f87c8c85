"""World options from Python: the solver chain, the stepper, the registries'
names, the default contact model and the penetration meter."""

import math

import pytest

import pegsim


def test_solver_keyword_replaces_a_scenes_chain(scenes):
    scene = pegsim.load_scene(str(scenes / "mass-ratio-chain.yaml"))
    assert scene.solver_chain == ["pgs", "path", "lemke"]
    world = pegsim.World(scene, solver="lemke")  # was ignored while the scene had a chain
    assert world.solver_chain == ["lemke"] and world.solver == "lemke"
    assert world.options["solver_chain"] == ["lemke"]


def test_solver_chain_from_python(scenes):
    scene = pegsim.load_scene(str(scenes / "box-stack-3d.yaml"))
    world = pegsim.World(scene, solver_chain=["pgs", "lemke"])
    assert world.solver_chain == ["pgs", "lemke"]
    report = world.step(50)
    assert report.solver_failures == 0
    world.solver_chain = ["psor", "path"]
    assert world.solver == "psor"
    with pytest.raises(ValueError, match=r"unknown solver 'nosuch' \(available: lemke"):
        world.solver_chain = ["pgs", "nosuch"]
    assert world.solver_chain == ["psor", "path"]  # unchanged by the failed set
    with pytest.raises(ValueError, match="give solver or solver_chain, not both"):
        pegsim.World(scene, solver="pgs", solver_chain=["lemke"])


def test_registries_and_defaults():
    assert pegsim.contact_models == ("standard", "peg", "lnc", "corrective")
    assert pegsim.formulations == ("stewart-trinkle", "anitescu-potra")
    assert pegsim.steppers == ("time-stepping", "impulse", "no-slip", "viscous", "viscous-rk4", "convex-impulse")
    scene = pegsim.Scene()
    scene.add_body(pegsim.cube(1), mass=1)
    world = pegsim.World(scene)
    assert world.model == "peg" and world.stepper == "time-stepping"
    with pytest.raises(ValueError, match=r"unknown stepper 'verlet' \(available: time-stepping, impulse, no-slip, viscous, viscous-rk4, convex-impulse\)"):
        pegsim.World(scene, stepper="verlet")
    with pytest.raises(ValueError, match=r"unknown contact model 'soft' \(available: standard, peg, lnc, corrective\)"):
        world.model = "soft"


def test_penetration_meter_can_be_turned_off(scenes):
    scene = pegsim.load_scene(str(scenes / "box-stack-3d.yaml"))
    world = pegsim.World(scene)
    assert world.measure_penetration
    assert not math.isnan(world.step().max_penetration)
    world.measure_penetration = False
    assert math.isnan(world.step().max_penetration)


def test_energy_bound_from_python(scenes):
    # box-stack-2d is the standard model's trapped stack: some of its solves
    # would launch boxes (docs/reliability.md, "The energy bound"). With the
    # bound (the default) those islands are scaled and counted, and the
    # mechanical energy never rises far above its start; without it, it does.
    def run(bound):
        scene = pegsim.load_scene(str(scenes / "box-stack-2d.yaml"))
        scene.energy_bound = bound
        world = pegsim.World(scene)
        assert world.options["energy_bound"] is bound
        e0, rise, scaled = world.energy(), 0.0, 0
        for _ in range(2000):  # the scene's 10 s
            report = world.step()
            scaled += report.impulses_scaled
            rise = max(rise, world.energy() - e0)
        assert world.statistics["impulses_scaled"] == scaled
        return rise, scaled

    rise_on, scaled_on = run(True)
    rise_off, scaled_off = run(False)
    assert scaled_on > 0 and scaled_off == 0
    # one box launched is hundreds of joules; a penetration's push-out is tens
    assert rise_off > 100.0
    assert rise_on < 100.0


def test_viscous_integration_and_its_overshoot_count(tmp_path):
    # The viscous stepper's two laws from a scene (docs/contact-models.md):
    # a 1 kg box sliding on its four corners at mu_v = 3000 N s/m, h = 0.001,
    # h mu_v / m = 3 per corner. The paper's explicit law amplifies the slip
    # (counted per contact and step, in the report and the run statistics);
    # the semi-implicit one scales it by 1 / (1 + 4 h mu_v / m) = 1/13.
    def world(law):
        path = tmp_path / f"{law}.yaml"
        path.write_text(
            "options: {dimension: 3, h: 0.001, eps: 0.01, model: standard, stepper: viscous,"
            f" viscous_friction: 3000, viscous_integration: {law}, solver: ppm}}\n"
            "bodies:\n"
            "  - {name: ground, shape: {half_space: {normal: [0, 0, 1], offset: 0}}, static: true}\n"
            "  - {name: box, shape: {box: [0.4, 0.4, 0.2]}, mass: 1, position: [0, 0, 0.1], velocity: [0.01, 0, 0]}\n")
        return pegsim.World(pegsim.load_scene(str(path)))

    explicit = world("explicit")
    assert explicit.step().viscous_overshoots == 4
    implicit = world("implicit")
    assert implicit.step().viscous_overshoots == 0
    assert implicit.linear_velocities[1][0] == pytest.approx(0.01 / 13, abs=1e-9)
    assert explicit.statistics["viscous_overshoots"] == 4
    assert implicit.statistics["viscous_overshoots"] == 0


def test_viscous_rk4_stepper_from_python(tmp_path):
    # The viscous model at the acceleration level under RK4 (stepper
    # viscous-rk4, docs/contact-models.md), chosen on a loaded Scene: a 1 kg
    # box sliding on its four corners at mu_v = 0.5 N s/m decays as
    # v0 exp(-4 mu_v t / m); RK4's error on this linear system is
    # k (4 h mu_v / m)^5 / 120, rounding here, so 1e-11 is the stage solves'
    # and the arithmetic's margin.
    path = tmp_path / "slide.yaml"
    path.write_text(
        "options: {dimension: 3, h: 0.001, eps: 0.01, model: standard, stepper: viscous,"
        " viscous_friction: 0.5, solver: ppm}\n"
        "bodies:\n"
        "  - {name: ground, shape: {half_space: {normal: [0, 0, 1], offset: 0}}, static: true}\n"
        "  - {name: box, shape: {box: [0.4, 0.4, 0.2]}, mass: 1, position: [0, 0, 0.1], velocity: [2, 0, 0]}\n")
    scene = pegsim.load_scene(str(path))
    scene.stepper = "viscous-rk4"
    w = pegsim.World(scene)
    assert w.stepper == "viscous-rk4"
    for _ in range(200):
        report = w.step()
        assert report.solver_failures == 0
    assert w.linear_velocities[1][0] == pytest.approx(2.0 * math.exp(-4 * 0.5 * w.time), abs=1e-11)
    assert w.positions[1][2] == pytest.approx(0.1, abs=1e-12)


def test_drumwright_shell_steppers_on_peg_contacts(scenes):
    # The no-slip and viscous steppers read one normal row per contact: a
    # world that names PEG gets each I- or X-constraint's active piece
    # (contact/active_piece.hpp). box-stack-3d-offset's cubes land flat on
    # flat with side faces the standard model traps on: on PEG's pieces every
    # solve is certified, nothing overlaps beyond rounding, and each cube keeps
    # its horizontal place (every impulse vertical; frictionless).
    scene = pegsim.load_scene(str(scenes / "box-stack-3d-offset.yaml"))
    for stepper in ("no-slip", "viscous"):
        w = pegsim.World(scene, model="peg", stepper=stepper, solver="ppm")
        w.measure_penetration = True
        start = [list(p) for p in w.positions]
        for _ in range(200):
            report = w.step()
            assert report.solver_failures == 0, stepper
            assert report.max_penetration < 1e-9, stepper
        for b, p in enumerate(w.positions):
            assert p[0] == pytest.approx(start[b][0], abs=1e-9)
            assert p[1] == pytest.approx(start[b][1], abs=1e-9)
