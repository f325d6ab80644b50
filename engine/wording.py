"""The grammar of the sentences players read: the article before a word, and the verb after a player's name.

Log lines and messages are written with a player's name as the subject ("alice places 2 setup cards").
A player may be called "You" (the goldfish and "Play this deck" seat): ``for_players`` turns the verb
after that name into its plain form ("You place", "You are chosen", "You have", "Your deck"), so every
sentence reads right whatever the names. ``article`` puts "a" or "an" before a word ("an intrigue icon").
"""
from __future__ import annotations

import re

IRREGULAR = {"is": "are", "was": "were", "has": "have", "does": "do", "goes": "go"}
"""Third-person verbs whose plain form is not the word without its "s"."""
NOT_VERBS = frozenset({"as", "its", "his", "us", "plus", "this", "thus", "always", "yes", "less"})
"""Words ending in "s" that may follow a name and are no verb."""
ADVERBS = ("also ", "then ", "still ", "now ", "only ", "again ")
AND_VERBS = ("reveals", "puts", "attaches", "takes", "draws", "gains", "loses", "shuffles", "places", "discards",
             "kneels", "stands", "returns", "chooses", "pays", "kills", "moves", "wins", "finds", "keeps", "plays")
"""Second verbs of one sentence ("You search the deck and reveal ...")."""


def article(word: str) -> str:
    """``word`` with its indefinite article: "a military", "an intrigue", "an 8th", "a unique"."""
    w = str(word).lstrip().lower()
    vowel = w[:1] in ("a", "e", "i", "o") or (w[:1] == "u" and not w.startswith(("uni", "use", "usu", "uti")))
    vowel = vowel or w.startswith(("8", "11", "18", "hour", "honest")) and not w.startswith(("110", "111"))
    vowel = vowel and not w.startswith(("one", "eu"))
    return f"{'an' if vowel else 'a'} {word}"


def _plain(verb: str) -> str:
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    return verb[:-1]


def for_players(text: str, names) -> str:
    """``text`` with the verb after each player called "You" (any case) in its plain form, and "You's"
    as "Your": "You is chosen at random as first player" -> "You are chosen at random as first player".
    Other names are left alone (their sentences are already right)."""
    yous = [n for n in names if isinstance(n, str) and n.casefold() == "you"]
    if not yous or not isinstance(text, str):
        return text
    for name in yous:
        possessive = "Your" if name[:1].isupper() else "your"
        text = re.sub(rf"(?<![\w'’]){re.escape(name)}['’]s\b", possessive, text)

        def verb(m: re.Match) -> str:
            word = m.group(3)
            if word not in IRREGULAR and (word in NOT_VERBS or len(word) < 3 or not word.endswith("s")
                                          or word.endswith("ss")):
                return m.group(0)
            rest = re.sub(rf"(?<= and )({'|'.join(AND_VERBS)})\b", lambda v: _plain(v.group(1)), m.group(4))
            return f"{m.group(1)}{m.group(2) or ''}{_plain(word)}{rest}"

        adverbs = "|".join(ADVERBS)
        text = re.sub(rf"(?<![\w'’])({re.escape(name)} )({adverbs})?([a-z]+)\b([^.;:()\n]*)", verb, text)
    return text
