"""Clumsy Cats: the board is data. A map lists its cells with x/y positions (for the projector)
and where each leads, the start, the toilet, the desert island and the footprint cells.

The seed's map picture is missing (RULINGS "Clumsy Cats"), so the shipped map
``maps/default.json`` is made to fit the seed's text, and a show may load its own map object.
``load_map`` checks a map completely and raises a RuleError ``cats/map_*`` naming the problem.

Map format (JSON)::

    {"name": {"ko", "en"}, "note": {"ko", "en"}, "size": {"width", "height"},
     "track": {"x", "y", "width", "height"},
     "start": id, "toilet": id, "island": id, "blue": [id, ...], "red": [id, ...],
     "cells": [{"id": "3", "x": 3, "y": 0, "next": "4", "label": {"ko", "en"}},
               {"id": "fork", "x": 7, "y": 6, "up": "up1", "down": "down1"}, ...]}

A cell leads on by ``next``, or is a fork with ``up`` (taken by an odd declared number) and
``down`` (even). Every cell must be reachable from the start by walking, except the island,
which effects reach and which may lie off the loop; from every cell the start must be
reachable (a cat can always complete its lap). ``name``, ``note``, ``size`` and ``label`` are
optional (``track`` is where the projector draws the score track 1-10); ``blue``/``red`` may be
empty.
"""

from __future__ import annotations

import json
import math
from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from referee.kernel import RuleError, T, josa

MAPS_DIR = Path(__file__).with_name("maps")
MAX_CELLS = 300
TOP_KEYS = ("name", "note", "size", "track", "start", "toilet", "island", "blue", "red", "cells")
CELL_KEYS = ("id", "x", "y", "next", "up", "down", "label")


@dataclass(frozen=True)
class Cell:
    id: str
    x: float
    y: float
    label: T
    next: str | None = None
    up: str | None = None  # a fork: an odd declared number goes up, an even one down
    down: str | None = None

    @property
    def fork(self) -> bool:
        return self.up is not None

    def successors(self) -> tuple[str, ...]:
        return (self.up, self.down) if self.up is not None and self.down is not None else (self.next,)  # type: ignore[return-value]


@dataclass(frozen=True)
class Board:
    name: T
    note: T | None
    width: float
    height: float
    cells: tuple[Cell, ...]
    start: str
    toilet: str
    island: str
    blue: tuple[str, ...]
    red: tuple[str, ...]
    steps: tuple[int, ...]  # per cell, in cell order: fewest steps from the start
    source: str  # a shipped map's name, or "custom"
    track: tuple[float, float, float, float] | None = None  # where the projector draws the score track
    index: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)  # to_json, computed once

    def cell(self, cell_id: str) -> Cell:
        return self.cells[self.index[cell_id]]

    def steps_of(self, cell_id: str) -> int:
        """The fewest steps from the start to the cell (laps ignored): "the rearmost cat" is the
        one with the fewest (Cats rule 7)."""
        return self.steps[self.index[cell_id]]

    def advance(self, cell_id: str, number: int) -> str:
        """One step on from `cell_id` for a cat moving `number`: at a fork an odd number goes up,
        an even one down (seed: 두 갈래 길)."""
        c = self.cell(cell_id)
        if c.up is not None and c.down is not None:
            return c.up if number % 2 == 1 else c.down
        assert c.next is not None
        return c.next

    def path(self, cell_id: str, number: int, ended: bool = False) -> list[str]:
        """The cells a cat moving `number` from `cell_id` walks through (stopping on the start when
        that took the last token)."""
        out = []
        for _ in range(number):
            cell_id = self.advance(cell_id, number)
            out.append(cell_id)
            if ended and cell_id == self.start:
                break
        return out

    def label(self, cell_id: str) -> T:
        return self.cell(cell_id).label

    def footprint(self, cell_id: str) -> str | None:
        if cell_id in self.blue:
            return "blue"
        if cell_id in self.red:
            return "red"
        return None

    def kind(self, cell_id: str) -> str:
        if cell_id == self.start:
            return "start"
        if cell_id == self.toilet:
            return "toilet"
        if cell_id == self.island:
            return "island"
        mark = self.footprint(cell_id)
        if mark:
            return mark
        return "fork" if self.cell(cell_id).fork else "plain"

    def lap_length(self) -> int:
        """Steps of the shortest lap (start back to the start)."""
        return _lap(self)

    def to_json(self) -> dict[str, Any]:
        if "json" not in self.cache:
            self.cache["json"] = _board_json(self)
        return self.cache["json"]


def _lap(board: Board) -> int:
    best = math.inf
    for c in board.cells:
        if board.start in c.successors():
            best = min(best, board.steps_of(c.id) + 1)
    return int(best)


def _board_json(board: Board) -> dict[str, Any]:
    cells = []
    for c, steps in zip(board.cells, board.steps, strict=True):
        entry: dict[str, Any] = {"id": c.id, "x": c.x, "y": c.y, "label": c.label.to_json(), "steps": steps,
                                 "kind": board.kind(c.id)}
        if c.fork:
            entry["up"], entry["down"] = c.up, c.down
        else:
            entry["next"] = c.next
        cells.append(entry)
    return {
        "name": board.name.to_json(),
        "note": board.note.to_json() if board.note else None,
        "source": board.source,
        "size": {"width": board.width, "height": board.height},
        "start": board.start,
        "toilet": board.toilet,
        "island": board.island,
        "blue": list(board.blue),
        "red": list(board.red),
        "lap": _lap(board),
        "track": dict(zip(("x", "y", "width", "height"), board.track, strict=True)) if board.track else None,
        "cells": cells,
    }


# -- loading and checking ------------------------------------------------------------------------


def _bad(code: str, ko: str, en: str, **values: Any) -> RuleError:
    return RuleError(f"cats/{code}", f"맵 오류: {ko}", f"Map error: {en}", **values)


@lru_cache(maxsize=1)
def shipped_maps() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in MAPS_DIR.glob("*.json")))


@lru_cache(maxsize=16)
def _shipped(name: str) -> Board:
    with open(MAPS_DIR / f"{name}.json", encoding="utf-8") as f:
        return _check(json.load(f), name)


def load_map(obj: Any) -> Board:
    """The board of a map option: the name of a shipped map, a map object, or a map object as a
    JSON string. Raises a RuleError ``cats/map_*`` that names the problem."""
    if isinstance(obj, str):
        text = obj.strip()
        if text.startswith("{"):
            try:
                obj = json.loads(text)
            except ValueError as err:
                raise _bad("map_bad_json", f"JSON으로 읽을 수 없습니다 ({err})", f"not valid JSON ({err})") from None
        else:
            names = shipped_maps()
            if text not in names:
                raise _bad("map_unknown_name", f"없는 맵 이름입니다: {obj!r} (가능: {', '.join(names)})",
                           f"no shipped map is called {obj!r} (known: {', '.join(names)})", map=obj)
            return _shipped(text)
    return _check(obj, "custom")


def map_allowed(value: Any, seats: int | None = None) -> bool:
    """The `map` option's check: a bad map raises its own RuleError (cats/map_*)."""
    load_map(value)
    return True


def _text(value: Any, default: T, where: str) -> T:
    if value is None:
        return default
    if isinstance(value, str) and value.strip():
        return T(value, value)
    if isinstance(value, dict) and isinstance(value.get("ko"), str) and isinstance(value.get("en"), str):
        return T(value["ko"], value["en"])
    raise _bad("map_bad_field", f"{josa(where, '은/는')} 글자 또는 {{ko, en}}이어야 합니다: {value!r}",
               f"{where} must be text or {{ko, en}}: {value!r}", field=where)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and abs(value) <= 1000


def _check(obj: Any, source: str) -> Board:
    if not isinstance(obj, dict):
        raise _bad("map_not_object", f"맵은 맵 이름이나 객체여야 합니다: {type(obj).__name__}",
                   f"a map is a shipped map's name or an object, not {type(obj).__name__}")
    unknown = sorted(k for k in obj if k not in TOP_KEYS)
    if unknown:
        raise _bad("map_unknown_key", f"알 수 없는 항목: {unknown[0]!r} (가능: {', '.join(TOP_KEYS)})",
                   f"unknown key {unknown[0]!r} (known: {', '.join(TOP_KEYS)})", key=unknown[0])
    raw_cells = obj.get("cells")
    if not isinstance(raw_cells, list) or not raw_cells:
        raise _bad("map_no_cells", "칸 목록(cells)이 없습니다", "the map lists no cells")
    if len(raw_cells) > MAX_CELLS:
        raise _bad("map_too_big", f"칸이 너무 많습니다: {len(raw_cells)}칸 (최대 {MAX_CELLS})",
                   f"too many cells: {len(raw_cells)} (at most {MAX_CELLS})", cells=len(raw_cells))
    cells: list[Cell] = []
    seen: set[str] = set()
    for i, raw in enumerate(raw_cells):
        cells.append(_cell(raw, i, seen))
    index = {c.id: i for i, c in enumerate(cells)}
    for c in cells:
        for role, target in (("next", c.next), ("up", c.up), ("down", c.down)):
            if target is not None and target not in index:
                raise _bad("map_unknown_cell", f"칸 {c.id!r}의 {josa(role, '이/가')} 없는 칸 {josa(repr(target), '을/를')} 가리킵니다",
                           f"cell {c.id!r}: {role} names no cell: {target!r}", cell=c.id, target=target)
            if target == c.id:
                raise _bad("map_self_loop", f"칸 {josa(repr(c.id), '이/가')} 자기 자신으로 이어집니다",
                           f"cell {c.id!r} leads to itself", cell=c.id)
    special = {}
    for role, code, ko in (("start", "map_no_start", "출발 칸(start)"), ("toilet", "map_no_toilet", "화장실 칸(toilet)"),
                           ("island", "map_no_island", "무인도 칸(island)")):
        value = obj.get(role)
        if not isinstance(value, str) or not value:
            raise _bad(code, f"{josa(ko, '이/가')} 정해지지 않았습니다", f"the map names no {role} cell", role=role)
        if value not in index:
            raise _bad("map_unknown_cell", f"{josa(ko, '이/가')} 없는 칸 {value!r}입니다", f"the {role} names no cell: {value!r}",
                       role=role, target=value)
        special[role] = value
    if len(set(special.values())) < 3:
        raise _bad("map_special_clash", "출발, 화장실, 무인도는 서로 다른 칸이어야 합니다",
                   "the start, the toilet and the island must be three different cells",
                   start=special["start"], toilet=special["toilet"], island=special["island"])
    marks = {}
    for colour, ko in (("blue", "파란 발자국"), ("red", "붉은 발자국")):
        value = obj.get(colour, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise _bad("map_bad_field", f"{josa(f'{colour}({ko})', '은/는')} 칸 id의 목록이어야 합니다: {value!r}",
                       f"{colour} must be a list of cell ids: {value!r}", field=colour)
        for v in value:
            if v not in index:
                raise _bad("map_unknown_cell", f"{josa(ko, '이/가')} 없는 칸 {v!r}에 있습니다", f"a {colour} footprint names no cell: {v!r}",
                           role=colour, target=v)
            if v == special["start"]:
                raise _bad("map_footprint_on_start", f"출발 칸 {v!r}에는 발자국을 둘 수 없습니다 ({ko})",
                           f"a footprint cannot be on the start {v!r} ({colour})", cell=v)
            if v in (special["toilet"], special["island"]):
                raise _bad("map_footprint_clash", f"화장실이나 무인도 칸 {v!r}에는 발자국을 둘 수 없습니다 ({ko})",
                           f"a footprint cannot be on the toilet or the island: {v!r} ({colour})", cell=v)
        marks[colour] = tuple(dict.fromkeys(value))
    both = sorted(set(marks["blue"]) & set(marks["red"]))
    if both:
        raise _bad("map_footprint_clash", f"칸 {both[0]!r}에 파란 발자국과 붉은 발자국이 함께 있습니다",
                   f"cell {both[0]!r} has both a blue and a red footprint", cell=both[0])
    start = special["start"]
    walked = _distances(cells, index, start)
    for c in cells:
        if c.id not in walked and c.id != special["island"]:
            raise _bad("map_unreachable", f"출발에서 걸어서 갈 수 없는 칸입니다: {c.id!r}",
                       f"cell {c.id!r} cannot be reached from the start", cell=c.id)
    home = _reaching(cells, index, start)
    for c in cells:
        if not any(s in home for s in c.successors()):
            raise _bad("map_no_way_back", f"칸 {c.id!r}에서는 출발로 돌아올 수 없습니다 (한 바퀴를 돌 수 없음)",
                       f"from cell {c.id!r} no way leads back to the start (no lap can be completed)", cell=c.id)
    steps = []
    for c in cells:
        if c.id in walked:
            steps.append(walked[c.id])
        else:  # an island off the loop stands just before the cell it leads to
            steps.append(max(0, min(walked.get(s, 1) for s in c.successors()) - 1))
    size = obj.get("size")
    width = max(c.x for c in cells) + 1
    height = max(c.y for c in cells) + 1
    if size is not None:
        if not isinstance(size, dict) or not _number(size.get("width")) or not _number(size.get("height")) \
                or size["width"] <= 0 or size["height"] <= 0:
            raise _bad("map_bad_field", f"size는 {{width, height}} 양수여야 합니다: {size!r}",
                       f"size must be {{width, height}} with positive numbers: {size!r}", field="size")
        width, height = max(width, size["width"]), max(height, size["height"])
    track = obj.get("track")
    if track is not None:
        keys = ("x", "y", "width", "height")
        if not isinstance(track, dict) or set(track) != set(keys) or not all(_number(track[k]) and track[k] >= 0 for k in keys):
            raise _bad("map_bad_field", f"track(점수 트랙 자리)는 {{x, y, width, height}} 0 이상의 수여야 합니다: {track!r}",
                       f"track (where the score track is drawn) must be {{x, y, width, height}} numbers from 0: {track!r}",
                       field="track")
        track = tuple(float(track[k]) for k in keys)
    return Board(
        name=_text(obj.get("name"), T("사용자 맵", "Custom map"), "name"),
        note=_text(obj.get("note"), T("", ""), "note") if obj.get("note") is not None else None,
        width=width,
        height=height,
        cells=tuple(cells),
        start=start,
        toilet=special["toilet"],
        island=special["island"],
        blue=marks["blue"],
        red=marks["red"],
        steps=tuple(steps),
        source=source,
        track=track,
        index=index,
    )


def _cell(raw: Any, i: int, seen: set[str]) -> Cell:
    if not isinstance(raw, dict):
        raise _bad("map_bad_cell", f"{i + 1}번째 칸이 객체가 아닙니다: {raw!r}", f"cell #{i + 1} is not an object: {raw!r}",
                   position=i + 1)
    cid = raw.get("id")
    if not isinstance(cid, str) or not cid.strip() or len(cid) > 40:
        raise _bad("map_bad_cell", f"{i + 1}번째 칸의 id가 잘못되었습니다 (1-40자 글자): {cid!r}",
                   f"cell #{i + 1} has a bad id (1-40 characters): {cid!r}", position=i + 1)
    unknown = sorted(k for k in raw if k not in CELL_KEYS)
    if unknown:
        raise _bad("map_unknown_key", f"칸 {cid!r}의 알 수 없는 항목: {unknown[0]!r} (가능: {', '.join(CELL_KEYS)})",
                   f"cell {cid!r}: unknown key {unknown[0]!r} (known: {', '.join(CELL_KEYS)})", cell=cid, key=unknown[0])
    if cid in seen:
        raise _bad("map_duplicate_cell", f"칸 id가 두 번 나옵니다: {cid!r}", f"cell id {cid!r} appears twice", cell=cid)
    seen.add(cid)
    if not _number(raw.get("x")) or not _number(raw.get("y")) or raw["x"] < 0 or raw["y"] < 0:
        raise _bad("map_bad_position", f"칸 {cid!r}의 위치 x, y는 0 이상의 수여야 합니다: x={raw.get('x')!r}, y={raw.get('y')!r}",
                   f"cell {cid!r}: x and y must be numbers from 0: x={raw.get('x')!r}, y={raw.get('y')!r}", cell=cid)
    links = {k: raw.get(k) for k in ("next", "up", "down")}
    for k, v in links.items():
        if v is not None and (not isinstance(v, str) or not v):
            raise _bad("map_bad_cell", f"칸 {cid!r}의 {josa(k, '은/는')} 칸 id여야 합니다: {v!r}", f"cell {cid!r}: {k} must be a cell id: {v!r}",
                       cell=cid)
    fork = links["up"] is not None or links["down"] is not None
    if fork:
        if links["up"] is None or links["down"] is None or links["up"] == links["down"]:
            raise _bad("map_fork_branches",
                       f"갈림길 {cid!r}에는 서로 다른 두 갈래 up(홀수)과 down(짝수)이 있어야 합니다: up={links['up']!r}, down={links['down']!r}",
                       f"fork {cid!r} needs two different branches, up (odd) and down (even): up={links['up']!r}, "
                       f"down={links['down']!r}", cell=cid)
        if links["next"] is not None:
            raise _bad("map_fork_branches", f"갈림길 {cid!r}에는 next 대신 up과 down만 씁니다",
                       f"fork {cid!r} has up and down, so it cannot also have next", cell=cid)
    elif links["next"] is None:
        raise _bad("map_dead_end", f"칸 {cid!r}에서 이어지는 칸(next)이 없습니다", f"cell {cid!r} leads nowhere (no next)",
                   cell=cid)
    label = _text(raw.get("label"), T(cid, cid), f"cell {cid!r} label")
    return Cell(cid, raw["x"], raw["y"], label, links["next"], links["up"], links["down"])


def _distances(cells: list[Cell], index: dict[str, int], start: str) -> dict[str, int]:
    out = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for nxt in cells[index[here]].successors():
            if nxt not in out:
                out[nxt] = out[here] + 1
                queue.append(nxt)
    return out


def _reaching(cells: list[Cell], index: dict[str, int], start: str) -> set[str]:
    """The cells from which the start can be reached (the start included)."""
    back: dict[str, list[str]] = {c.id: [] for c in cells}
    for c in cells:
        for s in c.successors():
            back[s].append(c.id)
    out = {start}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for prev in back[here]:
            if prev not in out:
                out.add(prev)
                queue.append(prev)
    return out
