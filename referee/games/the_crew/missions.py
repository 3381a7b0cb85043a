"""The Crew's 50 missions, read from ``missions.json`` (a copy of the project's reference data,
shared/reference/crew_missions.json, Board Game Arena's implementation), with their titles,
conditions and questions in Korean and English.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from referee.kernel import T

MISSION_COUNT = 50

# Special mission types, as named in missions.json.
SICK = "chosen_member_wins_no_trick"  # 5
ONES = "n_color_ones_win_tricks"  # 9, 26
MUTED = "chosen_member_cannot_communicate"  # 11
RANDOM_PASS = "random_card_pass_after_first_trick"  # 12
EACH_ROCKET = "each_rocket_wins_a_trick"  # 13
NO_NINE = "no_trick_won_by_nine"  # 16, 17
SWAP_TOKENS = "swap_two_task_tokens"  # 23
BALANCED = "balanced_tricks"  # 29
VOLUNTEER = "chosen_member_exactly_one_trick_no_rocket"  # 33
BALANCED_COMMANDER = "balanced_tricks_and_commander_first_last"  # 34
MOVE_TOKEN = "move_one_task_token"  # 40
FIRST_AND_LAST = "chosen_member_only_first_and_last_trick_no_rocket"  # 41
ROCKETS_IN_ORDER = "rockets_win_in_order"  # 44
PINK = "left_of_pink9_wins_all_pink"  # 46
OMEGA_LAST = "omega_in_last_trick"  # 48
ROLES = "first4_last_middle_roles"  # 50

DRAFT, DECISION, DISTRIBUTION = "draft", "decision", "distribution"
_ASSIGNMENT = {
    "draft_commander_first_clockwise": DRAFT,
    "commander_decision": DECISION,
    "commander_distribution": DISTRIBUTION,
}

# Answers to the commander's question (seed "사령관의 결정/분배"; BGA's replies).
YES, NO, GOOD, BAD, FIRST4, MIDDLE, LAST = "yes", "no", "good", "bad", "first4", "middle", "last"
REPLY_LABELS = {
    YES: T("예", "Yes"),
    NO: T("아니오", "No"),
    GOOD: T("좋음", "Good"),
    BAD: T("나쁨", "Bad"),
    FIRST4: T("처음 네 트릭만", "Only the first four tricks"),
    MIDDLE: T("그 사이 트릭 전부", "All tricks in between"),
    LAST: T("마지막 트릭만", "Only the last trick"),
}

# Roles of the members the commander chooses (BGA "special" crew members).
ROLE_LABELS = {
    5: T("아픈 대원 (트릭 금지)", "sick member (no trick)"),
    11: T("말 못 하는 대원 (소통 금지)", "muted member (no communication)"),
    33: T("자원자 (정확히 한 트릭, 로켓 금지)", "volunteer (exactly one trick, no rocket)"),
    41: T("착륙 담당 (첫·마지막 트릭만, 로켓 금지)", "landing officer (first and last trick only, no rocket)"),
    46: T("분홍 담당 (분홍이 나온 트릭 전부)", "pink keeper (every trick with a pink card)"),
    50: T("처음 네 트릭 담당", "wins the first four tricks"),
}
ROLE_LAST = T("마지막 트릭 담당", "wins the last trick")


@dataclass(frozen=True)
class Mission:
    id: int
    tasks: int
    tokens: tuple[str, ...]  # "1".."5", ">".. ">>>>", "Ω", for the first tasks drawn, in order
    dead_zone: bool
    disruption: int | None  # no communication before this trick
    assignment: str | None  # DRAFT, DECISION, DISTRIBUTION, or None (no tasks)
    hidden_tasks: bool  # face down until assigned (commander's decision)
    handover: bool  # the 5-player task handover is available
    special: str | None
    question: T | None
    replies: tuple[str, ...]

    @property
    def title(self) -> T:
        return T(f"미션 {self.id}", f"Mission {self.id}")

    @property
    def chooses_crew(self) -> bool:
        """The commander names a member (5, 11, 33, 41) or two (50)."""
        return self.special in (SICK, MUTED, VOLUNTEER, FIRST_AND_LAST, ROLES)


def _question(raw: dict) -> tuple[T | None, tuple[str, ...]]:
    special = raw.get("special") or {}
    q = raw.get("question") or special.get("question")
    if not q:
        return None, ()
    text = q if isinstance(q, str) else q.get("text", "")
    replies = special.get("replies") if isinstance(q, str) else q.get("replies")
    mapping = {"Yes": YES, "No": NO, "Good": GOOD, "Bad": BAD, "Only the first four tricks": FIRST4,
               "All tricks in between": MIDDLE, "Only the last trick": LAST}
    codes = tuple(mapping[r] for r in replies or ())
    korean = {
        "How do you feel?": "몸 상태가 어떤가요?",
        "Are you OK to take the tasks?": "과제를 모두 맡아도 괜찮나요?",
        "Do you want to take the task?": "이 과제를 맡고 싶나요?",
        "Do you want to volunteer?": "자원하겠습니까?",
        "Are you ready?": "준비됐나요?",
        "What is your preferred task?": "어떤 역할을 원하나요?",
    }
    return T(korean[text], text), codes


@cache
def missions() -> dict[int, Mission]:
    raw = json.loads((Path(__file__).with_name("missions.json")).read_text(encoding="utf-8"))
    out: dict[int, Mission] = {}
    for m in raw["missions"]:
        special = m.get("special") or {}
        question, replies = _question(m)
        out[m["id"]] = Mission(
            id=m["id"],
            tasks=m["tasks"],
            tokens=tuple(m["task_tokens"]),
            dead_zone=bool(m["dead_zone"]),
            disruption=m["communication_allowed_from_trick"],
            assignment=_ASSIGNMENT.get(m["task_assignment"]) if m["task_assignment"] else None,
            hidden_tasks=bool(m["tasks_face_down_until_assigned"]),
            handover=bool(m["five_player_give_task_rule"]),
            special=special.get("type"),
            question=question,
            replies=replies,
        )
    assert sorted(out) == list(range(1, MISSION_COUNT + 1))
    return out


def mission(n: int) -> Mission:
    return missions()[n]


# -- tokens ------------------------------------------------------------------------------------


def is_number(token: str) -> bool:
    return token.isdigit()


def is_arrow(token: str) -> bool:
    return bool(token) and set(token) == {">"}


OMEGA = "Ω"


def token_label(token: str) -> T:
    if not token:
        return T("토큰 없음", "no token")
    if is_number(token):
        return T(f"{token}번째", f"#{token}")
    if token == OMEGA:
        return T("Ω 마지막", "Ω last")
    return T(f"{token} 순서", f"{token} order")


# -- conditions in words ------------------------------------------------------------------------

_SPECIAL_TEXT = {
    SICK: T("사령관이 아픈 대원 한 명을 정합니다(사령관 제외). 그 대원은 트릭을 하나도 가져가면 안 됩니다.",
            "The commander names a sick member (not the commander), who must win no trick."),
    MUTED: T("사령관이 대원 한 명을 정합니다(사령관 제외). 그 대원은 이번 미션에서 소통할 수 없습니다.",
             "The commander names a member (not the commander) who may not communicate in this mission."),
    RANDOM_PASS: T("첫 트릭 직후 모두 오른쪽 대원의 손패에서 카드 한 장을 무작위로 가져옵니다.",
                   "Right after the first trick everyone draws a random card from the member on their right."),
    EACH_ROCKET: T("로켓 카드 4장이 각각 트릭을 하나씩 이겨야 합니다.", "Each of the 4 rockets must win a trick."),
    SWAP_TOKENS: T("과제를 고르기 전에 과제 토큰 두 개의 자리를 바꿀 수 있습니다.",
                   "Before the tasks are chosen, the crew may swap two task tokens."),
    BALANCED: T("언제라도 한 대원이 다른 대원보다 트릭을 2개 이상 더 가져가면 안 됩니다.",
                "At no time may a member have won two tricks more than another."),
    VOLUNTEER: T("사령관이 다른 대원 한 명을 정합니다. 그 대원은 정확히 한 트릭을 가져가야 하고, 로켓으로 이기면 안 됩니다.",
                 "The commander names another member, who must win exactly one trick, not with a rocket."),
    BALANCED_COMMANDER: T("언제라도 한 대원이 다른 대원보다 트릭을 2개 이상 더 가져가면 안 되고, 사령관이 첫 트릭과 마지막 "
                          "트릭을 가져가야 합니다.",
                          "At no time may a member have won two tricks more than another, and the commander must win "
                          "the first and the last trick."),
    MOVE_TOKEN: T("과제를 나누기 전에 과제 토큰 하나를 토큰 없는 과제로 옮길 수 있습니다.",
                  "Before the tasks are distributed, the crew may move one token onto a task without one."),
    FIRST_AND_LAST: T("사령관이 다른 대원 한 명을 정합니다. 그 대원은 첫 트릭과 마지막 트릭만 가져가야 하고, 둘 다 로켓으로 "
                      "이기면 안 됩니다.",
                      "The commander names another member, who must win the first and the last trick and no other, "
                      "neither with a rocket."),
    ROCKETS_IN_ORDER: T("로켓 1, 2, 3, 4가 이 순서대로 각각 트릭을 이겨야 합니다. 로켓이 이긴 트릭에 다른 로켓이 있으면 "
                        "실패입니다.",
                        "Rockets 1, 2, 3 and 4 must each win a trick, in that order; a trick won by a rocket must hold "
                        "no other rocket."),
    PINK: T("분홍 9를 가진 대원을 밝히고, 그 왼쪽(시계 방향 다음) 대원이 분홍 카드가 나온 트릭을 모두 가져가야 합니다.",
            "The holder of pink 9 is announced; the next member clockwise must win every trick with a pink card."),
    OMEGA_LAST: T("Ω 과제는 마지막 트릭에서 완수해야 합니다. 그 전에 과제가 모두 끝나면 실패입니다.",
                  "The Ω task must be done in the last trick; all tasks done earlier fails the mission."),
    ROLES: T("한 대원은 처음 네 트릭만, 다른 대원은 마지막 트릭만 가져가고, 그 사이 트릭은 나머지 대원이 모두 가져가야 합니다. "
             "사령관이 역할을 정합니다(사령관도 가능).",
             "One member wins the first four tricks and no other, another wins only the last trick, and the rest "
             "win every trick in between. The commander names the roles (the commander may take one)."),
}


def condition(m: Mission, seats: int | None = None) -> T:
    """The mission's condition in a few sentences, Korean and English (the 5-player handover
    only when `seats` is 5 or unknown)."""
    ko: list[str] = []
    en: list[str] = []
    if m.tasks:
        ko.append(f"과제 {m.tasks}개를 맡은 대원이 해당 카드가 든 트릭을 가져가 완수해야 합니다.")
        en.append(f"{m.tasks} tasks: each must be done by its holder winning the trick with its card.")
    if m.tokens:
        ko.append("과제 토큰: " + ", ".join(m.tokens) + " (숫자=완수 순서, >=화살표끼리의 순서, Ω=맨 마지막).")
        en.append("Task tokens: " + ", ".join(m.tokens) + " (number = order of completion, > = order among the "
                  "arrows, Ω = last).")
    if m.assignment == DECISION:
        ko.append("사령관이 모든 과제를 받을 대원 한 명을 정합니다(자신 제외). 과제는 배정될 때까지 뒤집혀 있습니다.")
        en.append("The commander gives every task to one member (not the commander); the tasks stay face down until "
                  "then.")
    elif m.assignment == DISTRIBUTION:
        ko.append("사령관이 과제를 하나씩 공개해 대원에게 나눠 줍니다(사령관 포함, 과제 수 차이는 최대 1).")
        en.append("The commander reveals the tasks one at a time and hands each out (the commander included; counts "
                  "differ by at most 1).")
    if m.special in (ONES,):
        n = 1 if m.id == 9 else 2
        ko.append(f"색 카드 1이 트릭을 {n}번 이겨야 합니다." if n > 1 else "색 카드 1이 트릭을 적어도 한 번 이겨야 합니다.")
        en.append(f"Colour 1s must win {n} tricks." if n > 1 else "A colour 1 must win at least one trick.")
    elif m.special == NO_NINE:
        ko.append("9로 트릭을 이기면 안 됩니다.")
        en.append("No trick may be won with a 9.")
    elif m.special in _SPECIAL_TEXT:
        ko.append(_SPECIAL_TEXT[m.special].ko)
        en.append(_SPECIAL_TEXT[m.special].en)
    if m.dead_zone:
        ko.append("데드존: 소통한 카드의 토큰 위치(최고/최저/유일)는 알리지 않습니다.")
        en.append("Dead zone: a communicated card's token position (highest/lowest/only) is not told.")
    if m.disruption:
        ko.append(f"방해: {m.disruption}번째 트릭 전까지 소통할 수 없습니다.")
        en.append(f"Disruption: no communication before trick {m.disruption}.")
    if m.handover and m.tasks and seats in (None, 5):
        ko.append("5인 규칙: 첫 트릭 전에 한 대원이 자기 과제 하나를 다른 대원에게 넘길 수 있습니다(모두 동의).")
        en.append("With 5 players: before the first trick one member may hand one task to another (all agree).")
    return T(" ".join(ko), " ".join(en))


def headline(m: Mission) -> T:
    """A one-line summary: task count, tokens, markers."""
    ko: list[str] = []
    en: list[str] = []
    if m.tasks:
        ko.append(f"과제 {m.tasks}개")
        en.append(f"{m.tasks} tasks")
    if m.tokens:
        ko.append("토큰 " + " ".join(m.tokens))
        en.append("tokens " + " ".join(m.tokens))
    if m.dead_zone:
        ko.append("데드존")
        en.append("dead zone")
    if m.disruption:
        ko.append(f"방해 {m.disruption}")
        en.append(f"disruption {m.disruption}")
    if m.assignment == DECISION:
        ko.append("사령관의 결정")
        en.append("commander's decision")
    if m.assignment == DISTRIBUTION:
        ko.append("사령관의 분배")
        en.append("commander's distribution")
    if m.special and m.special not in (SWAP_TOKENS, MOVE_TOKEN):
        ko.append("특수 조건")
        en.append("special condition")
    return T(" · ".join(ko) or "특수 미션", " · ".join(en) or "special mission")
