"""A Genius evening in Chromium (issue 11, item 9): the console makes the program and takes the
evening through both stages with the program's own forms; the phones follow their players (the
next match "곧 시작", the match itself, the candidate's nomination on their own phone) and the
projector shows the program board between the matches."""

from __future__ import annotations

import random
import uuid
from typing import Any

from .live import ARTIFACTS, PIN, LiveServer
from .test_programs_live import answer, wait

NAMES = ["가람", "나래", "다솜"]


def choose_in(page: Any, card: str, value: str) -> None:
    page.click(f"{card} .option[data-value='{value}']")
    page.click(f"{card} button.next")
    page.click(f"{card} button.submit")


def test_the_console_takes_a_genius_evening_through_both_matches_while_phones_follow(tmp_path, browser):
    server = LiveServer(tmp_path).start()
    errors: list[str] = []
    try:
        show = "gx" + uuid.uuid4().hex[:6]
        server.ok("create_show", show=show, name="지니어스 저녁")
        for name in NAMES:
            server.ok("add_player", show=show, name=name)
        links = server.snapshot(show)["links"]
        console = browser.new_page(viewport={"width": 1366, "height": 768})
        console.on("pageerror", lambda exc: errors.append(str(exc)))
        console.goto(f"{server.url}/console/login?show={show}")
        console.fill("input[name=pin]", PIN)
        console.click("button[type=submit]")
        console.wait_for_url(f"**/console/{show}")
        console.wait_for_selector("#conn[data-state=online]")
        console.click(".views [data-view=new]")
        console.select_option("#game-select", "genius_episode")
        assert console.locator("#seat-picker").is_hidden()  # a program seats the whole roster
        console.click("#new-table button[type=submit]")
        program = f"{show}-program"
        console.wait_for_selector(f"#table-tabs [data-table='{program}'][aria-selected=true]")

        phones = []
        for link in links:
            context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
            page = context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(link["url"])
            page.wait_for_selector(f"#player:text('{link['name']}')")
            phones.append(page)
        projector = browser.new_page(viewport={"width": 1920, "height": 1080})
        projector.on("pageerror", lambda exc: errors.append(str(exc)))
        projector.goto(f"{server.url}/display/{show}")

        # The program's own form opens the main match in one tap (its seats drawn by lottery).
        console.click(".decision[data-move='open_stage'] [data-open-stage='main_match']")
        race = wait(lambda: next((t for t in server.snapshot(show)["show"]["tables"] if "main_match" in t), None),
                    what="the race table")
        for page in phones:  # made, not started: every phone says what comes next
            page.wait_for_selector("#decision .waiting strong:text('곧 시작')")
        phones[0].screenshot(path=str(ARTIFACTS / "program-phone-soon.png"))
        # The projector follows the evening to the opened stage: everyone is here, so what comes
        # next (the race's players) with the hall's QR.
        projector.wait_for_selector("[data-role='up-next'] :text('메인 매치')")
        projector.screenshot(path=str(ARTIFACTS / "program-projector-board.png"))

        console.click(f"#table-tabs [data-table='{race}']")
        console.click("[data-action=start]")
        for page in phones:
            page.wait_for_selector("#decision .field-some")  # the backing, on every phone
        rnd = random.Random(2)
        for _ in range(2000):
            view = next(t["view"] for t in server.snapshot(show)["tables"] if t["view"]["table"] == race)
            if view["result"]:
                break
            decision = rnd.choice(view["decisions"])
            server.ok("move", show=show, table=race, seat=decision["seat"], move=answer(decision, rnd),
                      sid=uuid.uuid4().hex)
        console.click(f"#table-tabs [data-table='{program}']")
        choose_in(console, ".decision[data-move='confirm_result']", "main_match")
        program_view = wait(lambda: next(t["view"] for t in server.snapshot(show)["tables"]
                                         if t["view"]["table"] == program and t["view"]["decisions"]), what="next step")
        tie = next((d for d in program_view["decisions"] if d["move"] == "break_tie"), None)
        if tie is not None:
            choose_in(console, ".decision[data-move='break_tie']", str(tie["fields"][0]["options"][0]["value"]))
        naming = wait(lambda: next((d for t in server.snapshot(show)["tables"] if t["view"]["table"] == program
                                    for d in t["view"]["decisions"] if d["move"] == "name_opponent"), None),
                      what="the nomination")
        candidate = naming["seat"]
        opponent = naming["fields"][0]["options"][0]["value"]
        # The candidate names the opponent on their own phone.
        phone = phones[candidate]
        phone.wait_for_selector("#decision [data-move='name_opponent'] .option")
        phone.screenshot(path=str(ARTIFACTS / "program-phone-nominate.png"))
        choose_in(phone, "#decision [data-move='name_opponent']", str(opponent))

        console.click(".decision[data-move='open_stage'] [data-open-stage='death_match']")
        duel = wait(lambda: next((t for t in server.snapshot(show)["show"]["tables"] if "death_match" in t), None),
                    what="the duel table")
        console.click(f"#table-tabs [data-table='{duel}']")
        console.click("[data-action=start]")
        bystander = next(i for i in range(3) if i not in (candidate, opponent))
        for i in (candidate, opponent):
            phones[i].wait_for_selector("#where:has-text('콰트로')")
        phones[bystander].wait_for_selector("#holdings .pg-me")  # the program: their standing
        for i, page in enumerate(phones):
            page.screenshot(path=str(ARTIFACTS / f"program-phone-{i}.png"))
        console.screenshot(path=str(ARTIFACTS / "program-console.png"))
        assert not errors, errors
    finally:
        server.stop()
