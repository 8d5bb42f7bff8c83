"""The DynamoDB repository: conditional writes only, typed errors.

Every game change is one ``PutItem`` conditioned on the stored ``version`` and ``turn``; a lost
race comes back as :class:`VersionConflict` carrying the stored game from
``ReturnValuesOnConditionCheckFailure=ALL_OLD`` (no second read). The client is created lazily
from the standard configuration (region, credentials, ``AWS_ENDPOINT_URL_DYNAMODB``), so the
same code talks to DynamoDB in Lambda and to moto on 127.0.0.1 in tests and the local server.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from decimal import Decimal
from typing import Any

import boto3
from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.config import Config
from botocore.exceptions import ClientError

from connect6.game.model import Game, parse_iso
from connect6.game.repository import AlreadyExists, InviteRef, StoreError, VersionConflict
from connect6.store.keys import (
    DEFAULT_HOLDS_INDEX,
    GAME_SK,
    HOLD_PK_VALUE,
    INVITE_SK,
    INVITE_TTL,
    epoch_ms,
    epoch_s,
    game_pk,
    invite_pk,
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


def _failed_condition(error: ClientError) -> bool:
    return error.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException"


def _old_item(error: ClientError) -> dict[str, Any] | None:
    item = error.response.get("Item")
    return from_item(item) if item else None


class DynamoStore:
    def __init__(self, table_name: str, holds_index: str = DEFAULT_HOLDS_INDEX,
                 client_factory: Callable[[], Any] | None = None) -> None:
        self.table_name = table_name
        self.holds_index = holds_index
        self._client_factory = client_factory or (lambda: boto3.client(
            "dynamodb", config=Config(retries={"max_attempts": 3, "mode": "standard"},
                                      connect_timeout=2, read_timeout=5)))
        self._client: Any = None

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = self._client_factory()
        return self._client

    def _get(self, pk: str, sk: str) -> dict[str, Any] | None:
        response = self.client.get_item(TableName=self.table_name, Key=to_item({"pk": pk, "sk": sk}),
                                        ConsistentRead=True)
        item = response.get("Item")
        return from_item(item) if item else None

    # ------------------------------------------------------------------ games
    def get_game(self, game_id: str) -> Game | None:
        data = self._get(game_pk(game_id), GAME_SK)
        return Game.from_dict(data) if data is not None else None

    def _game_item(self, game: Game) -> dict[str, Any]:
        return to_item({"pk": game_pk(game.game_id), "sk": GAME_SK, **game.to_dict()})

    def create_game(self, game: Game) -> None:
        try:
            self.client.put_item(TableName=self.table_name, Item=self._game_item(game),
                                 ConditionExpression="attribute_not_exists(pk)",
                                 ReturnValuesOnConditionCheckFailure="ALL_OLD")
        except ClientError as error:
            if _failed_condition(error):
                old = _old_item(error)
                raise AlreadyExists(game_pk(game.game_id), Game.from_dict(old) if old else None) from error
            raise StoreError(str(error)) from error

    def save_game(self, game: Game, *, expected_version: int, expected_turn: int) -> None:
        try:
            self.client.put_item(
                TableName=self.table_name, Item=self._game_item(game),
                ConditionExpression="#version = :version AND #turn = :turn",
                ExpressionAttributeNames={"#version": "version", "#turn": "turn"},
                ExpressionAttributeValues=to_item({":version": expected_version, ":turn": expected_turn}),
                ReturnValuesOnConditionCheckFailure="ALL_OLD")
        except ClientError as error:
            if _failed_condition(error):
                old = _old_item(error)
                raise VersionConflict(game.game_id, Game.from_dict(old) if old else None) from error
            raise StoreError(str(error)) from error

    # ------------------------------------------------------------------ invitations
    def put_invite(self, ref: InviteRef) -> None:
        item = {"pk": invite_pk(ref.token_hash), "sk": INVITE_SK, "token_hash": ref.token_hash,
                "game_id": ref.game_id, "invite_id": ref.invite_id,
                "expires_at": ref.expires_at.isoformat(), "hold_pk": HOLD_PK_VALUE,
                "hold_expires": epoch_ms(ref.expires_at), "ttl": epoch_s(ref.expires_at + INVITE_TTL)}
        try:
            self.client.put_item(TableName=self.table_name, Item=to_item(item),
                                 ConditionExpression="attribute_not_exists(pk)")
        except ClientError as error:
            if _failed_condition(error):
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

    def due_invites(self, now: datetime, limit: int) -> list[InviteRef]:
        response = self.client.query(
            TableName=self.table_name, IndexName=self.holds_index, Limit=limit,
            KeyConditionExpression="#hold = :hold AND #expires <= :now",
            ExpressionAttributeNames={"#hold": "hold_pk", "#expires": "hold_expires"},
            ExpressionAttributeValues=to_item({":hold": HOLD_PK_VALUE, ":now": epoch_ms(now)}))
        return [self._ref(from_item(item)) for item in response.get("Items", [])]

    def close_invite(self, token_hash: str) -> None:
        try:
            self.client.update_item(
                TableName=self.table_name, Key=to_item({"pk": invite_pk(token_hash), "sk": INVITE_SK}),
                UpdateExpression="REMOVE #hold, #expires",
                ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeNames={"#hold": "hold_pk", "#expires": "hold_expires"})
        except ClientError as error:
            if not _failed_condition(error):
                raise StoreError(str(error)) from error
