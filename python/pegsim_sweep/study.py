"""A study file (docs/sweeps.md): scenes, a grid of option values and seeds.

Read with PyYAML's node graph so that every error names the place it comes
from, as the scene loader does (src/io/scene_fields.hpp):

    FILE:LINE: FIELD.PATH: what is wrong

Values are checked here, on the client, before any run starts: an unknown
model or solver, a non-positive h, a missing scene file.
"""

import dataclasses
import math
import pathlib

import yaml

import pegsim

from . import generators


class StudyError(ValueError):
    """A malformed study: the message is FILE:LINE: FIELD: what."""


# The options a grid may vary, in the order a run's key names them.
#   value kind: "name" (one of a registry's names), "chain" (solver names),
#   "positive", "eps" (positive or "auto"), "int>=3", "int>=0", "non_negative", "bool"
GRID_OPTIONS = {
    "model": "model",
    "formulation": "formulation",
    "stepper": "stepper",
    "solver": "solver",
    "solver_chain": "chain",
    "h": "positive",
    "eps": "eps",
    "friction_directions": "int>=3",
    "tolerance": "positive",
    "max_iterations": "int>=0",
    "friction": "non_negative",
    "position_correction": "bool",
    "duration": "positive",
}


@dataclasses.dataclass(frozen=True)
class SceneSpec:
    label: str                     # the scene's name in rows and keys
    path: str = ""                 # a scene file (absolute), or
    generator: str = ""            # a generator's name (generators.py) with
    parameters: tuple = ()         # its (name, value) pairs; the seed comes from the study

    @property
    def seeded(self):
        return bool(self.generator)


@dataclasses.dataclass
class Study:
    name: str
    source: str                                  # the file (or "<string>")
    scenes: list                                 # [SceneSpec]
    grid: list                                   # [(option, [values])], file order
    seeds: list = dataclasses.field(default_factory=lambda: [1])
    record: bool = False                         # each run's HDF5 recording
    retries: int = 2                             # a killed worker's runs are tried this often again

    def axes(self):
        return [name for name, _ in self.grid]


class _Field:
    """A YAML node with its path and line (1-based), as scene_detail::Field."""

    def __init__(self, node, path, source, line):
        self.node, self.path, self.source, self.line = node, path, source, line

    def fail(self, what):
        where = f"{self.path}: " if self.path else ""
        raise StudyError(f"{self.source}:{self.line}: {where}{what}")

    def child(self, node, suffix):
        path = f"{self.path}.{suffix}" if self.path and not suffix.startswith("[") else self.path + suffix
        return _Field(node, path, self.source, node.start_mark.line + 1)

    def entries(self, allowed):
        if not isinstance(self.node, yaml.MappingNode):
            self.fail("expected a map")
        seen = {}
        for key_node, value_node in self.node.value:
            key = key_node.value
            if key not in allowed:
                _Field(key_node, self.path, self.source, key_node.start_mark.line + 1).fail(
                    f"unknown field '{key}' (allowed: {', '.join(allowed)})")
            if key in seen:
                _Field(key_node, self.path, self.source, key_node.start_mark.line + 1).fail(
                    f"duplicate field '{key}'")
            seen[key] = self.child(value_node, key)
        return seen

    def items(self, allow_scalar=False):
        if isinstance(self.node, yaml.SequenceNode):
            return [self.child(n, f"[{i}]") for i, n in enumerate(self.node.value)]
        if allow_scalar and isinstance(self.node, yaml.ScalarNode):
            return [self]
        self.fail("expected a list")

    def scalar(self):
        if not isinstance(self.node, yaml.ScalarNode):
            self.fail("expected a single value")
        return self.node.value

    def text(self):
        value = self.scalar()
        if value == "":
            self.fail("must not be empty")
        return value

    def number(self):
        value = self.scalar()
        try:
            x = float(value)
        except ValueError:
            self.fail(f"expected a number, got '{value}'")
        if not math.isfinite(x):
            self.fail(f"must be finite, got '{value}'")
        return x

    def positive(self):
        x = self.number()
        if not x > 0:
            self.fail(f"must be positive, got {self.scalar()}")
        return x

    def non_negative(self):
        x = self.number()
        if not x >= 0:
            self.fail(f"must be >= 0, got {self.scalar()}")
        return x

    def integer(self, lowest):
        value = self.scalar()
        try:
            n = int(value)
        except ValueError:
            self.fail(f"expected an integer, got '{value}'")
        if n < lowest:
            self.fail(f"must be >= {lowest}, got {n}")
        return n

    def boolean(self):
        value = self.scalar().lower()
        if value in ("true", "yes", "on"):
            return True
        if value in ("false", "no", "off"):
            return False
        self.fail(f"expected true or false, got '{self.scalar()}'")


def _one_of(field, names, what):
    value = field.text()
    if value not in names:
        field.fail(f"unknown {what} '{value}' (available: {', '.join(names)})")
    return value


def _grid_value(field, kind):
    solvers = pegsim.solver_names()
    if kind == "model":
        return _one_of(field, pegsim.contact_models, "contact model")
    if kind == "formulation":
        return _one_of(field, pegsim.formulations, "formulation")
    if kind == "stepper":
        return _one_of(field, pegsim.steppers, "stepper")
    if kind == "solver":
        return _one_of(field, solvers, "solver")
    if kind == "chain":  # [pgs, lemke] or "pgs,lemke"
        if isinstance(field.node, yaml.ScalarNode):
            names = [n.strip() for n in field.text().split(",")]
            for name in names:
                if name not in solvers:
                    field.fail(f"unknown solver '{name}' (available: {', '.join(solvers)})")
            return tuple(names)
        return tuple(_one_of(item, solvers, "solver") for item in field.items())
    if kind == "positive":
        return field.positive()
    if kind == "non_negative":
        return field.non_negative()
    if kind == "eps":
        return "auto" if field.scalar() == "auto" else field.positive()
    if kind == "bool":
        return field.boolean()
    if kind.startswith("int>="):
        return field.integer(int(kind[5:]))
    raise AssertionError(kind)


def _scene(field, index, base):
    keys = field.entries(["file", "generator", "name", "parameters"])
    if ("file" in keys) == ("generator" in keys):
        field.fail("give a scene file (file:) or a generator (generator:), one of them")
    label = keys["name"].text() if "name" in keys else None
    if "file" in keys:
        if "parameters" in keys:
            keys["parameters"].fail("only a generator takes parameters")
        path = (base / keys["file"].text()).resolve()
        if not path.is_file():
            keys["file"].fail(f"no scene file {path}")
        try:
            pegsim.load_scene(str(path))  # a malformed scene is reported now, with its own FILE:LINE
        except ValueError as e:
            keys["file"].fail(f"the scene does not load: {e}")
        return SceneSpec(label or path.stem, path=str(path))
    name = _one_of(keys["generator"], list(generators.GENERATORS), "generator")
    parameters = {}
    if "parameters" in keys:
        allowed = generators.GENERATORS[name].parameters
        for key, value in keys["parameters"].entries(list(allowed)).items():
            if isinstance(allowed[key], int):
                parameters[key] = value.integer(1)
            else:
                parameters[key] = value.non_negative() if key in ("friction", "jitter") else value.positive()
    return SceneSpec(label or name, generator=name, parameters=tuple(sorted(parameters.items())))


def _seeds(field):
    if isinstance(field.node, yaml.MappingNode):  # {first: 1, count: 10}
        keys = field.entries(["first", "count"])
        first = keys["first"].integer(0) if "first" in keys else 1
        if "count" not in keys:
            field.fail("required field 'count' is missing")
        return list(range(first, first + keys["count"].integer(1)))
    seeds = [item.integer(0) for item in field.items(allow_scalar=True)]
    if len(set(seeds)) != len(seeds):
        field.fail("seeds repeat")
    return seeds


def parse_study(text, source="<string>", base=None):
    """The Study in YAML `text`; scene files are relative to `base` (default: the cwd)."""
    base = pathlib.Path(base or ".")
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        raise StudyError(f"{source}:{line}: not valid YAML: {getattr(e, 'problem', e)}") from None
    if root is None:
        raise StudyError(f"{source}:1: the study is empty")
    top = _Field(root, "", source, root.start_mark.line + 1)
    keys = top.entries(["name", "scenes", "grid", "seeds", "record", "retries"])
    if "scenes" not in keys:
        top.fail("required field 'scenes' is missing")
    scenes = [_scene(f, i, base) for i, f in enumerate(keys["scenes"].items())]
    if not scenes:
        keys["scenes"].fail("name at least one scene")
    labels = [s.label for s in scenes]
    for i, label in enumerate(labels):
        if labels.index(label) != i:
            keys["scenes"].items()[i].fail(f"two scenes are named '{label}' (give one a name:)")
    grid = []
    if "grid" in keys:
        for option, values in keys["grid"].entries(list(GRID_OPTIONS)).items():
            kind = GRID_OPTIONS[option]
            # a chain is itself a list: a list of chains is a list of lists (or of "a,b" strings)
            scalar_chain = kind == "chain" and isinstance(values.node, yaml.SequenceNode) and all(
                isinstance(n, yaml.ScalarNode) and "," not in n.value for n in values.node.value)
            items = [values] if scalar_chain else values.items(allow_scalar=True)
            parsed = [_grid_value(item, kind) for item in items]
            if not parsed:
                values.fail("give at least one value")
            if len(set(parsed)) != len(parsed):
                values.fail("values repeat")
            grid.append((option, parsed))
    if "solver" in dict(grid) and "solver_chain" in dict(grid):
        keys["grid"].fail("vary solver or solver_chain, not both")
    seeds = _seeds(keys["seeds"]) if "seeds" in keys else [1]
    name = keys["name"].text() if "name" in keys else pathlib.Path(source).stem
    record = keys["record"].boolean() if "record" in keys else False
    retries = keys["retries"].integer(0) if "retries" in keys else 2
    return Study(name, source, scenes, grid, seeds, record, retries)


def load_study(path):
    """The Study in a file; scene files are relative to the study's folder."""
    path = pathlib.Path(path)
    try:
        text = path.read_text()
    except OSError as e:
        raise StudyError(f"{path}:1: cannot read the study: {e.strerror}") from None
    return parse_study(text, str(path), path.parent)
