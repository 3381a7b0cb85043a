"""Clumsy Cats (우당탕탕 고양이들), seed 002, under RULINGS.md "Clumsy Cats".

Rules enforced here (cited beside each check as "Cats rule N", numbering of RULINGS.md; "seed"
for the seed's own text):

1. The die has 1-4 and two X. The roller alone sees the roll (phone) and declares 1-4; on an X
   it must bluff (every declaration of 1-4 is then a bluff). The others may call "거짓말!" until
   the dealer closes the call window. Caught bluffing: the cat stays on the cell before the roll
   and takes a harmful effect. Not caught (no call, or a wrong call): it moves the declared
   number. A wrong call costs the caller option `failed_call_penalty`.
2. No one calls twice in a row, nor while trapped in the toilet or in a no-action penalty.
3. Landing exactly on the toilet traps the cat for up to 3 turns; each of those turns it rolls,
   and an X lets it leave next turn. The desert island costs turns (option `island_turns`).
4. A blue footprint rolls a beneficial effect: 1 swap places with a chosen opponent's cat,
   2 send any cat (one's own too) to the start, 3 send an opponent's cat that has left the start
   to the toilet, 4 make any player (oneself too) roll once more, X nothing. It may be declined,
   never kept.
5. A red footprint rolls a harmful effect: 1 the owner of the rearmost cat may swap places with
   this cat, 2 no action for 2 turns, 3 back to the start, 4 to the desert island, X nothing.
6. Each completed lap takes the next score token (1 point for the first, then 2, ... 10). The
   game ends when all ten are taken; most points wins.
7. Entering the start completes a lap and the cat walks on with its remaining steps; the game
   ends at once when the last token is taken (equal points share a place). A seat that called
   in the previous turn may not call in this one; only the first caller counts. A trapped turn
   is a secret roll declared "X" or "none"; an uncaught X frees the cat for its next turn; a
   caught bluff gives a harmful effect and uses the turn; after the third the cat is free.
   Effect dice: faces 1-4 are the listed effects, X the last entry. The rearmost cat has the
   fewest steps from the start on the map (laps ignored); a tie is broken by the dealer. A cat an
   effect puts on the toilet is trapped afresh; effects never trigger footprints. A cat on the
   start cannot be sent to the toilet. No action: the next 2 turns are skipped, no calling
   meanwhile. An extra roll is a whole turn taken at once; play then continues after the current
   seat. Footprints act only where a move ends. Seed: at the fork an odd declaration goes up, an
   even one down.

Readings where the seed and RULINGS are silent (the lead may move them into RULINGS):

- The default map (maps/default.json) has 14 steps a lap: start top left, the island top right
  (step 4), the fork bottom right (odd up, even down; both branches meet at the toilet), the
  toilet in the bottom-left corner (step 11), 3 blue and 3 red footprints, the score track in
  the middle. A show may load its own map (option `map`).
- The roller may declare with one tap what it rolled ("declare_roll", never offered on an X
  outside the toilet); it is the same declaration as choosing that number.
- Seat order is the order of play (the seed's rock-paper-scissors happens before the table is
  made); each seat has one cat: white, sky-blue, yellow, black (2-4 seats).
- "The previous turn" (rule 7) is the previous call window: skipped turns have no window and
  do not clear the bar; a window that closed without a call clears it.
- The call window closes by itself when nobody may call.
- The roller moves only after the window: a caught bluffer never left its cell. With a wrong
  call, the roller's declaration is carried out first (move, landing, its effects), then the
  caller's penalty.
- The harmful "rearmost" is the rearmost of the other cats (the dealer breaks a tie among
  them); its owner chooses to swap or keep. If that cat stands on the harmed cat's cell,
  nothing changes and nobody is asked.
- The desert island: arriving there, by a move's end or by any effect, costs the next
  `island_turns` turns (a map may put the island on the loop, as the default does, or off it);
  a cat moved off the island or the toilet by an effect leaves that trap behind.
- Penalties run side by side: a skipped turn counts for every penalty the seat has. A skipped
  turn is not a trapped toilet turn. An extra roll given to a penalised seat is skipped as its
  next turn.
- A beneficial swap offers only opponents on another cell; "to the start" only cats not on
  it; "to the toilet" only opponents neither on the start nor already on the toilet. With no
  possible target the effect passes.
- Caught bluff in the toilet: the turn is counted first, then the harmful effect.

Secret (the dealer and the roller only): the true roll, until a call reveals it; an uncalled
roll is never revealed, not even after the game (the event "DieRolled" carries it only in
`private` with `to=(roller,)`; the roller's view has it under `mine`, the dealer's under
`secret`). Public: that a roll happened, positions, declarations, the window and who may call,
calls, rolls revealed by a call ("Called"), effect dice and effects, laps, tokens, points and
penalties. Nothing public depends on an uncalled roll: an uncaught declaration is carried out
(a move, or in the toilet "X" frees the cat) whatever was rolled.

Events (few per turn: a long match's log is folded often): DieRolled (a turn begins, with the
turns skipped on the way), Declared, Called or WindowClosed (with the walk or the trapped turn
that follows), EffectRolled (with the outcome when nobody chooses), RearmostPicked,
EffectApplied, GameEnded. The dealer view adds `panel` (the console's summary of every secret)
and `sheets` (run sheet and score sheet).

Table options:

- `map` (default `"default"`): the name of a shipped map (`maps/*.json`) or a whole map object
  (see board.py for the format; a JSON string of one is accepted too).
- `die` (default `referee`): `referee` rolls every die with the table's randomness (an automatic
  step); `dealer`: the dealer reads a physical die hidden from the others and enters the roll,
  and enters the effect dice rolled in the open.
- `failed_call_penalty` (default `none`): `none`; `harmful` (the wrong caller rolls a harmful
  effect, as a caught bluffer does: the seed's only penalty, and the seed wants reckless calls
  curbed, its note on rules 5 and 6); `lose_turn` (the wrong caller loses its next turn, the
  island's cost).
- `island_turns` (default 1): turns lost on the desert island, 0-3.

Recap moments (highlights.py, from the public view only): the end, and the laps that took the
biggest score tokens.

Error codes: cats/bad_face, cats/bad_declaration, cats/must_bluff, cats/window_closed,
cats/may_not_call, cats/not_rearmost, cats/bad_choice, cats/no_such_seat, cats/not_an_opponent, cats/same_cell,
cats/already_on_start, cats/target_on_start, cats/already_in_toilet; map errors
cats/map_unknown_name, cats/map_bad_json, cats/map_not_object, cats/map_unknown_key,
cats/map_no_cells, cats/map_too_big, cats/map_bad_cell, cats/map_duplicate_cell,
cats/map_bad_position, cats/map_fork_branches, cats/map_dead_end, cats/map_unknown_cell,
cats/map_self_loop, cats/map_no_start, cats/map_no_toilet, cats/map_no_island,
cats/map_special_clash, cats/map_bad_field, cats/map_footprint_on_start,
cats/map_footprint_clash, cats/map_unreachable, cats/map_no_way_back.
"""

from __future__ import annotations

from referee.kernel import Game, OptionSpec, T

from .board import Board, load_map, map_allowed, shipped_maps
from .decisions import turn
from .highlights import highlight
from .rules import decide, evolve, result, setup
from .state import (
    DIE_DEALER,
    DIE_REFEREE,
    ISLAND_CHOICES,
    PENALTY_HARMFUL,
    PENALTY_LOSE_TURN,
    PENALTY_NONE,
    CatsState,
    island_allowed,
)
from .text import describe
from .views import view

GAME = Game(
    id="clumsy_cats",
    title=T("우당탕탕 고양이들", "Clumsy Cats"),
    rules_version="1",
    # Seed component 4: four cats (white, sky-blue, yellow, black).
    seats=(2, 4),
    setup=setup,
    turn=turn,
    decide=decide,
    evolve=evolve,
    view=view,
    result=result,
    options=(
        OptionSpec("map", "default", shipped_maps(),
                   T("맵: 기본 맵 이름 또는 맵 객체(JSON)", "Map: a shipped map's name or a map object (JSON)"),
                   accepts=map_allowed),
        OptionSpec("die", DIE_REFEREE, (DIE_REFEREE, DIE_DEALER),
                   T("주사위: 심판 자동 또는 딜러가 실물 주사위 입력",
                     "Die: rolled by the referee, or a physical die entered by the dealer")),
        OptionSpec("failed_call_penalty", PENALTY_NONE, (PENALTY_NONE, PENALTY_HARMFUL, PENALTY_LOSE_TURN),
                   T("틀린 지적의 벌칙: 없음, 해로운 효과, 다음 턴 쉼",
                     "Penalty for a wrong call: none, a harmful effect, or losing the next turn"),
                   words={PENALTY_NONE: T("없음", "None"), PENALTY_HARMFUL: T("해로운 효과", "A harmful effect"),
                          PENALTY_LOSE_TURN: T("다음 턴 쉼", "Losing the next turn")}),
        OptionSpec("island_turns", 1, ISLAND_CHOICES,
                   T("무인도에서 쉬는 턴 수 (0-3)", "Turns lost on the desert island (0-3)"),
                   accepts=island_allowed),
    ),
    default_seats=4,
    describe=describe,
    reveals=frozenset({"Called", "EffectRolled", "GameEnded"}),
    highlight=highlight,
)

__all__ = ["GAME", "Board", "CatsState", "load_map", "shipped_maps"]
