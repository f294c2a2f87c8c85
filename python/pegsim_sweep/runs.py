"""The runs of a study and one run on a worker.

A run is a plain dict (it travels to Dask workers by pickle): its index in the
study's fixed order (scenes, then the grid's options in file order, then the
seeds), its key (the same information as text: rows are matched by it when a
study resumes), and what the worker needs to build and step it.

run_one never raises: a run whose scene, options or stepping raise becomes a
row with status "error" and the exception's message, so one bad run cannot
crash a study. Only a worker that dies (a crash in C++, a kill) loses a run;
Dask then runs it again on another worker (execute.py).
"""

import itertools
import os
import time

from . import generators


def format_value(value):
    """A parameter as it appears in keys and in the results table."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)  # the shortest text that reads back to the same double
    if isinstance(value, (tuple, list)):
        return ",".join(format_value(v) for v in value)
    return "" if value is None else str(value)


def expand(study):
    """Every run of the study, in its fixed order."""
    runs = []
    axes = study.axes()
    value_lists = [values for _, values in study.grid]
    for scene in study.scenes:
        for combination in itertools.product(*value_lists):
            for seed in (study.seeds if scene.seeded else [None]):
                options = dict(zip(axes, combination))
                parts = [f"scene={scene.label}"] + [f"{a}={format_value(v)}" for a, v in options.items()]
                if seed is not None:
                    parts.append(f"seed={seed}")
                runs.append({
                    "index": len(runs),
                    "key": ";".join(parts),
                    "scene": scene.label,
                    "scene_file": scene.path,
                    "generator": scene.generator,
                    "generator_parameters": dict(scene.parameters),
                    "seed": seed,
                    "options": options,
                    "record": "",
                })
    return runs


# World(...) keywords; the rest (friction, position_correction, duration) are set otherwise
_WORLD_KEYWORDS = {"model", "formulation", "stepper", "solver", "solver_chain", "h", "eps",
                   "friction_directions", "tolerance", "max_iterations"}


def _build(run):
    import pegsim

    if run["scene_file"]:
        scene = pegsim.load_scene(run["scene_file"])
    else:
        scene = generators.make_scene(run["generator"], run["seed"], run["generator_parameters"])
    options = run["options"]
    if "friction" in options:  # every material pair
        for a in scene.materials:
            for b in scene.materials:
                scene.set_friction(a, b, options["friction"])
    if "position_correction" in options:
        scene.position_correction = options["position_correction"]
    keywords = {k: (list(v) if k == "solver_chain" else v) for k, v in options.items() if k in _WORLD_KEYWORDS}
    world = pegsim.World(scene, **keywords)
    return world, options.get("duration", scene.duration)


def parameters_of(run, world=None, duration=None):
    """The run's full parameters: what the study set, and the options in use."""
    row = {"run": run["index"], "key": run["key"], "scene": run["scene"],
           "seed": "" if run["seed"] is None else run["seed"]}
    if world is not None:
        o = world.options
        row.update(model=o["model"], formulation=o["formulation"], stepper=o["stepper"],
                   solver_chain=format_value(o["solver_chain"]), h=o["h"], eps=o["eps"],
                   friction_directions=o["friction_directions"], tolerance=o["solver_tolerance"],
                   max_iterations=o["solver_max_iterations"], position_correction=o["position_correction"],
                   duration=duration)
    if "friction" in run["options"]:
        row["friction"] = run["options"]["friction"]
    for option, value in run["options"].items():  # what the grid gave, where the world did not say
        row.setdefault(option, value)
    return row


def run_one(run):
    """Builds and steps one run; returns its row (parameters, status, figures)."""
    start = time.perf_counter()
    world, duration = None, None
    try:
        world, duration = _build(run)
        if run["record"]:
            os.makedirs(os.path.dirname(run["record"]) or ".", exist_ok=True)
            world.record(run["record"])
        world.run(duration)
        if run["record"]:
            world.close_recording()
        s = world.statistics
        row = parameters_of(run, world, duration)
        row.update(
            status="ok", error="",
            steps=s["steps"], solver_calls=s["solver_calls"], solver_failures=s["solver_failures"],
            solver_recoveries=s["solver_recoveries"], escalations=s["escalations"],
            penetration_exceeded=s["penetration_exceeded"], max_penetration=s["max_penetration"],
            position_corrections=s["position_corrections"], overlap=world.overlap(),
            contacts_max=s["contacts_max"], traps=s["traps"],
            worst_complementarity=s["worst_complementarity"],
            energy_initial=s["energy_initial"], energy_final=s["energy_final"],
            energy_drift=s["energy_drift"], energy_max_rise=s["energy_max_rise"],
            momentum_drift=s["momentum_drift"], recording=run["record"],
            seconds_per_step=s["seconds_per_step"])
    except Exception as e:  # noqa: BLE001 -- every error of a run becomes its row
        row = parameters_of(run, world, duration)
        row.update(status="error", error=f"{type(e).__name__}: {e}")
        if world is not None:  # the figures up to the failing step
            s = world.statistics
            row.update(steps=s["steps"], solver_failures=s["solver_failures"],
                       max_penetration=s["max_penetration"])
    row["wall_seconds"] = time.perf_counter() - start
    return row
