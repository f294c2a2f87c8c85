"""World.statistics: the run summary's figures (C++ RunStatistics), which pegsim.sweep's rows are made of,
checked against a closed form and against the step reports they summarise."""

import math

import pegsim


def test_free_fall_energy_and_momentum_drift_match_semi_implicit_euler():
    # A box falling with nothing to hit. Semi-implicit Euler (v+ = v - g h, z+ = z + h v+) loses exactly
    # m g^2 h^2 / 2 of energy per step: dKE = m (g^2 h^2 - 2 g h v) / 2, dPE = m g h (v - g h).
    # Linear momentum changes by -m g h per step, so |p - p0| / |p0| = g n h for p0 = m (1, 0, 0).
    m, g, h, n = 2.0, 9.81, 0.01, 100
    scene = pegsim.Scene(dimension=3)
    scene.gravity = [0, 0, -g]
    scene.add_body(pegsim.box([0.2, 0.3, 0.4]), position=[0, 0, 10], velocity=[1, 0, 0], mass=m, name="box")
    world = pegsim.World(scene, h=h)
    world.step(n)
    s = world.statistics
    assert s["steps"] == n
    assert s["solver_failures"] == 0 and s["max_penetration"] == 0.0
    # rel_tol 1e-9: 100 steps of rounding in energies of ~200 J is ~1e-12 J, the drift ~1 J
    assert math.isclose(s["energy_final"] - s["energy_initial"], -n * m * g * g * h * h / 2, rel_tol=1e-9)
    assert s["energy_final"] == world.energy()
    assert math.isclose(s["energy_drift"], (s["energy_final"] - s["energy_initial"]) / s["energy_initial"])
    assert math.isclose(s["momentum_drift"], g * n * h, rel_tol=1e-12)
    assert s["seconds_per_step"] > 0
    assert "steps                 100" in world.summary()


def test_statistics_summarise_the_step_reports(scenes):
    # the same figures counted from the reports the callbacks see: two independent tallies
    world = pegsim.World(pegsim.load_scene(str(scenes / "box-stack-2d.yaml")), model="peg", h=0.01)
    seen = {"steps": 0, "solver_failures": 0, "solver_calls": 0, "max_penetration": 0.0}

    def tally(w, r):
        seen["steps"] += 1
        seen["solver_failures"] += r.solver_failures
        seen["solver_calls"] += r.solver_calls
        seen["max_penetration"] = max(seen["max_penetration"], r.max_penetration)

    world.add_callback(tally)
    world.run(0.5)
    s = world.statistics
    for key, value in seen.items():
        assert s[key] == value, key
    assert s["solver_calls"] > 0  # the stack is in contact: the figures are not vacuous
    assert world.overlap() >= 0.0
