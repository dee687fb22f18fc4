"""Rule 10: every tool svot gives a model accepts the example its own description shows, answers from the
sample's own data, and refuses bad input with a tool error (Inspect's ``ToolError``), never ordinary text.

The tools: the five RuleMaze DMP tools (``svot/rulemaze_dmp``: LocateStart, InspectGrid, ExecuteMove,
VerifyRule, VerifyEndpoint; RuleMaze Table 1, Alg. 5-9) and the ``move`` tool of ``svot/play`` on
every domain. The play tool is run through the real Inspect runner with a model that calls it with the
example quoted in the tool's own parameter description, as a model following it would.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re

import pytest

inspect_ai = pytest.importorskip("inspect_ai", reason="the eval extra (inspect-ai) is not installed")

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage  # noqa: E402
from inspect_ai.tool import ToolError  # noqa: E402
from inspect_ai.tool._tool_def import ToolDef  # noqa: E402

import svot.rulemaze.dataset as D  # noqa: E402
from svot.inspect import rulemaze as R  # noqa: E402
from svot.inspect.tasks import play  # noqa: E402
from svot.rulemaze.rules.record import Rule  # noqa: E402
from svot.rulemaze.tools_logic import TOOL_SCHEMAS, lookup_rule  # noqa: E402

DOMAINS = ("maze", "frozenlake", "sokoban", "pacman", "gather")
# a quoted example in a description: e.g. "move up", or 'input' for the original maze
QUOTED = re.compile(r"""["'\u201c]([^"'\u201d]+)["'\u201d]""")

def _example(description: str) -> str:
    found = QUOTED.findall(description)
    assert found, f"the description shows no example: {description!r}"
    return found[0]


# --------------------------------------------------------------------------- the DMP tools


@pytest.fixture(scope="module")
def own_rule_item():
    """A test item whose rule the built-in bank does not hold: a bank item's maze and logic under new
    wording, as an export with ``--rules FILE`` makes."""
    cfg = D.make_config(".", ["regular"], seed=0, train=0, test_per_group=1, pool_size=2000)
    spec = D.plan(cfg, "RegularMaze")["test"][0]
    own = Rule.make("my-rules-1", "Keep to my own rule: " + spec.rule.natural_language.lower(), spec.rule.logic,
                    spec.rule.scenario, split="unseen")
    item = D.build_item(dataclasses.replace(spec, rule=own))
    assert lookup_rule(own.natural_language) is None  # the bank alone does not know it: the defect's premise
    return item


@pytest.fixture(scope="module")
def dmp(own_rule_item):
    sample = R.sample(own_rule_item, "dmp")
    tools = {ToolDef(t).name: t for t in R.dmp_tools(own_rule_item["image"], R.item_rule(sample.metadata))}
    return sample, tools


def _call(tool, **args):
    return asyncio.run(tool(**args))


def test_every_dmp_tool_is_covered(dmp):
    _sample, tools = dmp
    assert set(tools) == {t["function"]["name"] for t in TOOL_SCHEMAS}


def test_dmp_tools_accept_the_examples_their_descriptions_show(dmp):
    """The image parameter's description names 'input'; ExecuteMove's action takes its enum's values."""
    _sample, tools = dmp
    image = _example(next(t for t in TOOL_SCHEMAS if t["function"]["name"] == "LocateStart")
                     ["function"]["parameters"]["properties"]["image"]["description"])
    marked = json.loads(_call(tools["LocateStart"], image=image)[0].text)["image"]
    assert _call(tools["InspectGrid"], image=marked) and _call(tools["VerifyEndpoint"], image=marked) in ("true", "false")
    actions = next(t for t in TOOL_SCHEMAS if t["function"]["name"] == "ExecuteMove")["function"]["parameters"][
        "properties"]["action"]["enum"]
    moved = []
    for action in actions:  # every enum value is accepted, or refused as a tool error off the grid
        try:
            moved.append(json.loads(_call(tools["ExecuteMove"], image=marked, action=action)[0].text)["image"])
        except ToolError as exc:
            assert "leaves the" in str(exc)
    assert moved


def test_verify_rule_answers_for_the_items_own_rule(dmp):
    """An item exported with --rules FILE: VerifyRule along the item's own ground-truth trace answers true
    at every step (the rule is looked up in the item's rules, not only in the built-in bank)."""
    sample, tools = dmp
    calls = [c for c in sample.metadata["truth"]["calls"] if c["tool"] == "VerifyRule"]
    assert calls
    for call in calls:
        assert call["arguments"]["rule"] == sample.metadata["rule"]
        assert _call(tools["VerifyRule"], **call["arguments"]) == "true"
    # tools that know only the bank cannot judge the rule: a tool error, not a wrong "false"
    bank_only = {ToolDef(t).name: t for t in R.dmp_tools(dmp_image(sample))}
    with pytest.raises(ToolError, match="unknown rule"):
        _call(bank_only["VerifyRule"], **calls[0]["arguments"])


def dmp_image(sample) -> bytes:
    image = next(c for c in sample.input[0].content if getattr(c, "type", "") == "image")
    return R._image_bytes(image.image)


@pytest.mark.parametrize("tool, args, words", [
    ("InspectGrid", {"image": "image_99"}, "unknown image"),
    ("InspectGrid", {"image": "input"}, "LocateStart"),  # no marker yet
    ("ExecuteMove", {"image": "input", "action": "sideways"}, "unknown action"),
    ("VerifyEndpoint", {"image": "input"}, "LocateStart"),
    ("VerifyRule", {"actions": ["up"], "states": ["green", "white"], "rule": "no such rule, surely"}, "unknown rule"),
    ("VerifyRule", {"actions": ["sideways"], "states": ["green", "white"], "rule": None}, "unknown action"),
    ("VerifyRule", {"actions": ["up"], "states": ["green", "white", "red", "red"], "rule": None}, "4 states for 1"),
])
def test_dmp_refusals_are_tool_errors(dmp, tool, args, words):
    sample, tools = dmp
    if args.get("rule", "") is None:
        args = {**args, "rule": sample.metadata["rule"]}
    with pytest.raises(ToolError, match=words):
        _call(tools[tool], **args)


# --------------------------------------------------------------------------- svot/play's move tool


def _usage(out: ModelOutput) -> ModelOutput:
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tiktoken download
    return out


def _play_once(domain: str, action_of, tmp_path):
    """Run svot/play for one episode with a model that makes one ``move`` call, ``action_of(tool info)``."""
    def outputs(inp, tools, tool_choice, config):
        if not any(m.role == "tool" for m in inp):
            move = next(t for t in tools if t.name == "move")
            return _usage(ModelOutput.for_tool_call("mockllm", "move", {"action": action_of(move)}))
        return _usage(ModelOutput.from_content("mockllm", "done"))

    [log] = inspect_eval(play(domain=domain, episodes=1), model="mockllm/model", display="none",
                         model_args={"custom_outputs": outputs}, log_dir=str(tmp_path / "logs"))
    assert log.status == "success", log.error
    return next(m for m in log.samples[0].messages if m.role == "tool")


@pytest.mark.parametrize("domain", DOMAINS)
def test_play_move_accepts_its_own_example(domain, tmp_path):
    """The move tool's parameter description shows an example action; the domain must accept it (Gather's
    moves need a distance, so 'move up' is not one of its actions)."""
    msg = _play_once(domain, lambda move: _example(move.parameters.properties["action"].description), tmp_path)
    assert msg.error is None, msg.error


def test_play_refusal_is_a_tool_error(tmp_path):
    msg = _play_once("maze", lambda move: "move sideways", tmp_path)
    assert msg.error is not None, f"an unknown action came back as ordinary text: {msg.text[:120]!r}"
