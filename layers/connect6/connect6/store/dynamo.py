"""The DynamoDB repository: conditional writes only, typed errors.

Every game change is one ``PutItem`` conditioned on the stored ``version`` and ``turn``, with the
change's events in the item's ``outbox`` attribute (the table's stream carries them to the
publisher; see ``connect6.delivery.outbox``); a lost race comes back as :class:`VersionConflict`
carrying the stored game from ``ReturnValuesOnConditionCheckFailure=ALL_OLD`` (no second read).

Faults: the client retries throttling, internal errors and timeouts itself (standard mode, short
timeouts). A write whose response was lost is re-sent by that retry and then fails its own
condition; when the stored item is exactly the one this call wrote (same version, same outbox
event ids), the write landed and counts as done. What is still failing after the retries becomes
:class:`StoreUnavailable` (the API answers 503 with Retry-After).

The client is created on first use from the standard configuration (``connect6.store.clients``),
so the same code talks to DynamoDB in Lambda and to moto on 127.0.0.1 in tests and the local server.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.config import Config
from botocore.exceptions import ClientError, HTTPClientError
from botocore.exceptions import ConnectionError as BotocoreConnectionError

from connect6.game.events import Event, encode_outbox
from connect6.game.model import Game, parse_iso
from connect6.game.repository import (
    AlreadyExists,
    InviteRef,
    PlayRef,
    StoreError,
    StoreUnavailable,
    VersionConflict,
)
from connect6.store import clients
from connect6.store.keys import (
    DEFAULT_CLOCKS_INDEX,
    DEFAULT_HOLDS_INDEX,
    GAME_SK,
    HOLD_PK_VALUE,
    INVITE_SK,
    INVITE_TTL,
    PLAY_SK,
    clock_attributes,
    clock_partitions,
    earliest,
    epoch_ms,
    epoch_s,
    game_pk,
    hold_partitions,
    hold_pk,
    invite_pk,
    play_pk,
)

_serializer = TypeSerializer()
_deserializer = TypeDeserializer()


def _plain(value: Any) -> Any:
    """DynamoDB numbers come back as Decimal: make them ints (the game stores no fractions)."""
    if isinstance(value, Decimal):
        return int(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def to_item(data: dict[str, Any]) -> dict[str, Any]:
    return {k: _serializer.serialize(v) for k, v in data.items()}


def from_item(item: dict[str, Any]) -> dict[str, Any]:
    return {k: _plain(_deserializer.deserialize(v)) for k, v in item.items()}


# Error codes that mean "not now" rather than "never": throttling, contention, the service's own faults.
TRANSIENT_CODES = frozenset({
    "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded",
    "TransactionConflictException", "TransactionInProgressException", "InternalServerError",
    "InternalFailure", "ServiceUnavailable", "ServiceUnavailableException", "LimitExceededException",
})

# Three attempts in all (``total_max_attempts``; botocore's ``max_attempts`` would count retries
# only), connect 1 s, read 3 s, jittered backoff under 1 s then 2 s. Throttling and 5xx answers come
# back at once, so they cost milliseconds; only a DynamoDB that accepts and never answers could
# hold a request past the 10 s function timeout. A healthy call takes milliseconds (the local
# server's moto, busy with many requests, may take a second or two: hence not tighter).
CLIENT_CONFIG = Config(retries={"total_max_attempts": 3, "mode": "standard"}, connect_timeout=1,
                       read_timeout=3)


def _failed_condition(error: ClientError) -> bool:
    return error.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException"


def _unavailable(operation: str, error: Exception) -> StoreUnavailable | None:
    """The store's typed error for a transient fault, or None when ``error`` is something else."""
    if isinstance(error, ClientError):
        code = str(error.response.get("Error", {}).get("Code", ""))
        status = int(error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0)
        if code in TRANSIENT_CODES or status >= 500:
            return StoreUnavailable(operation, code or f"HTTP {status}")
        return None
    if isinstance(error, (BotocoreConnectionError, HTTPClientError)):
        return StoreUnavailable(operation, type(error).__name__)
    return None


def _is_ours(error: ClientError, item: dict[str, Any]) -> bool:
    """A conditional put refused because the stored item is exactly ``item``: this very write
    landed on an earlier attempt whose response was lost."""
    old = error.response.get("Item")
    return bool(old) and from_item(old) == from_item(item)


def _old_item(error: ClientError) -> dict[str, Any] | None:
    item = error.response.get("Item")
    return from_item(item) if item else None


class DynamoStore:
    client = clients.LazyClient()

    def __init__(self, table_name: str, holds_index: str = DEFAULT_HOLDS_INDEX,
                 client_factory: Callable[[], Any] | None = None,
                 clocks_index: str = DEFAULT_CLOCKS_INDEX) -> None:
        self.table_name = table_name
        self.holds_index = holds_index
        self.clocks_index = clocks_index
        self.client_factory = client_factory or clients.factory("dynamodb", CLIENT_CONFIG)

    def _call(self, operation: str, **kwargs: Any) -> Any:
        """One client call; transient faults (after the client's own retries) become
        :class:`StoreUnavailable`, a refused condition stays a ``ClientError`` for the caller."""
        try:
            return getattr(self.client, operation)(TableName=self.table_name, **kwargs)
        except (ClientError, BotocoreConnectionError, HTTPClientError) as error:
            unavailable = _unavailable(operation, error)
            if unavailable is not None:
                raise unavailable from error
            raise

    def _get(self, pk: str, sk: str) -> dict[str, Any] | None:
        response = self._call("get_item", Key=to_item({"pk": pk, "sk": sk}), ConsistentRead=True)
        item = response.get("Item")
        return from_item(item) if item else None

    # ------------------------------------------------------------------ games
    def get_game(self, game_id: str) -> Game | None:
        data = self._get(game_pk(game_id), GAME_SK)
        return Game.from_dict(data) if data is not None else None

    def _game_item(self, game: Game, events: Sequence[Event] = ()) -> dict[str, Any]:
        # The clock index's keys ride on the game's own put: no second write per move.
        data = {"pk": game_pk(game.game_id), "sk": GAME_SK, **game.to_dict(), **clock_attributes(game)}
        if events:
            data["outbox"] = encode_outbox(events)  # the stream's filter passes only items with one
        return to_item(data)

    def create_game(self, game: Game) -> None:
        item = self._game_item(game)
        try:
            self._call("put_item", Item=item, ConditionExpression="attribute_not_exists(pk)",
                       ReturnValuesOnConditionCheckFailure="ALL_OLD")
        except ClientError as error:
            if _failed_condition(error):
                # Not "ours" even when identical: two creates of the same run are two requests
                # (the service answers the second, or a re-sent lost one, 200 "already there").
                old = _old_item(error)
                raise AlreadyExists(game_pk(game.game_id), Game.from_dict(old) if old else None) from error
            raise StoreError(str(error)) from error

    def save_game(self, game: Game, *, expected_version: int, expected_move_count: int,
                  events: Sequence[Event] = ()) -> None:
        item = self._game_item(game, events)
        try:
            self._call(
                "put_item", Item=item,
                ConditionExpression="#version = :version AND #turn = :turn",
                ExpressionAttributeNames={"#version": "version", "#turn": "turn"},
                ExpressionAttributeValues=to_item({":version": expected_version,
                                                   ":turn": expected_move_count}),
                ReturnValuesOnConditionCheckFailure="ALL_OLD")
        except ClientError as error:
            if _failed_condition(error):
                if _is_ours(error, item):
                    return
                old = _old_item(error)
                raise VersionConflict(game.game_id, Game.from_dict(old) if old else None) from error
            raise StoreError(str(error)) from error

    # ------------------------------------------------------------------ invitations
    def put_invite(self, ref: InviteRef) -> None:
        item = {"pk": invite_pk(ref.token_hash), "sk": INVITE_SK, "token_hash": ref.token_hash,
                "game_id": ref.game_id, "invite_id": ref.invite_id,
                "expires_at": ref.expires_at.isoformat(), "hold_pk": hold_pk(ref.token_hash),
                "hold_expires": epoch_ms(ref.expires_at), "ttl": epoch_s(ref.expires_at + INVITE_TTL)}
        try:
            self._call("put_item", Item=to_item(item), ConditionExpression="attribute_not_exists(pk)")
        except ClientError as error:
            if _failed_condition(error):
                # A lost response re-sent lands here too: the join then retries with a fresh
                # token, and the first entry points at no invitation (ignored, swept).
                raise AlreadyExists(invite_pk(ref.token_hash)) from error
            raise StoreError(str(error)) from error

    @staticmethod
    def _ref(data: dict[str, Any]) -> InviteRef:
        expires = parse_iso(data["expires_at"])
        assert expires is not None
        return InviteRef(data["token_hash"], data["game_id"], data["invite_id"], expires)

    def get_invite(self, token_hash: str) -> InviteRef | None:
        data = self._get(invite_pk(token_hash), INVITE_SK)
        return self._ref(data) if data is not None else None

    # ------------------------------------------------------------------ play links
    def put_play(self, ref: PlayRef) -> None:
        item = {"pk": play_pk(ref.token_hash), "sk": PLAY_SK, "game_id": ref.game_id,
                "player_id": ref.player_id}
        try:
            self._call("put_item", Item=to_item(item), ConditionExpression="attribute_not_exists(pk)")
        except ClientError as error:
            if _failed_condition(error):
                raise AlreadyExists(play_pk(ref.token_hash)) from error
            raise StoreError(str(error)) from error

    def get_play(self, token_hash: str) -> PlayRef | None:
        data = self._get(play_pk(token_hash), PLAY_SK)
        return PlayRef(token_hash, data["game_id"], data["player_id"]) if data is not None else None

    def _due(self, index: str, keys: tuple[str, str], partition: str, now: datetime,
             limit: int) -> list[dict[str, Any]]:
        """One shard of a sparse index: entries due at or before ``now``, earliest first (a query)."""
        response = self._call(
            "query", IndexName=index, Limit=limit,
            KeyConditionExpression="#p = :p AND #due <= :now",
            ExpressionAttributeNames={"#p": keys[0], "#due": keys[1]},
            ExpressionAttributeValues=to_item({":p": partition, ":now": epoch_ms(now)}))
        return [from_item(item) for item in response.get("Items", [])]

    def due_invites(self, now: datetime, limit: int) -> list[InviteRef]:
        keys = ("hold_pk", "hold_expires")
        due = earliest(hold_partitions(), lambda p, n: self._due(self.holds_index, keys, p, now, n),
                       lambda item: int(item["hold_expires"]), limit)
        return [self._ref(item) for item in due]

    def due_clocks(self, now: datetime, limit: int) -> list[str]:
        keys = ("clock_pk", "clock_due")
        due = earliest(clock_partitions(), lambda p, n: self._due(self.clocks_index, keys, p, now, n),
                       lambda item: int(item["clock_due"]), limit)
        return [str(item["pk"]).removeprefix("GAME#") for item in due]

    def migrate_legacy_holds(self, limit: int = 100) -> int:
        """Move up to ``limit`` holds written before the shards (``hold_pk = "HOLD"``) to their
        shard; returns how many moved. Each move is conditioned on the legacy key, so two runs at
        once, or a run against a redemption closing the hold, never resurrect or double a hold."""
        response = self._call(
            "query", IndexName=self.holds_index, Limit=limit, KeyConditionExpression="#p = :p",
            ExpressionAttributeNames={"#p": "hold_pk"},
            ExpressionAttributeValues=to_item({":p": HOLD_PK_VALUE}))
        moved = 0
        for item in (from_item(found) for found in response.get("Items", [])):
            token_hash = str(item["pk"]).removeprefix("INVITE#")
            try:
                self._call(
                    "update_item", Key=to_item({"pk": item["pk"], "sk": INVITE_SK}),
                    UpdateExpression="SET #p = :shard", ConditionExpression="#p = :legacy",
                    ExpressionAttributeNames={"#p": "hold_pk"},
                    ExpressionAttributeValues=to_item({":shard": hold_pk(token_hash),
                                                       ":legacy": HOLD_PK_VALUE}))
                moved += 1
            except ClientError as error:
                if not _failed_condition(error):
                    raise StoreError(str(error)) from error
        return moved

    def close_invite(self, token_hash: str) -> None:
        try:
            self._call(
                "update_item", Key=to_item({"pk": invite_pk(token_hash), "sk": INVITE_SK}),
                UpdateExpression="REMOVE #hold, #expires",
                ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeNames={"#hold": "hold_pk", "#expires": "hold_expires"})
        except ClientError as error:
            if not _failed_condition(error):
                raise StoreError(str(error)) from error
