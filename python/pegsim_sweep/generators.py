"""Seeded scene generators a study may name instead of a file (docs/sweeps.md).

Each draws its random numbers from Python's random.Random(seed) (the Mersenne
Twister, whose random() sequence Python keeps the same across versions), so a
seed gives the same scene on every worker.

pile-3d: `count` convex polyhedra, each the hull of ten points uniform in
[-size/2, size/2]^3 (the bodies of thesis 5.2.4's box of polyhedra), stacked
in a column above the ground, one every `spacing` m, each shifted sideways by
up to `jitter` m, dropped together; contact distance eps = size / 10.
pile-2d: the same with convex polygons (thesis 5.2.3's bodies) in the plane.
"""

import dataclasses
import random

import pegsim


@dataclasses.dataclass(frozen=True)
class Generator:
    make: object            # make(seed, **parameters) -> pegsim.Scene
    parameters: dict        # name -> default (an int default: an integer parameter)


def _hull_2d(points):
    """Convex hull, counter-clockwise (Andrew's monotone chain), of (x, y) tuples."""
    points = sorted(set(points))

    def half(seq):
        out = []
        for p in seq:
            while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1]) -
                                     (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = half(points), half(reversed(points))
    return lower[:-1] + upper[:-1]


def _pile(seed, dimension, count, size, spacing, jitter, friction):
    rng = random.Random(seed)
    scene = pegsim.Scene(dimension=dimension, name=f"pile-{dimension}d-seed{seed}")
    scene.set_friction("default", "default", friction)
    # contact distance: a tenth of a body (5 cm by default), so that a body falling at up to eps / h (5 m/s at
    # h = 0.01 s) is caught before it passes into another; a grid's eps overrides it
    scene.eps = size / 10
    normal = [0, 1] if dimension == 2 else [0, 0, 1]
    scene.add_body(pegsim.half_space(normal, 0.0), static=True, name="ground")
    for k in range(count):
        height = size + k * spacing
        side = rng.uniform(-jitter, jitter)
        if dimension == 2:
            points = [(rng.uniform(-size / 2, size / 2), rng.uniform(-size / 2, size / 2)) for _ in range(10)]
            shape = pegsim.polygon(_hull_2d(points))
            position = [side, height]
        else:
            points = [[rng.uniform(-size / 2, size / 2) for _ in range(3)] for _ in range(10)]
            shape = pegsim.polyhedron(points)
            position = [side, rng.uniform(-jitter, jitter), height]
        scene.add_body(shape, position=position, density=1000.0, name=f"body{k}")
    return scene


_PILE_PARAMETERS = {"count": 4, "size": 0.5, "spacing": 0.6, "jitter": 0.1, "friction": 0.3}

GENERATORS = {
    "pile-2d": Generator(lambda seed, **p: _pile(seed, 2, **p), _PILE_PARAMETERS),
    "pile-3d": Generator(lambda seed, **p: _pile(seed, 3, **p), _PILE_PARAMETERS),
}


def make_scene(name, seed, parameters):
    """The generator `name`'s scene for `seed`; `parameters` override its defaults."""
    generator = GENERATORS[name]
    values = dict(generator.parameters)
    values.update(parameters)
    return generator.make(seed, **values)
