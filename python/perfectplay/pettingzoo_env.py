"""PettingZoo AEC environments for every perfectplay game.

::

    from perfectplay.pettingzoo_env import env

    aec = env("nine_mens_morris", render_mode="ansi")
    aec.reset(seed=0)
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, info = aec.last()
        if terminated or truncated:
            action = None
        else:
            action = aec.action_space(agent).sample(observation["action_mask"])
        aec.step(action)

Agents are ``"player_0"`` (the side that moves first: Black in checkers, White in morris) and
``"player_1"``. ``agent_selection`` is simply the player to act, so a turn of several actions
(each jump of a checkers capture, a morris mill's removal) gives the same agent several steps
in a row. Rewards come once, when the game ends: +1 for the winner, -1 for the loser, 0 for a
draw; a game cut short by the ply limit sets ``truncations`` rather than ``terminations``.

Rule options are keywords: ``env("twelve_mens_morris", ply_limit=200)``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Union

import numpy as np

try:
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "perfectplay.pettingzoo_env needs PettingZoo: pip install 'perfectplay[pettingzoo]' "
        "(or pip install pettingzoo)"
    ) from exc

import perfectplay as pp
from perfectplay._games import exact_int

__all__ = ["AGENTS", "env", "raw_env"]

#: The agents, indexed by player: ``AGENTS[state.current_player()]`` is the one to act.
AGENTS: List[str] = ["player_0", "player_1"]


def _other_view(observation: np.ndarray, family: str) -> np.ndarray:
    """The observation of the same position seen by the player *not* to move.

    It follows the documented layout of ``State.observation()``: the own and opposing planes
    swap (and the checkers board turns half a turn); the planes that describe the turn being
    made by the player to move (the capturing piece, the removal stage) are zero.
    """
    if family == "checkers":
        other = np.zeros_like(observation)
        other[0:4] = observation[[2, 3, 0, 1], ::-1, ::-1]
        return other
    other = np.zeros_like(observation)
    other[0:5] = observation[[1, 0, 2, 4, 3]]
    return other


def env(game_id: str = "nine_mens_morris", **kwargs: Any) -> AECEnv:
    """The AEC environment of ``game_id``, with PettingZoo's usual wrappers.

    An illegal action ends the game with reward -1 for the agent that played it
    (``TerminateIllegalWrapper``), an action outside the action space raises
    (``AssertOutOfBoundsWrapper``) and the calls must come in order (``OrderEnforcingWrapper``).
    Keywords are those of :class:`raw_env`.
    """
    aec: AECEnv = raw_env(game_id, **kwargs)
    aec = wrappers.TerminateIllegalWrapper(aec, illegal_reward=-1)
    aec = wrappers.AssertOutOfBoundsWrapper(aec)
    aec = wrappers.OrderEnforcingWrapper(aec)
    return aec


class raw_env(AECEnv, EzPickle):
    """A perfectplay game as a PettingZoo AEC environment, without wrappers.

    - Agents: ``"player_0"`` and ``"player_1"``; ``agent_selection`` is the player to act.
    - Observation (``observe(agent)``): a dict with ``"observation"``, float32
      ``Box(0, 1, game.observation_shape())`` seen from ``agent`` (own pieces first), and
      ``"action_mask"``, int8 ``[num_actions]``, 1 at the legal actions when ``agent`` is to
      act and all zeros otherwise.
    - Action: ``Discrete(game.num_distinct_actions())``, the actions of
      :class:`perfectplay.State`. An illegal action raises ``perfectplay.IllegalActionError``
      here; :func:`env` turns it into a loss.
    - Rewards: at the end, +1 / -1 / 0 from each agent's point of view.
    - ``infos[agent]`` is ``{}`` while the game goes on, and at the end holds ``"winner"`` (0,
      1 or ``None``) and ``"reason"`` (the outcome's reason).
    - ``render_mode="ansi"``: :meth:`render` returns the ASCII board; ``"human"`` prints it;
      ``"rgb_array"`` returns the SVG board as a ``(height, width, 3)`` uint8 array.

    Args:
        game_id: any id of :func:`perfectplay.game_ids` (aliases too).
        render_mode: ``None``, ``"ansi"``, ``"human"`` or ``"rgb_array"``.
        **rules: rule options for :func:`perfectplay.load_game`.
    """

    metadata = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "perfectplay_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self, game_id: str = "nine_mens_morris", render_mode: Optional[str] = None, **rules: Any
    ) -> None:
        EzPickle.__init__(self, game_id, render_mode, **rules)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"unknown render_mode {render_mode!r}; valid render modes: "
                f"{self.metadata['render_modes']} or None"
            )
        self.game = pp.load_game(game_id, **rules)
        self.game_id: str = self.game.id
        self.metadata = dict(type(self).metadata, name=f"perfectplay_{self.game_id}_v0")
        self.render_mode = render_mode
        self._family: str = self.game.family
        self.possible_agents = list(AGENTS)
        num_actions = int(self.game.num_distinct_actions())
        shape = tuple(int(n) for n in self.game.observation_shape())
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(num_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.state = self.game.new_initial_state()
        self._viewer = 0
        self.agents = []
        self.rewards = {}
        self._cumulative_rewards = {}
        self.terminations = {}
        self.truncations = {}
        self.infos = {}
        self.agent_selection = self.possible_agents[0]

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The action space of ``agent`` (the same object on every call)."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        """``{"observation": ..., "action_mask": ...}`` for ``agent``; see the class docs."""
        player = AGENTS.index(agent)
        observation = self.state.observation()
        if player != self._viewer:
            observation = _other_view(observation, self._family)
        if self.state.current_player() == player:
            mask = self.state.legal_action_mask().astype(np.int8)
        else:
            mask = np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Starts a new game. The game has no chance: ``seed`` only seeds the action spaces.

        ``options`` may hold ``"fen"``: a position string to start from.
        """
        if seed is not None:
            seed = exact_int(seed, "seed")
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be a dict (such as {{'fen': ...}}), not {options!r}")
        fen = (options or {}).get("fen")
        if fen is not None:
            self.state = self.game.state_from_fen(fen)
        else:
            self.state = self.game.new_initial_state()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        # A finished start too is seen from the side the rules have to move.
        self._viewer = self.state.player_to_move()
        self.agent_selection = AGENTS[self._viewer]
        if self.state.is_terminal():
            self._finish()
            # As after the step that ends a game: `last()` reports the result.
            self._accumulate_rewards()

    def _finish(self) -> None:
        """Sets the rewards and end flags once the game is over."""
        outcome = self.state.outcome()
        returns = self.state.returns()
        for i, agent in enumerate(AGENTS):
            self.rewards[agent] = float(returns[i])
            if outcome.truncated:
                self.truncations[agent] = True
            else:
                self.terminations[agent] = True
            self.infos[agent] = {"winner": outcome.winner, "reason": outcome.reason}

    def step(self, action: Any) -> None:
        """Applies ``action`` for ``agent_selection`` (``None`` for an agent whose game is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.state.apply_action(exact_int(action, "action"))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        current = self.state.current_player()
        if current >= 0:
            self._viewer = current
            self.agent_selection = AGENTS[current]
        else:
            # A finished game is seen from the side the rules would have to move.
            self._viewer = self.state.player_to_move()
            self.agent_selection = AGENTS[self._viewer]
            self._finish()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Union[str, np.ndarray, None]:
        """The ASCII board (``"ansi"``), prints it (``"human"``), or the board's pixels
        (``"rgb_array"``)."""
        if self.render_mode == "rgb_array":
            return self.state.render_rgb()
        if self.render_mode is None:
            from gymnasium import logger

            logger.warn("render() was called without a render mode; use render_mode='ansi'")
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
