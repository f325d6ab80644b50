"""Reading the timing of a card's text, for abilities the engine does not automate.

A card whose text the engine does not play by itself still has real abilities:
its player carries them out by hand, inside the enforced timing (docs/table.md,
"Card text by hand"). This module reads, from the card's own text, *when* each
paragraph may be used — never what it does:

- a label: ``Marshalling:``, ``Challenges:``, ``Dominance:``, ``Any Phase:``,
  ``Plot:``, ``Draw:``, ``Standing:``, ``Taxation:``, ``Action:`` (the CCG's
  label for any action window), ``Response:`` / ``Limited Response:``, and the
  French labels of the CCG pool (``Action :``, ``Réponse :``, ...);
- a response whose text saves or cancels is played in step 2 (TIM-06);
- ``When revealed`` (a plot, in the plot reveal window) and passive sentences
  that open with *When*, *After*, *At the beginning/end of* (and their French
  forms), with the event they wait for read from a few fixed phrases;
- anything else (a constant, or a sentence whose timing cannot be read) is
  offered wherever its controller may act, and flagged as such.

Keyword lines, deck and attachment restrictions and income/influence symbols
need no ability and are skipped. Nothing here keeps the text: a
``TextAbility`` holds the paragraph number, its timing, and the first words of
the paragraph only as the user's own imported text, shown by the table.

>>> [(a.kind, a.phase) for a in read_text("Deadly.\\nChallenges: kneel this card to ...")]
[('action', 'challenges')]
>>> read_text("Response: After you win a military challenge, ...")[0].when
{'event': 'challenge_won', 'player': 'you', 'type': 'military'}
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from cards.importers.textparse import needs_no_ability

KINDS = ("action", "save", "cancel", "response", "passive", "unlabelled")

_TAG = re.compile(r"<[^>]+>")
_PHASE_LABELS = {
    "marshalling": "marshalling", "marhalling": "marshalling", "challenges": "challenges",
    "challenge": "challenges", "dominance": "dominance", "plot": "plot", "draw": "draw",
    "standing": "standing", "taxation": "taxation", "any phase": "any", "action": "any",
    # French labels of the CCG pool (AGoTDB)
    "organisation": "marshalling", "défis": "challenges", "defis": "challenges", "domination": "dominance",
    "intrigue": "plot", "pioche": "draw", "redressement": "standing", "impôts": "taxation",
    "toute phase": "any", "n'importe quelle phase": "any",
}
_RESPONSE_LABELS = ("response", "limited response", "réponse", "reponse", "réponse limitée", "reponse limitee")
_LABEL = re.compile(r"^\s*(?P<label>[A-Za-zÀ-ÿ' ]{3,28}?)\s*:\s*(?P<rest>.*)$", re.S)
_SAVE = re.compile(r"\b(save|saves|sauve|sauver|sauvez)\b", re.I)
_CANCEL = re.compile(r"\b(cancel|cancels|annule|annuler|annulez)\b", re.I)
_PASSIVE_START = re.compile(r"^\s*(when|after|at the beginning|at the end|lorsque|quand|après|apres|au début|"
                            r"au debut|à la fin|a la fin)\b", re.I)
_TRIGGER_WORD = re.compile(r"\b(when|after|each time|lorsque|après|chaque fois)\b", re.I)
_REVEALED = re.compile(r"^\s*(when revealed|lorsque (cette intrigue|elle) est révélée)", re.I)
_TYPE = r"(?:(military|intrigue|power|militaire|pouvoir)\s+)?"
_EVENT_WORDS: tuple[tuple[re.Pattern, str], ...] = (
    (re.compile(r"\bbeginning of the (\w+) phase|\bdébut de la phase (?:de |d')?(\w+)", re.I), "phase_begins"),
    (re.compile(r"\bend of the (\w+) phase|\bfin de la phase (?:de |d')?(\w+)", re.I), "phase_ends"),
    (re.compile(r"\b(you|vous)\s+(win|wins|gagnez)\s+(an?|un)\s+" + _TYPE + r"(challenge|défi)(?:\s+(militaire|pouvoir|"
                r"d'intrigue|intrigue))?", re.I), "challenge_won"),
    (re.compile(r"\b(win|wins|won)\s+(an?\s+)?" + _TYPE + r"challenge", re.I), "challenge_won"),
    (re.compile(r"\b(you|vous)\s+(lose|perdez)\s+(an?|un)\s+" + _TYPE + r"(challenge|défi)(?:\s+(militaire|pouvoir|"
                r"d'intrigue|intrigue))?", re.I), "challenge_lost"),
    (re.compile(r"\b(lose|loses|lost)\s+(an?\s+)?" + _TYPE + r"challenge", re.I), "challenge_lost"),
    (re.compile(r"\b(is|are|est|sont)\s+(killed|tués?)\b", re.I), "killed"),
    (re.compile(r"\b(is|are)\s+discarded\b", re.I), "discarded"),
    (re.compile(r"\bleaves? play\b", re.I), "left_play"),
    (re.compile(r"\b(is|are)\s+saved\b", re.I), "saved"),
    (re.compile(r"\bclaims? .*renown|\brenown\b", re.I), "renown_claimed"),
    (re.compile(r"\b(you\s+)?marshal", re.I), "marshalled"),
    (re.compile(r"\b(enters?|comes? into|put into) play\b", re.I), "entered_play"),
    (re.compile(r"\b(play|plays|is played)\s+(an?\s+)?event\b|\bevent\b.*\bis played\b", re.I), "played"),
    (re.compile(r"\bdeclared as (an? )?defender|defenders are declared", re.I), "defenders_declared"),
    (re.compile(r"\bdeclared as (an? )?attacker|\bdeclares? (an? )?" + _TYPE + r"challenge|challenge is declared",
                re.I), "challenge_declared"),
    (re.compile(r"\bis revealed\b", re.I), "plot_revealed"),
)
_TYPE_WORDS = {"military": "military", "intrigue": "intrigue", "power": "power", "militaire": "military",
               "pouvoir": "power", "d'intrigue": "intrigue"}


@dataclass(frozen=True)
class TextAbility:
    """One paragraph of a card's text as an ability used by hand."""

    paragraph: int
    """1-based, counting the paragraphs of the card's text (keyword lines included)."""
    kind: str
    """action | save | cancel | response | passive | unlabelled (see KINDS)."""
    phase: str | None = None
    """For actions: the phase of the label (``any`` for Any Phase/Action)."""
    when: dict | None = field(default=None, hash=False)
    """For responses and passives: the gate read from the text (``event``, ``player``, ``type``,
    ``phase``, ``card: self``), or None when it could not be read."""
    limited: bool = False
    """``Limited Response:`` (MAR-11)."""
    text: str = ""
    """The paragraph as the user's imported data has it (kept in memory only, never shipped)."""

    @property
    def flagged(self) -> bool:
        """The timing could not be read: the ability is offered wherever its controller may act."""
        return self.kind == "unlabelled" or self.kind in ("response", "passive") and self.when is None

    def describe(self) -> str:
        what = {"action": f"{(self.phase or 'any').replace('any', 'any phase')} action",
                "save": "save (step 2)", "cancel": "cancel (step 2)", "response": "response (step 5)",
                "passive": "passive", "unlabelled": "timing not read"}[self.kind]
        if self.when and self.kind in ("response", "passive"):
            what += f" on {self.when['event'].replace('_', ' ')}"
        return what


def _clean(paragraph: str) -> str:
    return " ".join(_TAG.sub("", paragraph).replace("\u2019", "'").split())


def _needs_no_ability(sentence: str) -> bool:
    s = " ".join(sentence.lower().split())
    return not s or needs_no_ability(s)  # one definition of "needs nothing"


_SYMBOL = re.compile(r"\[\s*[+-]?\d+\s+(?:income|influence|initiative)\s*\]", re.I)


def _strip_keyword_sentences(paragraph: str) -> str:
    """Drop the leading sentences that need no ability (keywords, restrictions, symbols)."""
    text = _SYMBOL.sub(".", paragraph)
    pieces = re.split(r"(?<=\.)\s+|^\.\s*", text)
    while pieces and _needs_no_ability(pieces[0].rstrip(".")):
        pieces.pop(0)
    return " ".join(pieces).strip()


def triggered_words(text: str) -> bool:
    """The paragraph reads as triggered ("when", "after", "each time"...), not as a constant."""
    return bool(_TRIGGER_WORD.search(text))


def read_when(text: str) -> dict | None:
    """The gate a response or passive waits for, from fixed phrases; None if none is recognised."""
    if _REVEALED.match(text):
        return {"event": "plot_revealed", "card": "self"}
    for pattern, event in _EVENT_WORDS:
        m = pattern.search(text)
        if not m:
            continue
        when: dict = {"event": event}
        if event in ("challenge_won", "challenge_lost"):
            if re.search(r"\b(you|vous)\b", m.group(0), re.I):
                when["player"] = "you"
            kind = next((g for g in m.groups() if g and g.lower() in _TYPE_WORDS), None)
            if kind:
                when["type"] = _TYPE_WORDS[kind.lower()]
        elif event in ("phase_begins", "phase_ends"):
            word = next((g for g in m.groups() if g), "").lower()
            phase = _PHASE_LABELS.get(word)
            if phase and phase != "any":
                when["phase"] = phase
        elif event in ("marshalled", "played") and re.search(r"\byou\b", m.group(0), re.I):
            when["player"] = "you"
        return when
    return None


def read_text(text: str) -> list[TextAbility]:
    """The paragraphs of ``text`` that are abilities, each with the timing its words give."""
    out: list[TextAbility] = []
    for n, raw in enumerate((text or "").splitlines(), start=1):
        para = _strip_keyword_sentences(_clean(raw))
        if not para:
            continue
        m = _LABEL.match(para)
        label = m.group("label").strip().lower() if m else ""
        if label in _RESPONSE_LABELS:
            rest = m.group("rest")
            limited = "limit" in label
            if _CANCEL.search(rest):
                out.append(TextAbility(n, "cancel", limited=limited, text=para))
            elif _SAVE.search(rest):
                out.append(TextAbility(n, "save", limited=limited, text=para))
            else:
                out.append(TextAbility(n, "response", when=read_when(rest), limited=limited, text=para))
        elif label in _PHASE_LABELS:
            out.append(TextAbility(n, "action", phase=_PHASE_LABELS[label], text=para))
        elif _REVEALED.match(para) or _PASSIVE_START.match(para):
            out.append(TextAbility(n, "passive", when=read_when(para), text=para))
        elif _TRIGGER_WORD.search(para) and read_when(para) is not None:
            out.append(TextAbility(n, "passive", when=read_when(para), text=para))  # "... when he comes into play"
        else:
            out.append(TextAbility(n, "unlabelled", text=para))
    return out
