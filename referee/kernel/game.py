"""The game contract every game module fulfils, and the registry of games."""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any

from .actors import Actor, Audience
from .decisions import Turn
from .errors import RuleError
from .events import Event
from .predictions import MAX_OPTIONS, MIN_OPTIONS, WINNER, Prediction, winner, winner_answer
from .results import Result
from .rng import Rng
from .text import T, josa


@dataclass(frozen=True)
class OptionSpec:
    """A table option (a house rule): its name, default and allowed values.

    With `accepts`, the values are too many to list (a set of seats): `choices` are examples
    for screens, and `accepts(value, seat_count)` says whether a value is allowed (the seat
    count is None when an option is checked without a table).
    """

    name: str
    default: Any
    choices: tuple[Any, ...]
    label: T
    accepts: Callable[[Any, int | None], bool] | None = None
    # Each choice in words for the console's menus (a choice with none: CHOICE_WORDS, else as is).
    words: Mapping[Any, T] = field(default_factory=dict)

    def allows(self, value: Any, seats: int | None = None) -> bool:
        return self.accepts(value, seats) if self.accepts is not None else value in self.choices

    def word(self, value: Any) -> T:
        """A choice as staff read it in a menu ("심판이 자동으로", not "referee")."""
        if value in self.words:
            return self.words[value]
        if isinstance(value, str) and value in CHOICE_WORDS:
            return CHOICE_WORDS[value]
        return T(str(value), str(value))


# The choices many games share, in words.
CHOICE_WORDS = {
    "on": T("켬", "On"), "off": T("끔", "Off"), "none": T("없음", "None"),
    "referee": T("심판이 자동으로", "By the referee"), "dealer": T("딜러가 입력", "Entered by the dealer"),
}


@dataclass(frozen=True)
class Game:
    """The pure interface of one game. ``id`` is its module name."""

    id: str
    title: T
    rules_version: str
    seats: tuple[int, int]  # (fewest, most)
    setup: Callable[[tuple[str, ...], Mapping[str, Any], Rng], Any]  # the seats' names, in seat order
    turn: Callable[[Any], Turn]
    decide: Callable[[Any, Actor, dict[str, Any], Rng], list[Event]]
    evolve: Callable[[Any, Event], Any]
    view: Callable[[Any, Audience], dict[str, Any]]
    result: Callable[[Any], Result | None]
    options: tuple[OptionSpec, ...] = field(default_factory=tuple)
    default_seats: int | None = None  # when a table is made without a seat count (bots, demo)
    # The log in words: describe(event, names) -> T, for an event as one audience sees it
    # ({"type": ..., **fields}; secret fields are absent for audiences that may not see them),
    # with seats named "5번 김민준" / "5 Kim Minjun" (counted from 1). None: a generic line.
    describe: Callable[[dict[str, Any], tuple[str, ...]], T | None] | None = None
    # A show program (referee/programs): its seats are the show's players and its stages are
    # tables of their own. Listed apart from the games.
    program: bool = False
    # The event types that are reveals (boxes opening, an auction result, a race's movement):
    # with the show's reveal hold on, the projector waits at each until the dealer releases it.
    reveals: frozenset[str] = frozenset()
    # A program's stages: key -> the stage's name on every screen ("3차 배틀: 트리키 코인 결승"); its
    # stage tables carry the name in their header, so three Coin matches never look alike.
    stages: Mapping[str, T] = field(default_factory=dict)
    # Audience predictions (referee.kernel.predictions): the game's own questions about a table,
    # made from its public view, and their answers read from a later public view (key, params,
    # view) -> the right option values, or None while the view does not show them yet.
    predictions: Callable[[dict[str, Any]], list[Prediction]] | None = None
    answer: Callable[[str, Mapping[str, Any], dict[str, Any]], tuple[Any, ...] | None] | None = None
    # A recap's moments (referee.table.replay.highlights): how much a frame of a replay is worth
    # showing again, from its public view and the event types it adds (an elimination, the
    # closest round, an auction), or None when it is no highlight.
    highlight: Callable[[dict[str, Any], tuple[str, ...]], float | None] | None = None
    # False for a game the seats win or lose together (The Crew): no "who wins?" for the hall.
    winner_question: bool = True
    # The events that make the winner known before the result (Safari's last scoring, before
    # the winner names an opponent): "who wins?" closes at them too.
    winner_known: frozenset[str] = frozenset()

    @property
    def usual_seats(self) -> int:
        return self.default_seats or self.seats[0]

    def resolve_options(self, given: Mapping[str, Any] | None, seats: int | None = None) -> dict[str, Any]:
        """The full option set: defaults, overridden by `given`; unknown or bad values raise."""
        given = dict(given or {})
        out = {}
        for spec in self.options:
            value = given.pop(spec.name, spec.default)
            if not spec.allows(value, seats):
                raise RuleError(
                    "table/bad_option",
                    f"옵션 {spec.name}에 {josa(repr(value), '은/는')} 쓸 수 없습니다 (예: {list(spec.choices)})",
                    f"Option {spec.name} cannot be {value!r} (e.g. {list(spec.choices)})",
                    option=spec.name, value=value,
                )
            out[spec.name] = value
        if given:
            name = sorted(given)[0]
            raise RuleError(
                "table/unknown_option",
                f"{self.id}에는 옵션 {josa(repr(name), '이/가')} 없습니다",
                f"{self.id} has no option {name!r}",
                option=name,
            )
        return out

    def questions(self, view: Mapping[str, Any]) -> list[Prediction]:
        """The questions the staff may put to the hall now about a table (its public view): the
        game's own, and who wins."""
        if not view.get("started") or view.get("finished"):
            return []
        own = self.predictions(view) if self.predictions is not None else []
        # A game lists its options as the public view gives them (e.g. every player who can still
        # be eliminated); a question with fewer than 2 or more than 9 is not put to the hall.
        return ([p for p in own if MIN_OPTIONS <= len(p.options) <= MAX_OPTIONS]
                + (winner(view, self.winner_known) if self.winner_question else []))

    def right_answer(self, key: str, given: Mapping[str, Any], view: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """The right option values of a question once the public view shows them, else None. A
        tie gives several right values (each of them scores)."""
        if key == WINNER:
            return winner_answer(view)
        return None if self.answer is None else self.answer(key, given, view)

    def check_seat_count(self, n: int) -> None:
        low, high = self.seats
        if not low <= n <= high:
            raise RuleError(
                "table/bad_seat_count",
                f"{josa(self.title.ko, '은/는')} {low}-{high}명이 합니다 ({n}명 지정됨)",
                f"{self.title.en} takes {low}-{high} seats, not {n}",
                seats=n,
            )


def seat_names(count: int) -> tuple[str, ...]:
    """Placeholder names for `count` seats (bots, tests)."""
    return tuple(f"Seat {i + 1}" for i in range(count))


# Where games come from: each installed package names its game packages under this entry-point
# group (pyproject.toml: the referee's games, and its show programs, which register themselves
# the same way); every module in such a package that exposes ``GAME`` is a game. The kernel
# names no package of the project.
ENTRY_POINTS = "referee.games"


@functools.cache
def _registered() -> tuple[str, ...]:
    """The modules that hold games, as the installed packages register them."""
    names: list[str] = []
    for point in entry_points(group=ENTRY_POINTS):
        package = importlib.import_module(point.value)
        if hasattr(package, "__path__"):
            names += [f"{package.__name__}.{info.name}" for info in pkgutil.iter_modules(package.__path__)]
        else:
            names.append(package.__name__)
    if not names:
        raise RuntimeError(f"no games are installed (entry points {ENTRY_POINTS!r}): run ./scripts/setup")
    return tuple(names)


def registry(extra: tuple[str, ...] = (), programs: bool = False) -> dict[str, Game]:
    """Every registered game by id (its module name), plus the games of the modules named in
    `extra` (a show's own game, loaded by module path); with `programs`, the show programs too
    (games whose ``program`` is set)."""
    found: dict[str, Game] = {}
    for name in _registered() + tuple(extra):
        game = getattr(importlib.import_module(name), "GAME", None)
        if isinstance(game, Game) and (programs or not game.program):
            found[game.id] = game
    return dict(sorted(found.items()))


def get_game(game_id: str, games: Mapping[str, Game] | None = None) -> Game:
    games = registry(programs=True) if games is None else games
    if game_id not in games:
        raise RuleError(
            "table/unknown_game",
            f"알 수 없는 게임입니다: {game_id!r} (가능: {', '.join(games)})",
            f"Unknown game: {game_id!r} (known: {', '.join(games)})",
            game=game_id,
        )
    return games[game_id]
