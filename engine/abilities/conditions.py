"""Conditions: the words of ``if`` (play restrictions, COS-13) and ``while`` (constants)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from engine.abilities.filters import candidates, matches
from engine.abilities.model import Ctx
from engine.abilities.registry import FROM, REGISTRY, Either, FilterSchema, Int, ListOf, TrueOnly, Words, condition
from engine.state import CHALLENGE_TYPES, PHASES

if TYPE_CHECKING:
    from engine.game import Game


@condition("self", FilterSchema(), "this card matches the filter",
        phrase=lambda v, r: "this card " + r.predicate(v))
def _self(g, want, ctx):
    return matches(g, ctx.source, want, ctx)


@condition("host", FilterSchema(), "this attachment is on a card that matches the filter",
        phrase=lambda v, r: r.host_noun + " " + r.predicate(v))
def _host(g, want, ctx):
    host = g.card(ctx.source).attached_to
    return host is not None and matches(g, host, want, ctx)


@condition("phase", Words(*PHASES), "it is this phase",
        phrase=lambda v, r: f"it is the {v} phase")
def _phase(g, want, ctx):
    return g.state.phase == want


@condition("challenge_type", Words(*CHALLENGE_TYPES, "any"), "a challenge of this type (`any`: of any type) is "
           "under way",
        phrase=lambda v, r: "a challenge is under way" if v == "any" else f"it is {r.article(v)} challenge")
def _challenge_type(g, want, ctx):
    ch = g.state.challenge
    return not (ch is None or ch.ended or want != "any" and ch.type != want)


COUNTED = FilterSchema({"count_min": Int(minimum=1), "count_max": Int(), "from": FROM},
                       form="{FILTER..., count_min: N, count_max: N, from: PILE}")


def _counted(g, want, ctx, *, any_player: bool = False, **fixed) -> bool:
    f = dict(want)
    need = f.pop("count_min", 1 if "count_max" not in f else 0)
    most = f.pop("count_max", None)
    f.update(fixed)
    n = len(candidates(g, f, ctx, any_player=any_player))
    return n >= need and (most is None or n <= most)


@condition("you_control", COUNTED, "you control at least count_min (default 1) and at most count_max cards that "
           "match",
        phrase=lambda v, r: ("you control " + r.counted(v) if v.get("from", "in_play") == "in_play"
                             else "you have " + r.counted({"owner": "you", **v})))
def _you_control(g, want, ctx):
    return _counted(g, want, ctx, controller="you")


IN_PLAY = FilterSchema({"count_min": Int(minimum=1), "count_max": Int(), "from": FROM,
                        "more_than": FilterSchema(form="FILTER")},
                       form="{FILTER..., count_min: N, count_max: N, from: PILE, more_than: FILTER}")


def _in_play_phrase(v, r) -> str:
    if "more_than" not in v:
        return "there is " + r.counted(v) + ("" if v.get("from") else " in play")
    mine = {k: x for k, x in v.items() if k != "more_than"}
    return ("there are more " + r.filter(mine, article_="", plural=True) + " than "
            + r.filter(v["more_than"], article_="", plural=True) + ("" if v.get("from") else " in play"))


@condition("in_play", IN_PLAY, "at least count_min (default 1) and at most count_max cards in play, any player's, "
           "match (with `from: PILE`: in every player's pile of that kind, \"a Doomed card in a dead pile\"); "
           "with `more_than: FILTER`, also more of them than cards in play that match that filter (\"more "
           "Night's Watch than Wildling characters in play\")",
        phrase=_in_play_phrase)
def _in_play(g, want, ctx):
    f = dict(want)
    than = f.pop("more_than", None)
    if than is not None:
        mine = {k: x for k, x in f.items() if k not in ("count_min", "count_max")}
        if len(candidates(g, mine, ctx, any_player=True)) <= len(candidates(g, dict(than), ctx, any_player=True)):
            return False
    return _counted(g, f, ctx, any_player=True)


@condition("defender_controls", COUNTED, "the defending player of the current challenge controls at least "
           "count_min (default 1) and at most count_max cards that match",
        phrase=lambda v, r: "the defending player controls " + r.counted(v))
def _defender_controls(g, want, ctx):
    ch = g.state.challenge
    if ch is None or ch.ended:
        return False
    f = dict(want)
    need = f.pop("count_min", 1 if "count_max" not in f else 0)
    most = f.pop("count_max", None)
    n = sum(1 for c in candidates(g, f, ctx) if g.card(c).controller == ch.defender)
    return n >= need and (most is None or n <= most)


@condition("you_are", Words("attacker", "defender"), "you are the attacker / defender of the challenge",
        phrase=lambda v, r: f"you are the {v}")
def _you_are(g, want, ctx):
    ch = g.state.challenge
    return not (ch is None or getattr(ch, want) != ctx.player)


@condition("you_won", TrueOnly(), "you won the current challenge",
        phrase=lambda v, r: "you won the challenge")
def _you_won(g, want, ctx):
    ch = g.state.challenge
    return not (ch is None or ch.winner != ctx.player)


CONDITIONS = REGISTRY["condition"]


def condition_holds(g: Game, cond: dict | None, ctx: Ctx) -> bool:
    if not cond:
        return True
    for key, want in cond.items():
        if not CONDITIONS[key].impl(g, want, ctx):
            return False
    return True


# --- core-b additions ---

@condition("won_by_min", Int(minimum=1), "you won the current challenge by N or more STR",
        phrase=lambda v, r: f"you won the challenge by {v} or more STR")
def _won_by_min(g, want, ctx):
    ch = g.state.challenge
    if ch is None or ch.winner != ctx.player:
        return False
    mine, theirs = (ch.attacker_strength, ch.defender_strength) if ch.winner == ch.attacker else \
        (ch.defender_strength, ch.attacker_strength)
    return mine - theirs >= want


@condition("opponents_min", Int(minimum=1), "you have N or more opponents still in the game",
        phrase=lambda v, r: f"you have {v} or more opponents")
def _opponents_min(g, want, ctx):
    return sum(1 for n in g.opponents(ctx.player) if not g.player(n).eliminated) >= want


@condition("fewer_characters", TrueOnly(), "you control fewer characters than an opponent",
        phrase=lambda v, r: "you control fewer characters than an opponent")
def _fewer_characters(g, want, ctx):
    mine = len(g.characters(ctx.player))
    return any(len(g.characters(n)) > mine for n in g.opponents(ctx.player) if not g.player(n).eliminated)


@condition("plot_income_below_yours", Words("target", "opponent"), "the revealed plot of the chosen player "
           "(target) or of your opponent has a lower printed income than yours",
        phrase=lambda v, r: f"{r.poss(v)} revealed plot has a lower printed income than yours")
def _plot_income_below_yours(g, want, ctx):
    who = [t for t in ctx.targets if isinstance(t, str)] if want == "target" else g.opponents(ctx.player)[:1]
    mine = g.player(ctx.player).revealed_plot
    if not who or mine is None or g.player(who[0]).revealed_plot is None:
        return False
    return (g.defn(g.player(who[0]).revealed_plot).income or 0) < (g.defn(mine).income or 0)


# --- core-c additions ---

@condition("challenge_of", ListOf(Words(*CHALLENGE_TYPES)), "a challenge of one of these types is under way, and "
           "you are its attacker or defender",
        phrase=lambda v, r: "you are attacking or defending in " + r.article(r.join(v, "or")) + " challenge")
def _challenge_of(g, want, ctx):
    ch = g.state.challenge
    return not (ch is None or ch.ended or ch.resolved or ch.type not in want) and \
        ctx.player in (ch.attacker, ch.defender)


# --- core-d additions ---

@condition("plots_chosen", TrueOnly(), "the plot phase is between the choice of the plots and their reveal (a "
           "window some cards open: `allows: [actions_before_reveal]`)",
        phrase=lambda v, r: "plots have been chosen but not yet revealed")
def _plots_chosen(g, want, ctx):
    return g.state.phase == "plot" and g.state.counters.get("plots_chosen") == g.state.phase_serial


# --- issue 24 (CCG Winter Edition) additions ---

@condition("unopposed", Either(TrueOnly(), Words("any"), form="true | any"),
           "you won the current (or last) challenge unopposed: as the attacker, against a defending STR of 0 "
           "(CHL-19); `any`: whoever won it",
           phrase=lambda v, r: "the challenge was won unopposed" if v == "any" else "you won the challenge unopposed")
def _unopposed(g, want, ctx):
    ch = g.state.challenge
    return ch is not None and ch.unopposed and (want == "any" or ch.winner == ctx.player)


@condition("won_challenges", ListOf(Words(*CHALLENGE_TYPES)), "you have won a challenge of each of these types this "
                                                              "phase (as the attacker or the defender)",
           phrase=lambda v, r: "you have won " + r.join([r.article(t) + " challenge" for t in v]) + " this phase")
def _won_challenges(g, want, ctx):
    won = g.player(ctx.player).challenges_won
    return all(t in won for t in want)


@condition("controls_most", FilterSchema({"player": Words("you", "opponent")},
                                         form="{FILTER..., player: you | opponent}"),
           "the player (you, the default, or an opponent) controls more cards in play that match than every other "
           "player (\"the player who controls more locations than each opponent\")",
           phrase=lambda v, r: (("you control" if v.get("player", "you") == "you" else "an opponent controls")
                                + " more " + r.filter({k: x for k, x in v.items() if k != "player"}, article_="",
                                                      plural=True) + " than each other player"))
def _controls_most(g, want, ctx):
    f = dict(want)
    who = f.pop("player", "you")
    names = [p.name for p in g.state.players if not p.eliminated]
    counts = {n: 0 for n in names}
    for c in candidates(g, f, ctx, any_player=True):
        if g.card(c).controller in counts:
            counts[g.card(c).controller] += 1
    wanted = [ctx.player] if who == "you" else [n for n in names if n != ctx.player]
    return any(n in counts and all(counts[n] > counts[m] for m in names if m != n) for n in wanted)


# --- issue 24 (CCG Winter Edition, w1) additions ---

@condition("your_strength_min", Int(minimum=1), "your total STR in the current (or last) challenge, as its attacker "
                                                "or defender, is N or more",
           phrase=lambda v, r: f"you had {v} or more total STR in the challenge")
def _your_strength_min(g, want, ctx):
    ch = g.state.challenge
    if ch is None or ctx.player not in (ch.attacker, ch.defender):
        return False
    return (ch.attacker_strength if ctx.player == ch.attacker else ch.defender_strength) >= want


@condition("revealed_plot", FilterSchema(form="FILTER"), "the revealed plot of a player (any player's) matches the "
                                                         "filter (\"while a player has an Others plot revealed\")",
           phrase=lambda v, r: "a player has " + r.filter({"type": "plot", **v}) + " revealed")
def _revealed_plot(g, want, ctx):
    return any(p.revealed_plot is not None and not p.eliminated and matches(g, p.revealed_plot, dict(want), ctx)
               for p in g.state.players)


@condition("initiative_above", Words("gate_player"), "your total initiative is higher than that of the player of the "
                                                     "gate (\"than that opponent\": the player who played the event)",
           phrase=lambda v, r: "your total initiative is higher than that player's")
def _initiative_above(g, want, ctx):
    other = (ctx.gate or {}).get("player")
    return isinstance(other, str) and other != ctx.player and g.initiative(ctx.player) > g.initiative(other)


# --- issue 24 (CCG Five Kings Edition) additions ---

@condition("would_discard", FilterSchema(form="FILTER"), "step 2 only: the effect being resolved would discard "
           "from play a card that matches (Antidote: `{host: true}`, with a `cancelable` gate)",
           phrase=lambda v, r: ("that effect would discard " + (r.host_noun if v == {"host": True} else r.filter(v))
                                + " from play"))
def _would_discard(g, want, ctx):
    ev = ctx.event
    if ev is None or (getattr(ev, "data", None) or {}).get("removal") != "discard":
        return False
    return any(matches(g, v, dict(want), ctx) for v in getattr(ev, "victims", ()) or ())


# --- issue 24 (Five Kings Edition, fk5): what a discard from the top of a deck found ---

DISCARDED = FilterSchema({"count_min": Int(minimum=1), "count_max": Int()},
                         form="{FILTER..., count_min: N, count_max: N}")


@condition("discarded", DISCARDED, "at least count_min (default 1) and at most count_max of the cards this "
           "ability's `discard_top` discarded match (\"if 2 or more non-character cards are discarded this way\": "
           "Whirlpool, Here Is My Husband)",
           phrase=lambda v, r: "the cards discarded this way include " + r.counted(v))
def _discarded(g, want, ctx):
    f = dict(want)
    need = f.pop("count_min", 1 if "count_max" not in f else 0)
    most = f.pop("count_max", None)
    n = sum(1 for c in ctx.discarded if matches(g, c, f, ctx))
    return n >= need and (most is None or n <= most)
# --- issue 24 (CCG A House of Talons) additions ---

from engine.abilities.registry import Mapping  # noqa: E402

_HOUSE_POWER_WHO = {"you": "you have", "opponent": "an opponent has", "any": "a player has",
                    "defender": "the defending player has"}


def _house_power_phrase(v, r) -> str:
    amount = (f"{v['min']} or more" if "max" not in v else f"{v['max']} or fewer" if "min" not in v
              else f"{v['min']} to {v['max']}")
    who = v.get("player", "you")
    return f"{_HOUSE_POWER_WHO[who]} {amount} power on {'your' if who == 'you' else 'his'} House card"


@condition("house_power", Mapping({"player": Words(*_HOUSE_POWER_WHO), "min": Int(), "max": Int()},
                                  form="{player: you | opponent | any | defender, min: N, max: N}",
                                  what="house_power"),
           "the power on a House card is at least `min` and at most `max`: on yours (`player: you`, the "
           "default), on an opponent's (`opponent`: any one of them), on any player's (`any`), or on the "
           "defending player's in the current challenge (`defender`) (the CCG's \"while you have 6 power or "
           "more on your House\")",
           phrase=_house_power_phrase)
def _house_power(g, want, ctx):
    who = want.get("player", "you")
    if who == "you":
        names = [ctx.player]
    elif who == "defender":
        ch = g.state.challenge
        names = [] if ch is None or ch.ended else [ch.defender]
    else:
        names = [p.name for p in g.state.players if not p.eliminated
                 and (who == "any" or p.name != ctx.player)]
    low, high = want.get("min", 0), want.get("max")
    return any(low <= g.house_power(n) and (high is None or g.house_power(n) <= high) for n in names)
