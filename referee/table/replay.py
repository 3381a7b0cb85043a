"""A table's story as its audiences saw it, from its log: the frames of a replay (issue 29).

The frames are the views an audience (the projector's public one, or one seat's) was shown,
in order, built again from the log alone:

- the log as corrected: a voided action never shows, not even for the moment it stood live;
  its void shows as the public "정정" notice where it was made (`Frame.correction`);
- the reveal hold as it was: with the release history (the show's hold switched on or off,
  and each release, at the table version it happened; ``Release``), a held reveal's frame
  comes where the dealer released it, and in between the frames are what the projector showed
  meanwhile (``Table.held``: only what needs nothing of the reveal);
- one frame per action that changed the audience's view, and one more at each release that
  did.

So a replay never shows anything that was not public at that moment. Frames are pure data: the
projector draws them with its own pictures, an export writes them to disk.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from referee.kernel import Actor, Audience, Event, T, place

from .runtime import VOIDED, Folded, Table, audience_view, fold, what


class Release(NamedTuple):
    """One change of what the projector may show of a table: at table version `at`, the hold
    was `hold` and everything up to `released` was shown; `t` when (None in older records: the
    frame then takes the time of the action after it)."""

    at: int
    released: int
    hold: bool
    t: float | None = None


@dataclass(frozen=True)
class Frame:
    table: str
    at: int  # the table version the frame shows the log up to
    t: float  # when that happened (the log's clock)
    view: dict[str, Any]  # the audience's view, as audience_view makes it
    what: tuple[dict[str, str], ...] = ()  # the action (or the release) in the audience's words
    reveal: bool = False  # the frame shows a reveal (a box opening, an auction's result ...)
    correction: dict[str, str] | None = None  # a void's notice (public words), at the void
    release: bool = False  # the frame is a held reveal, shown where the dealer released it
    events: tuple[str, ...] = field(default=())  # the event types the frame adds
    # A recap's caption: the moment as a title ("메인 매치: 호러 레이스2 · 9라운드", "데스 매치: 콰트로:
    # 선수8 승리"), never a log sentence (highlights); None in a plain replay.
    title: dict[str, str] | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "at": self.at, "t": self.t, "view": self.view, "what": list(self.what),
                "reveal": self.reveal, "correction": self.correction, "release": self.release,
                "events": list(self.events), "title": self.title}


def _state_at(releases: Sequence[Release], version: int) -> Release:
    """The hold in force when the log stood at `version`, before what staff did then. The
    history begins with the table's creation (version 0: Service.releases); an empty one means
    the hold was never on."""
    found = Release(0, 0, False)
    for release in releases:
        if release.at < version:
            found = release
    return found


def _reveal_by(group: Sequence[dict[str, Any]], entry: dict[str, Any], reveals: frozenset[str]) -> bool:
    """Whether a reveal of `entry`'s action comes at or before it (what a held audience does not
    see of an action: Table.held keeps an action's entries up to its first reveal)."""
    for other in group:
        if other["action"] == entry["action"] and other["event"]["type"] in reveals:
            return True
        if other is entry:
            return False
    return False


def frames(table: Table, audience: Audience | None = None, releases: Sequence[Release] = (),
           entries: list[dict[str, Any]] | None = None) -> list[Frame]:
    """The table's frames for `audience` (the public by default). `releases`: the release
    history from the table's creation on (empty: the hold was never on). The hold applies to the
    public, and to a seat only where the history says so (the show's players_wait: pass that
    seat's history, or none)."""
    audience = audience or Audience.public()
    game, header = table.game, table.header
    entries = table.store.entries(table.id) if entries is None else entries
    voided = {e["event"]["data"]["action"] for e in entries if e["event"]["type"] == VOIDED}
    # The corrected log: the voided actions and the voids themselves out; each void remembered
    # with what it undid (the public notice at its place).
    kept: list[dict[str, Any]] = []
    notices: dict[int, dict[str, Any]] = {}  # index in kept -> the notice shown after it
    firsts: dict[int, dict[str, Any]] = {}
    for entry in entries:
        firsts.setdefault(entry["action"], entry)
        if entry["event"]["type"] == VOIDED:
            undone = firsts.get(entry["event"]["data"]["action"])
            if undone is not None and not Event.from_json(undone["event"]).hidden_from(audience):
                words = what(game, Event.from_json(undone["event"]).visible_to(audience), header["seats"])
                notices[len(kept)] = {"what": words.to_json(), "t": entry["t"], "v": entry["v"], "undone": undone["v"]}
            continue
        if entry["action"] not in voided:
            kept.append(entry)
    out: list[Frame] = []
    last: dict[str, Any] | None = None
    shown = set()  # the reveal entries (their v) already on a frame

    def words_of(group: Sequence[dict[str, Any]]) -> tuple[tuple[dict[str, str], ...], tuple[str, ...]]:
        """A frame's caption and events: the entries of `group` this audience may see, a
        reveal's words first (the replay's caption may run out of room, never before them)."""
        visible = [Event.from_json(e["event"]) for e in group]
        visible = sorted((e for e in visible if not e.hidden_from(audience)), key=lambda e: e.type not in game.reveals)
        return (tuple(what(game, e.visible_to(audience), header["seats"]).to_json() for e in visible),
                tuple(e.type for e in visible))

    def emit(prefix: int, at: int, t: float, group: Sequence[dict[str, Any]] = (), correction: dict | None = None,
             release: Release | None = None) -> None:
        nonlocal last
        # A release's frame shows what that very release let through (several may come at one
        # version: R pressed reveal by reveal); an action's, the hold in force before it.
        state = release if release is not None else _state_at(releases, at)
        cut = None
        if state.hold and game.reveals:
            cut = next((i for i, e in enumerate(kept[:prefix]) if e["v"] > state.released
                        and e["event"]["type"] in game.reveals), None)
        if cut is not None:
            folded = table.held(kept[:prefix], cut)
            # The caption says only what the frame shows: not the held reveal, nor what waits with it.
            group = [e for e in group if e["v"] < kept[cut]["v"] or (
                e["action"] in folded.live_actions and not _reveal_by(group, e, game.reveals))]
        else:
            folded = fold(game, header, kept[:prefix])
        if correction is not None:
            # The void of what the hall had not been shown (a held reveal, or what waited with it):
            # no notice. What it was shown ends at the first reveal it was waiting for then.
            then = _state_at(releases, correction["v"])
            waiting = [e["v"] for e in entries if then.released < e["v"] < correction["v"]
                       and e["event"]["type"] in game.reveals] if then.hold else []
            if waiting and correction["undone"] >= min(waiting):
                correction = None
        view = audience_view(game, header, folded, audience)
        view["correction"] = None  # the replay's own notice comes at the void's place (Frame.correction)
        view["clock"] = None  # a show clock's deadline has long passed: a replay would show it at 0:00
        comparable = {k: v for k, v in view.items() if k != "version"}
        if comparable == last and correction is None:
            return
        last = comparable
        words, events = words_of(group)
        newly = [e for e in kept[:prefix if cut is None else min(prefix, cut)]
                 if e["event"]["type"] in game.reveals and e["v"] not in shown]
        shown.update(e["v"] for e in newly)
        if release is not None and newly:
            # A held reveal shown where it was released: the frame says and counts what it
            # reveals (a recap's highlight scores it by these events, as it would live).
            words, events = words_of([e for e in newly])
        notice = None if correction is None else {"ko": correction["what"]["ko"], "en": correction["what"]["en"]}
        if notice is not None and not words:  # a correction's frame is captioned by its notice's words
            words = ({"ko": f"정정: {notice['ko']}", "en": f"Correction: {notice['en']}"},)
        # A program's own moments (a result confirmed, a tie broken, an opponent named) are its
        # reveals: "다음 공개" stops at them too.
        moment = bool(game.program and set(events) & PROGRAM_MOMENTS)
        out.append(Frame(table.id, at, t, view, words, bool(newly) or moment, notice, release is not None and bool(newly), events))

    # Action by action, in the corrected log.
    i = 0
    boundaries: list[int] = []
    while i < len(kept):
        j = i
        while j < len(kept) and kept[j]["action"] == kept[i]["action"]:
            j += 1
        boundaries.append(j)
        i = j
    pending = sorted((r for r in releases if r.at > 0), key=lambda r: r.at)  # at 0 nothing is shown yet
    start = 0
    for end in boundaries:
        group = kept[start:end]
        # Releases made before this action came in: their frames first.
        while pending and pending[0].at < group[0]["v"]:
            release = pending.pop(0)
            emit(start, release.at, release.t or group[0]["t"], release=release)
        emit(end, group[-1]["v"], group[-1]["t"], group)
        if end in notices:
            emit(end, group[-1]["v"], notices[end]["t"], correction=notices[end])
        start = end
    for release in pending:
        emit(len(kept), release.at, release.t or (kept[-1]["t"] if kept else 0.0), release=release)
    return out


@dataclass(frozen=True)
class Line:
    """One line of a seat's own story of a match (``story``)."""

    kind: str  # "move" (the seat's own, or the dealer's for it), "told" (a secret given to the seat),
    #            "reveal" (a public outcome) or "correction" (a void, where the seat saw what it undid)
    round: int | None  # the game's round then (None: the game counts no rounds)
    t: float
    own: dict[str, str] | None = None  # in the seat's words, its secret parts included
    public: dict[str, str] | None = None  # the public's words of the same; None: the public saw nothing
    behalf: bool = False  # the dealer entered the move for the seat

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "round": self.round, "t": self.t, "own": self.own, "public": self.public,
                "behalf": self.behalf}


def story(table: Table, seat: int, entries: list[dict[str, Any]] | None = None) -> list[Line]:
    """A seat's own story of a match (the phone's "내 경기 다시 보기" once the show is over): each
    action of the seat (or the dealer's on its behalf) in the words the seat saw it, secret parts
    included, beside the public's words of it; the secrets it was told (its hand, an appraisal's
    answer, a transfer it took part in); the reveals between them, in public words. A voided
    action never shows; its void is a correction in public words where the seat saw what it undid.

    Every word comes from an entry as the seat may see it (Event.visible_to, as audience_log): an
    entry hidden from the seat is skipped, so no other seat's secret can reach its story."""
    audience, public = Audience.of_seat(seat), Audience.public()
    game, header = table.game, table.header
    names = header["seats"]
    entries = table.store.entries(table.id) if entries is None else entries
    voided = {e["event"]["data"]["action"] for e in entries if e["event"]["type"] == VOIDED}

    def words(event: Event, who: Audience) -> dict[str, str] | None:
        return None if event.hidden_from(who) else what(game, event.visible_to(who), names).to_json()

    def round_of(folded: Folded) -> int | None:
        counted = game.view(folded.state, audience).get("round") if folded.started else None
        return counted if isinstance(counted, int) and not isinstance(counted, bool) else None

    groups: list[list[dict[str, Any]]] = []
    for entry in entries:
        if groups and groups[-1][0]["action"] == entry["action"]:
            groups[-1].append(entry)
        else:
            groups.append([entry])
    out: list[Line] = []
    firsts: dict[int, Event] = {}  # action -> its first event (what a void undid)
    folded = fold(game, header, [])
    now = None  # the round as the seat's view counts it
    for group in groups:
        first = group[0]
        if first["event"]["type"] == VOIDED:
            undone = [firsts[e["event"]["data"]["action"]] for e in group if e["event"]["data"]["action"] in firsts]
            seen = [e for e in undone if not e.hidden_from(audience)]
            if seen:  # one notice per void command, naming the first voided action the seat saw
                out.append(Line("correction", now, first["t"], public=words(seen[0], public)))
            continue
        firsts[first["action"]] = Event.from_json(first["event"])
        if first["action"] in voided:
            continue
        folded = fold(game, header, group, folded)  # the kept log holds no void: folded on as it goes
        after = round_of(folded)
        when = now if now else after  # an action that opens round 1 (the deal at the start) is of round 1
        now = after
        actor = Actor.parse(first["actor"])
        ours = actor.seat == seat and actor.kind in ("seat", "dealer")
        move: list[tuple[dict[str, str] | None, dict[str, str] | None]] = []
        lines: list[Line] = []
        for n, entry in enumerate(group):
            event = Event.from_json(entry["event"])
            if event.hidden_from(audience):
                continue
            told = bool(event.private) and seat in event.to
            if ours and n == 0:
                move.append((words(event, audience), words(event, public)))
            elif event.type in game.reveals and not event.hidden_from(public):
                lines.append(Line("reveal", when, entry["t"], public=words(event, public)))
            elif ours and (told or event.data.get("seat") == seat):  # what its move brought it (coins drawn)
                move.append((words(event, audience), words(event, public)))
            elif told:
                lines.append(Line("told", when, entry["t"], own=words(event, audience), public=words(event, public)))
        if move:
            out.append(Line("move", when, first["t"], own=_joined([m[0] for m in move]),
                            public=_joined([m[1] for m in move]), behalf=actor.kind == "dealer"))
        out.extend(lines)
    return out


def _joined(parts: list[dict[str, str] | None]) -> dict[str, str] | None:
    shown = [p for p in parts if p is not None]
    return {lang: " · ".join(p[lang] for p in shown) for lang in ("ko", "en")} if shown else None


def merge(stories: Sequence[Sequence[Frame]]) -> list[Frame]:
    """Several tables' frames as one evening, in the order they happened (a program and its
    matches): by time, each table's own order kept."""
    tagged = [(f.t, n, i, f) for n, story in enumerate(stories) for i, f in enumerate(story)]
    return [f for _, _, _, f in sorted(tagged, key=lambda x: (x[0], x[1], x[2]))]


# The program's own moments a recap keeps (referee/programs: a stage's result, a named opponent,
# a tie broken for the candidate).
PROGRAM_MOMENTS = frozenset({"ResultConfirmed", "OpponentNamed", "TieBroken"})


def highlights(story: Sequence[Frame], games: dict[str, Any]) -> list[Frame]:
    """The evening's moments for a recap: each match's own highlights (its game's
    ``highlight``: a score for a frame's events, None for none; the best few of each match
    besides its ending), each match's result (the frame that brought it), the program's stage
    results, named opponents and ties, and the final standings (the program's result) last."""
    by_table: dict[str, list[int]] = {}
    for i, frame in enumerate(story):
        by_table.setdefault(frame.table, []).append(i)
    keep: set[int] = set()
    for indexes in by_table.values():
        game = games[story[indexes[0]].view["game"]]
        end = _ending(story, indexes)
        keep.add(end)
        if game.program:
            keep.update(i for i in indexes if set(story[i].events) & PROGRAM_MOMENTS)
            continue
        if game.highlight is None:
            continue
        # The best few besides the ending, which is kept anyway (often the game's best moment too).
        scored = [(game.highlight(story[i].view, story[i].events), i) for i in indexes if i != end]
        best = sorted((s for s in scored if s[0] is not None), key=lambda s: -s[0])[:HIGHLIGHTS_PER_MATCH]
        keep.update(i for _, i in best)
    chosen = [story[i] for i in sorted(keep)]
    # The final standings close the recap, after the last match's own closing frame.
    final = [f for f in chosen if f.view["state"].get("program") and f.view.get("result") is not None]
    return [f for f in chosen if f not in final] + final[-1:]


def recap(story: Sequence[Frame], games: dict[str, Any]) -> list[Frame]:
    """The evening's recap as the projector plays it: its highlights, each captioned as a title."""
    by_table: dict[str, list[int]] = {}
    for i, frame in enumerate(story):
        by_table.setdefault(frame.table, []).append(i)
    ends = {id(story[_ending(story, indexes)]) for indexes in by_table.values()}
    return [replace(f, title=_title(f, id(f) in ends).to_json()) for f in highlights(story, games)]


def _title(frame: Frame, ending: bool) -> T:
    """A recap frame's caption as a producer writes it: the match and what the moment is (who won
    it; which round), or a program's own moment in its own words; the evening's result is its
    final standings."""
    view = frame.view
    name = T(**(view.get("stage") or {}).get("title") or view["title"])
    result = view.get("result")
    if view["state"].get("program"):
        if result is not None:
            return T("최종 순위", "Final standings")
        said = [w for w, e in zip(frame.what, frame.events, strict=False) if e in PROGRAM_MOMENTS] or list(frame.what)
        return T(**said[0]) if said else name
    if ending and result is not None:
        first = [s["seat"] for s in result["standings"] if s["rank"] == 1]
        who = " · ".join(view["seats"][s] for s in first)
        duel = len(view["seats"]) == 2
        if len(first) > 1 and duel:
            return T(f"{name.ko}: 무승부", f"{name.en}: a draw")
        if duel:
            return T(f"{name.ko}: {who} 승리", f"{name.en}: {who} wins")
        first_place = place(1, len(first) > 1)  # said as every screen says it
        return T(f"{name.ko}: {first_place.ko} {who}", f"{name.en}: {first_place.en}, {who}")
    rounds = view["state"].get("round")
    if isinstance(rounds, int) and not isinstance(rounds, bool):
        return T(f"{name.ko} · {rounds}라운드", f"{name.en} · round {rounds}")
    # No rounds to count: what the moment reveals, by the head of its words ("첫 번째 카드 공개").
    if frame.what:
        head = {lang: frame.what[0][lang].split(":")[0].strip() for lang in ("ko", "en")}
        if all(0 < len(h) <= 30 for h in head.values()):
            return T(f"{name.ko} · {head['ko']}", f"{name.en} · {head['en']}")
    return name


def _ending(story: Sequence[Frame], indexes: list[int]) -> int:
    """How a table ended: the frame that brought its result (the sale, the boxes opening, in its
    own words), not a later one that only closed the table (the program's confirmation) or ran a
    clock and looks the same; a table with no result yet: its last frame."""
    end = indexes[-1]
    for i in reversed(indexes[:-1]):
        if story[i].view.get("result") is None or story[end].view.get("result") is None:
            break
        end = i
    return end


HIGHLIGHTS_PER_MATCH = 3
