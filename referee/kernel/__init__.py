"""The pure contract shared by every game: actors, audiences, errors, decisions, events,
randomness, results, bilingual texts (with the Korean particle that fits a name: josa).
Imports nothing of the project and no I/O library."""

from .actors import Actor, Audience
from .decisions import Decision, Field, Option, Turn, check_shape, expect
from .errors import RuleError, require
from .events import Event
from .flow import with_consequences
from .game import Game, OptionSpec, get_game, registry, seat_names
from .results import Result, Standing, place
from .rng import Rng
from .text import T, josa

__all__ = [
    "Actor", "Audience", "Decision", "Event", "Field", "Game", "Option", "OptionSpec", "Result",
    "Rng", "RuleError", "Standing", "T", "Turn", "check_shape", "expect", "get_game", "josa", "place", "registry", "require", "seat_names", "with_consequences",
]
