"""bench/scenes/tumbling_pile.py writes a pile whose cubes start apart.

The generator's claim (its docstring): 2 m cells keep every turned unit cube
at least 0.068 m from its neighbours, 0.034 m from the walls and 0.134 m
above the ground. Checked on the geometry itself (no overlap volume) for
several seeds and sizes; then one step under PEG leaves the cubes falling
freely, no contact and no penetration by the separating-axis meter (0.068 m
is more than a step's fall from rest, g h^2 = 0.25 mm).
"""

import subprocess
import sys

import pytest

import pegsim
from conftest import SOURCE_DIR

GENERATOR = SOURCE_DIR / "bench" / "scenes" / "tumbling_pile.py"


def pile(tmp_path, cubes, seed, layers=4):
    text = subprocess.run([sys.executable, str(GENERATOR), "--cubes", str(cubes), "--seed", str(seed),
                           "--layers", str(layers)], check=True, capture_output=True, text=True).stdout
    path = tmp_path / f"pile-{cubes}-{seed}.yaml"
    path.write_text(text)
    return pegsim.World(pegsim.load_scene(str(path)))


@pytest.mark.parametrize("cubes,seed,layers", [(16, 1, 4), (16, 7, 4), (50, 3, 2), (100, 11, 4)])
def test_cubes_start_apart(tmp_path, cubes, seed, layers):
    world = pile(tmp_path, cubes, seed, layers)
    assert world.body_count == cubes + 5  # the ground and four walls
    assert world.overlap() == 0.0


def test_first_step_is_free_fall(tmp_path):
    world = pile(tmp_path, 16, 1)
    report = world.step()
    assert report.solver_failures == 0
    assert len(report.contacts) == 0
    assert report.max_penetration <= 0.0


def test_bad_arguments_fail_cleanly():
    result = subprocess.run([sys.executable, str(GENERATOR), "--cubes", "0"], capture_output=True, text=True)
    assert result.returncode != 0
    assert "--cubes" in result.stderr
