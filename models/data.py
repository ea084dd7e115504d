"""The project's own data: a small bilingual toy language and a number-translation task.

Everything is generated from a seed, so the shipped models can be retrained bit for bit and
tests can draw held-out examples the models never saw. The language is built so that the
patterns the lessons talk about have something to latch on to:
- agreement across a relative clause ("the cat that the dogs see is ...") needs long-range
  context, and in an encoder the verb on the right decides the number of a masked subject;
- repeated names and repeated random spans let induction heads form;
- matching brackets need a stack-like memory;
- numbers to words has a visible alignment for cross-attention.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .lexicon import COMMON_EN, COMMON_ZH

# ------------------------------------------------------------------ English vocabulary
NOUNS = [  # (singular, plural)
    ("cat", "cats"), ("dog", "dogs"), ("bird", "birds"), ("teacher", "teachers"),
    ("student", "students"), ("child", "children"), ("king", "kings"), ("farmer", "farmers"),
    ("robot", "robots"), ("girl", "girls"), ("boy", "boys"), ("horse", "horses"),
    ("doctor", "doctors"), ("friend", "friends"), ("baby", "babies"), ("mouse", "mice"),
    ("writer", "writers"), ("pilot", "pilots"), ("singer", "singers"), ("queen", "queens"),
]  # fmt: skip
VERBS = [  # (agrees with a singular subject, with a plural subject)
    ("sees", "see"), ("likes", "like"), ("follows", "follow"), ("helps", "help"),
    ("knows", "know"), ("chases", "chase"), ("watches", "watch"), ("visits", "visit"),
    ("loves", "love"), ("finds", "find"),
]  # fmt: skip
BE = ("is", "are")
ADJECTIVES = ["happy", "tired", "hungry", "small", "brave", "quiet", "clever", "old", "young",
              "busy", "kind", "angry", "sleepy", "strong", "famous", "lucky"]  # fmt: skip
NAMES = ["alice", "bob", "carol", "dave", "emma", "frank", "grace", "henry", "ivy", "jack",
         "kate", "leo", "mia", "nina", "oscar", "paul", "rosa", "sam", "tom", "vera"]  # fmt: skip
THINGS = ["book", "apple", "ball", "letter", "flower", "key", "cake", "map", "hat", "cup",
          "song", "picture", "gift", "coin", "lamp", "box"]  # fmt: skip
PLACES = ["the park", "the school", "the market", "the river", "the library", "the garden",
          "the station", "the beach"]  # fmt: skip

# ------------------------------------------------------------------ Chinese vocabulary
ZH_NAMES = ["小明", "小红", "小华", "小丽", "老王", "老李", "张三", "李四", "王芳", "刘洋"]
ZH_THINGS = ["苹果", "香蕉", "西瓜", "书", "花", "茶", "蛋糕", "礼物", "信", "地图", "帽子", "钥匙"]
ZH_ANIMALS = ["猫", "狗", "鸟", "马", "鱼", "兔子", "老虎", "熊猫"]
ZH_PLACES = ["学校", "公园", "家里", "图书馆", "市场", "河边", "车站", "海边"]
ZH_FOODS = ["米饭", "面条", "饺子", "苹果", "包子", "鸡蛋"]
ZH_ADJ = ["高兴", "累", "饿", "聪明", "安静", "勇敢", "可爱", "忙", "开心", "漂亮"]
ZH_VERBS = ["喜欢", "看见", "帮助", "认识", "找到", "等"]

# ------------------------------------------------------------------ numbers
ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
TEENS = ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen"]  # fmt: skip
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
ZH_DIGITS = "零一二三四五六七八九"
ZH_UNITS = {3: "千", 2: "百", 1: "十", 0: ""}  # place (power of ten) -> Chinese unit
MAX_NUMBER = 9999
BRACKETS = [("(", ")"), ("[", "]"), ("{", "}"), ("<", ">")]


def english_number(n: int) -> list[tuple[str, frozenset[int]]]:
    """Words of n (0..9999) with the decimal places (3 = thousands … 0 = ones) each word expresses."""
    if n == 0:
        return [("zero", frozenset({0}))]
    words: list[tuple[str, frozenset[int]]] = []
    for place, unit in ((3, "thousand"), (2, "hundred")):
        d = n // 10**place % 10
        if d:
            words += [(ONES[d], frozenset({place})), (unit, frozenset({place}))]
    r = n % 100
    if 10 <= r < 20:
        words.append((TEENS[r - 10], frozenset({1, 0})))
    else:
        if r >= 20:
            words.append((TENS[r // 10], frozenset({1})))
        if r % 10:
            words.append((ONES[r % 10], frozenset({0})))
    return words


def chinese_number(n: int) -> list[tuple[str, int | None]]:
    """Characters of n (0..9999) in Chinese numerals, each with its place (None for a linking 零).

    1005 -> 一千零五, 15 -> 十五 (no leading 一), 115 -> 一百一十五.
    """
    if n == 0:
        return [("零", 0)]
    out: list[tuple[str, int | None]] = []
    started = pending_zero = False
    for place in (3, 2, 1, 0):
        d = n // 10**place % 10
        if d == 0:
            pending_zero = pending_zero or started
            continue
        if pending_zero:
            out.append(("零", None))
            pending_zero = False
        if not (d == 1 and place == 1 and not started):
            out.append((ZH_DIGITS[d], place))
        if ZH_UNITS[place]:
            out.append((ZH_UNITS[place], place))
        started = True
    return out


def digit_number(n: int) -> list[tuple[str, int]]:
    s = str(n)
    return [(c, len(s) - 1 - i) for i, c in enumerate(s)]


@dataclass(frozen=True)
class Pair:
    """One translation example: source characters (one token each), target words, and for each
    target word the source character positions it translates (the alignment cross-attention
    should find)."""

    n: int
    source: str
    target: str
    alignment: tuple[frozenset[int], ...]


def number_pair(n: int, script: str) -> Pair:
    src = digit_number(n) if script == "digits" else chinese_number(n)
    words = english_number(n)
    align = tuple(frozenset(j for j, (_, p) in enumerate(src) if p in places) for _, places in words)
    return Pair(n, "".join(c for c, _ in src), " ".join(w for w, _ in words), align)


def split_numbers(seed: int = 0, held_out: float = 0.1) -> tuple[list[int], list[int]]:
    """A fixed train / held-out split of 0..MAX_NUMBER: held-out numbers are never trained on."""
    nums = list(range(MAX_NUMBER + 1))
    random.Random(seed + 7919).shuffle(nums)
    k = int(len(nums) * held_out)
    return sorted(nums[k:]), sorted(nums[:k])


# ------------------------------------------------------------------ sentences


def _noun(rng: random.Random, plural: bool) -> str:
    return rng.choice(NOUNS)[plural]


def agreement_sentence(rng: random.Random, plural: bool | None = None) -> tuple[str, bool]:
    """'the cat that the dogs see is happy .' — the verb agrees with the far subject, not the near noun."""
    p1 = rng.random() < 0.5 if plural is None else plural
    p2 = rng.random() < 0.5
    n1, n2 = _noun(rng, p1), _noun(rng, p2)
    v2 = rng.choice(VERBS)[p2]
    kind = rng.random()
    if kind < 0.5:
        s = f"the {n1} that the {n2} {v2} {BE[p1]} {rng.choice(ADJECTIVES)} ."
    elif kind < 0.75:
        s = f"the {n1} {BE[p1]} {rng.choice(ADJECTIVES)} ."
    else:
        s = f"the {n1} that {rng.choice(VERBS)[p1]} the {n2} {BE[p1]} {rng.choice(ADJECTIVES)} ."
    return s, p1


def name_sentence(rng: random.Random) -> str:
    a, b = rng.sample(NAMES, 2)
    t = rng.choice(THINGS)
    return rng.choice(
        [
            f"{a} met {b} at {rng.choice(PLACES)} . then {a} gave {b} a {t} .",
            f"{a} and {b} went to {rng.choice(PLACES)} . {b} was {rng.choice(ADJECTIVES)} .",
            f"{a} found a {t} . {a} gave the {t} to {b} .",
            f"{a} said that {b} {rng.choice(VERBS)[0]} the {_noun(rng, False)} .",
        ]
    )


def bracket_string(rng: random.Random) -> str:
    """A balanced string like '( [ { } ] ) < >': the closer is decided by an opener far back."""
    out, stack = [], []
    for _ in range(rng.randint(2, 12)):
        if stack and (len(stack) >= 4 or rng.random() < 0.45):
            out.append(stack.pop())
        else:
            o, c = rng.choice(BRACKETS)
            out.append(o)
            stack.append(c)
    out += reversed(stack)
    return " ".join(out)


def chinese_sentence(rng: random.Random) -> str:
    a, b = rng.sample(ZH_NAMES, 2)
    return rng.choice(
        [
            f"{a}看见了{b}。",
            f"{a}说{b}{rng.choice(ZH_VERBS)}{rng.choice(ZH_THINGS)}。",
            f"{a}在{rng.choice(ZH_PLACES)}吃{rng.choice(ZH_FOODS)}。",
            f"这只{rng.choice(ZH_ANIMALS)}很{rng.choice(ZH_ADJ)}。",
            f"{a}给了{b}一个{rng.choice(ZH_THINGS)}，{b}很{rng.choice(ZH_ADJ)}。",
            f"{a}和{b}去了{rng.choice(ZH_PLACES)}，然后{a}回家了。",
            f"我们{rng.choice(ZH_VERBS)}{rng.choice(ZH_ANIMALS)}，你们也{rng.choice(ZH_VERBS)}吗？",
        ]
    )


def number_sentence(rng: random.Random, numbers: list[int]) -> str:
    n = rng.choice(numbers)
    words = " ".join(w for w, _ in english_number(n))
    zh = "".join(c for c, _ in chinese_number(n))
    return rng.choice([f"{n} is {words} .", f"{zh} is {words} .", f"{n}是{zh}。"])


def sentence(rng: random.Random, numbers: list[int]) -> str:
    r = rng.random()
    if r < 0.35:
        return agreement_sentence(rng)[0]
    if r < 0.5:
        return name_sentence(rng)
    if r < 0.6:
        return bracket_string(rng)
    if r < 0.85:
        return chinese_sentence(rng)
    return number_sentence(rng, numbers)


def corpus(n: int, seed: int, numbers: list[int] | None = None) -> list[str]:
    """n sentences of the toy language (deterministic from seed)."""
    rng = random.Random(seed)
    numbers = split_numbers()[0] if numbers is None else numbers
    return [sentence(rng, numbers) for _ in range(n)]


def tokenizer_corpus(seed: int = 0) -> list[str]:
    """What the tokenizer is trained on: the language, and every number in both scripts."""
    texts = corpus(30000, seed)
    for n in range(MAX_NUMBER + 1):
        texts.append(number_pair(n, "digits").target)
    texts += [" ".join(v) for v in NOUNS + VERBS] + [" ".join(ADJECTIVES + NAMES + THINGS)]
    texts.append("".join(ZH_DIGITS) + "千百十万")
    rng = random.Random(seed + 1)
    for _ in range(3):  # each common word a few times, in shuffled order, so BPE merges it whole
        words, chars = COMMON_EN[:], list(COMMON_ZH)
        rng.shuffle(words)
        rng.shuffle(chars)
        texts += [" ".join(words[i : i + 12]) for i in range(0, len(words), 12)]
        texts += ["".join(chars[i : i + 12]) for i in range(0, len(chars), 12)]
    return texts
