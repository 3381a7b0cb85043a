"""Bilingual text: Korean first, English second; and the Korean particle that fits the word
before it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class T:
    ko: str
    en: str

    def to_json(self) -> dict[str, str]:
        return {"ko": self.ko, "en": self.en}


# -- Korean particles --------------------------------------------------------------------------
#
# A particle after a name or a label depends on how the word ends when read aloud: 가람이 but
# 나래가, 빨강 3을 but 파랑 4를. Texts write the pair ("이/가") and josa() picks the member.

# Each pair as written: the form after a final consonant, then the form after a vowel.
_PAIRS = {
    "이/가": ("이", "가"), "을/를": ("을", "를"), "은/는": ("은", "는"), "과/와": ("과", "와"),
    "아/야": ("아", "야"), "으로/로": ("으로", "로"), "이나/나": ("이나", "나"), "이라/라": ("이라", "라"),
    "이며/며": ("이며", "며"), "이랑/랑": ("이랑", "랑"),
}
# Read as Sino-Korean numbers: 영 일 삼 육 칠 팔 end in a consonant, and a 0 after other digits
# is 십, 백, 천 or 만; of those, 일 칠 팔 end in ㄹ.
_DIGIT_CODA, _DIGIT_RIEUL = frozenset("013678"), frozenset("178")
# Latin letters read by name: 엘 엠 엔 알 end in a consonant, 엘 and 알 in ㄹ.
_LETTER_CODA, _LETTER_RIEUL = frozenset("LMNR"), frozenset("LR")
_RIEUL = 8  # ㄹ's index among the final consonants of a Hangul syllable
# Not read aloud at the end of a word: spaces, closing quotes, punctuation.
_UNREAD = " \t\n'\"”’»」』.,!?…:;·"
_OPENER = {")": "(", "]": "[", "}": "{", "〉": "〈", "》": "《"}


def _spoken_end(word: str) -> str:
    """`word` without what is not read at its end: punctuation, and a trailing parenthetical
    (the particle follows the word before it: "1번 김민준(A)이", "딜러(1번 가람 대신)가"),
    unless the brackets hold the whole word."""
    text = word.rstrip(_UNREAD)
    while text and text[-1] in _OPENER:
        depth, i = 0, len(text) - 1
        while i >= 0:
            if text[i] == text[-1]:
                depth += 1
            elif text[i] == _OPENER[text[-1]]:
                depth -= 1
                if depth == 0:
                    break
            i -= 1
        before = text[:max(i, 0)].rstrip(_UNREAD)
        text = before or text[max(i + 1, 0):-1].rstrip(_UNREAD)  # "(없음)": read inside
    return text


def batchim(word: str) -> str | None:
    """How `word` ends when read aloud in Korean: None after a vowel, "ㄹ" after ㄹ, "c" after
    any other final consonant. Digits are read as Sino-Korean numbers, Latin letters by name."""
    text = _spoken_end(str(word))
    if not text:
        return None
    last = text[-1]
    if "가" <= last <= "힣":
        coda = (ord(last) - ord("가")) % 28
        return None if coda == 0 else "ㄹ" if coda == _RIEUL else "c"
    if "0" <= last <= "9":
        return ("ㄹ" if last in _DIGIT_RIEUL else "c") if last in _DIGIT_CODA else None
    up = last.upper()
    if "A" <= up <= "Z":
        return ("ㄹ" if up in _LETTER_RIEUL else "c") if up in _LETTER_CODA else None
    return None


def josa(word: str, pair: str) -> str:
    """`word` followed by the member of a particle pair that fits how it ends:
    josa("가람", "이/가") is 가람이, josa("파랑 4", "을/를") 파랑 4를, josa("가람", "으로/로")
    가람으로 but josa("1번 가을", "으로/로") 1번 가을로 (a final ㄹ takes 로)."""
    if pair not in _PAIRS:
        raise ValueError(f"unknown particle pair {pair!r} (one of {', '.join(_PAIRS)})")
    after_consonant, after_vowel = _PAIRS[pair]
    sound = batchim(word)
    if sound is None or (sound == "ㄹ" and after_consonant == "으로"):
        return f"{word}{after_vowel}"
    return f"{word}{after_consonant}"
