"""The outbox end to end, through the handlers on moto: game writes carry their events, the table's
stream feeds the publish-events function (as Lambda's event source mapping would: batches,
partial batch failures, retries), EventBridge delivers to a queue.

- Publishing fails again and again (throttling, internal errors, timeouts, refused entries, an
  answer lost after the bus took the events); then every event arrives, each ``event_id`` once
  after dropping repeats, and each game's changes in the order they were stored.
- A refused request writes nothing, so the stream has nothing and nothing is published.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from typing import Any

import boto3
import pytest

from connect6.api import runtime
from connect6.game.events import Event, decode_outbox
from tests.integration.conftest import Published
from tests.integration.faults import FaultyEvents
from tests.integration.harness import REGION, TEST_TABLE, Api

RFC3339 = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")


def stream_changes() -> list[tuple[str, list[Event]]]:
    """(game id, events) of every stored change, in stream order, read straight from the stream."""
    table = boto3.client("dynamodb", region_name=REGION).describe_table(TableName=TEST_TABLE)["Table"]
    streams = boto3.client("dynamodbstreams", region_name=REGION)
    arn = table["LatestStreamArn"]
    changes: list[tuple[str, list[Event]]] = []
    for shard in streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]:
        iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                              ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        while True:
            got = streams.get_records(ShardIterator=iterator, Limit=1000)
            for record in got["Records"]:
                image = record["dynamodb"].get("NewImage") or {}
                if "outbox" in image:
                    changes.append((image["game_id"]["S"], decode_outbox(image["outbox"]["S"])))
            if not got["Records"]:
                return changes
            iterator = got["NextShardIterator"]
    return changes


def stream_record_count() -> int:
    table = boto3.client("dynamodb", region_name=REGION).describe_table(TableName=TEST_TABLE)["Table"]
    streams = boto3.client("dynamodbstreams", region_name=REGION)
    arn = table["LatestStreamArn"]
    (shard,) = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
    iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                          ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    return len(streams.get_records(ShardIterator=iterator, Limit=1000)["Records"])


def play_three_games(api: Api) -> None:
    """Two humans to a resignation, a human against the computer, an invitation redeemed."""
    api.put("/v1/games/humans", {"game_name": "Humans"})
    ana = api.post("/v1/games/humans/players", {"name": "Ana", "email": "ana@example.com"}).json["player_id"]
    ben = api.post("/v1/games/humans/players", {"name": "Ben", "email": "ben@example.com"}).json["player_id"]
    turns = [["h8"], ["a1", "a2"], ["h9", "h10"], ["b1", "b2"], ["j9", "j10"], ["c1", "c2"]]
    for number, stones in enumerate(turns, start=1):
        player = ana if number % 2 else ben
        assert api.post(f"/v1/games/humans/players/{player}/moves",
                        {"move_number": number, "stones": stones}).status == 200
    assert api.post(f"/v1/games/humans/players/{ben}/resign").status == 200

    api.put("/v1/games/computer", {"game_name": "Computer", "allow_computer_opponents": True})
    cid = api.post("/v1/games/computer/players", {"name": "Cy", "email": "cy@example.com",
                                                  "opponent": {"kind": "computer", "level": "easy"}}
                   ).json["player_id"]
    for number, stones in ((1, ["h8"]), (3, ["m12", "m13"]), (5, ["b2", "b3"])):
        assert api.post(f"/v1/games/computer/players/{cid}/moves",
                        {"move_number": number, "stones": stones}).status == 200

    api.put("/v1/games/invited", {"game_name": "Invited", "allow_computer_opponents": True})
    joined = api.post("/v1/games/invited/players", {"name": "Di", "email": "di@example.com", "opponent": {
        "kind": "invite", "name": "Ed", "email": "ed@example.com"}}).json
    token = joined["invite"]["url"].rsplit("/", 1)[1]
    assert api.post(f"/v1/invites/{token}", {"name": "Ed"}).status == 201
    assert api.post(f"/v1/games/invited/players/{joined['player_id']}/moves",
                    {"move_number": 1, "stones": ["h8"]}).status == 200


# PutEvents outcomes, repeated: some calls work, a record fails when three calls in a row fail (the
# publisher's own attempts), refused entries and lost answers in between are re-sent in-call.
FAULTS = ["ok", "ok", "raise:ThrottlingException", "timeout", "raise:InternalException",
          "partial:0", "ok", "lost", "ok", "ok", "partial:1", "lost", "timeout"]


def plan(failures: int) -> list[str]:
    """The outcomes of the first PutEvents calls, up to and including the ``failures``-th fault."""
    outcomes: list[str] = []
    faults = 0
    for outcome in itertools.cycle(FAULTS):
        if faults == failures:
            return outcomes
        outcomes.append(outcome)
        faults += outcome != "ok"
    return outcomes


class Recorder:
    """The real client, with what the bus accepted recorded in order."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.accepted: list[dict[str, Any]] = []

    def put_events(self, Entries: list[dict[str, Any]]) -> dict[str, Any]:
        response: dict[str, Any] = self.real.put_events(Entries=Entries)
        results = response.get("Entries") or [{}] * len(Entries)
        self.accepted += [json.loads(e["Detail"]) for e, r in zip(Entries, results, strict=True)
                          if not r.get("ErrorCode")]
        return response

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


@pytest.mark.parametrize("failures", [0, 8, 16])
def test_publishing_fails_n_times_then_every_event_arrives_once_in_order(
        api: Api, aws: Published, failures: int) -> None:
    # Given three games played (their events stored with their changes, nothing delivered yet)
    play_three_games(api)
    changes = stream_changes()
    change_of = {event.event_id: index for index, (_game, events) in enumerate(changes)
                 for event in events}
    game_of = {event.event_id: game for game, events in changes for event in events}
    assert len(change_of) >= 15 and len({g for g, _events in changes}) == 3
    # When publishing fails `failures` times, in every way it can, before it works again
    recorder = Recorder(runtime.publisher().client)
    bus = FaultyEvents(recorder, plan=plan(failures))
    runtime.publisher().client = bus
    delivered = aws.drain()
    # Then every planned failure happened
    planned = plan(failures)
    assert bus.fired[:len(planned)] == planned and not bus.plan
    # And every stored event arrived, each event_id once after dropping repeats
    arrived = [e["detail"]["event_id"] for e in delivered]
    assert set(arrived) == set(change_of)
    repeats = len(arrived) - len(set(arrived))
    assert repeats == 0 or failures > 0  # repeats only where an answer was lost or an entry refused
    for message in delivered:
        detail = message["detail"]
        assert RFC3339.match(detail["occurred_at"]) and message["source"] == "connect6"
        assert "@" not in json.dumps(detail) and "token" not in detail
    # And, per game, no change's events reached the bus before all of an earlier change's had
    first_accepted = list(dict.fromkeys(d["event_id"] for d in recorder.accepted))
    assert set(first_accepted) == set(change_of)
    for game in {g for g, _events in changes}:
        order = [change_of[i] for i in first_accepted if game_of[i] == game]
        assert order == sorted(order), game
    kinds = Counter(f.split(":")[0] for f in planned if f != "ok")
    print(f"\noutbox: {failures} publish failures injected {dict(kinds)}; {len(changes)} changes, "
          f"{len(change_of)} events; {len(bus.fired)} PutEvents calls, {aws.pump.invocations} stream "
          f"batches; arrived {len(arrived)}, distinct {len(set(arrived))}, repeats dropped {repeats}, "
          f"missing {len(set(change_of) - set(arrived))}")


def test_a_refused_request_stores_nothing_and_publishes_nothing(api: Api, aws: Published) -> None:
    # Given a started game, its events delivered
    api.put("/v1/games/g", {"game_name": "G", "allow_computer_opponents": True})
    ana = api.post("/v1/games/g/players", {"name": "Ana", "email": "ana@example.com"}).json["player_id"]
    ben = api.post("/v1/games/g/players", {"name": "Ben", "email": "ben@example.com"}).json["player_id"]
    published = len(aws.drain())
    records = stream_record_count()
    # When every kind of refused write is sent
    refused = [
        api.post(f"/v1/games/g/players/{ben}/moves", {"move_number": 1, "stones": ["h8"]}),  # not your turn
        api.post(f"/v1/games/g/players/{ana}/moves", {"move_number": 1, "stones": ["z99"]}),  # illegal
        api.post(f"/v1/games/g/players/{ana}/moves", {"move_number": 4, "stones": ["h8"]}),  # stale
        api.post(f"/v1/games/g/players/{ana}/moves",
                 {"move_number": 1, "stones": ["h8"], "table_talk": "nope"}),  # unknown phrase
        api.post("/v1/games/g/players", {"name": "Cy", "email": "cy@example.com"}),  # no open seat
        api.put("/v1/games/g", {"game_name": "Other"}),  # conflict
        api.post(f"/v1/games/g/players/{ana}/draw", {"action": "accept"}),  # no offer
        api.post("/v1/games/g/players/nobody/resign"),  # no such player
        api.post("/v1/invites/no-such-token", {"name": "Ed"}),  # no such invitation
    ]
    # Then each is a 4xx, the table's stream has no new record, and nothing more is published
    assert all(400 <= r.status < 500 for r in refused), [(r.status, r.text) for r in refused]
    assert stream_record_count() == records
    assert len(aws.drain()) == published
