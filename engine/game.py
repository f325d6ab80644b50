"""The game driver: ``advance()`` gives the pending decision, ``answer()`` applies one.

>>> from engine.builder import practice_game
>>> game = practice_game(seed=1)                 # doctest: +SKIP
>>> decision = game.advance()                    # doctest: +SKIP
>>> game.answer(decision.player, {"pass": True}) # doctest: +SKIP

The rules live in ``engine.flow`` as generators written in rulebook order.
This module holds what they share: card lookups, derived values (current STR,
icons, keywords), moving cards between zones, power and victory, and the log.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generator

from cards.model import CardDef
from engine import flow, triggers, visibility
from engine.decisions import Decision, GameEnded, GameOver, Refused, shown
from engine.abilities.constants import (_constant_keys, attachments_check_key, constant_map, constants_change,
                                        constants_touch, keys_with)
from engine.abilities.sources import structural_text_mods
from engine.abilities.reads import BLANK, ICONS, KEYWORDS, STRENGTH, TRAITS
from engine.state import (CardInstance, Effect, GameState, Player, Version, Window, cards_on_the_table, effects_on,
                          memo, smemo)
from engine.steady import memo as steady_memo


def _derived(freeze=None, constants: bool = True):
    """Cache a derived value of one card per state version (``engine.state.Version``): read again
    before anything changes, it costs a dictionary lookup however many cards are in play. While
    constants are being settled (GEN-06) a value that reads them is cached apart, per provisional
    view of the table (``constants=False``: the value never reads constants)."""
    def wrap(fn):
        name = fn.__name__

        def cached(self, card_id, *rest):
            d = self.__dict__
            if rest:
                return fn(self, card_id, *rest)
            if not constants:
                table = smemo(d, self.state)  # reads the structure only (Version.s)
            elif d.get("_stat_free"):  # read while working out a value the constants do not change
                return _stat_free(self, fn, name, card_id, freeze)
            elif "_constant_override" in d:
                view = d["_constant_override"]
                held = d.get("_view_memo")
                if held is None or held[0] is not view or held[1] != Version.n:
                    held = d["_view_memo"] = (view, Version.n, {})
                table = held[2]
            elif d.get("_in_constants"):
                table = memo(d).setdefault("printed view", {})
            else:
                m = d.get("_cmemo")  # constant_table's fast path, inlined: most reads end here
                if m is not None and m[0] == Version.n and m[1] is self.state:
                    table = m[4]
                elif stat is not None and stat not in constants_change(self):
                    return _stat_free(self, fn, name, card_id, freeze)  # no constant in play changes it
                else:
                    table = self.constant_table()
            key = (name, card_id)
            try:
                return table[key]
            except KeyError:
                value = fn(self, card_id)
                if freeze is not None:
                    value = freeze(value)
                table[key] = value
                return value
        stat = STAT_OF.get(name)
        cached.__name__, cached.__doc__, cached.uncached = name, fn.__doc__, fn
        return cached
    return wrap


STAT_OF = {"strength": STRENGTH, "icons": ICONS, "keywords": KEYWORDS, "is_blank": BLANK, "traits": TRAITS}
"""The derived values constants can change, by what ``reads.modify_stats`` calls them (a blank text
box has no printed keywords)."""


def _stat_free(g: "Game", fn, name: str, card_id: int, freeze):
    """A derived value no constant in play changes: worked out without the constants (so without
    settling them) and kept while the structure stays (``state.smemo``). It equals the value with them.
    The values it reads meanwhile are worked out the same way: the constants do not change them either
    (a constant that blanks, adds or takes keywords or traits from this card sends the reader to the
    value with the constants: ``has_keyword``, ``has_trait``, ``STAT_OF``)."""
    d = g.__dict__
    table = smemo(d, g.state)
    key = ("stat free", name, card_id)
    try:
        return table[key]
    except KeyError:
        pass
    held = d.get("_stat_free")
    d["_stat_free"] = True
    try:
        value = fn(g, card_id)
    finally:
        d["_stat_free"] = held
    if freeze is not None:
        value = freeze(value)
    table[key] = value
    return value

WIN_POWER = 15
DOOMED_TO_ELIMINATE = 5


@dataclass
class Options:
    prompt_all: bool = True
    """Offer every opportunity, even where only passing is legal (scenarios need this;
    the table and computer players turn it off to skip empty prompts)."""
    mode: str = "enforce"
    """``enforce``: illegal answers are refused. ``advise``: free moves are applied and warned about."""
    observer: Any = field(default=None, compare=False, repr=False)
    """Optional ``observer(kind, game, info)``: told of every window step change (``"step"``), of
    each nested save, cancel, response or passive starting (``"event"``) and of each accepted answer
    (``"answer"``). It only reads: the tutorials pause on these points and ``engine.explain`` uses
    them; games, replays and digests are the same with or without one (docs/tutorials.md)."""


Flow = Generator[Decision, dict, Any]


class Game:
    """One game: its state, its card definitions, and the rules running on them."""

    def __init__(self, state: GameState, pool: dict[str, CardDef], options: Options | None = None,
                 start_phase: str | None = None, setup_spec: Any = None):
        self.state = state
        self.pool = pool
        self.options = options or Options()
        self.setup_spec = setup_spec
        """How this game was created (decks or scenario start), for saves and replays."""
        self.history: list[tuple[str, dict]] = []
        self.pending: Decision | None = None
        self.result: GameOver | None = None
        self.warnings: list[str] = []
        """Rules the last answer broke, in advise mode."""
        self.conceded: list[str] = []
        """Players who conceded and left a game that goes on (three or four players); see ``concede``."""
        self._flow = flow.play(self, start_phase or state.phase)
        self._step(None)

    # -- the driver ------------------------------------------------------
    def advance(self) -> Decision | GameOver:
        """The pending decision, or the game's result once it is over."""
        return self.pending if self.pending is not None else self.result

    def answer(self, player: str, answer: dict) -> None:
        """Apply ``player``'s answer to the pending decision, or raise ``Refused`` (state unchanged)."""
        decision = self.pending
        if decision is None:
            raise Refused("the game is over (WIN-01)")
        if not isinstance(player, str) or player != decision.player:
            raise Refused(f"it is {decision.player}'s turn to answer ({decision.kind}), not {shown(player)}'s")
        self.warnings = []
        try:
            normalised = decision.check(answer)
        except Refused as err:
            raise self.refusal_for(player, answer, err) from None
        self.history.append((player, normalised))
        if self.options.observer is not None:
            self.options.observer("answer", self, {"decision": decision, "player": player, "answer": normalised})
        self._step(normalised)
        self._answer_for_conceded()

    def refusal_for(self, seat: str, answer: Any, err: Refused) -> Refused:
        """``err`` as ``seat`` may read it: a card the answer names whose face the seat may not see
        (another player's hand, a deck, a facedown card: engine.visibility) is called by its id, not
        its title, so sending ids cannot reveal what they are."""
        found: set[int] = set()

        def walk(v: Any, depth: int) -> None:
            if isinstance(v, bool) or depth > 4:
                return
            if isinstance(v, int):
                if v in self.state.cards:
                    found.add(v)
            elif isinstance(v, (list, tuple)):
                for x in v[:1000]:
                    walk(x, depth + 1)
            elif isinstance(v, dict):
                for k, x in list(v.items())[:1000]:
                    walk(k, depth + 1)
                    walk(x, depth + 1)

        walk(answer, 0)
        hidden = {self.name(c): c for c in sorted(found) if not visibility.may_see(self, seat, c)}
        if not hidden:
            return err
        text = str(err)
        for title in sorted(hidden, key=len, reverse=True):
            text = text.replace(title, f"card {hidden[title]}")
        return Refused(text)

    def concede(self, name: str) -> None:
        """``name`` concedes. When one other player is left, that player wins at once; with more,
        ``name`` is eliminated (his cards in play go to the bottom of their owners' decks, as in
        WIN-07) and the game goes on without him. Recorded in the history as
        ``(name, {"concede": True})``, so replays and saves concede again at the same point."""
        if self.pending is None:
            raise Refused("the game is over (WIN-01)")
        if not isinstance(name, str) or name not in self.state.player_names:
            raise Refused(f"{shown(name)} is not a player")
        if self.player(name).eliminated:
            raise Refused(f"{name} is already out of the game (WIN-07)")
        self.warnings = []
        self.history.append((name, {"concede": True}))
        others = [p.name for p in self.state.players if not p.eliminated and p.name != name]
        if len(others) == 1:
            self.state.winner = others[0]
            self.log(f"{name} concedes: {others[0]} wins.")
            self.pending = None
            self.result = GameOver(others[0], self.state.log[-1])
            return
        self.eliminate(name, reason="concedes")
        self.conceded.append(name)
        self.update_challenge_participants()
        self._answer_for_conceded()

    def _answer_for_conceded(self) -> None:
        """A question to a player who conceded gets the least answer (pass, no defenders, the fewest
        picks), not recorded: replaying the concession gives it again."""
        while self.pending is not None and self.pending.player in self.conceded:
            d = self.pending
            candidates = ([{"pass": True}] if d.can_pass else []) + [
                {"defend": []}, {"choose": list(d.choices[:d.min_count])}, {"order": list(d.choices)},
                {"pass": True}, {"done": True}, *d.options]
            for candidate in candidates:
                if not d.accepts_command(candidate):
                    continue
                try:
                    value = d.check(candidate)
                except Refused:
                    continue
                self._step(value)
                break
            else:
                return  # no answer found: the table asks the seat as usual

    def warn(self, player: str, text: str) -> None:
        """Advise mode: record a rule the last answer broke (the table shows ``warnings``)."""
        self.warnings.append(text)
        self.log(f"advice: {player}: {text}")

    def _step(self, value: dict | None) -> None:
        try:
            self.pending = self._flow.send(value) if value is not None else next(self._flow)
        except GameEnded:
            self.pending = None
        except StopIteration:
            self.pending = None
            if self.state.winner is None:
                self.state.winner = "draw"
                self.log("The game ends without a winner.")
        if self.pending is None:
            self.result = GameOver(self.state.winner or "draw", self.state.log[-1] if self.state.log else "")

    def observe(self, kind: str, **info: Any) -> None:
        """Tell the options' observer (if any) about a point of the flow; nothing changes."""
        if self.options.observer is not None:
            self.options.observer(kind, self, info)

    def ask(self, decision: Decision) -> Flow:
        """Yield a decision unless it is an empty opportunity the options let us skip."""
        if not self.options.prompt_all and decision.only_pass:
            return {"pass": True}
        if self.state.winner is not None:
            raise GameEnded()
        answer = yield decision
        return answer

    def end_by_free_move(self) -> None:
        """Advise mode: a free move may decide the game (15 power, five Doomed cards), or already has
        (a manual tool checks victory itself): the game ends as after an answer, with no open decision."""
        try:
            self.check_victory()
            self.check_doomed()
        except GameEnded:
            pass
        if self.state.winner is not None:
            self.pending = None
            self.result = GameOver(self.state.winner, self.state.log[-1])

    def constant_table(self) -> dict:
        """The table of values that read the structure (``engine.state.Version.s``) and the constants
        in force (``constants.constant_map``, settled again only when something they read changed): a
        card's STR, keywords, abilities... are kept while neither changes, e.g. while cards kneel and
        stand. Only for reads outside the settling of constants."""
        d = self.__dict__
        st = self.state
        m = d.get("_cmemo")
        if m is not None and m[0] == Version.n and m[1] is st:
            return m[4]
        cm = constant_map(self) if _constant_keys(self) else None
        if m is None or m[1] is not st or m[2] != Version.s or m[3] is not cm:
            m = (Version.n, st, Version.s, cm, {})
        else:
            m = (Version.n, st, m[2], cm, m[4])
        d["_cmemo"] = m
        return m[4]

    # -- lookups -----------------------------------------------------------
    def card(self, card_id: int) -> CardInstance:
        return self.state.cards[card_id]

    def defn(self, card_id: int) -> CardDef:
        return self.pool[self.state.cards[card_id].key]

    def name(self, card_id: int) -> str:
        return self.defn(card_id).name

    def player(self, name: str) -> Player:
        players = self.state.players
        held = self.__dict__.get("_players_by_name")
        if held is None or held[0] is not players or held[1] != Version.s:  # the seats are structure
            held = self.__dict__["_players_by_name"] = (players, Version.s, {p.name: p for p in players})
        found = held[2].get(name)
        return found if found is not None else self.state.player(name)  # unknown: KeyError

    @property
    def first_player(self) -> str:
        return self.state.first_player or self.state.players[0].name

    def opponents(self, name: str) -> list[str]:
        return [n for n in self.state.clockwise_from(name) if n != name]

    def characters(self, name: str, *, standing: bool | None = None) -> list[int]:
        """Characters ``name`` controls in play (moribund ones included: they are still in play)."""
        out = []
        for cid in self.player(name).in_play:
            if self.card_type(cid) == "character" and not self.card(cid).facedown:
                if standing is None or self.card(cid).kneeling != standing:
                    out.append(cid)
        return out

    def in_play_cards(self, name: str) -> list[int]:
        """Every card ``name`` controls in play, attachments included (not duplicates), and the
        attachments on his House card (which is in play too, ZON-04). Cached per state version."""
        table = smemo(self.__dict__, self.state)
        key = ("in_play_cards", name)
        found = table.get(key)
        if found is None:
            found = table[key] = self._in_play_cards(name)
        return list(found)

    def _in_play_cards(self, name: str) -> list[int]:
        p = self.player(name)
        cards = self.state.cards
        out = list(cards[p.house_card].attachments) if p.house_card is not None else []
        for p in self.state.players:
            for cid in p.in_play:
                c = cards[cid]
                if c.controller == name:
                    out.append(cid)
                for aid in c.attachments:
                    if cards[aid].controller == name:
                        out.append(aid)
        return out

    # -- derived values (LST-02..04): printed values plus lasting effects -------
    def _effects_on(self, card_id: int, stat: str) -> list[Effect]:
        return effects_on(self.__dict__, self.state, card_id, stat)

    def card_type(self, card_id: int) -> str:
        """The current type: a card attached to another is an attachment only (EFF-13, ATT-04). Read
        from the card and the lasting effects each time: cheaper than any cache of it."""
        st = self.state
        c = st.cards[card_id]
        if c.zone == "attached":
            return "attachment"
        if c.zone == "agenda":  # a character placed as the agenda is an agenda (the Five Kings agendas)
            return "agenda"
        if st.effects:  # EFF-12: a card that becomes a character is only a character
            for e in effects_on(self.__dict__, st, card_id, "type"):
                return e.value
        return self.pool[c.key].type

    def _constants(self, card_id: int) -> list[dict]:
        """Constant abilities in play that modify this card now (EFF-06: recalculated all the time)."""
        return triggers.constant_modifiers(self, card_id)

    @_derived(None)
    def strength(self, card_id: int) -> int:
        """Printed STR plus the net sum of every modifier, floored at 0 once at the end (LST-02/03). A printed
        X (``strength_x``) with no ability defining it counts as 0 (docs/card-format.md)."""
        d = self.defn(card_id)
        base = d.strength or 0
        if d.strength_x:  # issue 24 (Lady of Schemes): an X its own text defines (x_is)
            base = triggers.defined_x(self, self.card(card_id).controller, card_id) or base
        constants = self._constants(card_id)
        # issue 24: "its STR cannot be lowered" (Areo Hotah): every lowering modifier is ignored
        fixed = any("lose_strength" in (m.get("cannot") or ()) for m in constants)
        keep = (lambda n: max(0, n)) if fixed else (lambda n: n)
        mods = sum(keep(e.value) for e in self._effects_on(card_id, "strength"))
        printed = [int(m["printed_strength"]) for m in constants if "printed_strength" in m]
        if printed and not fixed:  # issue 24: "its printed STR is reduced to 0" (Under the Guild's Sway)
            base = min([base] + printed)
        mods += sum(keep(int(m.get("strength", 0))) for m in constants)
        if any("strength_per_attachment" in m for m in constants):  # core-b: Power and Wealth
            n = len(self.card(card_id).attachments)
            mods += sum(keep(int(m.get("strength_per_attachment", 0)) * n) for m in constants)
        if any("strength_per_power" in m for m in constants):  # issue 24: Stannis Baratheon (ITE Legacy)
            n = self.card(card_id).power
            mods += sum(keep(int(m.get("strength_per_power", 0)) * n) for m in constants)
        return max(0, base + mods)

    def _netted(self, card_id: int, printed: set, add_stat: str, remove_stat: str, add_key: str,
                remove_key: str, values: tuple | None = None) -> set:
        """Additions and removals netted; at most one of each (LST-04)."""
        counts: dict = {v: 1 for v in printed}
        for e in self._effects_on(card_id, add_stat):
            counts[e.value] = counts.get(e.value, 0) + 1
        for e in self._effects_on(card_id, remove_stat):
            counts[e.value] = counts.get(e.value, 0) - 1
        for m in self._constants(card_id):
            for v in m.get(add_key, []) or []:
                counts[v] = counts.get(v, 0) + 1
            for v in m.get(remove_key, []) or []:
                counts[v] = counts.get(v, 0) - 1
        return {v for v, n in counts.items() if n > 0 and (values is None or v in values)}

    @_derived(frozenset)
    def icons(self, card_id: int) -> set[str]:
        return self._netted(card_id, set(self.defn(card_id).icons), "icon+", "icon-", "add_icons",
                            "remove_icons", ("military", "intrigue", "power"))

    def is_facedown_attachment(self, card_id: int) -> bool:
        c = self.state.cards[card_id]
        return c.facedown and c.zone == "attached" and self.state.phase != "setup"

    @_derived(None)
    def is_blank(self, card_id: int, constants: list[dict] | None = None) -> bool:
        """The printed text box is blanked (PLT-11, EFF-03/05): printed abilities, keywords and the
        gold, influence and initiative icons are gone; traits, icons and gained text stay."""
        if self.blank_by_structure(card_id):
            return True
        mods = self._constants(card_id) if constants is None else constants
        return any(m.get("blank") for m in mods)

    @_derived(frozenset)
    def keywords(self, card_id: int) -> set[str]:
        printed = set() if self.is_blank(card_id) else set(self.defn(card_id).keywords)
        return self._netted(card_id, printed, "keyword+", "keyword-", "add_keywords", "remove_keywords")

    def bonus(self, card_id: int, what: str) -> int:
        """A card's income, initiative or influence icon (0 when its text box is blank)."""
        if self.card(card_id).facedown or self._blank_now(card_id):
            return 0
        value = getattr(self.defn(card_id), what)
        if what == "influence" and value > 0:  # issue 24: Taxed at Swordpoint doubles printed influence
            value *= triggers.influence_factor(self, card_id)
        if what == "income" and triggers.constants_modify(self, "income"):  # issue 24: Burned Fields (ITE)
            value = max(0, value + sum(int(m.get("income", 0)) for m in self._constants(card_id)))
        return value

    def _blank_now(self, card_id: int) -> bool:
        """``is_blank``, read from the structure when it decides every card's text
        (``structural_text_mods``): then no constant needs settling to know it."""
        d = self.__dict__
        text = structural_text_mods(self) if "_constant_override" not in d and not d.get("_in_constants") else None
        if text is None:
            return self.is_blank(card_id)
        return self.blank_by_structure(card_id) or any(m.get("blank") for m in text.get(card_id, ()))

    def blank_by_structure(self, card_id: int) -> bool:
        """A text box blank without any constant: a lasting blank (EFF-03) or a facedown attachment
        (ATT-04: no traits, no abilities, no type but attachment)."""
        return bool(effects_on(self.__dict__, self.state, card_id, "blank")) or self.is_facedown_attachment(card_id)

    @_derived(frozenset)
    def traits(self, card_id: int) -> set[str]:
        printed = set() if self.is_facedown_attachment(card_id) else set(self.defn(card_id).traits)
        return self._netted(card_id, printed, "trait+", "trait-", "add_traits", "remove_traits")

    def has_keyword(self, card_id: int, keyword: str) -> bool:
        """The card has the keyword now. When no constant in play adds or takes it away (or blanks),
        printed keywords and lasting effects answer, without settling the constants."""
        if constants_touch(self, KEYWORDS, keyword, card_id):
            return keyword in self.keywords(card_id)
        return keyword in _stat_free(self, Game.keywords.uncached, "keywords", card_id, frozenset)

    def immunities(self, card_id: int) -> set[str]:
        """What the card's "immune to ..." keywords name (IMM-01), read like ``has_keyword``: without
        settling the constants when none of them can give or take one."""
        if self._unprotected(card_id):
            return set()
        if constants_touch(self, KEYWORDS, "immune to ", card_id, prefix=True):
            kws = self.keywords(card_id)
        else:
            kws = _stat_free(self, Game.keywords.uncached, "keywords", card_id, frozenset)
        return {k[len("immune to "):] for k in kws if k.startswith("immune to ")}

    def crests(self, card_id: int) -> set[str]:
        """Printed crests plus those constants add (issue 24: ``add_crests``, the Iron Throne Edition's
        Boons); a crest is not a trait."""
        have = set(self.defn(card_id).crest)
        if triggers.constants_modify(self, "add_crests"):
            for m in self._constants(card_id):
                have |= set(m.get("add_crests") or ())
        return have

    def has_trait(self, card_id: int, trait: str) -> bool:
        """The card has the trait now (printed or gained), read like ``has_keyword``."""
        if constants_touch(self, TRAITS, trait, card_id):
            return trait in self.traits(card_id)
        return trait in _stat_free(self, Game.traits.uncached, "traits", card_id, frozenset)

    def total_power(self, name: str) -> int:
        """House power plus power on characters the player controls in play (C-19)."""
        p = self.player(name)
        total = self.card(p.house_card).power if p.house_card is not None else 0
        if triggers.prohibited(self, name, "character_power") is not None:
            return total  # core-d: Melisandre, power on the characters does not count
        return total + sum(self.card(c).power for c in self.characters(name))

    def house_power(self, name: str) -> int:
        p = self.player(name)
        return self.card(p.house_card).power if p.house_card is not None else 0

    def initiative(self, name: str) -> int:
        """Revealed plot initiative plus bonuses of cards the player controls, kneeling too (PLT-06)."""
        p = self.player(name)
        total = self.defn(p.revealed_plot).initiative if p.revealed_plot is not None else 0
        total += self.bonus(p.house_card, "initiative") if p.house_card is not None else 0
        total += triggers.extra_initiative(self, name)  # issue 24: Mountain Bandits
        return total + sum(self.bonus(c, "initiative") for c in self.in_play_cards(name))

    def income(self, name: str) -> int:
        """Plot income plus income bonuses of cards the player controls, kneeling too (MAR-02)."""
        p = self.player(name)
        total = self.defn(p.revealed_plot).income if p.revealed_plot is not None else 0
        if total and triggers.prohibited(self, name, "plot_income") is not None:
            total = 0  # core-b: Blockade
        total += triggers.extra_prohibited(self, name, "extra_income")  # issue 24: A Beggared Realm
        total += self.bonus(p.house_card, "income") if p.house_card is not None else 0
        if triggers.prohibited(self, name, "income_bonuses") is not None:
            return total  # core-b: Rains of Autumn (characters, locations and attachments)
        return total + sum(self.bonus(c, "income") for c in self.in_play_cards(name))

    def claim(self, name: str) -> int:
        p = self.player(name)
        if p.revealed_plot is None:
            return 0
        changed = sum(int(e.value) for e in self._effects_on(p.revealed_plot, "claim"))  # core-b
        changed += triggers.extra_claim(self, name)  # issue 24: Dragonstone
        return max(0, self.defn(p.revealed_plot).claim + changed)

    def gold_penalty(self, name: str, card_id: int) -> int:
        """+2 gold for a character, location or attachment of another House (MAR-07, SET-06)."""
        d = self.defn(card_id)
        if d.type in ("character", "location", "attachment") and d.house and \
                self.player(name).house not in d.house:
            return 2
        return 0

    def extra_limited_allowed(self, name: str, card_id: int) -> bool:
        """Issue 24: ``name`` may play ``card_id`` as his additional Limited card this round (Arianne's
        Admirer, Taxation)."""
        return triggers.extra_limited_allowed(self, name, card_id)

    def discard_sealed(self) -> bool:
        """Issue 24 (Sealed Mine): a ``prohibit: {what: leave_discard}`` is in play: no card effect takes a card
        out of a discard pile (the effects' selectors and targets skip them)."""
        return any(triggers.prohibited(self, p.name, "leave_discard") is not None for p in self.state.players)

    def doomed_in_dead(self, name: str) -> int:
        """The Doomed cards in the player's dead pile, for elimination; plus those a card in play makes him
        count (issue 24: Great Pyramid of Meereen)."""
        return sum(1 for c in self.player(name).dead if self.defn(c).doomed) + triggers.extra_doomed(self, name)

    # -- the log -------------------------------------------------------------
    def log(self, text: str) -> None:
        phase = self.state.phase
        self.state.log.append(f"R{self.state.round} {phase}: {text}")

    # -- windows ---------------------------------------------------------------
    def open_window(self, kind: str, name: str, initiator: str | None) -> Window:
        window = Window(kind=kind, name=name, initiator=initiator)
        self.state.windows.append(window)
        return window

    def close_window(self, window: Window) -> None:
        self.state.windows.remove(window)
        if not self.state.windows:
            self.state.revealed.clear()  # cards revealed by hand, and looks at a deck, end with the window
            self.state.looking.clear()

    # -- moving cards -------------------------------------------------------------
    def _detach_from_location(self, cid: int) -> None:
        """Take a card out of whatever list holds it (no other bookkeeping)."""
        c = self.card(cid)
        if c.zone in ("attached", "duplicate"):
            host = self.card(c.attached_to)
            (host.attachments if c.zone == "attached" else host.duplicates).remove(cid)
            c.attached_to = None
        elif c.zone == "in_play":
            self.player(c.controller).in_play.remove(cid)
        elif c.zone == "revealed_plot":  # its revealer's: the owner's, unless plot decks were switched
            self.player(c.controller).revealed_plot = None
        elif c.zone == "played":
            self.player(c.owner).played.remove(cid)
        elif c.zone in ("deck", "hand", "discard", "dead", "plot_deck", "used_plots"):
            self.player(c.owner).pile(c.zone).remove(cid)
        elif c.zone in ("house", "agenda"):
            raise ValueError("House cards and agendas never leave their place (ZON-04/05)")

    def move_to_pile(self, cid: int, zone: str, *, top: bool = True) -> None:
        """Put a card into its owner's pile. Discard/dead piles grow at the end (their top)."""
        c = self.card(cid)
        if c.tokens.get("gold") and c.zone in ("in_play", "attached"):
            self.log(f"the {c.tokens['gold']} gold on {self.name(cid)} returns to the treasury")
        came_from = c.zone
        self._detach_from_location(cid)
        pile = self.player(c.owner).pile(zone)
        if zone == "deck":
            pile.insert(0 if top else len(pile), cid)
        else:
            pile.append(cid)
        c.zone = zone
        c.controller = c.owner
        c.kneeling = False
        c.power = 0
        c.facedown = False
        c.moribund = None
        c.x = 0
        c.tokens = {}
        c.note = ""
        if zone == "discard" and came_from in ("hand", "deck") and self.state.window is not None:
            if came_from == "hand":  # issue 24: Pirate of Pyke
                self.state.window.gates.append({"event": "discarded_from_hand", "card": cid, "player": c.owner})
            else:  # issue 24: Roseroad Watchmen
                self.state.window.gates.append({"event": "discarded_from_deck", "card": cid, "player": c.owner})

    def put_in_play(self, cid: int, controller: str, *, kneeling: bool = False, facedown: bool = False) -> None:
        self._detach_from_location(cid)
        c = self.card(cid)
        c.zone = "in_play"
        c.controller = controller
        c.kneeling = kneeling
        c.facedown = facedown
        self.player(controller).in_play.append(cid)
        if not (kneeling or facedown):
            source = triggers.enters_kneeling(self, cid)  # issue 24: King's Landing, Muddy Way
            if source is not None:
                c.kneeling = True
                self.log(f"{self.name(cid)} enters play kneeling ({self.name(source)})")

    def attach(self, cid: int, host: int, controller: str, *, duplicate: bool = False) -> None:
        self._detach_from_location(cid)
        c = self.card(cid)
        c.zone = "duplicate" if duplicate else "attached"
        c.attached_to = host
        c.controller = controller
        c.kneeling = False
        (self.card(host).duplicates if duplicate else self.card(host).attachments).append(cid)

    def draw(self, name: str, count: int, *, by_effect: bool, enforce_cap: bool = True) -> int:
        """Draw one card at a time (DRW-02); card-effect draws respect the cap (DRW-03/05)."""
        p = self.player(name)
        drawn = 0
        for _ in range(count):
            if by_effect and enforce_cap and p.drawn_this_round >= 3:
                self.log(f"{name} cannot draw more: the draw cap of 3 card-effect draws is reached")
                break
            if not p.deck:
                break
            cid = p.deck[0]
            self.move_to_pile(cid, "hand")
            drawn += 1
            if by_effect:
                p.drawn_this_round += 1
            if self.state.window is not None and self.state.phase != "setup":  # once per card (DRW-02)
                self.state.window.gates.append({"event": "card_drawn", "player": name})
        return drawn

    def shuffle_deck(self, name: str) -> None:
        """Shuffle a player's deck with the game's RNG (not in a scenario with ``shuffle: false``)."""
        if self.state.shuffle:
            self.state.rng.shuffle(self.player(name).deck)

    def set_controller(self, cid: int, name: str) -> None:
        """Move a card in play to another player's control (CTL-01: duplicates go with it)."""
        c = self.card(cid)
        if c.zone != "in_play" or c.controller == name:
            return
        self.player(c.controller).in_play.remove(cid)
        c.controller = name
        for dup in c.duplicates:
            self.card(dup).controller = name
        self.player(name).in_play.append(cid)
        self.update_challenge_participants()  # CHL-09: it leaves the challenge at once

    def _release_control(self, attachment: int) -> None:
        """CTL-02: control granted by an attachment ends when the attachment leaves play."""
        host = self.card(attachment).attached_to
        # the printed text counts even while blanked: the control it gave ends with it (ATT-02)
        printed = any(isinstance(a, dict) and a.get("control_host") for a in self.defn(attachment).abilities)
        if host is None or not (printed or any(ab.control_host for ab in triggers.abilities(self, attachment))):
            return
        if self.card(host).zone == "in_play" and self.card(host).controller != self.card(host).owner:
            self.set_controller(host, self.card(host).owner)
            self.log(f"{self.name(host)} returns to {self.card(host).owner}'s control")

    def leave_play(self, cid: int, destination: str) -> None:
        """A card physically leaves play: attachments and duplicates to their owners' discard piles,
        power back to the pool, lasting effects on it end (MOR-07, ATT-03, UNQ-10)."""
        self._clear_for_leaving(cid)
        if destination == "deck_bottom":
            self.move_to_pile(cid, "deck", top=False)
        elif destination == "deck_top":
            self.move_to_pile(cid, "deck", top=True)
        elif destination == "deck_shuffled":  # issue 24: "shuffle it into its deck instead" (Ser Barristan)
            self.move_to_pile(cid, "deck", top=True)
            self.shuffle_deck(self.card(cid).owner)
        elif destination == "removed":  # issue 24: removed from the game: in no pile, face up for everyone
            self._lay_out_of_play(cid, "removed")
        else:
            self.move_to_pile(cid, destination)

    def _lay_out_of_play(self, cid: int, zone: str) -> None:
        """A card that left play goes to ``zone``, outside every pile (``removed``, ``agenda``): its gold
        returns to the treasury, and it lies face up, standing, without power, under its owner's control."""
        c = self.card(cid)
        if c.tokens.get("gold"):
            self.log(f"the {c.tokens['gold']} gold on {self.name(cid)} returns to the treasury")
        self._detach_from_location(cid)
        c.zone, c.controller, c.kneeling, c.power, c.facedown = zone, c.owner, False, 0, False
        c.moribund, c.x, c.tokens, c.note = None, 0, {}, ""

    def _clear_for_leaving(self, cid: int) -> None:
        c = self.card(cid)
        if c.zone == "attached":
            self._release_control(cid)
        for aid in list(c.attachments) + list(c.duplicates):
            if self.card(aid).zone == "duplicate":
                self.move_to_pile(aid, "discard")  # a duplicate has no text (UNQ-06)
            elif self.card(aid).moribund is None:
                self.move_to_pile(aid, self.from_play_destination(aid, "discard"))  # ATT-03, KW-04
        self.state.effects = [e for e in self.state.effects if e.target != cid and e.until != f"in_play:{cid}"]

    def place_as_agenda(self, cid: int) -> None:
        """A character in play becomes its owner's agenda (the Five Kings agenda characters): it leaves
        play like any card (its attachments, duplicates, power and lasting effects go) and lies on the
        House card as the agenda (ZON-05; the FAQ: it has left play)."""
        self._clear_for_leaving(cid)
        self._lay_out_of_play(cid, "agenda")
        self.player(self.card(cid).owner).agenda = cid
        self.update_challenge_participants()  # CHL-09: a participant that leaves play leaves the challenge

    def remove(self, cid: int, destination: str) -> bool:
        """Kill, discard or return a card in play. Inside an action window it becomes
        moribund until step 6 (MOR-01); outside one it leaves at once. False if it cannot
        be removed (already moribund: MOR-03)."""
        c = self.card(cid)
        if c.moribund is not None:
            return False
        if c.zone not in ("in_play", "attached", "played"):
            return False  # it left play meanwhile (WIN-07: its player is out): nothing to remove
        if destination == "dead" and self.cannot(cid, "be_killed"):
            self.log(f"{self.name(cid)} cannot be killed")
            return False
        if destination == "discard" and self.cannot(cid, "be_discarded"):  # core-c
            self.log(f"{self.name(cid)} cannot be discarded from play")
            return False
        guard = triggers.replaced_kill(self, cid) if destination == "dead" else None
        if guard is not None:  # core-c: a replacement effect (MOR-10), Bronn
            self.card(guard).kneeling = False
            self.log(f"{self.name(guard)} stands instead of {self.name(cid)} being killed")
            return False
        destination = self.from_play_destination(cid, destination)
        if destination == "discard" and self.cannot(cid, "be_discarded"):
            self.log(f"{self.name(cid)} cannot be discarded")  # core-d: GEN-04
            return False
        if self.state.windows:
            c.moribund = destination
            for aid in c.attachments:
                if self.card(aid).moribund is None:
                    self.card(aid).moribund = self.from_play_destination(aid, "discard")  # ATT-03, KW-04
        else:
            self.leave_play(cid, destination)
        return True

    def from_play_destination(self, cid: int, destination: str) -> str:
        """Where a card leaving play really goes: killed, only a printed character goes to the dead
        pile (EFF-12); a face-up Deathbound card that would be discarded from play goes to the dead
        pile instead, whatever its type (KW-04, MOR-10). A facedown attachment has no keywords (ATT-04)."""
        if destination == "dead" and self.defn(cid).type != "character":
            destination = "discard"
        if destination == "discard" and self.has_keyword(cid, "deathbound"):
            destination = "dead"
        return destination

    def resolve_moribund(self) -> None:
        """Step 6: every moribund card leaves play together, to its owner's pile (MOR-07)."""
        cards = self.state.cards
        # a card that moves to a pile loses its mark (move_to_pile), and remove() marks only cards in
        # play or being played: the cards on the table are the ones to look at
        marked = sorted(cid for cid in cards_on_the_table(self.__dict__, self.state)
                        if cards[cid].moribund is not None)
        for cid in marked:
            c = self.card(cid)
            if c.moribund is None or c.zone not in ("in_play", "attached", "played"):
                continue
            dest = c.moribund
            where = {"dead": "dead pile", "discard": "discard pile", "hand": "hand", "deck_top": "deck",
                     "deck_bottom": "deck", "deck_shuffled": "deck", "removed": "cards removed from the game"}[dest]
            if c.zone != "played":
                self.log(f"{self.name(cid)} leaves play to {c.owner}'s {where}")
            self.leave_play(cid, dest)
        for cid in marked:
            self.card(cid).moribund = None
        self.discard_illegal_attachments()
        if self.end_conflict() is None:  # else the first player orders them (flow.ordered_end, WIN-06)
            self.check_doomed()
            if marked:  # power that counts again as a card leaves (Melisandre) wins at once (WIN-01)
                self.check_victory()

    def end_conflict(self) -> tuple[list[str], list[str]] | None:
        """(players with 15 power, players with five Doomed cards in the dead pile) when a win and an
        elimination condition hold at once (WIN-06, C-10: the first player orders them); else None."""
        if self.state.winner is not None:
            return None
        held = self.__dict__.get("_doomed_checked")  # nobody is doomed while the dead piles stay (check_doomed)
        if held is not None and held[0] == Version.s and held[1] is self.state:
            return None
        living = self.state.clockwise_from(self.first_player)
        doomed = [n for n in living if self.doomed_in_dead(n) >= DOOMED_TO_ELIMINATE]
        if not doomed:
            self.__dict__["_doomed_checked"] = (Version.s, self.state)
            return None
        winners = [n for n in living if self.total_power(n) >= self.power_to_win(n)]
        return (winners, doomed) if winners else None

    def power_to_win(self, name: str) -> int:
        """15 (WIN-01), plus what cards in play add for this player (issue 24: Balon's Follower)."""
        return WIN_POWER + triggers.extra_power_to_win(self, name)

    def discard_illegal_attachments(self) -> None:
        """ATT-02, KW-08: an attachment whose restriction is no longer met is discarded at once. A check
        that found every restriction met is not repeated until something it reads has changed
        (``constants.attachments_check_key``)."""
        key = attachments_check_key(self)
        held = self.__dict__.get("_attachments_met")
        if held is not None and held[0] is key[0] and held[1:] == key[1:]:
            return
        discarded = False
        for p in self.state.players:
            for host in list(p.in_play):
                for aid in list(self.card(host).attachments):
                    c = self.card(aid)
                    if c.facedown or c.moribund is not None:
                        continue
                    bad = self.has_keyword(host, "no attachments") or \
                        triggers.attachment_restriction_problem(self, aid, host, c.owner)
                    if bad:
                        self.log(f"{self.name(aid)} is discarded: its attachment restriction is not met")
                        self.leave_play(aid, self.from_play_destination(aid, "discard"))
                        discarded = True
        self.__dict__["_attachments_met"] = None if discarded else key

    # -- power, victory, elimination -----------------------------------------------
    def claim_house_power(self, name: str, amount: int) -> None:
        if amount <= 0:
            return
        stop = triggers.prohibited(self, name, "claim_house_power")
        if stop is not None:  # ZON-08: this stops claiming, never moving power
            self.log(f"{name} cannot claim power for House ({self.name(stop[0])})")
            return
        self.card(self.player(name).house_card).power += amount
        if self.state.window is not None:  # issue 24: Renly Baratheon's agenda
            self.state.window.gates.append({"event": "house_power_claimed", "player": name, "amount": amount})
        self.check_victory()

    def add_card_power(self, cid: int, amount: int) -> None:
        self.card(cid).power += amount
        self.check_victory()

    def check_victory(self) -> None:
        """15 power wins at once (WIN-01); the first player's order breaks simultaneous wins (C-22)."""
        if self.state.winner is not None:
            return
        for name in self.state.clockwise_from(self.first_player):
            if self.total_power(name) >= self.power_to_win(name):
                self.state.winner = name
                self.log(f"{name} wins with {self.total_power(name)} power.")
                raise GameEnded()

    def check_doomed(self) -> None:
        """Five Doomed cards in the dead pile eliminate a player (WIN-04/05)."""
        if self.state.winner is not None:
            return
        held = self.__dict__.get("_doomed_checked")  # the dead piles are structure
        if held is not None and held[0] == Version.s and held[1] is self.state:
            return
        living = [p for p in self.state.players if not p.eliminated]
        doomed = [p for p in living if self.doomed_in_dead(p.name) >= DOOMED_TO_ELIMINATE]
        if not doomed:
            self.__dict__["_doomed_checked"] = (Version.s, self.state)
            return
        if len(doomed) == len(living):
            self.state.winner = "draw"
            self.log("Every player has five Doomed cards in the dead pile: the game is a draw.")
            raise GameEnded()
        for p in doomed:
            self.eliminate(p.name)
        living = [p for p in self.state.players if not p.eliminated]
        if len(living) == 1:
            self.state.winner = living[0].name
            self.log(f"{living[0].name} wins: every other player is eliminated.")
            raise GameEnded()

    def eliminate(self, name: str, reason: str = "five Doomed cards in the dead pile") -> None:
        """WIN-07: every card the player owns or controls in play goes to the bottom of its owner's
        deck, attachments and duplicates too."""
        p = self.player(name)
        p.eliminated = True
        self.log(f"{name} is eliminated: {reason}." if reason != "concedes" else f"{name} concedes and is "
                 f"eliminated.")
        leaving = [cid for cid, c in self.state.cards.items()
                   if c.zone in ("in_play", "attached", "duplicate") and (c.owner == name or c.controller == name)]
        for cid in leaving:
            c = self.card(cid)
            if c.zone not in ("in_play", "attached", "duplicate"):
                continue
            for aid in list(c.attachments) + list(c.duplicates):
                self.move_to_pile(aid, "deck", top=False)
            self.state.effects = [e for e in self.state.effects if e.target != cid]
            self.move_to_pile(cid, "deck", top=False)

    def update_challenge_participants(self) -> None:
        """Characters that left play, or changed control, stop participating at once (CHL-08/09)."""
        ch = self.state.challenge
        if ch is None or ch.resolved or ch.ended:
            return
        ch.attackers = [c for c in ch.attackers if self.card(c).zone == "in_play"
                        and self.card(c).controller == ch.attacker]
        ch.defenders = [c for c in ch.defenders if self.card(c).zone == "in_play"
                        and self.card(c).controller == ch.defender]

    # -- expiry of lasting effects ------------------------------------------------------
    def expire(self, until: str) -> None:
        for e in self.state.effects:  # control taken "until the end of the phase" goes back (CTL-01)
            if e.until == until and e.stat == "control":
                c = self.card(e.target)
                if c.zone == "in_play" and c.controller == e.value and c.controller != c.owner:
                    self.set_controller(e.target, c.owner)
                    self.log(f"{c.owner} takes control of {self.name(e.target)} back")
            if e.until == until and e.stat == "plot_swap":  # issue 24: Lady Stoneheart's exchange ends
                first, second, other = e.value
                a, b = self.player(first), self.player(second)
                if b.revealed_plot == e.target and a.revealed_plot == other:
                    a.revealed_plot, b.revealed_plot = e.target, other
                    self.card(e.target).controller, self.card(other).controller = first, second
                    self.log(f"{first} and {second} take their own revealed plots back")
        self.state.effects = [e for e in self.state.effects if e.until != until]
        self.state.granted = [x for x in self.state.granted if x["until"] != until]
        self.state.reducers = [r for r in self.state.reducers if r["until"] != until]

    # --- core-b additions ---
    def cannot(self, card_id: int, what: str) -> bool:
        """A constant or a lasting effect says this card cannot do ``what`` now: be_killed, be_discarded,
        defend, stand, be_removed_from_challenge..."""
        if what in ("be_killed", "be_discarded") and self._unprotected(card_id):
            return False
        return (any(e.value == what for e in self._effects_on(card_id, "cannot"))
                or any(what in (m.get("cannot") or ()) for m in self._constants(card_id)))

    def _unprotected(self, card_id: int) -> bool:
        """Issue 24 (Catelyn Stark's agenda, ``allows: [no_protection]``): characters lose their
        "cannot be killed", "cannot be discarded" and immunities."""
        return triggers.allowed(self, "no_protection") and self.card_type(card_id) == "character"

    def attach_problem(self, cid: int, host: int, player: str) -> str | None:
        """Why ``cid`` cannot be attached to ``host`` now (ATT-01, KW-08), or None."""
        if self.has_keyword(host, "no attachments"):
            return f"{self.name(host)} takes no attachments (KW-08)"
        return triggers.attachment_restriction_problem(self, cid, host, player)

    # --- core-c additions ---
    def uncounted(self, card_id: int) -> bool:
        """The card's STR does not count in the challenge (``not_counted``: a lasting effect, or a constant's
        ``modify``, issue 24: In Eddard's Name, the Stalwart cycle)."""
        return bool(effects_on(self.__dict__, self.state, card_id, "uncounted")) or (
            triggers.constants_modify(self, "not_counted")
            and any(m.get("not_counted") is True for m in self._constants(card_id)))

    def uncounted_in_dominance(self, card_id: int) -> bool:
        """Issue 24 (Left, Right): a constant's ``not_counted: dominance``: the card's STR does not count for
        dominance (DOM-01)."""
        return triggers.constants_modify(self, "not_counted") and any(
            m.get("not_counted") == "dominance" for m in self._constants(card_id))


    # --- core-d additions ---
    def abilities(self, card_id: int) -> list:
        """The card's abilities now (printed, blanked, gained): for effects that read another card's."""
        return triggers.abilities(self, card_id)

    # --- gold tokens on cards (Tywin Lannister) ---
    def gold_tokens(self, name: str) -> list[tuple[int, int]]:
        """(card, gold) for the gold tokens ``name`` may spend as if they were in his gold pool: those on
        cards in play he controls with a ``spend_gold`` constant whose condition holds (a blanked card's
        gold stays on it but cannot be spent)."""
        keys = keys_with(self, "spend_gold")
        if keys is not None and not keys:
            return []  # no card of this game can let its gold be spent
        out = []
        cards = self.state.cards
        for cid in self.player(name).in_play:
            c = cards[cid]
            n = c.tokens.get("gold", 0)
            if n > 0 and (keys is None or c.key in keys) and triggers.spends_gold(self, cid):
                out.append((cid, n))
        return out

    def spendable_gold(self, name: str) -> int:
        """The gold ``name`` can spend now: his gold pool plus the gold tokens he may spend as if in it
        (worked out once per ``steady`` context)."""
        return steady_memo(self, ("spendable_gold", name),
                           lambda: self.player(name).gold + sum(n for _, n in self.gold_tokens(name)))

    def gold_tokens_problem(self, name: str, cost: int, from_tokens: int | None) -> str | None:
        """Why ``name`` cannot pay ``cost`` gold taking ``from_tokens`` of it from gold tokens (None: pool
        first, then tokens), or None."""
        tokens = sum(n for _, n in self.gold_tokens(name))
        pool = self.player(name).gold
        if from_tokens is None:
            return None if cost <= pool + tokens else f"gold: {cost} needed; {name} has {pool}" + \
                (f" and {tokens} on cards" if tokens else "")
        if isinstance(from_tokens, bool) or not isinstance(from_tokens, int) or from_tokens < 0:
            return "gold_tokens: a whole number of 0 or more (the gold paid from gold tokens on cards) (MAR-04)"
        if from_tokens > tokens:
            return f"gold_tokens: {name} may spend only {tokens} gold from tokens on cards (MAR-04)"
        if from_tokens > cost:
            return f"gold_tokens: the payment is only {cost} gold (MAR-04)"
        if cost - from_tokens > pool:
            return f"gold: {cost - from_tokens} from the gold pool needed; {name} has {pool} (MAR-04)"
        return None

    def spend_gold(self, name: str, cost: int, from_tokens: int | None = None) -> int:
        """Pay ``cost`` gold (what there is, up to it: advise mode may underpay): ``from_tokens`` of it from
        the gold tokens he may spend (cards in seat order), the rest from his pool; without ``from_tokens``
        the pool pays first and the tokens the rest. Returns the gold paid."""
        p = self.player(name)
        sources = self.gold_tokens(name)
        if from_tokens is None:
            from_pool = min(cost, p.gold)
            from_tokens = min(cost - from_pool, sum(n for _, n in sources))
        else:
            from_tokens = min(from_tokens, cost, sum(n for _, n in sources))
            from_pool = min(cost - from_tokens, p.gold)
        p.gold -= from_pool
        left = from_tokens
        for cid, n in sources:
            take = min(n, left)
            if take:
                c = self.card(cid)
                c.tokens["gold"] = n - take
                if not c.tokens["gold"]:
                    del c.tokens["gold"]
                self.log(f"{name} spends {take} gold from {self.name(cid)}")
                left -= take
        return from_pool + from_tokens

    def place_gold(self, cid: int, amount: int) -> None:
        """Take gold from the treasury and place it on a card as gold tokens."""
        c = self.card(cid)
        c.tokens["gold"] = c.tokens.get("gold", 0) + amount
        self.log(f"{amount} gold from the treasury is placed on {self.name(cid)} ({c.tokens['gold']} on it)")

    # --- plot decks switched between players (Varys) ---
    def plot_holder(self, name: str) -> str:
        """The player whose plot deck and used pile ``name`` uses now as his own: himself, unless an effect
        switched them with another player's until the end of the round (``state.plot_swaps``)."""
        return self.state.plot_holder(name)

    def plot_piles(self, name: str) -> Player:
        """The Player whose ``plot_deck`` and ``used_plots`` lists are ``name``'s own now."""
        return self.player(self.plot_holder(name))

