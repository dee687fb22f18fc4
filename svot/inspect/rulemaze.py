"""RuleMaze on Inspect: the DMP tools over the rendered image, and the tool-free baselines.

Items are the RuleMaze exporter's (:func:`svot.rulemaze.dataset.build_item`):
read from an export's ``<scenario>/test.parquet`` or selected on the fly from
a seed (pool, rules, matching; :func:`svot.rulemaze.dataset.plan`). The
prompt is the item's: the maze image, then the scene, goal, rule and
instructions; the direct and CoT baselines swap the tool instructions for an
answer-only or a think-first instruction.

The five tools (RuleMaze Table 1, Alg. 5-9) are :mod:`svot.rulemaze.tools` on
images kept per sample: ``input`` is the maze; LocateStart and ExecuteMove
return a new image id (``image_1``, ``image_2``, ... in creation order, the
dataset traces' naming) with the image itself, so the model sees the marker.
"""

from __future__ import annotations

import base64
import functools
import json

import numpy as np
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ContentText
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolDef, ToolError, ToolParam, ToolParams

from svot.errors import ActionError, DatasetError
from svot.jsonl import loads
from svot.safe_paths import open_image
from svot.inspect._content import image_content, png_bytes, user_message
from svot.rulemaze import symbols as S
from svot.rulemaze import tools as T
from svot.rulemaze.dataset import INSTRUCTIONS, TEST_GROUPS, iter_items, make_config, plan
from svot.rulemaze.dataset import scenario_rows
from svot.rulemaze.rules.record import Rule
from svot.rulemaze.tools_logic import TOOL_SCHEMAS, lookup_rule
from svot.rulemaze.vision import PerceptionError

MODES = ("dmp", "direct", "cot")
DIRECT = ("Each move goes one cell up, down, left or right. Plan a path that reaches the goal and obeys the rule "
          "at every step. Reply with 'Final answer:' followed by the moves only, e.g. 'Final answer: up, right'.")
COT = ("Each move goes one cell up, down, left or right. Plan a path that reaches the goal and obeys the rule "
       "at every step. Think step by step: read the maze, check the rule at each move, then end with "
       "'Final answer:' followed by the moves, e.g. 'Final answer: up, right'.")


def _decode(png: bytes) -> np.ndarray:
    return np.asarray(open_image(png, what="maze image").convert("RGB"))  # pixels bounded before decoding


def items(scenario: str, *, data=None, seed: int = 0, per_group: int = 100, pool_size: int = 20_000,
          groups=TEST_GROUPS) -> list[dict]:
    """Test items of one scenario, ``per_group`` per group (the paper: 100 seen + 3 x 100 unseen)."""
    scenario = S.normalize_scenario(scenario)
    if data is not None:
        rows = scenario_rows(data, scenario)
        out, seen = [], {}
        for r in rows:
            if r["group"] in groups and seen.get(r["group"], 0) < per_group:
                seen[r["group"]] = seen.get(r["group"], 0) + 1
                out.append(r)
        return out
    return list(_generated(scenario, seed, per_group, pool_size, tuple(groups)))


@functools.lru_cache(maxsize=8)
def _generated(scenario: str, seed: int, per_group: int, pool_size: int, groups: tuple) -> tuple:
    """Selected and rendered test items (cached: the dmp and direct tasks share them; items are read only)."""
    cfg = make_config(".", [scenario], seed=seed, train=0, test_per_group=per_group, pool_size=pool_size)
    specs = [s for s in plan(cfg, scenario)["test"] if s.group in groups]
    return tuple(iter_items(specs, cfg.image_size))


def _json_field(item: dict, text: str, field: str):
    try:
        return loads(text)
    except ValueError as exc:
        raise DatasetError(f"RuleMaze item {item.get('id')!r}: field {field!r} is not JSON ({exc})") from None


def _trace_calls(item: dict) -> list[dict]:
    return [{"tool": s["tool"], "arguments": _json_field(item, s["arguments"], "trace.arguments")}
            for s in item["trace"]]


def sample(item: dict, mode: str) -> Sample:
    if mode not in MODES:
        raise DatasetError(f"unknown RuleMaze mode {mode!r}; choose one of {', '.join(MODES)}")
    text = item["prompt"]
    if mode != "dmp":
        swap = DIRECT if mode == "direct" else COT
        text = text.replace(INSTRUCTIONS, swap) if INSTRUCTIONS in text else f"{text}\n{swap}"
    final = item["messages"][-1]["content"]
    meta = {
        "task": f"rulemaze-{mode}", "id": item["id"], "scenario": item["scenario"], "group": item["group"],
        "rule": item["rule"], "rule_logic": item.get("rule_logic"), "ground_truth": list(item["ground_truth"]),
        "ground_truth_path": _json_field(item, item["ground_truth_path"], "ground_truth_path"), "target_symbol": item["target"],
        "truth": {"answer": final, "calls": _trace_calls(item) if mode == "dmp" else [],
                  "moves": len(item["ground_truth"])},
    }
    image = item["image"]
    return Sample(id=f"{item['id']}/{mode}", input=[user_message("<image>" + text, [image])],
                  target=item["answer"], metadata=meta)


def dataset(scenario: str, mode: str, **kw) -> MemoryDataset:
    its = items(scenario, **kw)
    return MemoryDataset([sample(i, mode) for i in its], name=f"rulemaze-{scenario}-{mode}")


# --------------------------------------------------------------------------- tools


def _params(name: str) -> ToolParams:
    fn = next(t["function"] for t in TOOL_SCHEMAS if t["function"]["name"] == name)
    props = {k: ToolParam(**v) for k, v in fn["parameters"]["properties"].items()}
    return ToolParams(properties=props, required=list(fn["parameters"]["required"]))


def _description(name: str) -> str:
    return next(t["function"]["description"] for t in TOOL_SCHEMAS if t["function"]["name"] == name)


def item_rule(metadata: dict, scenario: str | None = None) -> Rule | None:
    """The sample's own rule (its text and logic) for VerifyRule to look up: an item exported with
    ``--rules FILE`` has a rule the built-in bank does not hold."""
    text, logic = metadata.get("rule"), metadata.get("rule_logic")
    if not text or not logic:
        return None
    return Rule.make(str(metadata.get("id", "item")), str(text), str(logic),
                     scenario or metadata.get("scenario") or S.SCENARIOS[0])


def dmp_tools(maze_image, rule: Rule | None = None) -> list:
    """The five tools over this sample's images (``input`` = the maze); ``rule``: the sample's own rule,
    which VerifyRule knows besides the built-in bank.

    Every refusal is an Inspect :class:`ToolError` (an unknown image, action or rule, states that do
    not fit the actions, a move off the grid, an image without a marker), never an ordinary answer.
    """
    images: dict[str, np.ndarray] = {"input": _decode(png_bytes(maze_image))}
    own_rules = [rule] if rule is not None else []

    def get(image_id: str) -> np.ndarray:
        key = str(image_id).strip()
        if key not in images:
            raise ToolError(f"unknown image {image_id!r}; known: {', '.join(images)}")
        return images[key]

    def put(arr: np.ndarray):
        key = f"image_{len(images)}"
        images[key] = arr
        pos = T.marker_position(arr)
        return [ContentText(text=json.dumps({"image": key, "position": list(pos) if pos else None})), image_content(arr)]

    def guard(fn):
        try:
            return fn()
        except (PerceptionError, ActionError) as exc:
            raise ToolError(str(exc)) from None

    async def locate_start(image: str):
        return guard(lambda: put(T.locate_start(get(image))))

    async def inspect_grid(image: str):
        return guard(lambda: T.inspect_grid(get(image)))

    async def execute_move(image: str, action: str):
        return guard(lambda: put(T.execute_move(get(image), action)))

    async def verify_rule(actions: list[str], states: list[str], rule: str):
        # refusals are tool errors; Alg. 8's "false" is kept for a trajectory that breaks the rule
        if lookup_rule(rule, own_rules) is None:
            raise ToolError(f"unknown rule {str(rule)[:200]!r}: pass the rule text exactly as the task gives it")
        bad = [a for a in actions if str(a).strip().lower() not in S.DIRECTIONS]
        if bad:
            raise ToolError(f"unknown action {bad[0]!r} (expected one of: {', '.join(S.DIRECTIONS)})")
        if len(states) not in (len(actions), len(actions) + 1):
            raise ToolError(f"{len(states)} states for {len(actions)} actions: give the InspectGrid result of the "
                            "start cell and of each cell entered")
        return "true" if T.verify_rule(rule, list(actions), list(states), rules=own_rules) else "false"

    async def verify_endpoint(image: str):
        return "true" if guard(lambda: T.verify_endpoint(get(image))) else "false"

    fns = {"LocateStart": locate_start, "InspectGrid": inspect_grid, "ExecuteMove": execute_move,
           "VerifyRule": verify_rule, "VerifyEndpoint": verify_endpoint}
    return [ToolDef(fn, name=name, description=_description(name), parameters=_params(name)).as_tool()
            for name, fn in fns.items()]


@solver
def dmp_agent() -> Solver:
    """Give the model the five tools for this sample's maze; loop until it answers without a call."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        first = state.messages[0].content
        image = next(c for c in first if getattr(c, "type", "") == "image")
        state.tools = dmp_tools(_image_bytes(image.image), item_rule(state.metadata))
        return await generate(state, tool_calls="loop")

    return solve


def _image_bytes(data_uri: str) -> bytes:
    return base64.b64decode(data_uri.split(",", 1)[1])
