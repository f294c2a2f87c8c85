#!/usr/bin/python3
"""Writes a tumbling-cube pile as a pegsim scene (YAML) on stdout.

    /usr/bin/python3 bench/scenes/tumbling_pile.py --cubes 16 --seed 1 > /tmp/pile16.yaml
    build/pegsim run /tmp/pile16.yaml

Unit cubes of 1 kg at random orientations (uniform on the rotation group),
dropped from a grid of 2 m cells in layers into a square container with
walls, under PEG with eps: auto, mu 0.5, h 0.005 s and Lemke alone: the
layout of bench/peers/scenes.cpp's piles (there drawn with std::mt19937),
as a file, so that `pegsim run`, `--capture` and `solve-bench` can be used on
it. A turned cube reaches sqrt(3)/2 = 0.866 m from its centre and a centre
moves up to 0.1 m off its cell's: 2 m cells keep the cubes 0.068 m apart,
0.034 m from the walls and 0.134 m above the ground at the start.
(docs/performance.md, "Piles that started inside each other".)
"""
import argparse
import math
import random


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cubes", type=int, default=16)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--duration", type=float, default=3.0)
    args = parser.parse_args()
    if args.cubes < 1 or args.layers < 1:
        parser.error("--cubes and --layers must be at least 1")
    draw = random.Random(args.seed)
    cell, wall, wall_height = 2.0, 0.4, 3.0
    g = math.ceil(math.sqrt(args.cubes / args.layers))
    width = g * cell
    out = [
        f"# tumbling-cube pile: {args.cubes} cubes, {args.layers} layers, seed {args.seed}"
        " (bench/scenes/tumbling_pile.py)",
        "options:",
        f"  name: tumbling-pile-{args.cubes}-seed-{args.seed}",
        "  dimension: 3",
        "  h: 0.005",
        f"  duration: {args.duration}",
        "  eps: auto",
        "  model: peg",
        "  solver: lemke",
        "  friction: 0.5",
        "  gravity: [0, 0, -9.81]",
        "shapes:",
        "  cube: {box: [1, 1, 1]}",
        f"  wall_x: {{box: [{wall}, {width + 2 * wall}, {wall_height}]}}",
        f"  wall_y: {{box: [{width}, {wall}, {wall_height}]}}",
        "  floor: {half_space: {normal: [0, 0, 1], offset: 0}}",
        "bodies:",
        "  - {name: ground, shape: floor, static: true}",
    ]
    for side in range(4):
        along_x = side < 2
        at = (-1 if side % 2 == 0 else 1) * 0.5 * (width + wall)
        position = [at, 0, wall_height / 2] if along_x else [0, at, wall_height / 2]
        shape = "wall_x" if along_x else "wall_y"
        out.append(f"  - {{name: wall{side}, shape: {shape}, static: true, position: {position}}}")
    for k in range(args.cubes):
        layer, c = divmod(k, g * g)
        x = (c % g + 0.5) * cell - 0.5 * width + draw.uniform(-0.1, 0.1)
        y = (c // g + 0.5) * cell - 0.5 * width + draw.uniform(-0.1, 0.1)
        z = 0.5 * cell + layer * cell
        q = [draw.gauss(0.0, 1.0) for _ in range(4)]  # uniform on the unit quaternions
        norm = math.sqrt(sum(v * v for v in q))
        q = [round(v / norm, 9) for v in q]
        out.append(f"  - {{name: cube{k}, shape: cube, mass: 1, position: [{x:.6f}, {y:.6f}, {z:.6f}],"
                   f" orientation: {q}}}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
