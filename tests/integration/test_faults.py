"""Faults on every write path, through the handlers on moto.

For each write path (run set-up, join alone / with the computer / with an invitation, redeem, a
move with and without the computer's reply, resign, draw, the sweeper (holds, and v1.2's clocks: a
loss on time, a reminder), pause and cancel; the hint: its read and the write of its counter)
and each fault DynamoDB can end a call with after the client's retries (throttling in its four
forms, an internal error, three kinds of timeout, and a lost response after a write that landed):

- the caller gets 503 ``service_unavailable`` with ``Retry-After`` (the sweeper's run fails and is
  retried by its schedule);
- nothing is half-written: the game is exactly as before and no event goes out (for a lost
  response, the change is stored whole, with its events, once);
- the retry succeeds (for a lost response: a move, resign or draw re-sent gets its 200; a run
  re-created gets 200; a join or redemption re-sent is refused 409 because the seat is already
  theirs, as docs/service.md says), and every event of the change is delivered exactly once.

Inside the client (botocore's standard retry mode) the same faults are absorbed: a throttled, then
lost, then re-sent write is one 2xx for the caller and one stored change.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import boto3
import pytest

from connect6.api import runtime
from tests.clock import Clock
from tests.integration.conftest import Published
from tests.integration.faults import DYNAMODB_FAULTS, LOST, FaultyClient, inject_before_send
from tests.integration.harness import (
    REGION,
    TEST_TABLE,
    Api,
    FakeContext,
    Reply,
    handler_module,
    scheduled_functions,
)


@dataclass
class World:
    api: Api
    aws: Published
    clock: Clock
    client: FaultyClient
    context: dict[str, Any]
    game: str = "faults-0"

    def next_game(self) -> None:
        """A fresh run for the next case (same table, same clients)."""
        self.game = f"faults-{int(self.game.rsplit('-', 1)[1]) + 1}"
        self.context.clear()

    def games(self) -> list[dict[str, Any]]:
        """The case's game item as stored (each case has its own run)."""
        table = boto3.client("dynamodb", region_name=REGION)
        key = {"pk": {"S": f"GAME#{self.game}"}, "sk": {"S": "GAME"}}
        found = table.get_item(TableName=TEST_TABLE, Key=key, ConsistentRead=True).get("Item")
        return [found] if found else []

    def event_ids(self) -> list[str]:
        return [e["detail"]["event_id"] for e in self.aws.drain()]


@pytest.fixture
def world(aws: Published) -> World:
    clock = Clock()
    ids = (f"id-{n:04d}" for n in itertools.count(1))
    runtime.configure(colour_draw=lambda game: 1, clock=clock, id_factory=lambda: next(ids))
    store: Any = runtime.service().repo
    client = FaultyClient(store.client)
    store.client = client
    return World(Api(), aws, clock, client, {})


# --------------------------------------------------------------------------- the write paths
def _run(w: World) -> None:
    reply = w.api.put(f"/v1/games/{w.game}", {"game_name": "Faults", "allow_computer_opponents": True})
    assert reply.status == 201


def _join(w: World, name: str, opponent: dict[str, Any] | None = None) -> Reply:
    body: dict[str, Any] = {"name": name, "email": f"{name.lower()}@example.com"}
    if opponent is not None:
        body["opponent"] = opponent
    return w.api.post(f"/v1/games/{w.game}/players", body)


def _two_humans(w: World) -> None:
    _run(w)
    w.context["ana"] = _join(w, "Ana").json["player_id"]
    w.context["ben"] = _join(w, "Ben").json["player_id"]


def _invited(w: World) -> None:
    _run(w)
    reply = _join(w, "Ana", {"kind": "invite", "name": "Ben", "email": "ben@example.com"})
    w.context["token"] = reply.json["invite"]["url"].rsplit("/", 1)[1]


def _against_computer(w: World) -> None:
    _run(w)
    w.context["ana"] = _join(w, "Ana", {"kind": "computer", "level": "easy"}).json["player_id"]


def _played_against_computer(w: World) -> None:
    _against_computer(w)
    assert _move(w).status == 200


def _offered(w: World) -> None:
    _two_humans(w)
    reply = w.api.post(f"/v1/games/{w.game}/players/{w.context['ana']}/draw", {"action": "offer"})
    assert reply.status == 200


def _due(w: World) -> None:
    _invited(w)
    w.clock.now += timedelta(hours=24, seconds=1)


def _sweep(w: World) -> Reply:
    (function,) = scheduled_functions()
    event = {"id": "sweep", "source": "aws.scheduler"}
    result = handler_module(function).lambda_handler(event, FakeContext())
    return Reply(200, {}, str(result["released"]).encode())


TIMED = {"kind": "per_move", "hours": 1}


def _timed(w: World) -> None:
    """A started game between two people on a clock of one hour a move (Black, Ana, to move). The
    earlier cases' timed games are settled first (their clocks run out two hours on, and a sweep
    stores that), so this case's game is the only one its sweep finds due."""
    w.clock.now += timedelta(hours=2)
    _scheduled(w)
    w.aws.drain()
    reply = w.api.put(f"/v1/games/{w.game}", {"game_name": "Faults", "time_control": TIMED})
    assert reply.status == 201
    w.context["ana"] = _join(w, "Ana").json["player_id"]
    w.context["ben"] = _join(w, "Ben").json["player_id"]


def _out_of_time(w: World) -> None:
    _timed(w)
    w.clock.now += timedelta(hours=1, seconds=1)


def _reminder_due(w: World) -> None:
    _timed(w)
    w.clock.now += timedelta(minutes=31)  # half of a short per-move time left: the reminder is due


def _scheduled(w: World) -> dict[str, Any]:
    (function,) = scheduled_functions()
    return dict(handler_module(function).lambda_handler({"id": "sweep", "source": "aws.scheduler"},
                                                        FakeContext()))


def _sweep_clocks(w: World) -> Reply:
    """The same scheduled run; its answer is the games it ended on time."""
    return Reply(200, {}, str(_scheduled(w)["timed_out"]).encode())


def _sweep_reminders(w: World) -> Reply:
    return Reply(200, {}, str(_scheduled(w)["reminded"]).encode())


def _control(action: str) -> Callable[[World], Reply]:
    return lambda w: w.api.post(f"/v1/games/{w.game}/{action}")


def _move(w: World) -> Reply:
    return w.api.post(f"/v1/games/{w.game}/players/{w.context['ana']}/moves",
                      {"move_number": 1, "stones": ["h8"]})


@dataclass(frozen=True)
class Path:
    prepare: Callable[[World], None]
    send: Callable[[World], Reply]
    operation: str  # the store call the fault hits
    ok: int  # the status of a success
    after_lost: int  # the status of the re-send when the first write landed unseen
    skip: int = 0  # calls of the operation let through before the fault (index items written first)
    emits: bool = True  # the change has events (a run, or a first seat taken, has none)
    absorbed: int | None = None  # the status when the client's own retry re-sent a write that had landed


PATHS: dict[str, Path] = {
    "run": Path(lambda w: None, lambda w: w.api.put(f"/v1/games/{w.game}", {"game_name": "Faults"}),
                "put_item", 201, 200, emits=False, absorbed=200),
    # A join or redemption first writes the seat's play-link index item (and a join with an
    # invitation the invitation's), then the game: ``skip`` lets those through so the fault hits the
    # game write; "join_play_index" faults the index item itself.
    "join": Path(_run, lambda w: _join(w, "Ana"), "put_item", 201, 409, skip=1, emits=False),
    "join_play_index": Path(_run, lambda w: _join(w, "Ana"), "put_item", 201, 201, emits=False),
    "join_computer": Path(_run, lambda w: _join(w, "Ana", {"kind": "computer", "level": "easy"}),
                          "put_item", 201, 409, skip=1),
    "join_invite": Path(_run, lambda w: _join(w, "Ana", {"kind": "invite", "name": "Ben",
                                                         "email": "ben@example.com"}), "put_item", 201, 409,
                        skip=2, emits=False),
    "redeem": Path(_invited, lambda w: w.api.post(f"/v1/invites/{w.context['token']}", {"name": "Ben"}),
                   "put_item", 201, 409, skip=1),
    "move": Path(_two_humans, _move, "put_item", 200, 200),
    "move_computer_reply": Path(_against_computer, _move, "put_item", 200, 200),
    "resign": Path(_two_humans, lambda w: w.api.post(f"/v1/games/{w.game}/players/{w.context['ben']}/resign"),
                   "put_item", 200, 200),
    "draw": Path(_offered, lambda w: w.api.post(f"/v1/games/{w.game}/players/{w.context['ben']}/draw",
                                                {"action": "accept"}), "put_item", 200, 200),
    "sweeper": Path(_due, _sweep, "put_item", 200, 200),
    # v1.2: the clock sweep storing a loss on time (game_finished) and sending a reminder
    "clock_sweep_time": Path(_out_of_time, _sweep_clocks, "put_item", 200, 200),
    "clock_sweep_reminder": Path(_reminder_due, _sweep_reminders, "put_item", 200, 200),
    # v1.2: the platform's pause and cancel (idempotent: re-sent after a lost response, the view again)
    "pause": Path(_timed, _control("pause"), "put_item", 200, 200),
    "cancel": Path(_timed, _control("cancel"), "put_item", 200, 200),
    "hint": Path(_against_computer,
                 lambda w: w.api.get(f"/v1/games/{w.game}/players/{w.context['ana']}/hint"),
                 "get_item", 200, 200),
    # After a lost response the undo had landed: the re-send finds nothing left to undo
    "undo": Path(_played_against_computer,
                 lambda w: w.api.post(f"/v1/games/{w.game}/players/{w.context['ana']}/undo"),
                 "put_item", 200, 409),
    # The hint's counter: a conditional write that changes the game's counter only, no events
    "hint_counted": Path(_against_computer,
                         lambda w: w.api.get(f"/v1/games/{w.game}/players/{w.context['ana']}/hint"),
                         "put_item", 200, 200, emits=False),
}


SWEEPS = (_sweep, _sweep_clocks, _sweep_reminders)  # scheduled runs: a fault fails the run itself


def _send_faulted(w: World, path: Path) -> Reply | Exception:
    if path.send in SWEEPS:
        try:
            return path.send(w)
        except Exception as error:  # the scheduled run fails; its schedule retries it
            return error
    return path.send(w)


@pytest.fixture
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """botocore's retries without their jittered sleeps (the tests count attempts, not seconds)."""
    from botocore.retries import standard

    monkeypatch.setattr(standard.ExponentialBackoff, "delay_amount", lambda self, context: 0)


@pytest.mark.parametrize("name", list(PATHS))
def test_a_fault_is_a_503_changes_nothing_and_the_retry_succeeds(world: World, name: str) -> None:
    path = PATHS[name]
    survived = []
    for fault, make in DYNAMODB_FAULTS.items():
        if path.operation == "get_item" and make == LOST:
            continue  # a read has no lost write
        world.next_game()
        _one_fault(world, path, make, f"{name}/{fault}")
        survived.append(fault)
    print(f"\nfaults: {name} ({path.operation}): {len(survived)} survived: 503 + Retry-After, "
          f"retry {path.ok} (after a lost response {path.after_lost})")


def _one_fault(world: World, path: Path, fault: Any, case: str) -> None:
    # Given the state the request needs, its events delivered
    path.prepare(world)
    games_before, events_before = world.games(), world.event_ids()
    # When the store call fails past the client's retries
    world.client.fired.clear()
    world.client.inject(path.operation, fault, skip=path.skip)
    first = _send_faulted(world, path)
    assert world.client.fired == [path.operation], case
    # Then the caller is told to retry
    if isinstance(first, Exception):
        assert type(first).__name__ == "StoreUnavailable", case
    else:
        assert first.status == 503, (case, first.text)
        assert first.error["code"] == "service_unavailable" and first.headers["retry-after"] == "1", case
        assert "try again" in first.error["message"]
    landed = fault == LOST
    games_between, events_between = world.games(), world.event_ids()
    if not landed:
        # And nothing was written, nothing published
        assert games_between == games_before, case
        assert events_between == events_before, case
    # When the caller retries
    again = path.send(world)
    # Then it succeeds (or, for a join or redemption that had landed, says the seat is taken)
    assert again.status == (path.after_lost if landed else path.ok), (case, again.text)
    if again.status == 409:
        assert again.error["code"] in ("already_joined", "invite_already_used", "nothing_to_undo"), case
    if path.send in SWEEPS:  # what this run did: nothing when the faulted run's write had landed
        assert again.text == ("0" if landed else "1"), case
    # And the change is stored once, and each of its events delivered exactly once
    ids = world.event_ids()
    assert len(ids) == len(set(ids)), case
    if path.operation != "get_item":
        assert world.games() != games_before, case
        assert (len(ids) > len(events_before)) == path.emits, case


@pytest.mark.parametrize("name", [n for n, p in PATHS.items() if p.operation == "put_item"])
def test_the_client_absorbs_throttling_errors_timeouts_and_a_lost_response_by_itself(
        world: World, name: str, no_backoff: None) -> None:
    path = PATHS[name]
    for faults in (["throttle", "lost"], ["internal", "timeout"]):
        world.next_game()
        # Given the real client (standard retry mode, 3 attempts) under the store
        path.prepare(world)
        games_before, events_before = world.games(), world.event_ids()
        # When the game write fails twice inside the client (e.g. throttled, then it lands but its
        # answer is lost) and the client's third attempt goes through
        planned = ["pass"] * path.skip + faults
        fired = inject_before_send(world.client.real, "PutItem", planned)
        reply = path.send(world)
        # Then the caller sees one success, and one change with its events went in
        assert fired == planned, faults
        expected = (path.absorbed or path.ok) if "lost" in faults else path.ok
        assert reply.status == expected, (faults, reply.text)
        if path.send in SWEEPS:
            assert reply.text == "1", faults
        assert world.games() != games_before, faults
        ids = world.event_ids()
        assert len(ids) == len(set(ids)) and (len(ids) > len(events_before)) == path.emits, faults


def test_a_lost_move_response_resent_returns_the_same_200(world: World) -> None:
    # Given a move whose write landed but whose answer was lost (past the client's retries)
    _against_computer(world)
    world.client.inject("put_item", LOST)
    assert _move(world).status == 503
    # When the platform re-sends the same move, twice
    first, second = _move(world), _move(world)
    # Then both get the same 200 with the computer's reply, and the game holds the turn once
    assert first.status == second.status == 200
    assert first.json == second.json and first.json["computer_reply"] is not None
    assert world.api.get(f"/v1/games/{world.game}/board").json["move_count"] == 2


def test_a_failed_close_after_a_redemption_still_answers_201_and_the_sweeper_settles_it(world: World) -> None:
    # Given an invitation
    _invited(world)
    # When the redemption's game write lands but taking the invitation out of the expiry index fails
    world.client.inject("update_item", DYNAMODB_FAULTS["Throttling"])
    reply = world.api.post(f"/v1/invites/{world.context['token']}", {"name": "Ben"})
    # Then the invitee still gets the seat
    assert reply.status == 201 and world.client.fired == ["update_item"]
    # And the sweeper, once the hold would have expired, settles the index entry without releasing
    world.clock.now += timedelta(hours=25)
    assert _sweep(world).text == "0"
    index = boto3.client("dynamodb", region_name=REGION).scan(TableName=TEST_TABLE)["Items"]
    assert not [i for i in index if i["pk"]["S"].startswith("INVITE#") and "hold_pk" in i]


def test_faults_on_every_attempt_inside_the_client_are_a_503_and_write_nothing(world: World,
                                                                                 no_backoff: None) -> None:
    # Given the real client, whose three attempts are throttled, fail inside, and time out
    world.next_game()
    fired = inject_before_send(world.client.real, "PutItem", ["throttle", "internal", "timeout"])
    # When a run is created
    reply = world.api.put(f"/v1/games/{world.game}", {"game_name": "Faults"})
    # Then the caller is told to retry, and nothing reached the table
    assert fired == ["throttle", "internal", "timeout"]
    assert reply.status == 503 and reply.headers["retry-after"] == "1"
    assert world.games() == []
    # And the retry creates it
    assert world.api.put(f"/v1/games/{world.game}", {"game_name": "Faults"}).status == 201
