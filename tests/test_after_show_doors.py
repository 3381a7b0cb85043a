"""Secrets after the show (issue 32): the replay, the keepsake export and the player's own story
open no door that the live show kept shut.

- A table made while the reveal hold is on starts held: its replay, its recap and its export show
  each reveal where the dealer released it (at the release's time, in the evening's order), and
  an unreleased one never (every stage table of a program is made during the hold).
- A player's story waits until the show has ended and every reveal of their tables is released.
- A seat's story holds only what that seat or the hall was shown (Quattro's rule-4 branch is the
  dealer's).
- Void and finish reasons refuse invisible and control characters; `export-show` checks its
  folder before it removes anything; `story` and `sync` on /seat are rate limited.
"""

from __future__ import annotations

import json
import random
import uuid
from pathlib import Path
from typing import Any

import pytest

from referee.kernel import RuleError
from referee.server.export import export_show
from referee.server.replaying import Replays

from .conftest import ServiceOnRedis
from .evening import SURVIVAL, Evening
from .test_programs_live import answer


class InProcess:
    """The staff API of a Service on the embedded Redis, as tests/live.py's LiveServer offers it
    (ok, api, snapshot), so tests/evening.py drives a whole program without a server process."""

    def __init__(self, svc: ServiceOnRedis) -> None:
        self.svc = svc
        self.replays = Replays(svc.service, lambda *args, **kwargs: None)

    def api(self, command: str, **payload: Any) -> dict[str, Any]:
        try:
            out = self.svc.service.command(self.svc.staff, command, payload)
        except RuleError as err:
            return {"ok": False, "error": err.to_json()}
        return {"ok": True, **json.loads(json.dumps(out, default=str))}

    def ok(self, command: str, **payload: Any) -> dict[str, Any]:
        out = self.api(command, **payload)
        assert out["ok"], out
        return out

    def snapshot(self, show: str) -> dict[str, Any]:
        return json.loads(json.dumps(self.svc.service.dealer_snapshot(show), default=str))

    def public(self, show: str, table: str) -> dict[str, Any]:
        return self.svc.service.public_view(show, table)

    def frames(self, show: str, tables: list[str], recap: bool = False) -> list[Any]:
        return self.replays.build(show, tables, recap)


@pytest.fixture
def house(service_on_redis: ServiceOnRedis) -> InProcess:
    return InProcess(service_on_redis)


def strip(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("version", "correction", "clock")}


def coin(house: InProcess, seat: int, move: dict[str, Any], table: str) -> None:
    house.ok("move", show="s", table=table, seat=seat, move=move, sid=uuid.uuid4().hex)


def opened(view: dict[str, Any]) -> list[Any]:
    return view["state"]["opened"]


def exported(out: Path) -> dict[str, Any]:
    text = (out / "data" / "show.js").read_text(encoding="utf-8")
    return json.loads(text.split("=", 1)[1].strip().rstrip(";"))


def test_a_table_made_during_the_hold_replays_and_exports_its_reveal_only_where_it_was_released(house, tmp_path):
    house.ok("settings", show="s", name="reveal_hold", value="on")
    table = house.ok("create_table", show="s", game="tricky_coin", players=["가", "나"])["table"]
    house.ok("start", show="s", table=table)
    house.ok("set_current", show="s", table=table)
    coin(house, 0, {"type": "put_coin", "coin": 5}, table)
    coin(house, 1, {"type": "put_coin", "coin": 5}, table)
    for seat in (0, 1):
        coin(house, seat, {"type": "choose_token", "token": "STOP"}, table)
    assert opened(house.public("s", table)) == []  # held on the projector
    # The replay and the export, before any release: never the boxes.
    assert all(opened(f.view) == [] for f in house.frames("s", [table]))
    export_show(house.svc.service, "s", tmp_path / "before")
    story = next(t for t in exported(tmp_path / "before")["tables"] if t["id"] == table)
    assert story["frames"] and all(opened(f["view"]) == [] for f in story["frames"])
    # Round 2 goes on during the hold; then the dealer releases round 1.
    coin(house, 0, {"type": "put_coin", "coin": 1}, table)
    house.ok("release", show="s", table=table)
    coin(house, 1, {"type": "put_coin", "coin": 1}, table)
    told = house.frames("s", [table])
    first = next(i for i, f in enumerate(told) if opened(f.view))
    frame = told[first]
    # Where it was released: after 나's STOP (before the release), with 가's round-2 coin that
    # waited with it; 나's round-2 coin (after the release) comes after it.
    assert frame.release and frame.reveal and frame.view["state"]["round"] == 2
    assert any("1라운드 상자 공개" in w["ko"] for w in frame.what)
    assert [w["ko"] for w in told[first + 1].what] == ["2번 나: 상자에 코인 1개를 넣음"]
    assert told[first - 1].t <= frame.t <= told[first + 1].t
    # No caption before it says what the boxes held.
    assert not any("공개" in w["ko"] for f in told[:first] for w in f.what), [f.what for f in told[:first]]
    export_show(house.svc.service, "s", tmp_path / "after")
    story = next(t for t in exported(tmp_path / "after")["tables"] if t["id"] == table)
    shown = [i for i, f in enumerate(story["frames"]) if opened(f["view"])]
    assert shown and story["frames"][shown[0]]["release"]


def test_switching_the_hold_on_after_the_table_was_made_still_holds(house):
    table = house.svc.table
    house.ok("settings", show="s", name="reveal_hold", value="on")
    coin(house, 0, {"type": "put_coin", "coin": 5}, table)
    coin(house, 1, {"type": "put_coin", "coin": 10}, table)
    for seat in (0, 1):
        coin(house, seat, {"type": "choose_token", "token": "STOP"}, table)
    assert all(opened(f.view) == [] for f in house.frames("s", [table]))


def test_a_programs_stage_tables_made_during_the_hold_never_replay_or_export_a_held_reveal(house, tmp_path):
    """Tricky Survival with the hold on from the start: Gallery's stage table is made during the
    hold. The evening's replay, its recap and the export show nothing of Gallery that the
    projector was not shown, until the dealer releases it."""
    evening = Evening(house, "tricky_survival", SURVIVAL, seed=5, show="eve")
    house.ok("settings", show="eve", name="reveal_hold", value="on")
    gallery = evening.open("gallery")
    house.ok("start", show="eve", table=gallery)
    house.ok("set_current", show="eve", table=gallery)
    seen: list[dict[str, Any]] = [strip(house.public("eve", gallery))]
    rnd = random.Random(5)
    held = None
    for _ in range(400):
        view = evening.view(gallery)
        if view["result"] is not None:
            break
        decision = rnd.choice(view["decisions"])
        evening.move(gallery, answer(decision, rnd), decision["seat"])
        seen.append(strip(house.public("eve", gallery)))
        held = house.snapshot("eve")
        if next(t for t in held["tables"] if t["view"]["table"] == gallery)["held"] and len(seen) > 40:
            break
    waiting = next(t for t in house.snapshot("eve")["tables"] if t["view"]["table"] == gallery)["held"]
    assert waiting is not None, "the random play reached no reveal"
    tables = [evening.program, gallery]
    for recap in (False, True):
        for frame in house.frames("eve", tables, recap):
            if frame.table == gallery:
                assert strip(frame.view) in seen, (recap, frame.what)
    export_show(house.svc.service, "eve", tmp_path / "eve")
    story = next(t for t in exported(tmp_path / "eve")["tables"] if t["id"] == gallery)
    assert story["frames"] and all(strip(f["view"]) in seen for f in story["frames"])
    # Released: now the reveal replays, at the release.
    house.ok("release", show="eve", table=gallery)
    released = [f for f in house.frames("eve", tables) if f.table == gallery and f.release]
    assert released and released[0].reveal


def test_a_void_during_the_hold_is_noticed_in_the_replay_only_where_the_hall_saw_what_it_undid(house):
    house.ok("settings", show="s", name="reveal_hold", value="on")
    table = house.svc.table
    coin(house, 0, {"type": "put_coin", "coin": 5}, table)
    coin(house, 1, {"type": "put_coin", "coin": 10}, table)
    coin(house, 0, {"type": "choose_token", "token": "STOP"}, table)
    coin(house, 1, {"type": "choose_token", "token": "STOP"}, table)  # the reveal, held
    coin(house, 0, {"type": "put_coin", "coin": 1}, table)  # round 2: waits with it
    house.ok("void", show="s", table=table, reason="2라운드 잘못 입력")
    house.ok("void", show="s", table=table, reason="STOP이 아니라 GO였음")
    told = house.frames("s", [table])
    notices = [f.correction for f in told if f.correction]
    # The round-2 coin was never on the projector: no notice of it. 나's STOP was (as "제출"),
    # its reveal was not: the notice names the submission, never the boxes.
    assert notices == [{"ko": "2번 나: GO/STOP 토큰 제출", "en": notices[0]["en"]}], notices
    assert not any(opened(f.view) for f in told)
    assert not any("공개" in w["ko"] for f in told for w in f.what)


def play_out(house: InProcess, show: str, table: str, rnd: random.Random, until: Any = None) -> None:
    """Random legal moves, each entered by the dealer for its seat, until the table has a result."""
    for _ in range(2000):
        view = next(t["view"] for t in house.snapshot(show)["tables"] if t["view"]["table"] == table)
        if view["result"] is not None or not view["decisions"] or (until and until(view)):
            return
        decision = rnd.choice(view["decisions"])
        house.ok("move", show=show, table=table, seat=decision["seat"], move=answer(decision, rnd),
                 sid=uuid.uuid4().hex)
    raise AssertionError("the table did not end")


def story_of(house: InProcess, player: int, table: str) -> dict[str, Any]:
    return house.svc.service.seat_story(house.svc.link(player), table)


def test_the_story_waits_for_a_held_final_reveal_and_opens_once_it_is_released(house):
    for name, value in (("reveal_hold", "on"), ("players_wait", "on")):
        house.ok("settings", show="s", name=name, value=value)
    table = house.svc.table
    play_out(house, "s", table, random.Random(7))
    service = house.svc.service
    # The last reveal is held: the phone's view has no result, its list says the match goes on,
    # it offers no story, and the story is refused.
    snapshot = service.seat_snapshot(house.svc.link(0))
    assert snapshot["table"]["result"] is None
    assert [t["status"] for t in snapshot["tables"]] == ["live"] and snapshot["stories"] is False
    with pytest.raises(RuleError) as refused:
        story_of(house, 0, table)
    assert refused.value.code == "story/not_yet" and "공개" in refused.value.ko
    house.ok("release", show="s", table=table, all=True)
    snapshot = service.seat_snapshot(house.svc.link(0))
    assert snapshot["table"]["result"] is not None and snapshot["stories"] is True
    assert story_of(house, 0, table)["lines"]


def test_a_table_closed_while_a_reveal_is_held_opens_no_story_until_it_is_released(house):
    house.ok("settings", show="s", name="reveal_hold", value="on")
    table = house.svc.table
    for seat, coin_ in ((0, 5), (1, 5)):
        coin(house, seat, {"type": "put_coin", "coin": coin_}, table)
    for seat in (0, 1):
        coin(house, seat, {"type": "choose_token", "token": "STOP"}, table)
    house.ok("finish", show="s", table=table, reason="시간 초과")
    with pytest.raises(RuleError) as refused:
        story_of(house, 1, table)
    assert refused.value.code == "story/not_yet"
    assert house.svc.service.seat_snapshot(house.svc.link(1))["stories"] is False
    house.ok("release", show="s", table=table)
    assert story_of(house, 1, table)["lines"]


# -- a seat's story holds only what that seat's screen or the hall's showed ----------------------

# Secret parts a seat is told that its view shows in another form (the same fact, other words):
# Gallery's sticker as its submissions' `genuine`; a secret record's kind and a transfer's amount
# as the seat's own appraisals and chips (the seat handed or took the chips at the table).
SAID_OTHERWISE = {("tricky_gallery", "WorkSubmitted", "sticker"), ("tricky_gallery", "SecretRecorded", "what"),
                  ("tricky_gallery", "SecretRecorded", "amount")}


def leaves(value: Any) -> set[str]:
    """Every scalar in `value` (booleans and None left out: they say nothing by themselves)."""
    if isinstance(value, dict):
        return {leaf for v in value.values() for leaf in leaves(v)}
    if isinstance(value, (list, tuple)):
        return {leaf for v in value for leaf in leaves(v)}
    if isinstance(value, bool) or value is None:
        return set()
    return {json.dumps(value, ensure_ascii=False)}


@pytest.mark.parametrize("game", sorted(g for g, x in __import__("referee.kernel", fromlist=["registry"])
                                        .registry().items() if not x.program))
def test_every_secret_a_seats_story_tells_it_was_on_that_seats_own_screen(game):
    """A seat's story is made from the events as that seat may see them (replay.story): every
    secret value in them must have been on the seat's own screen (its view just before or after
    the event), so the story tells the player nothing their phone did not."""
    from referee.kernel import Actor, Audience, Event, registry
    from referee.store import MemoryStore
    from referee.table import Table
    from referee.table.runtime import fold

    from .test_replay import NAMES, step

    for seed in range(3):
        rnd = random.Random(seed)
        table = Table.create(MemoryStore(), f"t-{game}", game, NAMES[:registry()[game].usual_seats], seed=seed)
        table.start(Actor.dealer())
        while step(table, rnd):
            pass
        entries = table.store.entries(table.id)
        folded = fold(table.game, table.header, [])
        for entry in entries:
            before = folded.state
            folded = fold(table.game, table.header, [entry], folded)
            event = Event.from_json(entry["event"])
            for seat in event.to if event.private else ():
                audience = Audience.of_seat(seat)
                shown = leaves(table.game.view(before, audience)) | leaves(table.game.view(folded.state, audience))
                public = Event.from_json(entry["event"]).visible_to(Audience.public())
                told = {k: v for k, v in event.visible_to(audience).items() if k not in public}
                for field, value in told.items():
                    if (game, event.type, field) not in SAID_OTHERWISE:
                        assert leaves(value) <= shown, (event.type, field, value)


def test_quatros_rule_4_branch_stays_the_dealers():
    from referee.kernel import Actor, Audience
    from referee.store import MemoryStore
    from referee.table import Table
    from referee.table.replay import story

    from .test_replay import step

    table = Table.create(MemoryStore(), "q", "quattro", ["가람", "나래"], seed=3)
    table.start(Actor.dealer())
    rnd = random.Random(3)
    while step(table, rnd):
        pass
    exchanges = [e for e in table.log(Audience.dealer()) if e["event"]["type"] == "Exchanged"]
    assert exchanges and all("규칙 4" in e["what"]["ko"] for e in exchanges)  # the console still says why
    for seat in (0, 1):
        words = json.dumps([line.to_json() for line in story(table, seat)], ensure_ascii=False)
        assert "받은 카드" in words and "규칙 4" not in words and "rule 4" not in words
        assert not any("reason" in e["event"] for e in table.log(Audience.of_seat(seat)))


# -- low: reasons, the export's folder, reads on /seat -------------------------------------------


@pytest.mark.parametrize("bad", ["잘못\x00입력", "잘못\u202e입력", "잘못\u200b입력"])
def test_void_and_finish_reasons_refuse_what_names_refuse(house, bad):
    table = house.svc.table
    coin(house, 0, {"type": "put_coin", "coin": 5}, table)
    before = house.svc.service.table(table).store.version(table)
    for command in ("void", "finish"):
        refused = house.api(command, show="s", table=table, reason=bad)
        assert refused["error"]["code"] == "table/bad_reason", refused
        assert "U+" in refused["error"]["ko"] and "U+" in refused["error"]["en"]
    assert house.svc.service.table(table).store.version(table) == before
    house.ok("void", show="s", table=table, reason="  잘못   입력 ")  # spaces are kept single, as names
    log = house.svc.service.table(table).log(__import__("referee.kernel", fromlist=["Audience"]).Audience.dealer())
    assert log[-1]["event"]["reason"] == "잘못 입력"
    assert house.api("void", show="s", table=table, reason=" ")["error"]["code"] == "table/void_needs_reason"


def test_an_export_into_an_earlier_one_with_a_linked_folder_is_refused_before_anything_is_removed(house, tmp_path):
    out = tmp_path / "keepsake"
    export_show(house.svc.service, "s", out)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "photo.jpg").write_bytes(b"x")
    (out / "players").symlink_to(elsewhere, target_is_directory=True)
    before = sorted(str(p.relative_to(out)) for p in out.rglob("*"))
    with pytest.raises(RuleError) as refused:
        export_show(house.svc.service, "s", out)
    assert refused.value.code == "export/symlink" and "players" in refused.value.ko and "link" in refused.value.en
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*")) == before  # nothing removed
    assert (elsewhere / "photo.jpg").exists()
    (out / "players").unlink()
    (out / "players").write_text("not a folder")
    with pytest.raises(RuleError) as refused:
        export_show(house.svc.service, "s", out)
    assert refused.value.code == "export/not_an_export" and (out / "index.html").exists()


def test_story_and_sync_on_a_phone_are_rate_limited(tmp_path):
    from .live import Client, LiveServer, within_one_window

    server = LiveServer(tmp_path, env={"REFEREE_RATE_READ": "4/60"}).start()
    try:
        server.ok("create_show", show="r", name="쇼")
        for name in ("가", "나"):
            server.ok("add_player", show="r", name=name)
        table = server.ok("create_table", show="r", game="tricky_coin", players=["가", "나"])["table"]
        phone = Client(server.url, "/seat", {"token": server.snapshot("r")["links"][0]["token"]})
        other = Client(server.url, "/seat", {"token": server.snapshot("r")["links"][1]["token"]})
        try:
            within_one_window(60)  # the six asks in one window of the limit (4 a minute)
            answers = [phone.call("sync", {"table": table}) for _ in range(3)] + [phone.call("story", {"table": table})]
            assert all(a["ok"] for a in answers[:3]) and answers[3]["error"]["code"] == "story/not_yet"
            for event in ("sync", "story"):
                limited = phone.call(event, {"table": table})
                assert limited["error"]["code"] == "rate/limited" and limited["error"]["ko"], limited
            assert other.call("sync", {"table": table})["ok"]  # per card: another phone is not held up
            assert phone.call("submit", {"table": table, "move": {"type": "x"}, "sid": "a"})["error"]["code"] != \
                "rate/limited"  # moves have their own allowance
        finally:
            phone.close()
            other.close()
    finally:
        server.stop()


def test_a_release_plays_a_long_hold_reveal_by_reveal(house):
    """Issue 37: "공개 (R)" on a long hold jumped the projector to the live table; the hall never
    saw the first reveals. Each R shows the next held reveal (and what came after it, up to the
    one after); "모두 공개" catches up at once. The replay shows each where it was released."""
    house.ok("settings", show="s", name="reveal_hold", value="on")
    table = house.svc.table
    for _round in (1, 2, 3):
        for seat, coin_ in ((0, 1), (1, 1)):
            coin(house, seat, {"type": "put_coin", "coin": coin_}, table)
        for seat in (0, 1):
            coin(house, seat, {"type": "choose_token", "token": "STOP"}, table)
    public = lambda: house.public("s", table)  # noqa: E731
    assert opened(public()) == [] and house.snapshot("s")["tables"][0]["held"]["count"] == 3
    first = house.ok("release", show="s", table=table)
    assert first["left"] == 2 and "2개" in first["done"]["ko"]
    assert [o["round"] for o in opened(public())] == [1] and public()["state"]["round"] == 2
    house.ok("release", show="s", table=table)
    assert [o["round"] for o in opened(public())] == [2]
    rest = house.ok("release", show="s", table=table, all=True)
    assert rest["left"] == 0 and [o["round"] for o in opened(public())] == [3]
    # The replay: each reveal at its own release, in order.
    released = [f.view["state"]["opened"][0]["round"] for f in house.frames("s", [table]) if f.release]
    assert released == [1, 2, 3]
