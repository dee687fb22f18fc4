"""svot's verifiers environment (issue 46, items 4-6) through verifiers' own eval runner (``run_eval``, what
``vf-eval`` calls): its stock ``null`` chat harness plays the model loop in a subprocess, against a stub
OpenAI-compatible endpoint on 127.0.0.1 that answers ``chat.completions`` with scripted replies.

* the rubric: replaying the env's plan scores success 1, steps over plan 1, format 1; a wrong move scores
  success 0; a reply outside the answer tags scores format 0;
* conformance: seeded trajectories per registered domain (the toy lamps included) played through the
  verifiers env give the same state hashes, rewards, termination and success as Gymnasium
  (tests/agents/test_conformance.py's trajectories, seed 0 the plan, the others random; ``SVOT_VERIFIERS_N``
  per domain, 1 by default, the first ``SVOT_VERIFIERS_STEPS`` actions of each, 4 by default).

verifiers needs Python >= 3.11 and pillow >= 10 (the ``verifiers`` extra), so .ci/run runs this file in its own
venv; elsewhere it skips.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

pytest.importorskip("verifiers.v1", reason="the verifiers extra is not installed (pip install 'svot[verifiers]')")

from verifiers.v1.cli.eval.runner import run_eval  # noqa: E402 - after the skip
from verifiers.v1.configs.cli.eval import EvalConfig  # noqa: E402

from svot.agents import AgentEpisode  # noqa: E402
from svot.agents.verifiers_env import TASKSET_ID, SVoTEnv, load_environment  # noqa: E402
from tests.agents.conftest import LAMPS_IDS  # noqa: E402
from tests.agents.test_conformance import DOMAIN_IDS, MAX_STEPS, gymnasium_run  # noqa: E402

# each model turn relaunches the harness's chat program (1-2 s of CPU), so CI plays 1 trajectory per domain (seed
# 0: the env's plan), cut to its first 4 actions; SVOT_VERIFIERS_N / SVOT_VERIFIERS_STEPS raise them (24: whole
# trajectories; seeds 1-4 play random actions)
N_PER_DOMAIN = int(os.environ.get("SVOT_VERIFIERS_N", "1"))
STEPS = min(int(os.environ.get("SVOT_VERIFIERS_STEPS", "4")), MAX_STEPS)


class StubModel:
    """A chat.completions endpoint on 127.0.0.1: the reply to a conversation is ``scripts[problem][k]``, where
    ``problem`` is the ``Problem <id>#<seed>.`` line the env opens with and ``k`` the assistant turns so far."""

    def __init__(self):
        self.scripts: dict[str, list[str]] = {}
        self.requests = 0
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                stub.requests += 1
                text = stub.reply(body["messages"])
                if body.get("stream"):
                    self._stream(body["model"], text)
                else:
                    self._json({"id": "stub", "object": "chat.completion", "created": 0, "model": body["model"],
                                "choices": [{"index": 0, "finish_reason": "stop",
                                             "message": {"role": "assistant", "content": text}}],
                                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})

            def _json(self, obj):
                data = json.dumps(obj).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, model, text):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                base = {"id": "stub", "object": "chat.completion.chunk", "created": 0, "model": model}
                events = [{**base, "choices": [{"index": 0, "finish_reason": None,
                                                "delta": {"role": "assistant", "content": text}}]},
                          {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
                          {**base, "choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 1,
                                                            "total_tokens": 2}}]
                for event in events:
                    self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def reply(self, messages: list[dict]) -> str:
        def text(m):
            c = m.get("content") or ""
            return c if isinstance(c, str) else "".join(p.get("text", "") for p in c)

        first = next(text(m) for m in messages if m["role"] == "user")
        problem = first.split("\n", 1)[0].removeprefix("Problem ").rstrip(".")
        k = sum(m["role"] == "assistant" for m in messages)
        script = self.scripts[problem]
        return script[k] if k < len(script) else "I give up."


@pytest.fixture(scope="module")
def stub():
    s = StubModel()
    s.thread.start()
    yield s
    s.server.shutdown()
    s.server.server_close()


@pytest.fixture(autouse=True)
def _uv_on_path(monkeypatch):
    # the null harness runs its chat program as a uv script: the venv's uv (the verifiers extra) comes first
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")


def evaluate(stub, tmp_path, ids, seeds, **env) -> dict[str, object]:
    """verifiers' own eval runner over the svot taskset; the player's trace per ``id#seed``."""
    config = EvalConfig(env={"taskset": {"id": TASKSET_ID, "ids": list(ids), "seeds": list(seeds)}, **env},
                        model="stub", client={"base_url": stub.url, "api_key_var": "SVOT_STUB_API_KEY"},
                        push=False, rich=None, output_dir=tmp_path, max_concurrent=4)
    episodes = asyncio.run(asyncio.wait_for(run_eval(config), timeout=600))
    traces = {}
    for episode in episodes:
        assert episode.ok, episode.errors
        (trace,) = episode.traces
        traces[episode.task.data.id] = trace
    assert len(traces) == len(ids) * len(seeds)
    assert (tmp_path / config.run.dir / "traces.jsonl").is_file()  # the run's record, as vf-eval writes it
    return traces


def plan_of(eid: str, seed: int) -> list[str]:
    ep = AgentEpisode()
    ep.reset(id=eid, seed=seed)
    return ep.plan()


def test_load_environment_builds_the_svot_env():
    env = load_environment(ids=["SVoT/Maze-5x5-v0", "RuleMaze/QuestMaze-3x3-v0"], seeds=[0, 1, 2])
    assert isinstance(env, SVoTEnv)
    tasks = list(env.taskset)
    assert [(t.data.env_id, t.data.seed) for t in tasks] == [
        (e, s) for e in ("SVoT/Maze-5x5-v0", "RuleMaze/QuestMaze-3x3-v0") for s in (0, 1, 2)]


def test_rubric_through_verifiers_eval(stub, tmp_path):
    eid = "SVoT/Maze-5x5-v0"
    plans = {s: p for s in range(64) if len(p := plan_of(eid, s)) >= 2}  # problems one move cannot win
    s0, s1, s3 = seeds = sorted(plans)[:3]
    tag = "<think>follow the path</think><answer>{}</answer>"
    stub.scripts[f"{eid}#{s0}"] = [tag.format(a) for a in plans[s0]]  # the plan, one move a turn
    stub.scripts[f"{eid}#{s1}"] = [tag.format(" || ".join(plans[s1]))]  # the whole plan in one turn
    stub.scripts[f"{eid}#{s3}"] = ["move " + plans[s3][0].split(maxsplit=1)[1]] + [tag.format(a) for a in plans[s3]]
    traces = evaluate(stub, tmp_path, [eid], seeds, answer_format="tags", max_turns=max(map(len, plans.values())) + 2)

    def score(s):
        t = traces[f"{eid}#{s}"]
        return t.rewards["success"].score, t.rewards["format"].score, t.metrics["steps_over_plan"]

    assert score(s0) == (1.0, 1.0, 1.0)
    assert traces[f"{eid}#{s0}"].metrics["turns"] == len(plans[s0])
    assert score(s1) == (1.0, 1.0, 1.0) and traces[f"{eid}#{s1}"].metrics["turns"] == 1
    # the first reply lacks the tags (refused, nothing stepped), then the plan in tags
    t3, n3 = traces[f"{eid}#{s3}"], len(plans[s3])
    assert score(s3)[0] == 1.0 and t3.metrics["invalid_turns"] == 1 and t3.metrics["steps_over_plan"] == 1.0
    assert t3.rewards["format"].score == pytest.approx(n3 / (n3 + 1))
    assert t3.rewards["format"].weight == pytest.approx(0.1)
    assert t3.reward == pytest.approx(1.0 + 0.1 * n3 / (n3 + 1))


def test_wrong_moves_score_zero(stub, tmp_path):
    eid = "SVoT/Maze-5x5-v0"
    found = [(s, p) for s in range(64) if len(p := plan_of(eid, s)) >= 3][:2]  # two moves cannot win
    (seed, plan), (mute, _) = found
    wrong = next(w for w in ("move up", "move down", "move left", "move right") if w != plan[0])
    stub.scripts[f"{eid}#{seed}"] = [wrong, wrong]  # legal moves off the plan
    stub.scripts[f"{eid}#{mute}"] = []  # never an action ("I give up."): refused, every reply counts a turn
    traces = evaluate(stub, tmp_path, [eid], [seed, mute], max_turns=2)
    trace = traces[f"{eid}#{seed}"]
    assert trace.rewards["success"].score == 0.0 and trace.reward == pytest.approx(0.1)  # format 1, weight 0.1
    assert trace.metrics["steps_over_plan"] == 0.0 and trace.metrics["turns"] == 2
    turns = trace.info["svot"]["turns"]
    assert len(turns) == 2 and turns[-1]["truncated"] and not turns[-1]["success"]
    silent = traces[f"{eid}#{mute}"]
    assert silent.reward == 0.0 and silent.metrics["invalid_turns"] == 2 and silent.metrics["turns"] == 0
    assert [t["error"] is not None for t in silent.info["svot"]["turns"]] == [True, True]


def conformance_ids() -> list[str]:
    return DOMAIN_IDS + LAMPS_IDS[:1]


def test_verifiers_env_agrees_with_gymnasium(stub, tmp_path, lamps):
    """Each trajectory's actions, one per model turn; the env's per-turn record (state hash, reward,
    termination, success) equals Gymnasium's per-step record."""
    ids, seeds = conformance_ids(), range(N_PER_DOMAIN)
    refs = {}
    for eid in ids:
        for k in seeds:
            actions, ref = gymnasium_run(eid, k)
            stub.scripts[f"{eid}#{k}"] = list(actions[:STEPS])
            refs[f"{eid}#{k}"] = ref[:STEPS]
    traces = evaluate(stub, tmp_path, ids, seeds, player={"max_turns": STEPS})  # verifiers' own turn cap
    for key, ref in refs.items():
        got = [(t["state_hash"], t["reward"], t["terminated"], t["success"]) for t in traces[key].info["svot"]["turns"]]
        assert got == ref, key
        assert traces[key].rewards["success"].score == float(ref[-1][3]), key
    assert any(ref[-1][3] for ref in refs.values()) and not all(ref[-1][3] for ref in refs.values())
    assert len(refs) == len(ids) * N_PER_DOMAIN
