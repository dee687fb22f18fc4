"""Every svot Inspect task end to end through the real Inspect runner: the mock model, the oracle, random.

The oracle answers from the planner and the ground truth, so it must score
100% everywhere; Inspect's ``mockllm/model`` answers a fixed sentence, which
no svot scorer may credit.
"""

from __future__ import annotations

import json
import math

import pytest

inspect_ai = pytest.importorskip("inspect_ai", reason="the eval extra (inspect-ai) is not installed")

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.model import (ChatCompletionChoice, ChatMessageAssistant, ModelOutput,  # noqa: E402
                              ModelUsage)
from inspect_ai.model._providers.mockllm import MockLLM  # noqa: E402

from svot.inspect.play import make_env  # noqa: E402
from svot.inspect.tasks import goal, play, rulemaze_direct, rulemaze_dmp, state  # noqa: E402

MODELS = ("mockllm/model", "svot/oracle", "svot/random")


def mock_output(inp, tools, tool_choice, config):
    # mockllm's own sentence, with usage filled in: mockllm otherwise counts tokens with tiktoken,
    # which downloads its encoding (these tests run offline)
    return ModelOutput(model="mockllm", choices=[ChatCompletionChoice(message=ChatMessageAssistant(
        content=MockLLM.default_output, model="mockllm"))], usage=ModelUsage(input_tokens=1, output_tokens=1,
                                                                            total_tokens=2))


def run(task, model, tmp_path, **kw):
    if model == "mockllm/model" and "model_args" not in kw:
        kw["model_args"] = {"custom_outputs": mock_output}
    [log] = inspect_eval(task, model=model, log_dir=str(tmp_path / "logs"), display="none", **kw)
    assert log.status == "success", log.error
    return log


def metrics(log) -> dict:
    # a metric's registry name carries its package when Inspect loaded it through the entry point
    return {f"{s.name}.{k.removeprefix('svot/')}": v.value for s in log.results.scores for k, v in s.metrics.items()}


def sample_scores(log, name: str) -> list:
    return [s.scores[name] for s in log.samples]


@pytest.fixture(scope="module")
def goal_tasks():
    return {form: goal(domain="sokoban", size=5, form=form, maps=1) for form in ("C", "F")}


@pytest.mark.parametrize("form", ["C", "F"])
def test_goal_mock_oracle_random(goal_tasks, form, tmp_path):
    task = goal_tasks[form]
    assert len(task.dataset) == 2  # test_id: 2 sequences per map
    mock = run(task, "mockllm/model", tmp_path)
    assert metrics(mock)["goal_scorer.accuracy"] == 0.0
    if form == "C":  # the mock's sentence names no letter: unreadable, as svot evaluate counts it
        assert all(s.metadata["unreadable"] for s in sample_scores(mock, "goal_scorer"))
    assert metrics(run(task, "svot/oracle", tmp_path))["goal_scorer.accuracy"] == 1.0
    rnd = run(task, "svot/random", tmp_path)
    assert all(s.metadata["kind"] == "goal" for s in sample_scores(rnd, "goal_scorer"))


def test_state_mock_and_oracle(tmp_path):
    task = state(domain="maze", size=5, maps=1, limit=1, steps=3)
    assert len(task.dataset) == 3
    m = metrics(run(task, "mockllm/model", tmp_path))
    assert m["state_scorer.mean"] == 0.0 and m["reasoning_scorer.mean"] == 0.0
    m = metrics(run(task, "svot/oracle", tmp_path))
    assert m["state_scorer.mean"] == 1.0 and m["reasoning_scorer.mean"] == 1.0


def test_state_random_is_below_oracle(tmp_path):
    # a random state text of the same instance: right on some fields, never on all of them on average
    m = metrics(run(state(domain="sokoban", size=5, maps=1, limit=2), "svot/random", tmp_path))
    assert m["state_scorer.mean"] < 1.0


def test_play_mock_oracle_random(tmp_path):
    task = play(domain="maze", size=5, episodes=2, max_moves=12)
    mock = run(task, "mockllm/model", tmp_path)  # never calls the move tool
    assert metrics(mock)["success.mean"] == 0.0
    assert all(s.metadata["moves"] == 0 for s in sample_scores(mock, "episode_scorer"))
    oracle = run(task, "svot/oracle", tmp_path)
    m = metrics(oracle)
    assert m["success.mean"] == 1.0 and m["steps_over_plan.mean_finite"] == 0.0 and m["inapplicable.mean"] == 0.0
    for s in sample_scores(oracle, "episode_scorer"):
        assert s.metadata["moves"] == s.metadata["plan_length"] > 0
    for sample in oracle.samples:  # every move answers with the new state text and its image
        results = [m for m in sample.messages if m.role == "tool"]
        assert results and all([c.type for c in m.content] == ["text", "image"] for m in results)
    rnd = run(task, "svot/random", tmp_path)
    for s in sample_scores(rnd, "episode_scorer"):
        assert 1 <= s.metadata["moves"] <= 12  # random plays until the goal, a hole or the move limit


def test_play_counts_inapplicable_moves(tmp_path):
    """A move into the border changes nothing: the env reports it inapplicable and the scorer counts it."""
    task = play(domain="maze", size=5, episodes=5)
    sample, blocked = next((s, a) for s in task.dataset for a in range(4) if not _applicable(s, a))
    env = make_env("maze", 5, "id")

    def outputs(inp, tools, tool_choice, config):
        if any(m.role == "tool" for m in inp):
            out = ModelOutput.from_content("mockllm", "I stop here.")
        else:
            out = ModelOutput.for_tool_call("mockllm", "move", {"action": env.action_text(blocked)})
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out

    log = run(task, "mockllm/model", tmp_path, model_args={"custom_outputs": outputs}, sample_id=sample.id)
    [score] = sample_scores(log, "episode_scorer")
    assert score.metadata["moves"] == 1 and score.value["inapplicable"] == 1.0 and score.value["success"] == 0.0
    assert math.isnan(score.value["steps_over_plan"])  # only successful episodes have steps over the plan


def _applicable(sample, action: int) -> bool:
    env = make_env("maze", 5, "id")
    env.reset(seed=sample.metadata["episode_seed"])
    return env.step(action)[4]["applicable"]


@pytest.fixture(scope="module")
def rulemaze_tasks():
    kw = dict(scenario="regular", per_group=1, pool_size=2000)
    return {"dmp": rulemaze_dmp(**kw), "direct": rulemaze_direct(**kw), "cot": rulemaze_direct(cot=True, **kw)}


@pytest.mark.parametrize("mode", ["direct", "cot", "dmp"])
def test_rulemaze_mock_oracle_random(rulemaze_tasks, mode, tmp_path):
    """RuleMaze Eq. 2-3: "EM ... whether the complete trajectory exactly matches"; PR the correct prefix share."""
    task = rulemaze_tasks[mode]
    groups = sorted(s.metadata["group"] for s in task.dataset)
    assert groups == ["seen", "unseen-easy", "unseen-hard", "unseen-medium"]
    mock = run(task, "mockllm/model", tmp_path)
    assert metrics(mock)["em.mean"] == 0.0 and metrics(mock)["pr.mean"] == 0.0
    assert all(s.metadata["malformed"] for s in sample_scores(mock, "rulemaze_scorer"))
    m = metrics(run(task, "svot/oracle", tmp_path))
    assert m["em.mean"] == 1.0 and m["pr.mean"] == 1.0
    rnd = metrics(run(task, "svot/random", tmp_path))
    assert rnd["em.mean"] < 1.0 and 0.0 <= rnd["pr.mean"] < 1.0


def test_dmp_tools_reproduce_the_dataset_trace(rulemaze_tasks, tmp_path):
    """The oracle replays the item's trace through the Inspect tools; each tool's answer must equal the
    trace's output (marker positions read back from the images, symbols, rule and endpoint checks)."""
    log = run(rulemaze_tasks["dmp"], "svot/oracle", tmp_path)

    for sample in log.samples:
        calls = sample.metadata["truth"]["calls"]
        tools = [m for m in sample.messages if m.role == "tool"]
        assert len(tools) == len(calls) and all(m.error is None for m in tools)
        for call, msg in zip(calls, tools):
            assert msg.function == call["tool"]
            if call["tool"] in ("LocateStart", "ExecuteMove"):
                assert json.loads(msg.text)["position"] is not None
            elif call["tool"] in ("VerifyRule", "VerifyEndpoint"):
                assert msg.text == "true"
        positions = [json.loads(m.text)["position"] for m in tools if m.function in ("LocateStart", "ExecuteMove")]
        assert positions == sample.metadata["ground_truth_path"]


def test_dmp_tool_errors_reach_the_model(rulemaze_tasks, tmp_path):
    """InspectGrid before LocateStart has no marker to read: the model gets the tool's error, the run goes on."""
    def outputs(inp, tools, tool_choice, config):
        if not any(m.role == "tool" for m in inp):
            return ModelOutput.for_tool_call("mockllm", "InspectGrid", {"image": "input"})
        return ModelOutput.from_content("mockllm", "Final answer: up")

    def with_usage(*args):
        out = outputs(*args)
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out

    log = run(rulemaze_tasks["dmp"], "mockllm/model", tmp_path, model_args={"custom_outputs": with_usage}, limit=1)
    tool_msg = next(m for m in log.samples[0].messages if m.role == "tool")
    assert tool_msg.error is not None and "LocateStart" in tool_msg.error.message


@pytest.mark.slow
@pytest.mark.parametrize("domain", ["maze", "frozenlake", "sokoban", "pacman", "gather"])
def test_oracle_is_perfect_on_every_domain(domain, tmp_path):
    tasks = [goal(domain=domain, form="C", maps=1), goal(domain=domain, form="F", maps=1),
             state(domain=domain, maps=1, limit=1), play(domain=domain, episodes=1)]
    logs = inspect_eval(tasks, model="svot/oracle", log_dir=str(tmp_path / "logs"), display="none")
    for log in logs:
        assert log.status == "success", log.error
        for name, value in metrics(log).items():
            if name.endswith(("accuracy", "state_scorer.mean", "reasoning_scorer.mean", "success.mean")):
                assert value == 1.0, (domain, name)
            if name.startswith(("steps_over_plan", "inapplicable")):
                assert value == 0.0 or math.isnan(value), (domain, name)


@pytest.mark.slow
def test_oracle_is_perfect_on_questmaze(tmp_path):
    kw = dict(scenario="quest", per_group=1, pool_size=2000)
    logs = inspect_eval([rulemaze_dmp(**kw), rulemaze_direct(**kw), rulemaze_direct(cot=True, **kw)],
                        model="svot/oracle", log_dir=str(tmp_path / "logs"), display="none")
    for log in logs:
        assert log.status == "success", log.error
        m = metrics(log)
        assert m["em.mean"] == 1.0 and m["pr.mean"] == 1.0
        assert sorted(s.metadata["group"] for s in log.samples) == ["seen", "unseen-easy", "unseen-hard",
                                                                    "unseen-medium"]


def test_play_unknown_action_is_a_tool_error(tmp_path):
    """An action the env cannot read is Inspect's ToolError (the model sees it), and steps nothing (issue 48)."""
    task = play(domain="maze", size=5, episodes=1)
    calls = iter([{"action": "fly north"}, {"action": 7}, {"action": "x" * 100_000}])

    def outputs(inp, tools, tool_choice, config):
        args = next(calls, None)
        out = (ModelOutput.from_content("mockllm", "I stop here.") if args is None
               else ModelOutput.for_tool_call("mockllm", "move", args))
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out

    log = run(task, "mockllm/model", tmp_path, model_args={"custom_outputs": outputs})
    [sample] = log.samples
    results = [m for m in sample.messages if m.role == "tool"]
    assert len(results) == 3 and all(m.error is not None for m in results)
    assert "cannot read action 'fly north'" in results[0].error.message
    assert all(len(m.error.message) < 300 for m in results)
    [score] = sample_scores(log, "episode_scorer")
    assert score.metadata["moves"] == 0 and score.value["success"] == 0.0
