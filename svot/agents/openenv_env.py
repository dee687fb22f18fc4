"""svot behind OpenEnv (``openenv-core``, the ``agents`` extra): an ``Environment``, its app, and a client.

Server::

    python -m svot.agents.openenv_env --host 127.0.0.1 --port 8000      # create_app over SVoTOpenEnv

Client (async; ``.sync()`` for a blocking one)::

    async with SVoTEnvClient(base_url="http://127.0.0.1:8000") as env:
        r = await env.reset(id="SVoT/Maze-5x5-v0", seed=3)              # any row svot.agents takes
        r = await env.step(SVoTAction(text="move up"))                 # a turn: text or answer tags
        r.observation.text, r.observation.info, r.reward, r.done

Every WebSocket session gets its own :class:`SVoTOpenEnv` (its own :class:`~svot.agents.AgentEpisode`), so
concurrent sessions are isolated (``SUPPORTS_CONCURRENT_SESSIONS``). **Reconnection** keeps no state in the
server: each observation carries the episode's record (``episode``: the row and the inputs so far, see
:meth:`AgentEpisode.to_dict`); when the socket drops, :class:`SVoTEnvClient` reconnects and resets with
``resume=<record>``, which replays the episode to where it was, then sends the step again. A step is thus
applied once whether the drop came before or after the server applied it (the new session starts from the
record the client last saw). **Bad requests** (malformed JSON, unknown message types, an action that is not
``{"text": str}``, an unknown id) get OpenEnv's error message and the session goes on; bad moves are the
episode's own short errors (``observation.error``) and change nothing.
"""

from __future__ import annotations

import asyncio
import base64
from typing import Any, Optional

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient
from openenv.core.env_server.http_server import create_app
from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import Action, EnvironmentMetadata, Observation, State
from pydantic import Field
from websockets.exceptions import ConnectionClosed

from svot.agents.episode import OBSERVATIONS, AgentEpisode, EpisodeConfig, Turn
from svot.errors import ConfigError

MAX_SESSIONS = 64


class SVoTAction(Action):
    """One turn: the model's text (``move left 3``, ``up || up``, or ``<think>…</think><answer>…</answer>``)."""

    text: str = Field(description="The model's text for this turn")
    kind: str = Field(default="turn", pattern="^(turn|act)$",
                      description="'turn' parses one or more actions; 'act' applies exactly one action text")


class SVoTObservation(Observation):
    text: str = Field(default="", description="The observation (state text) or the error")
    image_png: Optional[str] = Field(default=None, description="The frame, PNG, base64")
    info: dict = Field(default_factory=dict, description="valid, applicable, effective, success, state_hash, …")
    error: Optional[str] = Field(default=None, description="Why the input was refused (nothing was stepped)")
    episode: dict = Field(default_factory=dict, description="The episode's record: resume=<this> replays it")


class SVoTState(State):
    row: Optional[dict] = None
    state_hash: Optional[str] = None
    reward: float = 0.0
    success: bool = False
    done: bool = False


class SVoTOpenEnv(Environment):
    """An :class:`AgentEpisode` as an OpenEnv ``Environment``."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, config: EpisodeConfig | None = None):
        super().__init__()
        self.config = config or EpisodeConfig()
        self._episode = AgentEpisode(self.config)
        self._episode_id: str | None = None

    def reset(self, seed: Optional[int] = None, episode_id: Optional[str] = None, resume: Optional[dict] = None,
              observation: Optional[str] = None, **row: Any) -> SVoTObservation:
        """Start the row's episode (``row``: ``id`` or ``domain`` / ``size`` / ``split``, ``problem_pddl``, the
        driver's options; other keys are ignored), or (``resume``) replay a recorded one to where it was."""
        if observation is not None and observation != self.config.observation:
            if observation not in OBSERVATIONS:
                raise ConfigError(f"observation must be one of {', '.join(OBSERVATIONS)}, got {observation!r}")
            self.config = EpisodeConfig(**{**self.config.__dict__, "observation": observation})
        if resume is not None:
            self._episode = AgentEpisode.from_dict(resume)  # ProblemError if it does not replay
            self._episode_id = episode_id or self._episode_id
            ep = self._episode
            turn = Turn(text=f"Resumed after {ep.turns} turns.\n{ep.driver.text()}",
                        image=ep.png() if ep.config.observation != "text" else None,
                        terminated=ep.terminated, truncated=ep.truncated, info={"state_hash": ep.state_hash()})
            return self._observation(turn)
        self._episode = AgentEpisode(self.config)
        self._episode_id = episode_id
        turn = self._episode.reset(seed=seed, **row)
        return self._observation(turn)

    def step(self, action: SVoTAction, timeout_s: Optional[float] = None, **kwargs: Any) -> SVoTObservation:
        ep = self._episode
        turn = ep.act(action.text) if action.kind == "act" else ep.turn(action.text)
        return self._observation(turn)

    @property
    def state(self) -> SVoTState:
        ep = self._episode
        started = ep.row is not None
        return SVoTState(episode_id=self._episode_id, step_count=ep.steps, row=ep.row,
                         state_hash=ep.state_hash() if started else None, reward=ep.reward, success=ep.success,
                         done=ep.done)

    def get_metadata(self) -> EnvironmentMetadata:
        return EnvironmentMetadata(name="svot", description="svot grid domains and RuleMaze as agent episodes",
                                   version="1")

    def _observation(self, turn: Turn) -> SVoTObservation:
        ep = self._episode
        png = None if turn.image is None else base64.b64encode(turn.image).decode("ascii")
        return SVoTObservation(text=turn.text, image_png=png, info=turn.info, error=turn.error,
                               episode=ep.to_dict() if ep.row is not None else {}, reward=turn.reward,
                               done=turn.done)

    def close(self) -> None:
        self._episode.close()


def make_app(config: EpisodeConfig | None = None, max_sessions: int = MAX_SESSIONS):
    """OpenEnv's FastAPI app over :class:`SVoTOpenEnv` (one env per WebSocket session)."""
    return create_app(lambda: SVoTOpenEnv(config), SVoTAction, SVoTObservation, env_name="svot",
                      max_concurrent_envs=max_sessions)


class SVoTEnvClient(EnvClient[SVoTAction, SVoTObservation, SVoTState]):
    """OpenEnv's WebSocket client, plus reconnection: a dropped socket resumes the episode (see the module)."""

    def __init__(self, base_url: str, *, reconnect_tries: int = 3, **kwargs):
        super().__init__(base_url, **kwargs)
        self._record: dict | None = None
        self._reconnect_tries = reconnect_tries
        self.reconnects = 0

    def _step_payload(self, action: SVoTAction) -> dict:
        return action.model_dump(exclude={"metadata"})

    def _parse_result(self, payload: dict) -> StepResult[SVoTObservation]:
        obs = SVoTObservation(**payload.get("observation", {}), reward=payload.get("reward"),
                              done=payload.get("done", False))
        if obs.episode:
            self._record = obs.episode
        return StepResult(observation=obs, reward=payload.get("reward"), done=bool(payload.get("done")))

    def _parse_state(self, payload: dict) -> SVoTState:
        return SVoTState(**payload)

    async def reset(self, **kwargs: Any) -> StepResult[SVoTObservation]:
        self._record = None
        return await self._retry(lambda: EnvClient.reset(self, **kwargs), resume=False)

    async def step(self, action: SVoTAction, **kwargs: Any) -> StepResult[SVoTObservation]:
        return await self._retry(lambda: EnvClient.step(self, action, **kwargs), resume=True)

    async def _retry(self, call, resume: bool):
        for attempt in range(self._reconnect_tries + 1):
            try:
                return await call()
            except (ConnectionClosed, ConnectionError, OSError):
                if attempt == self._reconnect_tries:
                    raise
                self._ws = None  # the old socket is gone; the server destroyed its session
                await asyncio.sleep(0.05 * (attempt + 1))
                await self.connect()
                self.reconnects += 1
                if resume and self._record is not None:
                    await EnvClient.reset(self, resume=self._record)
        raise AssertionError("unreachable")


def serve(*, host: str = "127.0.0.1", port: int = 8000, max_sessions: int = MAX_SESSIONS, observation: str = "text",
          image_size: int = 128, lifetime: float | None = None) -> None:
    """Serve svot episodes over OpenEnv (WebSocket ``/ws``, HTTP ``/health``) until stopped, or for ``lifetime``
    seconds (tests). ``svot serve`` calls this."""
    import uvicorn  # openenv-core brings it (the agents extra)

    app = make_app(EpisodeConfig(observation=observation, image_size=image_size), max_sessions)
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    if lifetime is None:
        server.run()
        return

    async def run():
        task = asyncio.create_task(server.serve())
        await asyncio.sleep(lifetime)
        server.should_exit = True
        await task

    asyncio.run(run())
