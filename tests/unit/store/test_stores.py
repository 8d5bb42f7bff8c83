"""The DynamoDB store (on moto, table from template.yaml) and the in-memory fake obey the same
conditions: the fake is only worth having if it refuses exactly what DynamoDB refuses."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import boto3
import pytest
from moto import mock_aws

from connect6.game import AlreadyExists, Game, InviteRef, VersionConflict
from connect6.game.events import Event, decode_outbox
from connect6.game.model import Turn
from connect6.store import DynamoStore, MemoryStore
from connect6.store.dynamo import to_item
from connect6.store.keys import HOLD_PK_VALUE, SHARDS, epoch_ms, hold_pk
from tests.integration.harness import REGION, create_table, table_properties

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _no_network(socket_disabled: None) -> None:
    """Store tests never touch the network: moto runs in-process."""


@pytest.fixture(params=["memory", "dynamodb"])
def store(request: pytest.FixtureRequest,
          monkeypatch: pytest.MonkeyPatch) -> Iterator[MemoryStore | DynamoStore]:
    if request.param == "memory":
        yield MemoryStore()
        return
    for name in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    with mock_aws():
        client = boto3.client("dynamodb", region_name=REGION)
        create_table(client, "t")
        index = table_properties()["GlobalSecondaryIndexes"][0]["IndexName"]
        yield DynamoStore("t", index, client_factory=lambda: client)


def _game(version: int = 1) -> Game:
    return Game(game_id="g1", game_name="Sunday club", allow_computer=True, created_at=NOW, version=version)


def test_create_is_create_if_absent(store) -> None:
    store.create_game(_game())
    with pytest.raises(AlreadyExists) as caught:
        store.create_game(_game())
    # The failed write reports what is there (ALL_OLD for DynamoDB)
    assert caught.value.current is not None and caught.value.current.game_name == "Sunday club"


def test_save_needs_the_expected_version_and_turn(store) -> None:
    game = _game()
    store.create_game(game)
    game.version = 2
    game.turns.append(Turn(stones=["h8"], at=NOW))
    store.save_game(game, expected_version=1, expected_move_count=0)
    loaded = store.get_game("g1")
    assert loaded is not None and (loaded.version, loaded.move_count) == (2, 1)
    assert loaded.turns[0].stones == ["h8"]
    # A writer that read version 1 loses, and learns the current game without a second read
    stale = _game(version=2)
    with pytest.raises(VersionConflict) as caught:
        store.save_game(stale, expected_version=1, expected_move_count=0)
    assert caught.value.current is not None and caught.value.current.version == 2
    # Right version but wrong turn loses too
    with pytest.raises(VersionConflict):
        store.save_game(_game(version=3), expected_version=2, expected_move_count=0)
    # Saving a game that does not exist is a conflict, not a create
    ghost = _game(version=2)
    ghost.game_id = "g2"
    with pytest.raises(VersionConflict) as caught:
        store.save_game(ghost, expected_version=1, expected_move_count=0)
    assert caught.value.current is None


def test_the_expiry_index_holds_only_pending_due_holds(store) -> None:
    early = InviteRef("a" * 64, "g1", "i1", NOW)
    late = InviteRef("b" * 64, "g1", "i2", NOW + timedelta(hours=1))
    store.put_invite(early)
    store.put_invite(late)
    with pytest.raises(AlreadyExists):
        store.put_invite(early)
    assert store.get_invite("a" * 64) == early
    assert store.get_invite("c" * 64) is None
    assert store.due_invites(NOW - timedelta(seconds=1), 10) == []
    assert store.due_invites(NOW, 10) == [early]
    assert store.due_invites(NOW + timedelta(hours=2), 10) == [early, late]
    assert store.due_invites(NOW + timedelta(hours=2), 1) == [early]
    store.close_invite("a" * 64)
    store.close_invite("z" * 64)  # closing what is not there is harmless
    assert store.due_invites(NOW + timedelta(hours=2), 10) == [late]
    assert store.get_invite("a" * 64) == early  # still resolvable, just not due any more


def _stored_outbox(store: MemoryStore | DynamoStore) -> list[Event]:
    """The outbox stored on the game item (the attribute the table's stream carries)."""
    if isinstance(store, MemoryStore):
        text = store.items["GAME#g1"].get("outbox")
    else:
        item = store.client.get_item(TableName="t", Key={"pk": {"S": "GAME#g1"}, "sk": {"S": "GAME"}})["Item"]
        text = item.get("outbox", {}).get("S")
    return decode_outbox(text) if text else []


def test_a_change_and_its_events_are_one_write(store) -> None:
    # Given a game
    game = _game()
    store.create_game(game)
    events = [Event("turn_ready", {"game_id": "g1", "move_number": 1}, "e-1", "2026-05-01T12:00:00Z"),
              Event("game_finished", {"game_id": "g1"}, "e-2", "2026-05-01T12:00:00Z")]
    # When a change with events is saved
    game.version = 2
    store.save_game(game, expected_version=1, expected_move_count=0, events=events)
    # Then they are stored with it, in order, ids and times kept
    assert _stored_outbox(store) == events
    # And a refused change stores neither itself nor its events
    game.version = 3
    with pytest.raises(VersionConflict):
        store.save_game(game, expected_version=1, expected_move_count=0,
                        events=[Event("game_finished", {"game_id": "g1"}, "e-3", "2026-05-01T12:00:01Z")])
    assert _stored_outbox(store) == events
    # And a later change without events leaves no stale outbox behind (the stream would repeat it)
    store.save_game(game, expected_version=2, expected_move_count=0)
    assert _stored_outbox(store) == []


# ---------------------------------------------------------------------- v1.2: sharded sparse indexes
def _raw_index_key(store: MemoryStore | DynamoStore, pk: str, attribute: str) -> str | None:
    """The index key attribute as stored on an item (None when the item is out of that index)."""
    if isinstance(store, MemoryStore):
        return store.items[pk].get(attribute)
    sk = "GAME" if pk.startswith("GAME#") else "INVITE"
    item = store.client.get_item(TableName="t", Key={"pk": {"S": pk}, "sk": {"S": sk}})["Item"]
    return item.get(attribute, {}).get("S")


def test_holds_spread_over_the_shards_and_are_all_found_earliest_first(store) -> None:
    refs = [InviteRef(f"{n:064x}", "g1", f"i{n}", NOW + timedelta(minutes=n)) for n in range(40)]
    for ref in reversed(refs):
        store.put_invite(ref)
    shards = {_raw_index_key(store, f"INVITE#{ref.token_hash}", "hold_pk") for ref in refs}
    assert shards <= {f"HOLD#{k}" for k in range(SHARDS)} and len(shards) > SHARDS // 2
    for ref in refs:
        assert _raw_index_key(store, f"INVITE#{ref.token_hash}", "hold_pk") == hold_pk(ref.token_hash)
    assert store.due_invites(NOW + timedelta(hours=1), 100) == refs
    assert store.due_invites(NOW + timedelta(minutes=9), 5) == refs[:5]  # bounded, most overdue first


def _put_legacy_hold(store: MemoryStore | DynamoStore, ref: InviteRef) -> None:
    """A hold as written before the shards: hold_pk "HOLD"."""
    item = {"pk": f"INVITE#{ref.token_hash}", "sk": "INVITE", "token_hash": ref.token_hash,
            "game_id": ref.game_id, "invite_id": ref.invite_id, "expires_at": ref.expires_at.isoformat(),
            "hold_pk": HOLD_PK_VALUE, "hold_expires": epoch_ms(ref.expires_at)}
    if isinstance(store, MemoryStore):
        store.items[item["pk"]] = item
    else:
        store.client.put_item(TableName="t", Item=to_item(item))


def test_legacy_holds_are_swept_until_the_migration_moves_them_to_their_shard(store) -> None:
    old = [InviteRef(f"{n:064x}", "g1", f"old{n}", NOW) for n in range(3)]
    new = InviteRef("f" * 64, "g1", "new", NOW + timedelta(minutes=1))
    for ref in old:
        _put_legacy_hold(store, ref)
    store.put_invite(new)
    # The sweep reads the legacy key beside the shards: nothing is stranded by the deploy
    assert store.due_invites(NOW + timedelta(hours=1), 10) == [*old, new]
    # The one-off migration moves them (bounded), each conditioned on still being legacy
    assert store.migrate_legacy_holds(limit=2) == 2
    assert store.migrate_legacy_holds(limit=10) == 1
    assert store.migrate_legacy_holds(limit=10) == 0  # again: nothing left to move
    for ref in old:
        assert _raw_index_key(store, f"INVITE#{ref.token_hash}", "hold_pk") == hold_pk(ref.token_hash)
    assert store.due_invites(NOW + timedelta(hours=1), 10) == [*old, new]
    store.close_invite(old[0].token_hash)
    assert store.due_invites(NOW + timedelta(hours=1), 10) == [*old[1:], new]


def _timed_game(game_id: str, started: datetime, hours: int = 24) -> Game:
    from connect6.game import TimeControl
    from connect6.game import clock as clk
    from connect6.game.model import Kind, SeatState, Status
    from connect6.rules import Colour

    game = Game(game_id=game_id, game_name="Timed", allow_computer=False, created_at=started, version=1,
                time_control=TimeControl.per_move(hours), status=Status.IN_PROGRESS, started_at=started)
    for seat, colour in zip(game.seats, (Colour.BLACK, Colour.WHITE), strict=True):
        seat.state, seat.kind, seat.colour = SeatState.TAKEN, Kind.HUMAN, colour
        seat.player_id = f"p{seat.seat}"
    game.clock = clk.start(game.time_control, started)  # type: ignore[arg-type]
    return game


def test_the_clock_index_rides_on_the_game_write_and_is_sharded(store) -> None:
    games = [_timed_game(f"g{n}", NOW + timedelta(minutes=n)) for n in range(20)]
    for game in games:
        store.create_game(game)
    keys = {_raw_index_key(store, f"GAME#{g.game_id}", "clock_pk") for g in games}
    assert keys <= {f"CLOCK#{k}" for k in range(SHARDS)} and len(keys) > SHARDS // 2
    # Due: the reminder, 12 hours before the deadline of a 24-hour move
    assert store.due_clocks(NOW + timedelta(hours=12) - timedelta(seconds=1), 50) == []
    assert store.due_clocks(NOW + timedelta(hours=12, minutes=4), 50) == ["g0", "g1", "g2", "g3", "g4"]
    assert store.due_clocks(NOW + timedelta(days=2), 3) == ["g0", "g1", "g2"]
    # A paused game leaves the index with the same put that pauses it
    paused = games[0]
    paused.paused_at, paused.version = NOW, 2
    store.save_game(paused, expected_version=1, expected_move_count=0)
    assert _raw_index_key(store, "GAME#g0", "clock_pk") is None
    assert "g0" not in store.due_clocks(NOW + timedelta(days=2), 50)
    # An untimed game is never in it
    untimed = _game()
    untimed.game_id = "untimed"
    store.create_game(untimed)
    assert "untimed" not in store.due_clocks(NOW + timedelta(days=400), 50)
    assert _raw_index_key(store, "GAME#untimed", "clock_pk") is None
