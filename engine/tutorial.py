"""Step-through tutorials: any scenario file played one moment at a time (docs/tutorials.md).

A ``TutorialSession`` plays a scenario file exactly as the scenario runner
does (the same auto-passes, ``until`` and commands), but it stops at
*frames*: every change of an action window's step and every nested save,
cancel, response or passive (told by ``Options.observer``), every narration
(``say``), every command the program plays for a player ("watch"), and every
command the learner must play ("ask": checked against the script; a wrong
answer gets the hint and changes nothing).

Frames are remembered as (answers so far, observer point) pairs: moving back
or jumping rebuilds the position through the engine's replay (the scenario
loaded again, ``engine.replay.apply_history`` with the answers so far), so a
frame looks the same whichever way it is reached. The learner's place (the
furthest frame) is never lost by moving back.

    python -m engine.tutorial                 list the lessons
    python -m engine.tutorial NAME --print    print a lesson's frames, played with the right answers
"""
from __future__ import annotations

import copy
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cards.files import run_command
from cards.pool import user_data_dir
from cards.yamlio import load_yaml_file
from engine.decisions import Decision, GameOver, Refused
from engine.explain import STEP_NAMES, STEP_RULES, Trail, event_info, explain, rule_line
from engine.game import Game, Options
from engine.replay import apply_history
from engine.scenario import ScenarioError, _Refs, check_expectations, condition_holds, load_scenario, step_command
from engine.state import GameState
from engine.wording import article

LESSONS_DIR = Path(__file__).resolve().parents[1] / "resources" / "tutorials"
PROGRESS_NAME = "tutorials.json"
MAX_AUTO = 20_000
AT_DECISION = None
"""``Frame.point`` of a frame shown at a decision (not at a point inside the engine's run)."""


# ---------------------------------------------------------------------------
# Lessons and progress
# ---------------------------------------------------------------------------

@dataclass
class Lesson:
    name: str
    """The file's stem: ``maester --tutorial NAME``."""
    path: Path
    title: str
    order: int


def lessons(folder: Path | None = None) -> list[Lesson]:
    """The curriculum, in its order (``tutorial.order``, then the file name)."""
    folder = folder or LESSONS_DIR
    out = []
    for path in sorted(folder.glob("*.yaml")):
        data = load_yaml_file(str(path), kind="scenario")
        tut = data.get("tutorial") or {}
        out.append(Lesson(path.stem, path, str(data.get("title", path.stem)), int(tut.get("order", 9999))))
    return sorted(out, key=lambda les: (les.order, les.name))


def find_lesson(name: str) -> Path:
    """A lesson by name (file stem), by number in the curriculum, or a path to any scenario file."""
    p = Path(name).expanduser()
    if p.suffix in (".yaml", ".yml") and p.is_file():
        return p
    all_lessons = lessons()
    if name.isdigit() and 1 <= int(name) <= len(all_lessons):
        return all_lessons[int(name) - 1].path
    for les in all_lessons:
        if les.name == name or les.name.split("-", 1)[-1] == name:
            return les.path
    close = [les.name for les in all_lessons if name.lower() in les.name.lower()]
    if len(close) == 1:
        return all_lessons[[les.name for les in all_lessons].index(close[0])].path
    raise FileNotFoundError(f"no lesson or scenario file '{name}'"
                            + (f"; did you mean {', '.join(close[:5])}?" if close else
                               "; python -m engine.tutorial lists the lessons"))


def progress_path() -> Path:
    return user_data_dir() / PROGRESS_NAME


def load_progress() -> dict:
    """``{lesson name: {"done": bool, "solved": n, "asked": n, "place": frame}}``; {} when none yet."""
    from cards.errors import DataError
    from cards.files import read_json_file

    if not progress_path().exists():
        return {}
    try:
        data = read_json_file(progress_path(), kind="lesson progress")  # a regular file, under its limit
    except DataError:
        return {}
    lessons = data.get("lessons") if isinstance(data, dict) else None
    if not isinstance(lessons, dict):
        return {}
    return {str(k): v for k, v in lessons.items() if isinstance(v, dict)}


def save_progress(name: str, **values: Any) -> None:
    """Remember a lesson's progress (merged into what is there); a folder that cannot be written
    is silently skipped: progress is a convenience."""
    data = load_progress()
    entry = dict(data.get(name, {}))
    if entry.get("done") and values.get("done") is False:
        values.pop("done")  # a lesson once finished stays finished
    entry.update(values)
    data[name] = entry
    path = progress_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"format": "maester-tutorials", "lessons": data}, indent=1), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass


# ---------------------------------------------------------------------------
# Frames
# ---------------------------------------------------------------------------

@dataclass
class Frame:
    kind: str
    """intro, step (a window step begins), event (a nested save/cancel/response/passive begins),
    say, watch (the program plays a command), ask (the learner plays it), refused, end, error."""
    answers: int
    """How many answers the game had accepted at this moment."""
    point: int | None
    """Index of the observer point within those answers' run, or AT_DECISION (None)."""
    text: str = ""
    rule: str | None = None
    step: int | None = None
    """The script step (1-based number in the file) this frame comes from, if any."""
    player: str | None = None
    event: dict | None = None
    passed: list[str] = field(default_factory=list)
    digest: str = ""
    hint: str = ""


@dataclass
class Verdict:
    right: bool
    text: str
    refused: str = ""


@dataclass
class View:
    """What the table shows for a frame: a game to draw (its state is the frame's), the pending
    decision (None between decisions), the event being resolved, and the explanation."""
    game: Game
    decision: Decision | None
    frame: Frame
    explanation: str


class _Recorder:
    """Observer: snapshots the state at every window step change and nested event; keeps the
    points of the answer segment asked for (``keep``: None keeps the latest segment only)."""

    def __init__(self, keep: int | None = None):
        self.trail = Trail()
        self.keep = keep
        self.segment = 0
        self.points: list[dict] = []
        self.fresh: list[dict] = []
        """Points recorded since the owner last looked (the head's driver turns them into frames)."""

    def __call__(self, kind: str, game: Game, info: dict) -> None:
        self.trail(kind, game, info)
        if kind == "answer":
            self.segment = len(game.history)
            if self.keep is None:
                self.points = []
            return
        if self.keep is not None and self.segment != self.keep:
            return
        snap = GameState.from_dict(copy.deepcopy(game.state.to_dict()))
        w = game.state.window
        point = {"kind": kind, "segment": self.segment, "index": len(self.points), "state": snap,
                 "digest": snap.digest(), "event": self.trail.event, "passed": list(self.trail.passed),
                 "step": w.step if w is not None else None, "window": w.name if w is not None else "",
                 "target": getattr(info.get("target"), "name", None)}
        self.points.append(point)
        self.fresh.append(point)


def _canon(value: Any) -> Any:
    """Answers compared without regard to the order of picked cards (except an order decision)."""
    if isinstance(value, dict):
        return {k: (sorted(v, key=str) if k in ("choose", "defend", "attackers", "pay", "setup")
                    and isinstance(v, list) else _canon(v)) for k, v in value.items()}
    return value


def describe_command(game: Game, cmd: dict) -> str:
    """A command in words, with card names."""
    def names(ids) -> str:
        return ", ".join(game.name(c) if isinstance(c, int) and c in game.state.cards else str(c) for c in ids)

    if "pass" in cmd:
        return "pass"
    if "done" in cmd:
        return "be done"
    if "trigger" in cmd:
        text = f"use {names([cmd['trigger']])}"
        if cmd.get("targets"):
            text += f" targeting {names(cmd['targets'])}"
        return text
    if "marshal" in cmd:
        return f"marshal {names([cmd['marshal']])}" + (" as a duplicate" if cmd.get("duplicate") else "")
    if "challenge" in cmd:
        return f"declare {article(cmd['challenge'])} challenge against {cmd.get('against')} with " \
               f"{names(cmd.get('attackers') or [])}"
    if "defend" in cmd:
        return f"defend with {names(cmd['defend'])}" if cmd["defend"] else "declare no defenders"
    if "choose" in cmd:
        return f"choose {names(cmd['choose'])}"
    if "order" in cmd:
        return f"order the passives: {names(cmd['order'])}"
    if "duplicate_save" in cmd:
        return f"discard a duplicate to save {names([cmd['duplicate_save']])}"
    if "plot" in cmd:
        return f"reveal {names([cmd['plot']])}"
    if "first_player" in cmd:
        return f"name {cmd['first_player']} first player"
    if "setup" in cmd:
        return f"place {names(cmd['setup'])} at setup"
    if "stealth" in cmd:
        pairs = cmd["stealth"].items() if isinstance(cmd["stealth"], dict) else []
        return "stealth: " + ", ".join(f"{names([a])} on {names([t])}" for a, t in pairs)
    return str(cmd)


# ---------------------------------------------------------------------------
# The session
# ---------------------------------------------------------------------------

class TutorialSession:
    """One lesson (or any scenario file) being stepped through."""

    def __init__(self, path: str | Path, *, learner: str | None = None):
        self.path = str(path)
        self.name = Path(self.path).stem
        self._rec = _Recorder()
        self.sc = load_scenario(self.path, Options(prompt_all=True, observer=self._rec))
        self.head: Game = self.sc.game
        self.title = self.sc.title
        self.intro = self.sc.description.strip() or self.sc.title
        self.rules = list(self.sc.rules)
        self.learner = learner or self.sc.tutorial.get("learner")
        self.outro = str(self.sc.tutorial.get("outro") or "")
        self.frames: list[Frame] = []
        self.index = 0
        self.done = False
        self.failed = ""
        self.problems: list[str] = []
        """Expectations of the file that did not hold (a lesson with any is broken)."""
        self.solved: set[int] = set()
        """Learner steps answered right by the learner (not by "Show me")."""
        self.wrong = 0
        self._i = 0
        self._armed: list[int] = []
        self._shown: set[int] = set()
        self._presented: int | None = None
        self._waiting: int | None = None
        self._auto = 0
        self._cache: tuple[int, Game, list[dict]] | None = None
        first = self._rec.fresh[0] if self._rec.fresh else None
        self.frames.append(Frame("intro", 0, 0 if first else AT_DECISION, self.intro,
                                 digest=first["digest"] if first else self.head.state.digest()))
        self._arm_block(0)
        self._flush()

    # -- what there is ---------------------------------------------------------------------
    @property
    def frame(self) -> Frame:
        return self.frames[self.index]

    @property
    def place(self) -> int:
        """The learner's place: the furthest frame reached."""
        return len(self.frames) - 1

    @property
    def asks(self) -> list[Any]:
        """The script steps the learner plays."""
        return [s for s in self.sc.steps if s.kind == "command" and self._is_learner(s)]

    @property
    def waiting(self) -> bool:
        """The learner's place is a question not answered yet."""
        return self._waiting is not None

    @property
    def at_place(self) -> bool:
        return self.index == self.place

    def outline(self) -> list[tuple[int, str]]:
        """(frame index, text) of the frames worth jumping to: narration, the learner's steps, the end."""
        return [(i, f.text) for i, f in enumerate(self.frames)
                if f.kind in ("intro", "say", "ask", "watch", "refused", "end", "error")]

    # -- moving ----------------------------------------------------------------------------
    def forward(self) -> bool:
        """One frame on; at the learner's place this plays on (the program's moves), unless the
        learner must answer first. False when nothing moved."""
        if self.index < self.place:
            self.index += 1
            return True
        if self.done or self.waiting:
            return False
        before = len(self.frames)
        self._advance_head()
        if len(self.frames) > before:
            self.index = before
            return True
        return False

    def back(self) -> bool:
        if self.index == 0:
            return False
        self.index -= 1
        return True

    def goto(self, index: int) -> None:
        """Jump to a frame already reached (the learner's place at the furthest)."""
        self.index = max(0, min(index, self.place))

    def to_place(self) -> None:
        self.index = self.place

    def next_narration(self) -> bool:
        """Forward until a narration, a question, a command or the end."""
        moved = False
        while self.forward():
            moved = True
            if self.frame.kind in ("say", "ask", "watch", "refused", "end", "error"):
                break
        return moved

    def play_to_end(self, *, answer_asks: bool = True) -> None:
        """Play on to the end, answering the learner's questions with the script's answers."""
        while True:
            if self.waiting and answer_asks:
                self.show_me()
            elif not self.forward():
                if self.waiting and answer_asks:
                    continue
                return

    # -- the learner's answers -------------------------------------------------------------
    def expected(self) -> dict | None:
        """The answer the script expects at the learner's place (None when none is asked)."""
        return self.sc.steps[self._waiting].command if self.waiting else None

    def answer(self, player: str, answer: dict) -> Verdict:
        """The learner's answer at his place: the right one is played; a wrong one (or one the
        rules refuse) changes nothing and gets the hint."""
        if not self.waiting:
            return Verdict(False, "Nothing is asked of you here: press Forward.")
        if not self.at_place:
            return Verdict(False, "You moved back: go to your place (the last step) to answer.")
        step = self.sc.steps[self._waiting]
        d = self.head.advance()
        hint = step.tutorial.get("hint") or f"Not quite. {self.frames[-1].text}"
        if player != d.player:
            return Verdict(False, f"This decision is {d.player}'s. {hint}")
        try:
            got = d.check(answer)
        except Refused as err:
            return Verdict(False, hint, refused=str(err))
        want = d.check(step.command)
        # what the script names must match; what it leaves out (targets the engine picks, a
        # suggested payment) is the learner's to fill in as the table does
        main = next(iter(step.command))
        named = [k for k, v in step.command.items() if k == main or v not in ([], {}, None, 0, False)]
        if any(_canon({k: got.get(k)}) != _canon({k: want.get(k)}) for k in named):
            self.wrong += 1
            return Verdict(False, hint)
        self.solved.add(step.number)
        self._play_asked()
        return Verdict(True, "Right.")

    def show_me(self) -> bool:
        """Play the learner's step for him (it does not count as solved)."""
        if not self.waiting:
            return False
        self.to_place()
        self._play_asked()
        return True

    def _play_asked(self) -> None:
        step = self.sc.steps[self._waiting]
        d = self.head.advance()
        self._waiting = None
        self._i = step.number  # the step after it (numbers are 1-based)
        self._answer(d, step.command)
        self.forward()

    # -- what a frame shows ------------------------------------------------------------------
    def view(self, index: int | None = None, *, replay: bool = False) -> View:
        """The game to draw for a frame. Frames of the head's last answers come from the head;
        any other is rebuilt through the engine's replay (``replay=True`` forces it)."""
        f = self.frames[self.index if index is None else index]
        game, points = self._segment(f.answers, replay=replay)
        decision = None
        if f.point is not AT_DECISION:
            p = points[f.point]
            shown = copy.copy(game)
            shown.state = p["state"]
            shown.pending, shown.result = None, None
            event, passed = p["event"], p["passed"]
        else:
            shown = game
            pending = game.advance()
            decision = pending if isinstance(pending, Decision) else None
            event, passed = f.event, f.passed
        text = explain(shown, decision=decision, event=event, passed=passed)
        return View(shown, decision, f, text)

    def _segment(self, answers: int, *, replay: bool) -> tuple[Game, list[dict]]:
        if not replay and answers == len(self.head.history):
            return self.head, self._rec.points
        if not replay and self._cache is not None and self._cache[0] == answers:
            return self._cache[1], self._cache[2]
        rec = _Recorder(keep=answers)
        game = load_scenario(self.path, Options(prompt_all=True, observer=rec)).game
        apply_history(game, self.head.history[:answers])
        self._cache = (answers, game, rec.points)
        return game, rec.points

    # -- driving the head (the scenario runner's rules, one frame at a time) ------------------
    def _is_learner(self, step) -> bool:
        return "ask" in step.tutorial or (self.learner is not None and step.player == self.learner)

    def _add(self, kind: str, text: str, *, point: int | None = AT_DECISION, **kw: Any) -> Frame:
        digest = self._rec.points[point]["digest"] if point is not AT_DECISION else self.head.state.digest()
        if point is AT_DECISION:
            kw.setdefault("event", self._rec.trail.event)
            kw.setdefault("passed", list(self._rec.trail.passed))
        f = Frame(kind, len(self.head.history), point, text, digest=digest, **kw)
        self.frames.append(f)
        return f

    def _arm_block(self, start: int) -> None:
        """Narrations with ``at`` in the run of say/expect steps from ``start`` wait for their moment."""
        steps = self.sc.steps
        j = start
        while j < len(steps) and steps[j].kind in ("say", "expect"):
            if steps[j].kind == "say" and "at" in steps[j].tutorial and j not in self._armed \
                    and j not in self._shown:
                self._armed.append(j)
            j += 1

    def _say(self, j: int, point: int | None = AT_DECISION) -> None:
        step = self.sc.steps[j]
        self._shown.add(j)
        if j in self._armed:
            self._armed.remove(j)
        rule = step.tutorial.get("rule")
        self._add("say", step.value, point=point, rule=rule, step=step.number)

    def _point_matches(self, cond: dict, p: dict) -> bool:
        st: GameState = p["state"]
        if "decision" in cond or "end" in cond:
            return False
        if "window_step" in cond and p["step"] != cond["window_step"]:
            return False
        if "phase" in cond and st.phase != cond["phase"]:
            return False
        if "round" in cond and st.round != cond["round"]:
            return False
        if "active" in cond and st.active_player != cond["active"]:
            return False
        return True

    def _flush(self) -> None:
        """Turn the observer's new points into frames (and show the narrations waiting for them)."""
        for p in self._rec.fresh:
            i = p["index"]
            st: GameState = p["state"]
            ev = p["event"]
            if p["kind"] == "step":
                n = p["step"]
                text = f"Step {n}, {STEP_NAMES[n]}: {p['window']}"
                if n in (1, 2, 3) and ev and ev.get("name") and ev["name"] != p["window"]:
                    text += f" \u2014 {ev['name']}"
                self._add("step", text, point=i, rule=STEP_RULES[n], event=ev, passed=p["passed"])
            else:
                what = ev["name"] if ev else "an ability"
                against = f", against {p['target']}" if p.get("target") else ""
                self._add("event", f"{what} begins{against}: it gets its own save/cancel step", point=i,
                          rule="TIM-06", event=ev, passed=p["passed"])
            for j in list(self._armed):
                if self._point_matches(self.sc.steps[j].tutorial["at"], p):
                    self._say(j, point=i)
            del st
        self._rec.fresh = []

    def _answer(self, d: Decision, ans: dict) -> None:
        self.head.answer(d.player, ans)
        self._flush()

    def _fail(self, reason: str) -> None:
        self.failed = reason
        self.done = True
        self._add("error", f"The lesson cannot go on: {reason}")

    def _advance_head(self) -> None:
        start = len(self.frames)
        while len(self.frames) == start and not self.done and not self.waiting:
            self._tick()

    def _finish(self) -> None:
        for j in list(self._armed):
            self._say(j)
        g = self.head
        res = g.advance()
        over = f" The game is over: {res.winner} wins." if isinstance(res, GameOver) and res.winner != "draw" else ""
        self._add("end", (self.outro or "The end of the lesson.") + over)
        self.done = True

    def _tick(self) -> None:
        steps, g = self.sc.steps, self.head
        names = g.state.player_names
        d = g.advance()
        if self._presented is not None:  # a watched command, shown at its decision, is played now
            step = steps[self._presented]
            self._presented = None
            self._i = step.number
            self._answer(d, step.command)
            return
        if isinstance(d, Decision):
            matched = [j for j in self._armed if condition_holds(g, d, steps[j].tutorial["at"])]
            for j in matched:
                self._say(j)
            if matched:
                return
        while self._i < len(steps) and steps[self._i].kind in ("expect", "say"):
            step = steps[self._i]
            self._i += 1
            if step.kind == "expect":
                bad = check_expectations(g, step.value, _Refs(self.sc.labels, names, step.number))
                if bad:
                    self.problems.append(f"step {step.number}: {'; '.join(bad)}")
                continue
            if "at" in step.tutorial:
                continue  # armed: shown at its moment
            self._say(step.number - 1)
            return
        if self._i >= len(steps):
            self._finish()
            return
        step = steps[self._i]
        self._arm_block(self._i + 1)
        if isinstance(d, GameOver):
            if step.kind == "until" and step.value.get("end"):
                self._i += 1
                return
            self._fail(f"step {step.number}: the game ended ({d.winner} wins) before this step")
            return
        if self._auto > MAX_AUTO:
            self._fail(f"step {step.number}: never reached")
            return
        if step.kind == "until":
            if condition_holds(g, d, step.value):
                self._i += 1
                return
        elif step.kind == "command" and step.player == d.player:
            cmd = next(iter(step.command))
            command = step_command(g, d, step)  # a trigger naming no ability: the first usable one
            if step.rejected is not None:
                if cmd in d.commands:
                    before = g.state.digest()
                    try:
                        g.answer(d.player, command)
                    except Refused as err:
                        if g.state.digest() != before:
                            self._fail(f"step {step.number}: a refused command changed the state")
                            return
                        self._i += 1
                        self._add("refused", f"{d.player} tries to {describe_command(g, step.command)}: "
                                             f"refused \u2014 {err}", step=step.number, player=d.player,
                                  rule=step.tutorial.get("rule"))
                        return
                    self._flush()
                    self._fail(f"step {step.number}: the engine accepted a command it should refuse")
                    return
            elif d.accepts_command(command):
                try:
                    d.check(command)
                except Refused:
                    pass
                else:
                    if command is not step.command:  # played (or asked) as resolved here
                        step.command, step.first_ability = command, False
                    said = describe_command(g, step.command)
                    if self._is_learner(step):
                        self._waiting = self._i
                        ask = step.tutorial.get("ask") or f"You are {d.player}: {said}."
                        self._add("ask", ask, step=step.number, player=d.player, rule=step.tutorial.get("rule"),
                                  hint=step.tutorial.get("hint", ""))
                    else:
                        self._presented = self._i
                        self._add("watch", f"{d.player}: {said}.", step=step.number, player=d.player,
                                  rule=step.tutorial.get("rule"))
                    return
        self._auto += 1
        if d.can_pass:
            self._answer(d, {"pass": True})
        elif len(d.options) == 1 and not d.can_pass:
            self._answer(d, d.options[0])
        else:
            self._fail(f"step {step.number}: unscripted decision: {d.kind} of {d.player}")


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        done = load_progress()
        for n, les in enumerate(lessons(), 1):
            mark = "done" if done.get(les.name, {}).get("done") else "    "
            print(f"{n:2d}. [{mark}] {les.name}: {les.title}")
        return 0
    from cards.errors import DataError
    from cards.files import tolerant_console

    tolerant_console()
    try:
        path = find_lesson(args[0])
    except FileNotFoundError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    try:
        session = TutorialSession(path)
    except ScenarioError as err:
        print(f"error: {DataError(f'step {err.step}: {err.reason}', file=str(path))}", file=sys.stderr)
        return 1
    except DataError as err:
        print(f"error: {err.located(str(path))}", file=sys.stderr)
        return 1
    session.play_to_end()
    if "--print" in args:
        for i, f in enumerate(session.frames):
            rule = f"  [{rule_line(f.rule)}]" if f.rule else ""
            print(f"{i:4d} {f.kind:7s} {f.text}{rule}")
    bad = session.failed or "; ".join(session.problems)
    print(f"{'FAIL' if bad else 'OK'} {session.name}: {len(session.frames)} frames" + (f": {bad}" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(run_command(main))
