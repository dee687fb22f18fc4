"""svot's OpenEnv server through openenv-core's own app and WebSocket client, on 127.0.0.1 (issue 46, item 3).

The server runs in a subprocess that stops itself (``--lifetime``) and is killed at teardown; every wait is
bounded. Concurrent sessions stay isolated, a dropped socket resumes its episode, bad requests get an error
and the server keeps serving (OpenEnv #194, PR #1103).
"""

from __future__ import annotations

import asyncio
import json
import urllib.request

import pytest

pytest.importorskip("openenv.core", reason="the agents extra (openenv-core) is not installed")

from websockets.asyncio.client import connect as ws_connect  # noqa: E402

from svot.agents import AgentEpisode  # noqa: E402
from svot.agents.openenv_env import SVoTAction, SVoTEnvClient  # noqa: E402


def _alive(url: str) -> bool:
    with urllib.request.urlopen(f"{url}/health", timeout=5) as r:
        return r.status == 200


def _reference(eid: str, seed: int, inputs: list[str]) -> AgentEpisode:
    ep = AgentEpisode()
    ep.reset(id=eid, seed=seed)
    for text in inputs:
        ep.turn(text)
    return ep


def test_concurrent_sessions_are_isolated(server):
    cases = [("SVoT/Maze-5x5-v0", 1), ("SVoT/Sokoban-5x5-v0", 2), ("RuleMaze/QuestMaze-5x5-v1", 3)]

    async def play():
        clients = [SVoTEnvClient(base_url=server) for _ in cases]
        firsts = [await c.reset(id=eid, seed=seed) for c, (eid, seed) in zip(clients, cases)]
        plans = [_reference(eid, seed, []).plan() for eid, seed in cases]
        results = [None] * len(cases)
        for k in range(max(map(len, plans))):  # interleaved: one move of each session in turn
            for i, c in enumerate(clients):
                if k < len(plans[i]):
                    results[i] = await c.step(SVoTAction(text=plans[i][k]))
        states = [await c.state() for c in clients]
        for c in clients:
            await c.disconnect()
        return firsts, plans, results, states

    firsts, plans, results, states = asyncio.run(play())
    for (eid, seed), first, plan, last, state in zip(cases, firsts, plans, results, states):
        ref = _reference(eid, seed, plan)
        assert first.observation.text == AgentEpisode().reset(id=eid, seed=seed).text
        assert last.done and last.observation.info["success"] and last.reward == 1.0
        assert last.observation.info["state_hash"] == ref.state_hash() == state.state_hash
        assert state.success and state.step_count == len(plan)


def test_dropped_socket_resumes_the_episode(server):
    eid, seed = "SVoT/Gather-5x5-v0", 4

    async def play():
        c = SVoTEnvClient(base_url=server)
        await c.reset(id=eid, seed=seed)
        plan = _reference(eid, seed, []).plan()
        await c.step(SVoTAction(text=plan[0]))
        await c._ws.close()  # the socket drops: the server ends that session
        out = [await c.step(SVoTAction(text=a)) for a in plan[1:]]
        await c.disconnect()
        return plan, out, c.reconnects

    plan, out, reconnects = asyncio.run(play())
    assert reconnects == 1
    assert out[-1].done and out[-1].observation.info["success"]
    assert out[-1].observation.info["state_hash"] == _reference(eid, seed, plan).state_hash()
    assert out[-1].observation.episode["steps"] == len(plan)


def test_bad_requests_get_errors_and_the_server_survives(server):
    ws_url = server.replace("http://", "ws://") + "/ws"

    async def talk():
        replies = []
        async with ws_connect(ws_url, max_size=2**24) as ws:
            async def send(raw):
                await ws.send(raw)
                replies.append(json.loads(await asyncio.wait_for(ws.recv(), 30)))
            await send("{not json")
            await send(json.dumps({"type": "teleport"}))
            await send(json.dumps({"type": "reset", "data": {"id": "SVoT/Nothing-5x5-v0", "seed": 1}}))
            await send(json.dumps({"type": "step", "data": {"text": "move up"}}))  # before any reset
            await send(json.dumps({"type": "reset", "data": {"id": "SVoT/Maze-5x5-v0", "seed": 1}}))
            await send(json.dumps({"type": "step", "data": {"text": 5}}))
            await send(json.dumps({"type": "step", "data": {"text": "up", "extra": 1}}))
            await send(json.dumps({"type": "step", "data": {"text": "x" * 100_000}}))
            await send(json.dumps({"type": "step", "data": {"text": "move sideways"}}))
            await send(json.dumps({"type": "step", "data": {"text": "move up"}}))
        return replies

    r = asyncio.run(talk())
    assert [x["type"] for x in r[:4]] == ["error", "error", "error", "observation"]
    assert "Invalid JSON" in r[0]["data"]["message"] and "Unknown message type" in r[1]["data"]["message"]
    assert "unknown env id" in r[2]["data"]["message"]
    assert r[3]["data"]["observation"]["error"] == "the episode has not started (reset first)"
    assert r[4]["type"] == "observation"
    assert r[5]["type"] == r[6]["type"] == "error"  # not {"text": str}: OpenEnv's validation error
    for bad in r[7:9]:
        assert bad["type"] == "observation" and bad["data"]["observation"]["error"]
        assert bad["data"]["observation"]["episode"]["steps"] == 0  # nothing stepped
    assert r[9]["data"]["observation"]["error"] is None and r[9]["data"]["observation"]["episode"]["steps"] == 1
    assert _alive(server)
