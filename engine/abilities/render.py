"""English card text generated from ability data: Maester's own wording of what a card does.

Every registered word (``engine.abilities.registry``) carries its own ``phrase`` beside its schema
and doc line; this module only assembles them into sentences that read like card text::

    Challenges: Kneel this card to choose a participating character. It gets +2 STR until the end
    of the challenge.

The phrases are our own words, made from the data only (never from a card's printed text).

- ``card_text(card)``: the generated text of a ``cards.model.CardDef`` ("" when the card has no
  ability data that parses, or text the data does not play).
- ``paragraph(raw, card)``: one ability (a raw mapping of docs/abilities.md, already checked) as one
  paragraph.

A phrase is a callable; what it receives depends on its word's category:

- effect ``(value, entry, r)``: an imperative clause, lower case ("kill it", "draw 2 cards");
- cost ``(value, r)``: an imperative clause ("kneel this card");
- filter ``(value, r)``: ``r.pre(text)`` (before the noun: "kneeling"), ``r.noun(text)`` (the noun:
  "character") or ``r.post(text)`` (after it: "with printed cost 3 or lower");
- condition ``(value, r)``: a clause ("you control a Lord character");
- event ``(when, r)``: the opening of a triggered ability ("after you win a military challenge");
- selector ``(r)``: a noun phrase ("this card", "your opponent").

``r`` is a ``Render``: it knows the card and the ability (what "it" and "that card" refer to) and
offers the helpers (``r.cards(SEL)`` for card and player selectors, ``r.filter(FILTER)``, ``r.subject(P, VERB)``...).

    python -m cards.pool show NAME                              # one card, with Maester's wording
    python -m engine.abilities.render --compare [--pool FILE]   # how close it comes to official text
"""
from __future__ import annotations

import re
import sys
from functools import lru_cache
from typing import Any

from cards.errors import DataError
from cards.importers.textparse import needs_no_abilities, unmodelled_keywords
from engine.abilities import parse as _parse  # noqa: F401 - loads every word
from engine.abilities.model import _effect_name
from engine.abilities.parse import parse_abilities
from engine.abilities.registry import REGISTRY

LABELS = {"any": "Any Phase", "plot": "Plot", "draw": "Draw", "marshalling": "Marshalling",
          "challenges": "Challenges", "dominance": "Dominance", "standing": "Standing", "taxation": "Taxation"}
PLURALS = {"character": "characters", "location": "locations", "attachment": "attachments", "event": "events",
           "plot": "plots", "agenda": "agendas", "house": "House cards", "card": "cards"}
PILES = {"hand": "hand", "discard": "discard pile", "dead": "dead pile", "deck": "deck", "used_plots": "used pile",
         "plot_deck": "plot deck"}
ANY_NUMBER = 99
"""``choose: {count: 99, up_to: true}`` (or more) reads "any number of"."""
FILTER_EXTRAS = ("count", "up_to", "from", "count_min", "count_max")
"""Keys a filter may carry besides the filter words (counts and the pile), read by the sentence."""
MARK = "Maester's wording"
"""How the table and the command line label the generated text (it is not the printed text)."""


def cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def join(items: list[str], last: str = "and") -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def article(text: str) -> str:
    vowel = text[:1].lower() in "aeiou" and not text.lower().startswith(("uni", "one", "use"))
    return ("an " if vowel else "a ") + text


def third(verb: str) -> str:
    """The third person singular of a verb phrase's first word ("get +1 STR" -> "gets +1 STR")."""
    head, _, rest = verb.partition(" ")
    if head in ("may", "cannot", "must"):
        return verb
    if head == "have":
        head = "has"
    elif head == "do":
        head = "does"
    elif head.endswith(("s", "sh", "ch", "x")):
        head += "es"
    elif head.endswith("y") and head[-2:-1] not in "aeiou":
        head = head[:-1] + "ies"
    else:
        head += "s"
    return head + (" " + rest if rest else "")


def times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def count(n: Any, noun: str) -> str:
    """``2 cards``, ``1 card``, ``X cards``."""
    return f"{n} {noun}" if n == 1 else f"{n} {PLURALS.get(noun, noun + 's')}"


def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def words_of(value: Any) -> list[str]:
    return [str(v) for v in (value if isinstance(value, (list, tuple)) else [value])]


class Phrase:
    """A filter word's piece of a noun phrase: where it goes (pre, noun, post) and its words."""

    def __init__(self, slot: str, text: str):
        self.slot, self.text = slot, text


class Render:
    """What phrases refer to while one card's ability is rendered, and the helpers they use."""

    def __init__(self, card: Any = None, ability: dict | None = None):
        self.card = card
        self.ability = ability or {}
        self.imperative = False
        """The clause follows "<cost> to": a card's action is said as an order ("have it join ...")."""

    # --- word helpers the phrases use (the word modules import nothing from here) ---
    article = staticmethod(article)
    cap = staticmethod(cap)
    join = staticmethod(join)
    count = staticmethod(count)
    PILES = PILES

    # --- events ---
    def event_card(self, w: dict) -> str:
        """The card a gate names, with its player ("a character you control", "this card")."""
        card = w.get("card")
        if card == "self":
            return "this card"
        if card == "host":
            return self.host_noun
        f = dict(card) if isinstance(card, dict) else {}
        if w.get("player") in ("you", "opponent") and "controller" not in f:
            f["controller"] = w["player"]
        return self.filter(f)

    def event_player(self, w: dict, verb: str) -> str:
        """The gate's player doing ``verb`` ("you win", "an opponent wins", "a player wins")."""
        who = {"you": "you", "opponent": "an opponent"}.get(w.get("player"), "a player")
        return f"{who} {verb if who == 'you' else third(verb)}"

    def event_by(self, w: dict, verb: str, passive: str, default: str = "a card") -> str:
        """"after you marshal a Knight character" / "after this card is marshalled"."""
        card = w.get("card")
        if card in ("self", "host") or "player" not in w:
            noun = self.event_card({k: v for k, v in w.items() if k != "player"}) if card else default
            return f"after {noun} {passive}"
        noun = self.filter(card) if isinstance(card, dict) else default
        return f"after {self.event_player(w, verb)} {noun}"

    def challenge(self, w: dict) -> str:
        """"a military challenge" (as the attacking player, by 5 or more STR)."""
        t = w.get("type", "any")
        text = "a challenge" if t == "any" else article(f"{t} challenge")
        if w.get("as") in ("attacker", "defender"):
            text += f" as the {'attacking' if w['as'] == 'attacker' else 'defending'} player"
        if w.get("by_min"):
            text += f" by {w['by_min']} or more STR"
        return text

    def cancelable(self, w: dict) -> str:
        source = w.get("source", "any")
        what = {"event": "an event", "character": "a character ability", "location": "a location ability",
                "attachment": "an attachment ability", "plot": "a plot ability", "agenda": "an agenda ability",
                "house": "a House card ability", "framework": "a framework effect"}.get(source, "an effect")
        if w.get("triggered") and source in ("any", None):
            what = "a triggered effect or an event"
        if w.get("player") == "opponent":
            what += " an opponent controls"
        elif w.get("player") == "you":
            what += " you control"
        return what

    def negate(self, f: dict) -> Phrase:
        """``not: FILTER``: "non-Limited", "other than attached character", "that is not ..."."""
        if f in ({"self": True}, {"host": True}):
            return self.post("other than " + ("this card" if "self" in f else self.host_noun))
        if f == {"trigger": True}:
            return self.post("other than that card")
        if f == {"target": True}:
            return self.post("other than the chosen one")
        if set(f) == {"attachments_max"} and isinstance(f["attachments_max"], int):
            return self.post(f"with {f['attachments_max'] + 1} or more other attachments")
        if set(f) == {"any_of"}:  # "that is neither an Army card nor attached character"
            said = [self.host_noun if g == {"host": True} else "this card" if g == {"self": True}
                    else self.filter(g) for g in f["any_of"]]
            return self.post("that is neither " + join(said, "nor") if len(said) == 2
                             else "that is none of " + join(said, "or"))
        pieces = [REGISTRY["filter"][k].phrase(v, self) for k, v in f.items() if k in REGISTRY["filter"]]
        if pieces and all(p.slot in ("pre", "noun") for p in pieces):
            return self.pre("non-" + "-".join(p.text for p in pieces))
        if pieces and all(p.slot == "post" and p.text.startswith("with ") for p in pieces):
            return self.post("without " + join([p.text[5:] for p in pieces], "or"))
        return self.post("that is not " + self.filter(f))

    def either(self, filters: list) -> Phrase:
        """``any_of``: "with stealth or with renown", "that is a Lord or a Knight"."""
        said = [self.filter(f, article_="") for f in filters]
        if all(s.startswith("card ") and "(" not in s for s in said):
            return self.post(join([s[5:] for s in said], "or"))
        said = ["this card" if s == "card (this card)" else article(s) for s in said]
        return self.post("that is " + join(said, "or"))

    def plot_claim(self, v: Any, e: dict) -> str:
        """``plot_claim``: "raise the claim value on your opponent's revealed plot by 1 ..."."""
        how = "raise" if v == "x" or isinstance(v, int) and v >= 0 else "lower"
        by = "X" if v in ("x", "minus_x") else str(abs(v))
        only = f" (House {cap(e['house'])} only)" if e.get("house") else ""
        if e.get("trait"):
            only += f" if it is {article(e['trait'])} plot"
        return (f"{how} the claim value on {self.poss(e.get('player', 'opponent'))} revealed plot{only} by {by} "
                + self.until(e.get("until"), "challenge"))

    def chooses(self, v: dict, e: dict) -> str:
        """``chooses``: "each player chooses up to 3 characters they control"."""
        by = e.get("by", "you")
        if "keep" in e:
            what = f"all but {e['keep']} " + self.filter(v, article_="", plural=True)
        else:
            n = e.get("count", 1)
            up = "up to " if e.get("up_to") else ""
            if "count_each" in e:
                n = "x"
            what = up + (self.filter(v) if n == 1 and not up else f"{'X' if n == 'x' else n} "
                         + self.filter(v, article_="", plural=n != 1))
            if "count_each" in e:
                what += ", where X is the number of " + self.filter(e["count_each"], article_="", plural=True)
        if e.get("among") == "each_player":  # one choice among each player's cards
            return "for each player, " + self.subject(by, "choose") + " " + what.replace("you control",
                                                                                   "that player controls")
        if by != "you":  # the filter is read as the chooser's
            what = what.replace("you control", "they control").replace("your ", "their ")
        if isinstance(e.get("unless"), dict):  # issue 24: Battle of Oxcross
            cond = self.cond(e["unless"])
            what += ", unless " + ("they" + cond[3:] if by != "you" and cond.startswith("you ") else cond)
        return self.subject(by, "choose") + " " + what

    @staticmethod
    def listed(value: Any) -> list[str]:
        """One value or a list of them, as a list of words."""
        return words_of(value)

    def one_of(self, v: dict, e: dict) -> str:
        """``one_of``: "choose one: pay 1 gold or return this card to its owner's hand"."""
        decks = {"target": "that player's deck", "opponent": "your opponent's deck", "you": "your deck"}
        look = decks.get(e.get("look"))
        first = f"look at the top card of {look}, then " if look else ""
        return first + "choose one: " + join([self.effect_clause(seq) for seq in v.values()], "or")

    def set_destination(self, v: Any, to: str) -> str:
        """``set_destination``: "place it in its owner's dead pile instead"."""
        where = {"dead": "in {} dead pile", "discard": "in {} discard pile", "hand": "into {} hand",
                 "deck_top": "on top of {} deck", "deck_bottom": "on the bottom of {} deck"}.get(to)
        if where is None:  # deck_shuffled
            return f"shuffle {self.cards(v)} into {self.owners(v)} deck instead"
        return f"put {self.cards(v)} {where.format(self.owners(v))} instead"

    def search_pick(self, v: dict, e: dict) -> str:
        """``search_pick``: "search your deck for a character, reveal it and put it into your hand, then shuffle"."""
        who = e.get("player", "you")
        then = {"hand": f"reveal it and put it into {self.their(who)} hand", "play": "put it into play",
                "duplicate": "attach it to this card as a duplicate",
                "agenda": f"place it on {self.their(who)} House card as {self.their(who)} agenda",
                "attach": "attach it to " + ("this card" if e.get("attach_to", "self") == "self"
                                             else self.filter(e["attach_to"])) + ", if possible"}[e.get("to", "hand")]
        found = self.filter(v, bare=True) + (f" that may become {self.their(who)} agenda" if e.get("to") == "agenda"
                                             else "")
        n = e.get("count")
        if n == "any":
            found = "any number of " + self.filter(v, article_="", plural=True, bare=True)
            then = then.replace(" it ", " them ").replace(" it,", " them,")
        elif n is not None:  # "search your deck for up to X Warship locations, reveal them ..."
            then = then.replace(" it ", " them ").replace(" it,", " them,")
            found = (("up to " if e.get("up_to") else "") + ("X" if n == "self_strength" else str(n)) + " "
                     + self.filter(v, article_="", plural=True, bare=True))
            if n == "self_strength":
                then += " (X is this card's STR)"
        elif e.get("up_to"):  # "you may": the search may find nothing
            found = "up to 1 " + self.filter(v, article_="", bare=True)
        if "cost_total_max" in e:
            found += f" with a combined printed cost of {e['cost_total_max']} or lower"
        if e.get("same_title"):
            found += " that share one title"
        return f"{self.subject(who, 'search')} {self.their(who)} deck for {found}, {then}, then shuffle"

    def power_place(self, where: Any) -> str:
        if where == "gate_house":
            return "that player's House card"
        if where == "each_opponent_house":
            return "each opponent's House card"
        if where == "target_house":
            return "that player's House card"
        if isinstance(where, str) and where in ("opponent_house", "your_house", "house", "loser_house"):
            return {"opponent_house": "your opponent's House card",
                    "loser_house": "the losing player's House card"}.get(where, "your House card")
        return self.cards(where)

    # --- pieces of noun phrases, for filter phrases ---
    @staticmethod
    def pre(text: str) -> Phrase:
        return Phrase("pre", text)

    @staticmethod
    def noun(text: str) -> Phrase:
        return Phrase("noun", text)

    @staticmethod
    def post(text: str) -> Phrase:
        return Phrase("post", text)

    # --- what the ability refers to ---
    @property
    def host_noun(self) -> str:
        for a in getattr(self.card, "abilities", ()) or ():
            if isinstance(a, dict) and isinstance(a.get("attach_to"), dict):
                t = a["attach_to"].get("type")
                if isinstance(t, str) and t != "character":
                    return "your House card" if t == "house" else f"attached {t}"
        return "attached character"

    def target_plural(self) -> bool:
        c = self.ability.get("choose") or {}
        n = c.get("count") or 1
        return n == "x" or n > 1  # "choose X characters": them

    def target_is_player(self) -> bool:
        c = self.ability.get("choose")
        return isinstance(c, dict) and "player" in c

    def target_noun(self) -> str:
        if self.target_is_player():
            return "those players" if self.target_plural() else "that player"
        return "them" if self.target_plural() else "it"

    def subject_noun(self, sel: Any) -> str:
        """``sel`` as the subject of a verb ("they" for chosen targets)."""
        noun = self.cards(sel)
        return "they" if noun == "them" else noun

    def trigger_noun(self) -> str:
        card = (self.ability.get("when") or {}).get("card")
        if card == "self":
            return "this card"
        if card == "host":
            return self.host_noun
        if isinstance(card, dict) and isinstance(card.get("type"), str):
            return "that " + card["type"]
        return "that card"

    # --- values ---
    def is_plural(self, sel: Any) -> bool:
        if sel in ("target", "targets"):
            return self.target_plural() and not self.target_is_player()
        return sel in ("chosen", "paid", "you", "you_and_target")

    def cards(self, sel: Any) -> str:
        """A card selector (or ``{all: FILTER}``) as a noun phrase."""
        if isinstance(sel, dict) and isinstance(sel.get("all"), dict) and sel["all"].get("target") is True \
                and sel["all"].get("from", "in_play") == "in_play":  # issue 24: the target, if it matches the rest
            rest = {k: v for k, v in sel["all"].items() if k not in ("target", "from")}
            noun = "the chosen " + ("cards" if self.target_plural() else "card")
            return noun + (" (if " + ("they" if self.target_plural() else "it") + " " + self.predicate(rest) + ")"
                           if rest else "")
        if isinstance(sel, dict) and "all" in sel:
            return "each " + self.filter(sel["all"], article_="")
        if isinstance(sel, dict):
            return self.filter(sel)
        word = REGISTRY["selector"].get(sel)
        if word is not None and word.phrase is not None:
            return word.phrase(self)
        return str(sel).replace("_", " ")

    def subject(self, sel: Any, verb: str) -> str:
        """``sel`` doing ``verb``, the verb agreeing ("each opponent draws"); for you, the imperative
        ("draw"), as card text says it."""
        if sel == "you":
            return verb
        if sel == "you_and_target":
            return f"{self.cards(sel)} each {verb}"
        if self.imperative:
            return f"have {self.cards(sel)} {verb}"
        return f"{self.subject_noun(sel)} {verb if self.is_plural(sel) else third(verb)}"

    def poss(self, sel: Any) -> str:
        """Whose ("your", "your opponent's", "each player's")."""
        if sel == "you":
            return "your"
        if sel in ("target", "targets") and not self.target_is_player() and self.target_plural():
            return "their"
        if sel in ("target", "targets") and not self.target_is_player():
            return "its"
        name = self.cards(sel)
        return name + "'" if name.endswith("s") else name + "'s"

    def their(self, sel: Any) -> str:
        """The possessive that refers back to ``sel`` after it is the subject."""
        return "your" if sel == "you" else "their"

    def owners(self, sel: Any) -> str:
        """"its owner's" / "their owner's"."""
        return "their owner's" if self.is_plural(sel) else "its owner's"

    def for_each(self, fe: Any) -> str:
        """`` for each ...`` of a ``for_each`` (a filter, ``your_gold``, ``host_attachments``), or ""."""
        if fe == "your_gold":
            return " for each gold in your gold pool"
        if fe == "host_attachments":
            return f" for each attachment on {self.host_noun}"
        if isinstance(fe, dict):
            return " for each " + self.filter(fe, article_="") + ("" if fe.get("from") else " in play")
        return ""

    def until(self, period: str | None, default: str = "phase") -> str:
        period = period or default
        if period == "phase_end":
            return "until the end of the phase"
        return f"until the end of the {period}"

    def value(self, v: Any) -> str:
        if isinstance(v, dict):
            return self.cards(v)
        if isinstance(v, (list, tuple)):
            return join([self.value(x) for x in v])
        return str(v).replace("_", " ")

    def filter(self, f: Any, article_: str = "a", plural: bool = False, bare: bool = False) -> str:
        """A card filter as a noun phrase: ``a participating Stark character you control``.
        ``article_=""``: no article; ``plural``: the plural noun; ``bare``: without pile or count."""
        if isinstance(f, str):
            return self.cards(f)
        pre: list[str] = []
        nouns: list[str] = []
        post: list[str] = []
        for k, v in f.items():
            if k in FILTER_EXTRAS:
                continue
            word = REGISTRY["filter"].get(k)
            if word is None or word.phrase is None:
                post.append((k, f"with {k.replace('_', ' ')} {self.value(v)}"))
                continue
            piece = word.phrase(v, self)
            if piece.text:
                {"pre": pre, "noun": nouns, "post": post}[piece.slot].append((k, piece.text))
        # the state before the House and traits ("kneeling Stark Lord"); "other than ..." reads best last
        pre = [t for k, t in sorted(pre, key=lambda kt: kt[0] in ("house", "trait"))]
        post = [t for k, t in sorted(post, key=lambda kt: kt[0] == "not_self")]
        nouns = [t for _, t in nouns]
        noun = " or ".join(nouns) or "card"
        if plural:
            noun = join([PLURALS.get(t, t + "s") for t in words_of(f.get("type", "card"))], "or")
        pile = f.get("from")
        if pile and pile != "in_play" and not bare:
            whose = ("any player's" if "any" in (f.get("controller"), f.get("owner")) else
                     "an opponent's" if "opponent" in (f.get("controller"), f.get("owner")) else
                     "your" if "you" in (f.get("controller"), f.get("owner")) or pile in ("hand", "deck") else "a")
            post = [p for p in post if p not in ("you control", "an opponent controls", "you own",
                                                 "an opponent owns")]
            post.append(f"in {whose} {PILES[pile]}")
        text = " ".join(pre + [noun] + post)
        if article_:
            return article(text)
        return text

    def predicate(self, f: dict) -> str:
        """A filter said of one card: ``is participating``, ``is Arya Stark``, ``has a power icon``."""
        if set(f) == {"name"}:
            return f"is {f['name']}"
        pieces = [REGISTRY["filter"][k].phrase(v, self) for k, v in f.items() if k in REGISTRY["filter"]]
        if pieces and all(p.slot == "pre" for p in pieces):
            return "is " + join([p.text for p in pieces])
        if pieces and all(p.slot == "post" and p.text.startswith("with ") for p in pieces):
            return "has " + join([p.text[5:] for p in pieces])
        return "is " + self.filter(f)

    def counted(self, f: dict, exactly: int | None = None) -> str:
        """A counted filter (``count_min``, ``count_max``) as ``a Lord character`` / ``no ...`` /
        ``3 or more ...``; ``exactly``: ``2 Lord characters``."""
        if exactly is not None:
            return self.filter(f) if exactly == 1 else f"{exactly} " + self.filter(f, article_="", plural=True)
        lo, hi = f.get("count_min", 1), f.get("count_max")
        if hi == 0:
            return "no " + self.filter(f, article_="", plural=True)
        if lo > 1 and hi is None:
            return f"{lo} or more " + self.filter(f, article_="", plural=True)
        if hi is not None and "count_min" in f and lo == hi:  # "the only Queen": exactly 1
            return f"exactly {hi} " + self.filter(f, article_="", plural=hi != 1)
        if hi is not None and lo <= 1:
            return f"at most {hi} " + self.filter(f, article_="", plural=hi != 1)
        if hi is not None:
            return f"{lo} to {hi} " + self.filter(f, article_="", plural=True)
        return self.filter(f)

    def cond(self, c: dict) -> str:
        parts = []
        for k, v in c.items():
            word = REGISTRY["condition"].get(k)
            parts.append(word.phrase(v, self) if word is not None and word.phrase else f"{k} is {self.value(v)}")
        return join(parts)

    def cost(self, c: dict) -> str:
        parts = []
        for k, v in c.items():
            word = REGISTRY["cost"].get(k)
            parts.append(word.phrase(v, self) if word is not None and word.phrase else k.replace("_", " "))
        return join(parts)

    def effect(self, e: Any) -> str:
        name = _effect_name(e)
        word = REGISTRY["effect"].get(name)
        if word is None or word.phrase is None:
            return name.replace("_", " ")
        value = e.get(name) if isinstance(e, dict) else None
        return word.phrase(value, e if isinstance(e, dict) else {}, self)

    def effects(self, seq: Any) -> list[str]:
        """Each effect of a list as a sentence (a ``check`` opens the next one: "if ..., draw 1 card")."""
        out: list[str] = []
        opening = ""
        for e in (seq if isinstance(seq, (list, tuple)) else [seq]):
            clause = self.effect(e)
            if clause.endswith(","):  # "if ...,", "unless ...,": it opens the next clause
                opening += clause + " "
                continue
            out.append(opening + clause)
            opening = ""
        if opening:
            out.append(opening.rstrip())  # a last check opens the "then" sentence
        return out

    def effect_clause(self, seq: Any) -> str:
        """A list of effects as one clause ("discard the top card of your deck and draw 1 card")."""
        return join(self.effects(seq)) or "do nothing"

    def modifiers(self, m: dict, subject_plural: bool = False) -> str:
        """What a ``modify`` does to its cards ("gets +2 STR and gains stealth"), the verbs agreeing."""
        v = (lambda s: s) if subject_plural else third
        parts = []
        if m.get("strength") in ("x", "minus_x"):
            parts.append(v(f"get {'+' if m['strength'] == 'x' else '-'}X STR"))
        elif "strength" in m:
            per = ""
            fe = m.get("for_each")
            if fe == "your_gold":
                per = " for each gold in your gold pool"
            elif fe == "your_house_power":
                per = " for each power on your House card"
            elif isinstance(fe, dict):
                per = " for each " + self.filter(fe, article_="") + ("" if fe.get("from") else " in play")
            parts.append(v(f"get {signed(m['strength'])} STR{per}"))
        if "strength_per_attachment" in m:
            parts.append(v(f"get {signed(m['strength_per_attachment'])} STR for each attachment on it"))
        if "strength_per_power" in m:
            parts.append(v(f"get {signed(m['strength_per_power'])} STR for each power on it"))
        for key, verb, what in (("add_icons", "gain", "icon"), ("remove_icons", "lose", "icon")):
            if m.get(key):
                icons = m[key]
                parts.append(v(f"{verb} {article(icons[0]) if len(icons) == 1 else join(icons)} "
                               f"{what if len(icons) == 1 else what + 's'}"))
        if m.get("add_keywords"):
            parts.append(v("gain " + join([k.replace("immune to", "immunity to") for k in m["add_keywords"]])))
        if m.get("remove_keywords"):
            parts.append(v("lose " + join([k for k in m["remove_keywords"]])))
        if m.get("add_traits"):
            parts.append(v(f"gain the {join(m['add_traits'])} trait" + ("s" if len(m["add_traits"]) > 1 else "")))
        if m.get("remove_traits"):
            parts.append(v(f"lose the {join(m['remove_traits'])} trait" + ("s" if len(m["remove_traits"]) > 1
                                                                            else "")))
        if m.get("blank"):
            parts.append(v("lose its printed text"))
        if "become" in m:
            parts.append(v(f"become a {m['become']} only"))
        if m.get("gold_penalty"):
            n = m["gold_penalty"]
            parts.append(v("cost X more gold to play (X is its printed cost)" if n == "printed_cost" else
                           f"cost {abs(n)} {'more' if n > 0 else 'less'} gold to play"))
        if m.get("no_house_penalty"):
            parts.append(v("ignore the gold penalty for another House"))
        if m.get("add_crests"):
            crests = [f"{c.capitalize()}" for c in m["add_crests"]]
            parts.append(v(f"gain the {join(crests)} crest" + ("s" if len(crests) > 1 else "")))
        if m.get("income"):
            parts.append(v(f"give {signed(m['income'])} gold income (not below 0)"))
        if m.get("lower_penalty"):
            parts.append(v(f"have {'their' if subject_plural else 'its'} gold penalty lowered by "
                           f"{m['lower_penalty']} (not below 0)"))
        if m.get("declare_without_icon"):
            parts.append(f"may attack or defend in {join(list(m['declare_without_icon']), 'and')} challenges "
                         "without the icon")
        if "printed_strength" in m:
            n = m["printed_strength"]
            parts.append(f"{'have' if subject_plural else 'has'} a printed STR of "
                         + (str(n) if n <= 0 else f"no more than {n}"))
        for c in m.get("cannot") or ():
            parts.append({"be_killed": "cannot be killed", "be_discarded": "cannot be discarded",
                          "defend": "cannot be declared as a defender", "stand": "cannot stand",
                          **{f"participate_{t}": f"cannot participate in {t} challenges"
                             for t in ("military", "intrigue", "power")},
                          "be_saved": "cannot be saved", "attack": "cannot be declared as an attacker",
                          "stealth_target": "cannot be chosen by an opponent's stealth",
                          "lose_strength": "cannot have its STR lowered",
                          "be_removed_from_challenge": "cannot be removed from the challenge",
                          "military_claim": "cannot be chosen for a military claim"}.get(c, c))
        if m.get("no_kneel"):
            parts.append(f"{'do' if subject_plural else 'does'} not kneel when declared as "
                         + join(['an attacker' if what == 'attack' else 'a defender' for what in m["no_kneel"]],
                                "or"))
        if m.get("doomed"):
            parts.append(f"{'are' if subject_plural else 'is'} Doomed")
        if m.get("not_counted"):
            parts.append(f"{'do' if subject_plural else 'does'} not count {'their' if subject_plural else 'its'} "
                         + ("STR for dominance" if m["not_counted"] == "dominance" else "STR in the challenge"))
        if isinstance(m.get("terminal"), dict):
            said = self.predicate(m["terminal"])
            if subject_plural:
                said = "they " + re.sub(r"^is ", "are ", re.sub(r"^has ", "have ", said))
            parts.append(f"are killed while {said}" if subject_plural else f"is killed while it {said}")
        if m.get("gain"):
            gained = " ".join(paragraph(a, self.card) for a in m["gain"])
            parts.append(v(f"gain \u201c{gained}\u201d"))
        return join(parts)


# ---------------------------------------------------------------------------
# One ability as one paragraph
# ---------------------------------------------------------------------------

def _sentences(items: list[str]) -> str:
    return " ".join(cap(s.strip()) + ("" if s.rstrip().endswith((".", "\u201d")) else ".") for s in items if s)


def _constant(a: dict, r: Render) -> list[str]:
    out = []
    kind_of_card = getattr(r.card, "type", "")
    if isinstance(a.get("attach_to"), dict):
        f = dict(a["attach_to"])
        one = f.pop("one_per_character", False)
        host = r.filter(f if "type" in f else {"type": "character", **f}, article_="") if f else ""
        if kind_of_card and kind_of_card != "attachment":
            out.append(f"you may play this card as an attachment on {article(host) if host else 'a character'}")
        elif f.get("type") == "house":
            out.append("attach only to your House card")
        elif host and host != "character":
            out.append(f"{host} only")
        if one:
            out.append("limit 1 per character")
    m = a.get("modify")
    if isinstance(m, dict):
        target = m.get("target", "self")
        plural = r.is_plural(target)
        out.append(f"{r.subject_noun(target)} {r.modifiers(m, plural)}")
    p = a.get("prohibit")
    if isinstance(p, dict):
        who = {"each": "each_player"}.get(p.get("player", "you"), p.get("player", "you"))
        what = p.get("what")
        if who != "you" and ("revealed_plot" in p or p.get("initiative_below")
                             or "dead_strength_max" in p or "unless_controls" in p):  # issue 24: only some players
            out.append(("each opponent" if who == "opponent" else "each player")
                       + (" with " + r.filter({"type": "plot", **p["revealed_plot"]}) + " revealed"
                          if "revealed_plot" in p else "")
                       + (" with a lower total initiative than yours" if p.get("initiative_below") else "")
                       + (f" with {p['dead_strength_max']} or less total STR in their dead pile"
                          if "dead_strength_max" in p else "")
                       + (" who controls no " + r.filter(p["unless_controls"], article_="")
                          if "unless_controls" in p else "")
                       + {"declare_defenders": " cannot declare defenders",
                          "unopposed_power": " claims no power for unopposed challenges",
                          "challenges": f" cannot initiate {p.get('type', '')} challenges".replace("  ", " "),
                          "defenders": f" cannot declare more than {count(p.get('max', 0), 'defender')} in a "
                                       "challenge"}.get(what, f" cannot {str(what).replace('_', ' ')}"))
            p = None
    if isinstance(p, dict):
        out.append({
            "claim_house_power": f"{r.cards(who)} cannot claim power for {r.their(who)} House",
            "challenges": (f"{r.cards(who)} cannot initiate {p['type']} challenges" if p.get("type")
                           and not p.get("max") else f"{r.cards(who)} cannot initiate more than "
                           + (f"{p['max']} {p['type']} challenges" if p.get("type")
                              else count(p.get('max', 0), 'challenge')) + " each round"),
            "declare_defenders": f"{r.cards(who)} cannot declare defenders",
            "income_bonuses": f"characters, locations and attachments give {r.cards(who)} no income",
            "plot_income": f"the income of {r.poss(who)} revealed plot is 0",
            "taxation_phase": f"{r.poss(who)} taxation phase is skipped",
            "character_power": f"power on {r.poss(who)} characters does not count toward their total",
            "trigger_abilities": f"{r.cards(who)} cannot trigger card abilities",
            "draw_phase": f"{r.cards(who)} cannot draw cards in the draw phase",
            "triggered_effects": f"{r.cards(who)} cannot trigger card abilities or play events",
            "extra_power_to_win": f"{r.cards(who)} need{'' if who == 'you' else 's'} {abs(p.get('max', 0))} "
                                  f"{'less' if p.get('max', 0) < 0 else 'more'} power to win the game",
            "unopposed_power": f"{r.cards(who)} claim{'' if who == 'you' else 's'} no power for unopposed "
                               "challenges",
            "extra_income": f"{r.poss(who)} total income is {p.get('max', 0)} higher",
            "extra_strength": f"{r.poss(who)} total STR is {p.get('max', 0)} higher in each challenge in which "
                              f"{r.cards(who)} {'have' if who == 'you' else 'has'} a participating character",
            "only_characters": f"{r.cards(who)} may play character cards only",
            "defenders": f"{r.cards(who)} cannot declare more than {count(p.get('max', 0), 'defender')} in a "
                         "challenge",
            "extra_doomed": (f"{r.cards(who)} count{'' if who == 'you' else 's'} {p.get('max', 0)} more Doomed "
                             f"{'card' if p.get('max', 0) == 1 else 'cards'} in {r.their(who)} dead pile"
                             if p.get("max", 0) >= 0 else
                             f"{r.cards(who)} need{'' if who == 'you' else 's'} {-p['max']} more Doomed "
                             f"{'card' if p['max'] == -1 else 'cards'} in {r.their(who)} dead pile to be eliminated"),
            "extra_claim": f"the claim of {r.poss(who)} revealed plot is {p.get('max', 0)} higher",
            "extra_initiative": f"{r.poss(who)} initiative is {p.get('max', 0)} higher",
            "hand_max": f"whenever {'you hold' if who == 'you' else 'a player holds' if who == 'each_player' else 'an opponent holds'} more than "
                        f"{p.get('max', 0)} cards in hand, {'you discard' if who == 'you' else 'that player discards'}"
                        f" cards from {'your' if who == 'you' else 'their'} hand at once until "
                        f"{'you hold' if who == 'you' else 'they hold'} {p.get('max', 0)}",
            "double_influence": "the printed influence of each "
                                + r.filter(dict(p.get("card") or {}), article_="").replace("you control", "")
                                .strip() + f" {'you control' if who == 'you' else r.cards(who) + ' controls'}"
                                " is doubled",
            "events": f"{r.cards(who)} cannot play events",
            "leave_discard": "cards in discard piles cannot leave them",
            "extra_unopposed_power": f"{r.cards(who)} claim{'' if who == 'you' else 's'} {p.get('max', 0)} more "
                                     f"power for each unopposed challenge {r.cards(who)} win{'' if who == 'you' else 's'}",
            "extra_challenges": f"{r.cards(who)} may initiate {p.get('max', 0)} additional "
                                + (f"{p['type']} " if p.get("type") else "")
                                + f"{'challenge' if p.get('max', 0) == 1 else 'challenges'} in the challenges phase",
            "all_or_none": f"to declare attackers or defenders in {p.get('type', 'any')} challenges, {r.cards(who)} "
                           f"must declare every character that can be declared",
        }.get(what, f"{r.cards(who)} cannot {str(what).replace('_', ' ')}"))
        if "for_each" in p:  # issue 24: Bitterbridge Tourney Grounds
            out[-1] += r.for_each(p["for_each"])
    if a.get("control_host"):
        out.append(f"you control {r.host_noun}")
    if isinstance(a.get("terminal"), dict):
        out.append(f"while this card {r.predicate(a['terminal'])}, it is killed")
    if isinstance(a.get("x_is"), dict):  # issue 24: Lady of Schemes
        out.append("X is the number of " + r.filter(a["x_is"], article_="", plural=True))
    if a.get("leaves_play") == "discard":
        out.append("this card is discarded from play")
    if a.get("leaves_play") == "removed":
        out.append("this card is removed from the game")
    lc = a.get("lower_cost")
    if isinstance(lc, dict):
        per = ""
        if lc.get("for_each") == "your_gold":
            per = " for each gold in your gold pool"
        elif isinstance(lc.get("for_each"), dict):
            per = " for each " + r.filter(lc["for_each"], article_="")
        out.append("this card costs nothing to play" if lc["by"] == "all"
                   else f"this card costs {lc['by']} gold less to play{per}")
    if a.get("no_kneel"):
        sides = [article("attacker" if what == "attack" else "defender") for what in a["no_kneel"]]
        out.append("this card does not kneel when declared as " + join(sides, "or"))
    if a.get("cannot_be"):
        said = {"attacker": "declared as an attacker", "defender": "declared as a defender",
                "stealth_target": "chosen by a character with stealth"}
        out.append("this card cannot be " + join([said.get(c, c) for c in a["cannot_be"]], "or"))
    toll = a.get("toll")
    if isinstance(toll, dict) and "influence" in toll:  # issue 24: Banished
        roles = join([{"attack": "an attacker", "defend": "a defender"}[w] for w in toll.get("for", ())], "or")
        out.append(f"{r.host_noun} cannot be declared as {roles} unless its controller kneels "
                   f"{toll['influence']} influence")
    elif isinstance(toll, dict):
        gold = f"{toll['gold']} gold"
        for what in toll.get("for", ()):
            out.append({
                "attack": f"{r.poss('host')} controller must give you {gold} to declare it as an attacker",
                "defend": f"{r.poss('host')} controller must give you {gold} to declare it as a defender",
                "trigger": f"{r.poss('host')} controller must give you {gold} to trigger its abilities",
                "challenge": f"to initiate {article(toll.get('type', '') + ' challenge').replace('  ', ' ')}, "
                             f"the attacking player must first give the defending player {gold}",
                "event": f"to play an event, a player must first give an opponent {gold}",
            }.get(what, f"{what} costs {gold}"))
    u = a.get("untargetable")
    if isinstance(u, dict):
        who = "your opponents'" if u.get("by") == "opponent" else "any player's"
        sources = join(list(u.get("source", ())), "or") or "card"
        out.append(f"this card cannot be chosen as a target by {who} {sources} effects")
    allows = a.get("allows") or ()
    if "actions_before_reveal" in allows:
        out.append("players may take actions after plots are chosen and before they are revealed")
    if "unopposed_by_4" in allows:
        out.append("each challenge you win as the attacking player by 4 or more STR counts as unopposed")
    if "unopposed_win" in allows:
        out.append("each challenge you win as the attacking player counts as unopposed")
    if "extra_limited_location" in allows:
        out.append("you may marshal 1 additional Limited location this round")
    if "extra_limited" in allows:
        out.append("you may play 1 additional Limited card each round")
    if "claim_into_play" in allows:  # issue 24: Scouting the Pass
        kinds = join(list(a.get("claim_types") or ["character"]), "or")
        out.append(f"each {kinds} your intrigue claim would discard from an opponent's hand may be put into play "
                   "under your control instead")
    rules = a.get("deck")
    if isinstance(rules, dict):  # an agenda's deck-building rules
        if rules.get("no_neutral"):
            out.append("your deck cannot include neutral " + join([PLURALS.get(t, t + "s") for t in rules["no_neutral"]],
                                                                  "or"))
        if rules.get("house_deck_min"):
            out.append(f"your House deck needs at least {rules['house_deck_min']} cards (not 60)")
        if rules.get("plots"):
            out.append(f"your plot deck may hold {rules['plots']} plots (not 7)")
        if rules.get("extra_plot_copy"):
            out.append("your plot deck may hold an eighth plot, a second copy of one of its plots")
    if "no_protection" in allows:
        out.append("characters lose every \u201ccannot be killed\u201d, \u201ccannot be discarded\u201d and immunity")
    if "saves_allowed" in allows:
        out.append("a card that an effect would kill or discard may be saved, even when the effect says it cannot be")
    if isinstance(a.get("not_declared_with"), dict):
        out.append("this card cannot be declared as an attacker or defender together with "
                   + r.filter(a["not_declared_with"]))
    if a.get("spend_gold"):
        out.append("you may spend the gold on this card as if it were in your gold pool")
    op = a.get("optional_penalty")
    if isinstance(op, dict):
        what = r.filter(op["card"]) if isinstance(op.get("card"), dict) else "this card"
        out.append(f"you may choose to pay a gold penalty of {op.get('gold')} as you marshal {what}")
    if isinstance(a.get("enters_kneeling"), dict):
        ek = a["enters_kneeling"]
        out.append("this card enters play kneeling" if ek == {"self": True} else
                   "each " + r.filter(ek, article_="") + " enters play kneeling")
    cond = a.get("while") or a.get("if")
    if cond and out:
        out[0] = f"while {r.cond(cond)}, {out[0]}"
    return out


def _opening(a: dict, r: Render) -> str:
    """The ability's label or trigger ("Challenges:", "Response: After you win a challenge,")."""
    kind = a.get("kind")
    if kind == "action":
        return LABELS.get(a.get("phase"), "Action") + ":"
    when = a.get("when") or {}
    word = REGISTRY["event"].get(when.get("event"))
    event = word.phrase(when, r) if word is not None and word.phrase else str(when.get("event"))
    if kind == "response":
        return "Response: " + cap(event) + ("" if event.endswith(":") else ",")
    return cap(event) + ("" if event.endswith(":") else ",")


def paragraph(a: dict, card: Any = None) -> str:
    """One raw ability as one paragraph of card text (one that works only as an agenda says so first)."""
    text = _paragraph(a, card)
    return f"As your agenda: {text}" if a.get("as_agenda") else text


def _paragraph(a: dict, card: Any = None) -> str:
    r = Render(card, a)
    if a.get("kind") == "constant":
        return _sentences(_constant(a, r))
    opening = _opening(a, r)
    conditions = []
    if a.get("from_hand"):
        conditions.append("this card is in your hand")
    if a.get("from_pile"):
        conditions.append(f"this card is in your {PILES[a['from_pile']]}")
    if a.get("from_dead"):
        conditions.append("this card is in your dead pile")
    if a.get("if"):
        conditions.append(r.cond(a["if"]))
    lead = f"if {join(conditions)}, " if conditions else ""
    first: list[str] = []
    head = ""
    effects = r.effects(a.get("effect") or [])
    choose = a.get("choose")
    if isinstance(choose, dict) and "player" in choose:
        chosen = "choose an opponent" if choose["player"] == "opponent" else "choose a player"
        if choose.get("count", 1) > 1:
            chosen = f"choose {choose['count']} " + ("opponents" if choose["player"] == "opponent" else "players")
    elif isinstance(choose, dict):
        n = choose.get("count", 1)
        up = "up to " if choose.get("up_to") else ""
        n = "X" if n == "x" else n  # the X paid (A Song of Night's "kneel X Battlefield locations")
        chosen = ("choose " + up + (r.filter(choose) if n == 1 and not up else
                                    f"{n} " + r.filter(choose, article_="", plural=n == "X" or n > 1)))
        if up and n >= ANY_NUMBER:
            chosen = "choose any number of " + r.filter(choose, article_="", plural=True)
    else:
        chosen = ""
    cost = r.cost(a["cost"]) if a.get("cost") else ""
    if cost and not chosen and effects and effects[0].endswith(","):
        head = cost  # "kneel this card. If an opponent has ..., gain 1 power": a clause cannot follow "to"
    elif cost and not chosen and effects:
        r.imperative = True  # "<cost> to have this card join the challenge"
        effects[:1] = r.effects((a.get("effect") or [])[:1])
        r.imperative = False
    if cost and head == cost:
        pass
    elif cost:
        head = f"{cost} to {chosen or (effects.pop(0) if effects else 'do nothing')}"
    elif chosen:
        head = chosen
    else:
        head = effects.pop(0) if effects else ""
    first.append(lead + head)
    sentences = first + effects
    then = r.effects(a.get("then") or [])
    if sentences and sentences[-1].endswith(","):
        check = sentences.pop()  # "if your plot's income is lower, gain 1 power"
        sentences.append(check + " " + (join(then) if then else "this ability resolves"))
    elif then:
        sentences.append("if you do, " + join(then))
    text = _sentences(sentences)
    if opening.endswith(","):
        text = text[:1].lower() + text[1:]
    text = opening + (" " if opening else "") + text
    extra = []
    if a.get("limit"):
        lim = a["limit"]
        shared = ""
        if lim.get("shared") == "limited_response":
            shared = ", counting all your Limited Responses"
        elif lim.get("shared"):
            shared = " for these abilities together"
        extra.append(f"(Limit {times(lim.get('times', 1))} per {lim['per']}{shared}.)")
    if a.get("cannot_be_canceled"):
        extra.append("This ability cannot be canceled.")
    if a.get("cannot_be_saved"):
        extra.append("Cards it kills or discards cannot be saved.")
    if a.get("instead_of_claim"):
        extra.append("This replaces the normal claim of that challenge.")
    if a.get("granted"):
        text = "Once enabled \u2014 " + text
    return " ".join([text] + extra)


def _keyword_traits(keyword: str) -> str:
    """"no attachments except weapon or boon" -> "no attachments except Weapon or Boon"."""
    head, sep, traits = keyword.partition(" except ")
    return head + sep + " or ".join(cap(t) for t in traits.split(" or ")) if sep else keyword


def missing_phrases() -> list[str]:
    """The registered words that have no phrase ("category name"): each word must render itself."""
    return [f"{c} {n}" for c, words in REGISTRY.items() for n, w in words.items() if not callable(w.phrase)]


@lru_cache(maxsize=4096)
def card_text(card: Any) -> str:
    """The generated English text of a card: its keywords, its deck restriction and one paragraph per
    ability, from its data only. "" when its abilities do not parse (or it has none and its text needs
    some: its text is then played by hand)."""
    abilities = tuple(getattr(card, "abilities", ()) or ())
    if abilities:
        try:
            parse_abilities(abilities, getattr(card, "source", "") or "")
        except DataError:
            return ""
    elif not needs_no_abilities(getattr(card, "text", "")):
        return ""
    lines = []
    keywords = [cap(_keyword_traits(k)) for k in getattr(card, "keywords", ()) or ()]
    if keywords:
        lines.append(". ".join(keywords) + ".")
    houses = getattr(card, "deck_houses", ()) or ()
    if getattr(card, "house_only", None):
        lines.append(f"House {cap(card.house_only)} only.")
    elif houses:
        lines.append("Only in a deck whose House card is " + join([cap(h) for h in houses], "or") + ".")
    if getattr(card, "deck_limit", 3) < 3:
        lines.append(f"Limit {card.deck_limit} per deck.")
    lines.extend(paragraph(a, card) for a in abilities)
    partial = getattr(card, "partial", "")
    if partial:
        lines.append(f"(Not automated: {partial.rstrip('. ')}.)")
    unknown = [k for k in unmodelled_keywords(getattr(card, "text", "")) if k.lower() not in partial.lower()]
    if unknown:
        lines.append(f"(Not automated: the {join([cap(k) for k in unknown])} "
                     f"keyword{'s' if len(unknown) > 1 else ''}.)")
    return "\n".join(line for line in lines if line)


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

_CARD_TYPES = ("character", "location", "attachment", "event", "plot", "agenda")
_NUMBER = re.compile(r"(?<![\w+-])[+-]?\d+\b")


def mentions(text: str, traits: set[str], keywords: set[str], name: str = "") -> dict[str, set[str]]:
    """What a text mentions: numbers, traits, keywords and card types (lower case). The card's own ``name``
    (official text names the card where ours says "this card") is left out."""
    low = " ".join(re.sub(r"<[^>]+>", " ", text or "").replace("\u2019", "'").split()).lower()
    if name:
        low = low.replace(name.lower(), " ")
    low = low.replace("immunity", "immune")
    found = {"numbers": {n.lstrip("+") for n in _NUMBER.findall(low)},
             "traits": {t for t in traits if re.search(r"\b" + re.escape(t) + r"\b", low)},
             "keywords": {k for k in keywords if re.search(r"\b" + re.escape(k) + r"\b", low)},
             "types": {t for t in _CARD_TYPES if re.search(r"\b" + t + r"s?\b", low)}}
    return found


def compare(pool) -> list[tuple[str, int, dict[str, tuple[int, int]]]]:
    """Per set: how many cards have both an official English text and generated text, and per kind of
    mention (numbers, traits, keywords, types) how many of the official text's mentions the generated
    text also has, out of how many."""
    from cards.model import SIMPLE_KEYWORDS
    from cards.overlay import is_lcg_json_card

    traits = {t.lower() for c in pool for t in c.traits}
    keywords = set(SIMPLE_KEYWORDS) | {"immune", "ambush", "stalwart", "vigilant", "infamy", "insight", "intimidate",
                                        "pillage", "terminal", "shadow"}
    by_set: dict[str, list] = {}
    for card in pool:
        if not card.text or card.text_lang not in ("", "en") or not card.abilities or not is_lcg_json_card(card):
            continue  # only the official English text of the LCG JSON is compared
        mine = card_text(card)
        if not mine:
            continue
        by_set.setdefault(card.set or "?", []).append((mentions(card.text, traits, keywords, card.name),
                                                       mentions(mine, traits, keywords, card.name)))
    rows = []
    for name, pairs in by_set.items():
        totals = {}
        for kind in ("numbers", "traits", "keywords", "types"):
            official = sum(len(o[kind]) for o, _ in pairs)
            shared = sum(len(o[kind] & g[kind]) for o, g in pairs)
            totals[kind] = (shared, official)
        rows.append((name, len(pairs), totals))
    return rows


def compare_lines(pool) -> list[str]:
    rows = compare(pool)
    out = [f"{'set':<28} {'cards':>5}  {'numbers':>13}  {'traits':>13}  {'keywords':>13}  {'types':>13}"]
    grand = {k: [0, 0] for k in ("numbers", "traits", "keywords", "types")}
    n_all = 0

    def cell(shared: int, official: int) -> str:
        return f"{shared}/{official} " + (f"{100 * shared / official:3.0f}%" if official else "   -")

    for name, n, totals in sorted(rows):
        n_all += n
        for k, (s, o) in totals.items():
            grand[k][0] += s
            grand[k][1] += o
        out.append(f"{name[:28]:<28} {n:>5}  " + "  ".join(f"{cell(*totals[k]):>13}" for k in grand))
    out.append(f"{'all':<28} {n_all:>5}  " + "  ".join(f"{cell(*grand[k]):>13}" for k in grand))
    out.append("each cell: mentions of the official English text that Maester's wording also makes "
               "(a measure to improve the wording, not a test)")
    return out


def main(argv: list[str] | None = None) -> int:
    import argparse

    from cards.files import tolerant_console

    tolerant_console()
    ap = argparse.ArgumentParser(prog="python -m engine.abilities.render",
                                 description="Maester's English wording of cards, from their ability data.")
    ap.add_argument("--compare", action="store_true", required=True,
                    help="per set, how many numbers, traits, keywords and card types of the official English "
                         "text the generated text mentions too")
    ap.add_argument("--pool", metavar="FILE", help="read this card data instead of the default pool")
    args = ap.parse_args(argv)
    from cards import pool as pools

    try:
        pool = pools.load_pool(args.pool) if args.pool else pools.default_pool()
    except DataError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print("\n".join(compare_lines(pool)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
