"""An in-memory :class:`~connect6.game.Repository` that enforces the DynamoDB store's conditions
(version and turn on every game write, create-if-absent), so
the domain's conflict paths are tested without AWS. Thread-safe.

The sparse indexes are kept as DynamoDB keeps them: a game item carries ``clock_pk``/``clock_due``
while its clock runs, a pending hold ``hold_pk``/``hold_expires``, with the same shard keys
(``connect6.store.keys``), and the sweeps' reads find entries by key equality per shard, as a
query does: an entry under a key no query asks for (a shard left out) is never found.

Outbox semantics as in DynamoDB: a game write stores its events with it (in ``outbox``, the
attribute the DynamoDB store writes), a refused write stores nothing, and ``stream`` lists each
committed change's events in commit order, like the table's stream. Subscribers (``subscribe``)
get them as each write commits, standing in for the stream-fed publisher."""

from __future__ import annotations

import copy
import threading
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from connect6.game.events import Event, EventSink, encode_outbox
from connect6.game.model import Game, parse_iso
from connect6.game.repository import AlreadyExists, InviteRef, PlayRef, VersionConflict
from connect6.store.keys import (
    HOLD_PK_VALUE,
    clock_attributes,
    clock_partitions,
    earliest,
    epoch_ms,
    game_pk,
    hold_partitions,
    hold_pk,
    invite_pk,
    play_pk,
)


class MemoryStore:
    def __init__(self) -> None:
        self._lock = threading.RLock()
        self.items: dict[str, dict[str, Any]] = {}
        self.writes = 0
        self.stream: list[Event] = []  # every committed change's events, in commit order
        self._subscribers: list[EventSink] = []

    def subscribe(self, sink: EventSink) -> None:
        """Deliver each committed change's events to ``sink`` (in commit order)."""
        with self._lock:
            self._subscribers.append(sink)

    # ------------------------------------------------------------------ games
    def get_game(self, game_id: str) -> Game | None:
        with self._lock:
            item = self.items.get(game_pk(game_id))
            return Game.from_dict(copy.deepcopy(item)) if item is not None else None

    def create_game(self, game: Game) -> None:
        with self._lock:
            key = game_pk(game.game_id)
            if key in self.items:
                raise AlreadyExists(key, Game.from_dict(copy.deepcopy(self.items[key])))
            self.items[key] = {**game.to_dict(), **clock_attributes(game)}
            self.writes += 1

    def save_game(self, game: Game, *, expected_version: int, expected_move_count: int,
                  events: Sequence[Event] = ()) -> None:
        with self._lock:
            key = game_pk(game.game_id)
            old = self.items.get(key)
            if old is None or old["version"] != expected_version or old["turn"] != expected_move_count:
                current = Game.from_dict(copy.deepcopy(old)) if old is not None else None
                raise VersionConflict(game.game_id, current)
            item = {**game.to_dict(), **clock_attributes(game)}
            if events:
                item["outbox"] = encode_outbox(events)
            self.items[key] = item
            self.writes += 1
            if events:
                self.stream.extend(events)
                for sink in self._subscribers:
                    sink.publish(list(events))

    # ------------------------------------------------------------------ invitations
    def put_invite(self, ref: InviteRef) -> None:
        with self._lock:
            key = invite_pk(ref.token_hash)
            if key in self.items:
                raise AlreadyExists(key)
            self.items[key] = {"game_id": ref.game_id, "invite_id": ref.invite_id,
                               "expires_at": ref.expires_at.isoformat(), "hold_pk": hold_pk(ref.token_hash),
                               "hold_expires": epoch_ms(ref.expires_at), "token_hash": ref.token_hash}

    def get_invite(self, token_hash: str) -> InviteRef | None:
        with self._lock:
            item = self.items.get(invite_pk(token_hash))
            return self._ref(item) if item is not None else None

    def put_play(self, ref: PlayRef) -> None:
        with self._lock:
            key = play_pk(ref.token_hash)
            if key in self.items:
                raise AlreadyExists(key)
            self.items[key] = {"game_id": ref.game_id, "player_id": ref.player_id}

    def get_play(self, token_hash: str) -> PlayRef | None:
        with self._lock:
            item = self.items.get(play_pk(token_hash))
            return PlayRef(token_hash, item["game_id"], item["player_id"]) if item is not None else None

    @staticmethod
    def _ref(item: dict[str, Any]) -> InviteRef:
        expires = parse_iso(item["expires_at"])
        assert expires is not None
        return InviteRef(item["token_hash"], item["game_id"], item["invite_id"], expires)

    def _query(self, attribute: str, due_attribute: str, partition: str, now: datetime | None,
               limit: int) -> list[dict[str, Any]]:
        """One index partition, as a query reads it: key equality, sort key at or before ``now``
        (any, without), earliest first, at most ``limit``."""
        cutoff = epoch_ms(now) if now is not None else None
        found = [item for item in self.items.values() if item.get(attribute) == partition
                 and (cutoff is None or item[due_attribute] <= cutoff)]
        found.sort(key=lambda item: item[due_attribute])
        return found[:limit]

    def due_invites(self, now: datetime, limit: int) -> list[InviteRef]:
        with self._lock:
            due = earliest(hold_partitions(), lambda p, n: self._query("hold_pk", "hold_expires", p, now, n),
                           lambda item: int(item["hold_expires"]), limit)
            return [self._ref(item) for item in due]

    def due_clocks(self, now: datetime, limit: int) -> list[str]:
        with self._lock:
            due = earliest(clock_partitions(), lambda p, n: self._query("clock_pk", "clock_due", p, now, n),
                           lambda item: int(item["clock_due"]), limit)
            return [str(item["game_id"]) for item in due]

    def migrate_legacy_holds(self, limit: int = 100) -> int:
        """As the DynamoDB store's: move holds keyed ``HOLD`` (before the shards) to their shard."""
        with self._lock:
            legacy = self._query("hold_pk", "hold_expires", HOLD_PK_VALUE, None, limit)
            for item in legacy:
                item["hold_pk"] = hold_pk(item["token_hash"])
            return len(legacy)

    def close_invite(self, token_hash: str) -> None:
        with self._lock:
            item = self.items.get(invite_pk(token_hash))
            if item is not None:
                item.pop("hold_pk", None)
                item.pop("hold_expires", None)
