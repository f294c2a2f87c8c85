#!/usr/bin/env python3
"""Hostile scene files of issue 17, written to a folder (default /tmp/pegsim-hostile):
the inputs of docs/reliability.md "Limits". Big files are generated, never committed.

    python3 scripts/hostile_scenes.py [DIR]
    for f in DIR/*.yaml; do /usr/bin/time -f "%e s %M KB" build/pegsim run $f --quiet --steps 1; done
"""
import os
import random
import sys

OUT = sys.argv[1] if len(sys.argv) > 1 else "/tmp/pegsim-hostile"
os.makedirs(OUT, exist_ok=True)
H = "options: {dimension: 3, h: 0.005, duration: 0.05, friction: 0.5}\n"
FLOOR = "  - {shape: {half_space: {normal: [0, 0, 1]}}, static: true}\n"
BOX = "  - {shape: {box: [1, 1, 1]}, mass: 1, position: [0, 0, 0.5]}\n"


def write(name, text):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        f.write(text)


def points(n, dim, rng):
    return ",".join("[" + ",".join(f"{rng.random():.6f}" for _ in range(dim)) + "]" for _ in range(n))


rng = random.Random(1)
# YAML: a billion-laughs alias bomb, 10,000-level nesting, 50 MB, a flow list of 4 MB in key position
bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
for i in range(1, 12):
    bomb += f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n"
write("alias-bomb.yaml", bomb + "bodies: []\n")
write("nesting-10000.yaml", "bodies: " + "[" * 10000 + "]" * 10000 + "\n")
write("text-50mb.yaml", H + "bodies:\n" + BOX + "#" * (50 << 20) + "\n")
write("flow-4mb.yaml", "bodies:\n  - {shape: {hull: [" + ",".join(["[0,0,0]"] * ((4 << 20) // 8 - 100)) + "]}, mass: 1}\n")
# shapes: hulls of 1e5 (allowed) and 1e6 points, sides 1e9 and 256, friction directions 1e9, 1e5 and 64
write("hull-1e5.yaml", H + "bodies:\n" + FLOOR + "  - {shape: {hull: [" + points(100000, 3, rng) +
      "]}, mass: 1, position: [0, 0, 0.01]}\n")
write("hull-1e6.yaml", H + "bodies:\n  - {shape: {hull: [" +
      ",".join(f"[{rng.randrange(1000)},{rng.randrange(1000)},{rng.randrange(1000)}]" for _ in range(1000000)) +
      "]}, mass: 1}\n")
write("prism-1e9.yaml", H + "bodies:\n  - {shape: {prism: {sides: 1000000000, radius: 1, height: 1}}, mass: 1}\n")
write("polygon-1e9.yaml", "options: {dimension: 2}\nbodies:\n"
      "  - {shape: {regular_polygon: {sides: 1000000000, radius: 1}}, mass: 1}\n")
write("prism-256.yaml", H + "bodies:\n" + FLOOR +
      "  - {shape: {prism: {sides: 256, radius: 0.5, height: 1}}, mass: 1, position: [0, 0, 0.5]}\n")
for nd in (1000000000, 100000, 64):
    write(f"friction-directions-{nd}.yaml", H.replace("}", f", friction_directions: {nd}}}") + "bodies:\n" + FLOOR + BOX)
# time: h 1e-300, duration 1e300
write("h-1e-300.yaml", "options: {dimension: 3, h: 1e-300}\nbodies:\n" + BOX)
write("duration-1e300.yaml", "options: {dimension: 3, duration: 1e300}\nbodies:\n" + BOX)
# counts: 10,000 bodies falling, 1000 and 2000 resting; 1000 and 10,000 materials
grid = lambda n, z: "".join(f"  - {{shape: c, mass: 1, position: [{i % 100 * 2}, {i // 100 * 2}, {z}]}}\n"
                            for i in range(n))
write("bodies-10000.yaml", "options: {dimension: 3, h: 0.005, duration: 0.005, gravity: [0, 0, 0]}\n"
      "shapes:\n  c: {box: [1, 1, 1]}\nbodies:\n" + grid(10000, 0))
for n in (1000, 2000):
    write(f"resting-{n}.yaml", "options: {dimension: 3, h: 0.005, duration: 0.005}\n"
          "shapes:\n  c: {box: [1, 1, 1]}\nbodies:\n" + FLOOR + grid(n, 0.5))
for n in (1000, 10000):
    pairs = "".join(f"  - {{materials: [m{i}, m{(i * 7) % n}], mu: 0.3}}\n" for i in range(n) if i <= (i * 7) % n)
    write(f"materials-{n}.yaml", H + "materials:\n" + "".join(f"  - m{i}\n" for i in range(n)) +
          "friction:\n" + pairs + "bodies:\n  - {shape: {box: [1, 1, 1]}, mass: 1, material: m999}\n")
# numbers: denormals, masses 1e308 and 1e-320, positions, velocities and gravity near 1e300
write("denormals.yaml", H + "bodies:\n  - {shape: {box: [1, 1, 1]}, mass: 1, position: [4.9e-324, 0, 0], "
      "velocity: [1e-310, 0, 0]}\n")
write("box-1e-320.yaml", H + "bodies:\n  - {shape: {box: [1e-320, 1, 1]}, mass: 1}\n")
write("mass-1e308.yaml", H + "bodies:\n" + FLOOR + BOX.replace("mass: 1", "mass: 1e308"))
write("mass-1e-320.yaml", H + "bodies:\n" + FLOOR + BOX.replace("mass: 1", "mass: 1e-320"))
write("position-1e300.yaml", H + "bodies:\n" + BOX.replace("[0, 0, 0.5]", "[1e300, 0, 0]"))
write("velocity-1e300.yaml", H + "bodies:\n" + BOX.replace("}\n", ", velocity: [1e300, 0, 0]}\n"))
write("gravity-1e300.yaml", H.replace("}", ", gravity: [0, 0, -1e300]}") + "bodies:\n" + FLOOR + BOX)
# names
write("unicode-names.yaml", H + "materials: [bois\u00e9, \u6728]\nbodies:\n"
      "  - {name: \"\u7bb1\U0001F4E6\", shape: {box: [1, 1, 1]}, mass: 1, material: \u6728}\n")
write("nul-name.yaml", H + "bodies:\n  - {name: \"b\\0c\", shape: {box: [1, 1, 1]}, mass: 1}\n")
print(OUT)
