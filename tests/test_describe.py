"""The log in words (``Game.describe``) for the nine games, as every audience reads it.

Random bot matches run through the real table runtime on the in-memory store (with each
non-default value of the games' small options, and a correction along the way). For every log
row as the dealer, the public and each seat see it, ``what`` is a Korean and English sentence of
the game's own (not the runtime's fallback listing of the raw event), with seats numbered as
people number them (from 1, with their names) and nothing of a secret the audience may not see.
Then a few sentences per game, worked by hand.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from referee.kernel import Actor, Audience, Event, Game, RuleError, registry
from referee.kernel.bots import pick
from referee.store import MemoryStore
from referee.table import Table
from referee.table.runtime import what

GAMES = registry()
MINE = ("tricky_coin", "tricky_gallery", "horror_race", "quattro")
OTHERS = ("tricky_bridge", "tricky_safari", "the_crew", "reef", "clumsy_cats")
RUNTIME_EVENTS = {"table.started", "table.voided", "table.finished"}
# Events a game leaves to the runtime's fallback today (reported to their owner, who may fill
# them): tolerated by the random-match test; test_known_gaps fails once one is filled, so the
# entry is then removed from here.
KNOWN_GAPS: dict[str, set[str]] = {}
NAMES = ("김민준", "이서연", "박지호", "최수아", "정예준", "강하은", "조도윤", "윤지우", "임채원", "한지민", "오세훈",
         "서지수")
MAX_ACTIONS = 5000


def play(game_id: str, seed: int, options: dict[str, Any] | None = None, void_at: int | None = 6) -> Table:
    """A bot match to its result; at action `void_at` the dealer voids the last action once."""
    game = GAMES[game_id]
    table = Table.create(MemoryStore(), f"{game_id}-{seed}", game_id, list(NAMES[:game.usual_seats]),
                         options=options, seed=seed, clock=lambda: 1_700_000_000.0)
    table.start(Actor.dealer())
    rnd = random.Random(seed)
    for n in range(MAX_ACTIONS):
        state = table.load().state
        if game.result(state) is not None:
            table.finish(Actor.dealer(), "끝 / over")
            return table
        if n == void_at and len(table.load().live_actions) > 1:  # the start is never voided
            table.void(Actor.dealer(), "연습 / practice")
            continue
        chosen = pick(game.turn(state), rnd)
        assert chosen is not None, f"{game_id} seed {seed}: nothing pending and no result"
        try:
            table.submit(*chosen)
        except RuleError:
            pass
    pytest.fail(f"{game_id} seed {seed}: no result after {MAX_ACTIONS} actions")


def audiences(table: Table) -> list[Audience]:
    return [Audience.dealer(), Audience.public()] + [Audience.of_seat(s) for s in range(len(table.seats))]


def variants(game: Game) -> list[dict[str, Any]]:
    """The default options, then each non-default value of every option with a few choices."""
    out: list[dict[str, Any]] = [{}]
    for spec in game.options:
        if len(spec.choices) <= 4:
            out += [{spec.name: value} for value in spec.choices if value != spec.default]
    return out


ZERO_BASED = re.compile(r"(?i)\bseat ?0\b|\bseat:\d|(?<!\d)0번 자리|자리 0\b|\bP\d\b")
RAW = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|\{'|\['|\"\w+\":")


def check_words(game: Game, names: tuple[str, ...], row: dict[str, Any]) -> None:
    said, event = row["what"], row["event"]
    where = f"{game.id} v{row['v']} {event['type']}: {said}"
    assert set(said) == {"ko", "en"} and said["ko"].strip() and said["en"].strip(), where
    assert row["who"]["ko"].strip() and row["who"]["en"].strip(), where
    if event["type"] in KNOWN_GAPS.get(game.id, set()):
        return
    if event["type"] not in RUNTIME_EVENTS:
        fallback = what(None, event, names).to_json()
        assert said != fallback and not said["ko"].startswith(event["type"]), f"fallback: {where}"
        assert not said["en"].startswith(f"{event['type']} ("), f"fallback: {where}"
    for text in said.values():
        assert not ZERO_BASED.search(text), f"0-based seat: {where}"
        assert not RAW.search(text), f"raw value: {where}"
        # A seat is named with its number counted from 1: "3번 박지호" / "3 박지호".
        for seat, name in enumerate(names):
            for number in re.findall(rf"(\d+)번 {re.escape(name)}", text) + re.findall(rf"(?<![\d.])(\d+) {name}", text):
                assert int(number) == seat + 1, f"seat {seat} named {number}: {where}"


def secret_words(game_id: str, private: dict[str, Any]) -> list[str]:
    """Words that would give away `private` (the secret part of an event) in one of my games."""
    from referee.games.horror_race.state import NAMES as CHARACTER_NAMES
    from referee.games.quattro.cards import label
    from referee.games.tricky_gallery.state import KIND_LABELS, STICKER_LABELS

    out: list[str] = []
    match game_id:
        case "tricky_coin":
            if "coin" in private:
                out += [f"{private['coin']}코인", f"{private['coin']} coin"]
            if "token" in private:
                out += [f"{private['token']} 선택", f"chooses {private['token']}"]
        case "tricky_gallery":
            for key in ("kind", "extra"):
                if key in private:
                    out += [KIND_LABELS[private[key]].ko, KIND_LABELS[private[key]].en]
            for kind in private.get("hand", ()):
                out += [KIND_LABELS[kind].ko, KIND_LABELS[kind].en]
            if "sticker" in private:
                out += [STICKER_LABELS[private["sticker"]].ko, STICKER_LABELS[private["sticker"]].en]
        case "horror_race":
            for c in private.get("characters", ()):
                out += [CHARACTER_NAMES[c].ko, CHARACTER_NAMES[c].en]
        case "quattro":
            cards = [private[k] for k in ("card", "received") if k in private]
            cards += list(private.get("cards", ())) + list(private.get("returned", ()))
            cards += [c for hand in private.get("hands", ()) for c in hand]
            for card in cards:
                out += [label(card).ko, label(card).en]
    return out


def check_match(game_id: str, table: Table) -> set[str]:
    """Every row of every audience's log; the event types seen."""
    game, names = GAMES[game_id], tuple(table.seats)
    seen: set[str] = set()
    for audience in audiences(table):
        for row in table.log(audience):
            check_words(game, names, row)
            seen.add(row["event"]["type"])
    if game_id in MINE:
        check_secrets(game_id, table)
    return seen


def check_secrets(game_id: str, table: Table) -> None:
    """An event public only in part reads, for an audience not entitled to its secret part, with
    no word of that secret (the runtime describes the event as that audience sees it)."""
    game, names = GAMES[game_id], tuple(table.seats)
    for entry in table.store.entries(table.id):
        event = Event.from_json(entry["event"])
        if event.private is None:
            continue
        words = secret_words(game_id, event.private)
        for audience in audiences(table):
            if audience.kind == "dealer" or audience.seat in event.to or event.hidden_from(audience):
                continue
            said = what(game, event.visible_to(audience), names)
            for word in words:
                assert word not in said.ko and word not in said.en, f"{game_id} {audience}: {word!r} in {said}"


@pytest.mark.parametrize("game_id", MINE + OTHERS)
def test_every_row_in_words_for_every_audience(game_id):
    game = GAMES[game_id]
    seen: set[str] = set()
    for n, options in enumerate(variants(game)):
        for seed in (n * 10 + 1, n * 10 + 2):
            seen |= check_match(game_id, play(game_id, seed, options))
    assert RUNTIME_EVENTS <= seen
    assert len(seen - RUNTIME_EVENTS) >= 3, seen


def test_the_crew_says_a_skipped_communication_in_words():
    said = GAMES["the_crew"].describe({"type": "CommunicationSkipped", "seat": 2, "trick": 1}, NAMES[:4])
    assert said is not None and "3번 박지호" in said.ko


# The event types of my four games that random matches reach (each one is described above);
# the rarer ones are worked by hand below.
REACHED = {
    "tricky_coin": {"CoinPut", "TokenChosen", "TokensRevealed", "BoxesOpened"},
    "tricky_gallery": {"HandDealt", "RoundBegan", "WorkSubmitted", "WorksRevealed", "AuctionWon", "WorkTaken",
                       "RoundEnded", "GallerySold", "SecretRecorded"},
    "horror_race": {"CharactersBacked", "RaceStarted", "DrawChosen", "CoinForfeited", "CoinsDrawn", "CoinsPlaced",
                    "ZoneResolved", "RoundEnded", "RaceFinished", "BackingsRevealed"},
    "quattro": {"FirstPlayerSet", "HandDealt", "MulliganTaken", "HandKept", "VirtualDealt", "VirtualHandEntered",
                "OpenChosen", "CardsOpened", "Passed", "Exchanged", "ExchangesClosed", "HandsCompared"},
}


@pytest.mark.parametrize("game_id", MINE)
def test_random_matches_reach_the_events(game_id):
    game = GAMES[game_id]
    seen: set[str] = set()
    for n, options in enumerate(variants(game)):
        for seed in range(3):
            table = play(game_id, 100 + 10 * n + seed, options, void_at=None)
            seen |= {e["event"]["type"] for e in table.store.entries(table.id)}
    assert REACHED[game_id] <= seen, REACHED[game_id] - seen


# -- sentences worked by hand ------------------------------------------------------------------


def says(game_id: str, event: dict[str, Any], names: tuple[str, ...] = NAMES) -> tuple[str, str]:
    text = GAMES[game_id].describe(event, names)
    assert text is not None, event
    return text.ko, text.en


def test_tricky_coin_sentences():
    names = ("김민준", "이서연")
    assert says("tricky_coin", {"type": "CoinPut", "seat": 1, "coin": 20}, names) == (
        "2번 이서연: 상자에 20코인", "2 이서연: puts a 20 coin in the box")
    # The coin is secret (Coin rule 2): the public line has none.
    assert says("tricky_coin", {"type": "CoinPut", "seat": 1}, names) == (
        "2번 이서연: 상자에 코인 1개를 넣음", "2 이서연: puts a coin in the box")
    assert says("tricky_coin", {"type": "TokenChosen", "seat": 0}, names) == (
        "1번 김민준: GO/STOP 토큰 제출", "1 김민준: hands in a GO/STOP token")
    assert says("tricky_coin", {"type": "TokensRevealed", "tokens": ["GO", "STOP"]}, names) == (
        "GO/STOP 공개: 1번 김민준 GO, 2번 이서연 STOP", "GO/STOP revealed: 1 김민준 GO, 2 이서연 STOP")
    # 1+5+10 = 16 beats 20? No: 20 > 16, so seat 2 wins; 3 + 1 coins = 4 points (Coin rule 3).
    opened = {"type": "BoxesOpened", "round": 3, "boxes": [[1, 5, 10], [20]], "sums": [16, 20], "winner": 1,
              "points": 4}
    assert says("tricky_coin", opened, names) == (
        "3라운드 상자 공개: 1번 김민준 1+5+10 = 16, 2번 이서연 20 = 20 → 2번 이서연 4점 획득; 상자 교환",
        "Round 3 boxes opened: 1 김민준 1+5+10 = 16, 2 이서연 20 = 20 → 2 이서연 wins 4 points; boxes exchanged")
    tie = {**opened, "boxes": [[10], [5, 5]], "sums": [10, 10], "winner": None, "points": 0}
    assert "합이 같아 점수 없음" in says("tricky_coin", tie, names)[0]
    assert says("tricky_coin", {"type": "OvertimeBegan", "rounds": 12}, names) == (
        "승점 동점: 연장 2라운드 (12라운드까지)", "Points level: two more rounds (up to round 12)")


def test_tricky_gallery_sentences():
    assert says("tricky_gallery", {"type": "WorkSubmitted", "seat": 4, "round": 2, "kind": "pearl",
                                   "sticker": "fake"}) == (
        "5번 정예준: 진주 귀걸이를 한 트리키 제출 (가품 스티커)",
        "5 정예준: submits Tricky with a Pearl Earring (fake sticker)")
    assert says("tricky_gallery", {"type": "WorkSubmitted", "seat": 4, "round": 2}) == (
        "5번 정예준: 작품 제출", "5 정예준: submits a work")
    assert says("tricky_gallery", {"type": "HandDealt", "seat": 0}) == ("1번 김민준: 작품을 받음", "1 김민준: dealt the works")
    assert says("tricky_gallery", {"type": "AuctionWon", "round": 1, "seat": 2, "bid": 3, "no_bid": False}) == (
        "1라운드 경매: 3번 박지호 3칩에 낙찰, 서열 1위", "Round 1 auction: 3 박지호 wins with 3 chips, rank 1")
    assert says("tricky_gallery", {"type": "AuctionWon", "round": 4, "seat": 0, "bid": 0, "no_bid": True}) == (
        "4라운드 경매: 입찰 없음, 1번 김민준 서열 1위 (지불 없음)",
        "Round 4 auction: no bid, 1 김민준 is rank 1 (pays nothing)")
    assert says("tricky_gallery", {"type": "AuctionTied", "round": 2}) == (
        "2라운드 경매 동점: 다시 입찰", "Round 2 auction tied: bid again")
    # `work` is the owner's seat: seat 6 (0-based) is 7 조도윤.
    assert says("tricky_gallery", {"type": "WorkTaken", "round": 1, "seat": 0, "work": 6, "kind": "motricky",
                                   "rank": 1}) == (
        "서열 1위 1번 김민준: 7번 조도윤의 모트리키 가져감", "Rank 1, 1 김민준: takes the Mona Tricky of 7 조도윤")
    appraisal = {"type": "SecretRecorded", "what": "appraisal", "round": 1, "seat": 1, "work": 3, "kind": "piper",
                 "genuine": False, "cost": 4}
    assert says("tricky_gallery", appraisal) == (
        "2번 이서연: 4번 최수아의 피리부는 트리키 감정 (칩 4개) → 가품",
        "2 이서연: appraises the Tricky the Piper of 4 최수아 (4 chips) → fake")
    assert says("tricky_gallery", {"type": "SecretRecorded", "what": "transfer", "from": 8, "to": 0, "amount": 2}) == (
        "칩 양도: 9번 임채원 → 1번 김민준, 2칩", "Chip transfer: 9 임채원 → 1 김민준, 2 chips")
    # An opaque secret record (no field visible) still reads as words, and guesses nothing.
    assert says("tricky_gallery", {"type": "SecretRecorded"}) == ("비공개 기록", "A secret record")
    assert says("tricky_gallery", {"type": "SeatEliminated", "round": 3, "seat": 5, "rank": 2}) == (
        "6번 강하은 탈락: 갤러리에 가품 2점 (3라운드, 서열 2위)", "6 강하은 is out: two fakes in the gallery (round 3, rank 2)")
    sold = says("tricky_gallery", {"type": "GallerySold", "revenues": [12, None, 3]}, NAMES[:3])
    assert sold == ("5라운드 후 판매 수익: 1번 김민준 12억, 2번 이서연 탈락, 3번 박지호 3억",
                    "Sale after round 5: 1 김민준 12억, 2 이서연 out, 3 박지호 3억")
    revealed = says("tricky_gallery", {"type": "WorksRevealed", "round": 2, "siren": True,
                                       "works": [{"seat": 0, "kind": "premium"}, {"seat": 2, "kind": "piper"}]})
    assert revealed == ("2라운드 작품 공개: 1번 김민준 고급 작품, 3번 박지호 피리부는 트리키. 사이렌이 울림 (가품 2점 이상)",
                        "Round 2 works revealed: 1 김민준 premium work, 3 박지호 Tricky the Piper. "
                        "The siren sounds (two or more fakes)")


def test_horror_race_sentences():
    # The example of the brief: seat 5 (0-based 4) puts 2 coins on zone 1 and 1 on zone 3.
    placed = {"type": "CoinsPlaced", "seat": 4, "round": 2, "coins": [
        {"character": "vampire", "zone": 1}, {"character": "zombie", "zone": 3}, {"character": "vampire", "zone": 1}]}
    assert says("horror_race", placed) == (
        "5번 정예준: 1구역 코인 2개 (뱀파이어 2), 3구역 1개 (좀비 1)",
        "5 정예준: 2 coins on zone 1 (vampire 2), 1 on zone 3 (zombie 1)")
    assert says("horror_race", {"type": "CharactersBacked", "seat": 0, "characters": ["gumiho", "mummy"]}) == (
        "1번 김민준: 구미호·미라 응원 (비공개)", "1 김민준: backs gumiho and mummy (secret)")
    assert says("horror_race", {"type": "CharactersBacked", "seat": 0}) == (
        "1번 김민준: 응원 캐릭터 제출", "1 김민준: hands in a sealed backing")
    assert says("horror_race", {"type": "CoinForfeited", "seat": 9, "round": 4}) == (
        "4라운드 10번 한지민: 코인포기", "Round 4, 10 한지민: forfeits the coins (코인포기)")
    # Zone 2 moves 2 cells: the vampire (3 coins, the most held alone) from cell 5 would pass
    # the puddle on 6, so it stops there, carrying the zombie on top of it (Horror rules 3, 4).
    zone = {"type": "ZoneResolved", "round": 3, "zone": 2, "steps": 2, "counts": {"vampire": 3, "zombie": 1},
            "mover": "vampire", "from": 5, "to": 6, "carried": ["vampire", "zombie"], "puddle": True, "finished": False}
    assert says("horror_race", zone) == (
        "3라운드 2구역(2칸): 뱀파이어 3, 좀비 1 → 뱀파이어 (위에 좀비 함께) 이동, 5칸 → 6칸 (웅덩이에서 멈춤)",
        "Round 3, zone 2 (2 cells): vampire 3, zombie 1 → vampire (carrying zombie) moves, cell 5 → cell 6 "
        "(stops in the puddle)")
    tied = {**zone, "counts": {"vampire": 2, "zombie": 2}, "mover": None, "from": None, "to": None, "carried": [],
            "puddle": False}
    assert says("horror_race", tied)[1] == "Round 3, zone 2 (2 cells): vampire 2, zombie 2 → no count held alone, " \
                                           "nobody moves"
    empty = {**tied, "counts": {}}
    assert says("horror_race", empty)[0] == "3라운드 2구역(2칸): 코인 없음, 이동 없음"
    goal = {**zone, "zone": 3, "steps": 4, "counts": {"gumiho": 1}, "mover": "gumiho", "from": 11, "to": "goal",
            "carried": ["gumiho"], "puddle": False, "finished": True}
    assert says("horror_race", goal)[0] == "3라운드 3구역(4칸): 구미호 1 → 구미호 이동, 11칸 → 결승선 통과! 레이스 종료"
    ended = {"type": "RoundEnded", "round": 1, "forfeit": 0, "next_order": [1, 2, 0]}
    assert says("horror_race", ended, NAMES[:3]) == (
        "1라운드 종료, 코인은 상자로 (1번 김민준 코인포기). 다음 순서: 2번 이서연, 3번 박지호, 1번 김민준",
        "Round 1 over, the coins go back to the box (1 김민준 forfeited). Next order: 2 이서연, 3 박지호, 1 김민준")
    revealed = {"type": "BackingsRevealed", "backings": [["vampire", "zombie"], ["gumiho", "mummy"]],
                "points": [4, 1], "ranks": [1, 2]}
    assert says("horror_race", revealed, NAMES[:2]) == (
        "응원 공개와 승점: 1번 김민준 뱀파이어·좀비 4점 (1위); 2번 이서연 구미호·미라 1점 (2위)",
        "Backings revealed, points: 1 김민준 vampire and zombie 4 points (#1); 2 이서연 gumiho and mummy 1 point (#2)")


def test_quattro_sentences():
    names = ("김민준", "이서연")
    assert says("quattro", {"type": "FirstPlayerSet", "seat": 1}, names) == (
        "선 플레이어: 2번 이서연", "First player: 2 이서연")
    exchanged = {"type": "Exchanged", "seat": 0, "vp": 5, "given": "R3", "phase": 1, "received": "0a",
                 "reason": "zero"}
    assert says("quattro", exchanged, names) == (
        "1번 김민준 ↔ 가상 플레이어 6 교환: 준 카드 빨강 3, 받은 카드 0 (제로 A); 규칙 4: 0이 있으면 0",
        "1 김민준 ↔ virtual player 6 exchange: gives red 3, receives 0 (zero A); rule 4: a 0 if it has one")
    # What the other candidate and the public see: the given card lies face up, the received one is secret.
    public = {"type": "Exchanged", "seat": 0, "vp": 5, "given": "R3", "phase": 1}
    assert says("quattro", public, names) == (
        "1번 김민준 ↔ 가상 플레이어 6 교환: 준 카드 빨강 3, 받은 카드 비공개",
        "1 김민준 ↔ virtual player 6 exchange: gives red 3, receives a hidden card")
    assert says("quattro", {"type": "HandDealt", "seat": 1, "mulligan": 1}, names) == (
        "2번 이서연: 카드 4장 받음 (멀리건 1회 후)", "2 이서연: dealt 4 cards (after mulligan 1)")
    assert says("quattro", {"type": "OpenChosen", "seat": 1, "round": 2}, names) == (
        "2번 이서연: 두 번째 공개할 카드 선택", "2 이서연: chooses the second card to open")
    assert says("quattro", {"type": "CardsOpened", "round": 4, "cards": ["B6", "Y1"], "automatic": True}, names) == (
        "네 번째 카드 공개 (마지막 카드, 자동 공개): 1번 김민준 파랑 6, 2번 이서연 노랑 1",
        "Fourth cards opened (the last card, opened by itself): 1 김민준 blue 6, 2 이서연 yellow 1")
    assert says("quattro", {"type": "VirtualDealt", "virtual_players": 6}, names) == (
        "가상 플레이어 6명에게 3장씩 배분", "3 cards dealt to each of 6 virtual players")
    # R1 B2 G3 Y4 is a quattro (sum 10); R6 R5 B6 G6 is not (sum 23): only one quattro wins (rule 5).
    compared = {"type": "HandsCompared", "hands": [["R1", "B2", "G3", "Y4"], ["R5", "R6", "B6", "G6"]],
                "quattro": [True, False], "sums": [10, 23], "winner": 0, "rule": "only_quattro", "position": 0}
    assert says("quattro", compared, names) == (
        "최종 비교: 1번 김민준 빨강 1, 파랑 2, 초록 3, 노랑 4 (합 10, 콰트로); 2번 이서연 빨강 5, 빨강 6, 파랑 6, 초록 6 (합 23)"
        " → 1번 김민준 승리 (한 명만 콰트로 완성)",
        "Final comparison: 1 김민준 red 1, blue 2, green 3, yellow 4 (sum 10, quattro); 2 이서연 red 5, red 6, blue 6, "
        "green 6 (sum 23) → 1 김민준 wins (only one quattro)")
    draw = {**compared, "hands": [["R1", "B2"], ["G1", "Y2"]], "quattro": [False, False], "sums": [3, 3],
            "winner": None, "rule": "draw"}
    assert "무승부 (둘 다 콰트로 아님, 카드가 모두 같음: 딜러 결정 대기)" in says("quattro", draw, names)[0]
    assert says("quattro", {"type": "DrawResolved", "winner": 1}, names) == (
        "무승부를 딜러가 결정: 2번 이서연 승리", "The dealer resolves the draw: 2 이서연 wins")


def test_the_other_games_name_seats_from_one():
    """One line each of the five games described before (their own tests check the rest)."""
    bridge = GAMES["tricky_bridge"].describe({"type": "ContractMarked", "seat": 2}, NAMES)
    safari = GAMES["tricky_safari"].describe({"type": "FigureTaken", "seat": 0, "animal": "lion"}, NAMES)
    reef = GAMES["reef"].describe({"type": "TurnBegan", "seat": 1, "round": 2}, NAMES)
    cats = GAMES["clumsy_cats"].describe({"type": "Declared", "seat": 3, "number": 4}, NAMES)
    for text, number, name in ((bridge, 3, "박지호"), (safari, 1, "김민준"), (reef, 2, "이서연"), (cats, 4, "최수아")):
        assert text is not None and f"{number}번 {name}" in text.ko and f"{number}" in text.en and name in text.en
    crew = play("the_crew", 3, void_at=None)
    rows = crew.log(Audience.public())
    assert any("1번 김민준" in r["what"]["ko"] for r in rows)
