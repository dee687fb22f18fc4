"""Gymnasium environments of RuleMaze: reach a target while obeying a natural-language rule.

``RuleMaze/RegularMaze-3x3-v0``, ``RuleMaze/QuestMaze-3x3-v0`` (the walled 3x3
QuestMaze) and ``RuleMaze/QuestMaze-5x5-v1`` (the paper's open 5x5 grid with
monsters, ``questmaze5.pddl``) are registered on ``import svot``; :class:`RuleTextObservation` puts the rule into
the observation as a Gymnasium ``Text`` space. Stepping goes through the
grounded engine (or PDDLGym's, ``engine="pddlgym"``) on
``regularmaze.pddl`` / ``questmaze.pddl``; the rule is checked by its compiled
validator (:mod:`svot.rulemaze.rules.compiler`).
"""

from __future__ import annotations

import string
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from svot.envs.conventions import ConventionsMixin
from svot.envs.episode import past_termination
from svot.errors import ActionError, ConfigError, ProblemError
from svot.rulemaze import symbols as S
from svot.rulemaze.matching import match
from svot.rulemaze.maze import Maze
from svot.rulemaze.pool import LAYOUTS, default_layout, generate_maze, open_layout_names
from svot.rulemaze.open_grid import maze_side
from svot.rulemaze.registration import env_ids, open_id, register_envs, walled_id
from svot.rulemaze.problem import action_key, collected_cells, engine_position, make_maze_engine
from svot.rulemaze.render import DEFAULT_IMAGE_SIZE, layout as image_layout, render_maze
from svot.rulemaze.rules.bank import builtin_rules
from svot.rulemaze.rules.compiler import VIOLATED, compile_rule
from svot.rulemaze.rules.record import Rule
from svot.rulemaze.trajectory import Trajectory

RULE_SETS = ("all", "seen", "unseen")
RESET_OPTIONS = ("maze", "rule")
MAX_SAMPLING_TRIES = 50_000
#: Characters a rule observation may hold (printable ASCII, space the only whitespace).
RULE_CHARSET = frozenset(string.ascii_letters + string.digits + string.punctuation + " ")
MAX_RULE_LENGTH = 512


class RuleMazeEnv(ConventionsMixin, gym.Env):
    """
    ## Description
    RuleMaze (Chen et al., *Rule-Compliant Visual Spatial Planning for MLLMs*): walk
    an N×N maze from the start to the goal while obeying a rule given in natural
    language. **RegularMaze**: white cells, coloured zones, a green start and a red
    goal; rules speak of zones and moves (e.g. "If you are in a blue cell, your next
    move must be right."). **QuestMaze**: a grass field with the prince (start), the
    princess and the treasure (the two targets) and items (key, heart, food) that
    are collected on entering their cell; rules speak of items, moves and the target
    (e.g. "You must pick up a key on the way."). Each episode pairs a rule with a
    maze where it leaves exactly one compliant solution path among several (the
    paper's matching), unless ``reset(options=...)`` says otherwise. Dynamics come
    from ``svot/domains_pddl/regularmaze.pddl`` / ``questmaze.pddl``.

    ## Action Space
    ``Discrete(4)``: 0 up, 1 down, 2 left, 3 right. A move into a wall or off the
    grid changes nothing (``info["applicable"]`` is False) and is not part of the
    trajectory the rule judges.

    ## Observation Space
    ``Box(0, 255, (S, S, 3), uint8)``: the maze image (``image_size`` S, default
    256) with a magenta ring on the agent's cell; collected items disappear. The
    rule is in ``info["rule"]``; wrap with :class:`RuleTextObservation` to get a
    ``Dict(image=Box, rule=Text)`` observation instead.

    ## Rewards
    1 when the episode ends on a target and the whole trajectory complies with the
    rule (the validator on the complete trajectory), else 0.

    ## Starting State
    The agent on the start cell of a maze drawn from the pool generator (Alg. 1-4)
    with ``self.np_random``, paired with a rule drawn uniformly from the rule set
    (``rules``: ``"all"``, ``"seen"``, ``"unseen"`` bank rules, or a list of
    :class:`~svot.rulemaze.rules.Rule` / rule texts); mazes are redrawn until the
    pair passes matching. ``reset(options={"maze": Maze | dict, "rule": Rule | str})``
    plays a given maze and/or rule (a given maze is not re-matched).

    ## Episode End
    Terminated on entering the goal (RegularMaze) or either target (QuestMaze:
    reaching a target ends the quest); truncated after ``max_episode_steps``
    (4·N² = 36, set at registration). A ``step()`` after ``terminated=True``
    follows Gymnasium's convention (:mod:`svot.envs.episode`): reward 0.0,
    ``terminated`` stays True, and the first such step logs a warning.

    ## Info
    ``rule`` (natural language), ``rule_logic``, ``rule_id``, ``difficulty``,
    ``position`` ``[row, col]``, ``actions`` and ``symbols`` (the trajectory the
    rule judges: moves made and what InspectGrid reads on each cell entered, start
    included), ``violated`` (True from the step at which the partial validator
    reports that no continuation can comply), ``compliant`` (the validator on the
    trajectory so far, as if it ended here), ``applicable``, ``target`` (symbol of
    the target reached, else None), ``ground_truth`` (actions of the unique
    compliant path when the pair was matched, else None).

    ## Registered Configurations
    ``RuleMaze/RegularMaze-3x3-v0``, ``RuleMaze/QuestMaze-3x3-v0`` (other sizes:
    ``gymnasium.make("RuleMaze/RegularMaze-3x3-v0", size=4)``), and
    ``RuleMaze/QuestMaze-5x5-v1`` (``layout="open"``): the QuestMaze the paper draws,
    a 5x5 open cell grid made from a 3x3 maze, whose walls become monster cells
    that cannot be entered, with one or two targets (``questmaze5.pddl``).
    Truncation after 4·N² steps (100 for 5x5).
    """

    metadata = {"render_modes": ["rgb_array", "ansi"], "render_fps": 4}
    # how svot.agents plays this env (a "module:Class" string, loaded when an agent episode starts: the env
    # imports nothing of the agents layer)
    agent_driver = "svot.rulemaze.agent_driver:RuleMazeDriver"

    # the default scenario is the first declared (svot.rulemaze.scenario: the domain registry's order)
    def __init__(self, scenario: str = S.SCENARIOS[0], size: int = 3, rules: Any = "all",
                 render_mode: str | None = None, image_size: int = DEFAULT_IMAGE_SIZE,
                 engine: str = "grounded", layout: str | None = None):
        try:
            self.scenario = S.normalize_scenario(scenario)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        if isinstance(size, bool) or not isinstance(size, int) or size < 2:
            raise ConfigError(f"size must be an int >= 2, got {size!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(f"unknown render_mode {render_mode!r}; choose one of "
                              f"{', '.join(self.metadata['render_modes'])}")
        if engine not in ("grounded", "pddlgym"):
            raise ConfigError(f"unknown engine {engine!r}; choose one of grounded, pddlgym")
        layout = default_layout(self.scenario) if layout is None else layout
        if layout not in LAYOUTS or (layout == "open" and layout not in S.get_scenario(self.scenario).domains):
            raise ConfigError(f"layout must be 'walls', or 'open' for a {open_layout_names()}; "
                              f"got {layout!r} for a {self.scenario}")
        self.layout = layout
        self.size = size  # the logical maze side, as everywhere in svot.rulemaze
        self.side = maze_side(size, layout)  # the grid's side: 2 size - 1 on the open grid
        self.image_size = int(image_size)
        image_layout(self.image_size, self.side)  # validates the image size
        self.render_mode = render_mode
        self.engine_kind = engine
        self.rules = self._rule_set(rules)
        self.action_space = spaces.Discrete(4)
        self.observation_space = spaces.Box(0, 255, (self.image_size, self.image_size, 3), np.uint8)
        self.maze: Maze | None = None
        self.rule: Rule | None = None
        self.ground_truth: tuple[str, ...] | None = None
        self.engine = None
        self._state = None

    # --- rules ----------------------------------------------------------------------
    def _rule_set(self, rules) -> list[Rule]:
        if isinstance(rules, str) and rules in RULE_SETS:
            out = builtin_rules(self.scenario, split=None if rules == "all" else rules)
        elif isinstance(rules, (list, tuple)) and rules:
            out = [self._as_rule(r) for r in rules]
        else:
            raise ConfigError(f"rules must be one of {', '.join(RULE_SETS)} or a non-empty list of "
                              f"rules, got {rules!r}")
        return out

    def _as_rule(self, rule) -> Rule:
        if isinstance(rule, Rule):
            if rule.scenario != self.scenario:
                raise ConfigError(f"rule {rule.id} is a {rule.scenario} rule, this env is a {self.scenario}")
            return rule
        if isinstance(rule, str):
            text = rule.strip()
            for r in builtin_rules(self.scenario):
                if text in (r.id, r.logic) or text.lower().rstrip(".") == r.natural_language.lower().rstrip("."):
                    return r
            return Rule.make("custom", text, text, self.scenario)  # logic given directly
        raise ConfigError(f"a rule must be a Rule, a bank rule id, its text or rule logic; got {rule!r}")

    # --- episode ----------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if options is not None and not isinstance(options, dict):
            raise ConfigError(f"reset options must be a dict, got {type(options).__name__}")
        options = dict(options or {})
        unknown = sorted(set(options) - set(RESET_OPTIONS))
        if unknown:
            raise ConfigError(f"unknown reset option(s) {', '.join(map(repr, unknown))}; "
                              f"known: {', '.join(RESET_OPTIONS)}")
        rule = self._as_rule(options["rule"]) if options.get("rule") is not None else None
        maze = options.get("maze")
        if maze is not None:
            maze = maze if isinstance(maze, Maze) else Maze.from_dict(maze)
            if maze.scenario != self.scenario or maze.size != self.side or \
                    maze.open_grid != (self.layout == "open"):
                raise ProblemError(f"options['maze'] is a {maze.size}x{maze.size} {maze.scenario}"
                                   f"{' (open grid)' if maze.open_grid else ''}, this env plays "
                                   f"{self.side}x{self.side} {self.scenario} ({self.layout} layout)")
            if rule is None:
                rule, _ = self._draw_rule_for(maze)
            result = match(rule, maze, unique=True)
        else:
            if rule is None:
                rule = self.rules[int(self.np_random.integers(len(self.rules)))]
            maze, result = self._draw_maze_for(rule)
        self.maze, self.rule = maze, rule
        self.ground_truth = None if result is None else result.ground_truth
        self._validator = compile_rule(rule.formula)
        self.engine = make_maze_engine(maze, self.engine_kind)
        self._state = self.engine.initial()
        self._pos = maze.start
        self._traj = Trajectory((S.inspect_symbol(maze.symbol(maze.start)),), ())
        self._violated = self._validator.status(self._traj) == VIOLATED
        self._target = None
        self._collected: frozenset = frozenset()
        self._obs_cache: dict = {}
        self._steps_beyond_terminated = None  # see svot.envs.episode
        return self._observation(), self._info(applicable=True)

    def _draw_maze_for(self, rule: Rule):
        for _ in range(MAX_SAMPLING_TRIES):
            maze = generate_maze(self.scenario, self.size, self.np_random, layout=self.layout)
            result = match(rule, maze, unique=True)
            if result is not None:
                return maze, result
        raise ProblemError(f"no {self.side}x{self.side} maze matched rule {rule.id!r} "
                           f"({rule.logic}) in {MAX_SAMPLING_TRIES} draws")

    def _draw_rule_for(self, maze: Maze):
        order = self.np_random.permutation(len(self.rules))
        for i in order:
            result = match(self.rules[int(i)], maze, unique=True)
            if result is not None:
                return self.rules[int(i)], result
        return self.rules[int(order[0])], None

    def step(self, action):
        if self.engine is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        a = _check_action(action)
        direction = S.DIRECTIONS[a]
        state, applied = self.engine.step(self._state, action_key(direction))
        if applied:
            before, self._state = self._collected, state
            cell = engine_position(self.engine, state)
            self._collected = collected_cells(self.engine, state)
            sym = S.inspect_symbol(self.maze.symbol(cell))
            if sym in S.COLLECTED_SYMBOLS and cell not in self._collected - before:
                sym = S.NORMAL  # the engine did not collect it on this move: taken earlier
            self._pos = cell
            self._traj = self._traj.extend(direction, sym)
            if not self._violated and self._validator.status(self._traj) == VIOLATED:
                self._violated = True
        terminated = bool(self.engine.is_goal(self._state))
        if terminated:
            self._target = self.maze.symbol(self._pos)
        reward = 1.0 if terminated and self._validator.check(self._traj) else 0.0
        if self._steps_beyond_terminated is not None:  # stepped after the end: Gymnasium's convention
            reward, terminated = past_termination(self)
        elif terminated:
            self._steps_beyond_terminated = 0
        info = self._info(applicable=applied)
        info["is_success"] = reward > 0  # a target reached by a compliant trajectory (SB3 reads it at episode end)
        return self._observation(), reward, terminated, False, info

    def action_text(self, action: int) -> str:
        """``"move up"`` for action 0 (up, down, left, right): what ``get_keys_to_action`` reads."""
        return f"move {S.DIRECTIONS[_check_action(action)]}"

    # --- views ------------------------------------------------------------------------
    def _observation(self) -> np.ndarray:
        key = (self._pos, self._collected)
        img = self._obs_cache.get(key)
        if img is None:
            img = render_maze(self.maze, self.image_size, marker=self._pos, collected=self._collected)
            img.setflags(write=False)
            self._obs_cache[key] = img
        return img.copy()

    @property
    def rule_text(self) -> str:
        """The current rule's natural language."""
        return "" if self.rule is None else self.rule.natural_language

    @property
    def trajectory(self) -> Trajectory:
        return self._traj

    def _info(self, applicable: bool) -> dict:
        r = self.rule
        return {
            "rule": r.natural_language,
            "rule_logic": r.logic,
            "rule_id": r.id,
            "difficulty": r.difficulty,
            "position": list(self._pos),
            "actions": list(self._traj.actions),
            "symbols": list(self._traj.symbols),
            "violated": bool(self._violated),
            "compliant": bool(self._validator.check(self._traj)),
            "applicable": bool(applicable),
            "target": self._target,
            "ground_truth": None if self.ground_truth is None else list(self.ground_truth),
        }

    def render(self):
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode='rgb_array' or 'ansi'")
            return None
        if self.engine is None:
            raise gym.error.ResetNeeded("call reset() before render()")
        if self.render_mode == "ansi":
            lines = self.maze.to_text().split("\n")
            r, c = self._pos
            row = list(lines[1 + 2 * r])
            row[2 + 4 * c] = "@"
            lines[1 + 2 * r] = "".join(row)
            return "\n".join(lines) + f"\nRule: {self.rule.natural_language}\n"
        return self._observation()


def _check_action(action) -> int:
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)) \
            or not 0 <= int(action) < 4:
        raise ActionError(f"RuleMaze actions are integers in 0..3 (up, down, left, right), got {action!r}")
    return int(action)


class RuleTextObservation(gym.ObservationWrapper, gym.utils.RecordConstructorArgs):
    """Puts the rule into the observation: ``Dict(image=Box(S, S, 3), rule=Text)``.

    ``field``: ``"natural_language"`` (default) or ``"logic"``. The ``Text`` space
    allows printable ASCII (:data:`RULE_CHARSET`) up to :data:`MAX_RULE_LENGTH`
    characters.
    """

    def __init__(self, env: gym.Env, field: str = "natural_language"):
        gym.utils.RecordConstructorArgs.__init__(self, field=field)
        gym.ObservationWrapper.__init__(self, env)
        if field not in ("natural_language", "logic"):
            raise ConfigError(f"field must be 'natural_language' or 'logic', got {field!r}")
        self.field = field
        self.observation_space = spaces.Dict({
            "image": env.observation_space,
            "rule": spaces.Text(MAX_RULE_LENGTH, min_length=1, charset=RULE_CHARSET),
        })

    def observation(self, observation):
        rule = self.env.unwrapped.rule
        text = rule.natural_language if self.field == "natural_language" else rule.logic
        return {"image": observation, "rule": text}


def make_env(scenario: str, *, text: bool = False, **kwargs) -> gym.Env:
    """``gymnasium.make`` of a RuleMaze id, optionally wrapped in :class:`RuleTextObservation`."""
    register_envs()
    scenario = S.normalize_scenario(scenario)
    eid = open_id(scenario) if kwargs.pop("layout", None) == "open" else walled_id(scenario)
    env = gym.make(eid, **kwargs)
    return RuleTextObservation(env) if text else env


__all__ = ["RULE_CHARSET", "RuleMazeEnv", "RuleTextObservation", "env_ids", "make_env", "register_envs"]
