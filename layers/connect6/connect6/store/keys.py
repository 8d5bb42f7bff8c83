"""Item keys and shapes shared by the DynamoDB store and the in-memory fake.

One table, ``pk``/``sk``:

- ``GAME#<game_id>`` / ``GAME``: the whole game (settings, seats, invitations, turns, ``version``,
  ``turn``: the number of turns played, ``Game.move_count``). Every change is one put conditioned on
  ``version`` and ``turn``.
  A timed game whose clock runs also carries ``clock_pk = "CLOCK#<k>"`` and ``clock_due`` (epoch
  ms of the next reminder or deadline, ``connect6.game.timing.next_due``), written by the same put
  as the game: the sparse GSI ``clocks-by-due`` the clock sweep queries. A game whose clock stands
  (untimed, paused, finished, the computer to move) has neither, so it is not in that index.
- ``INVITE#<sha256 of token>`` / ``INVITE``: token hash → game and invitation. While the hold is
  pending it carries ``hold_pk = "HOLD#<k>"`` and ``hold_expires`` (epoch ms): the sparse GSI
  ``holds-by-expiry`` the sweeper queries. ``ttl`` collects it long after.
- ``PLAY#<sha256 of play token>`` / ``PLAY``: a play link → game and player (v1.2). Written before
  the join or redemption's game write; an entry whose player is not in its game is ignored.
- ``IDEMPOTENCY`` / ``connect6#<hash>``: an Idempotency-Key record, written by Powertools'
  idempotency utility (``connect6.api.idempotency``), not by the stores.
"""

from __future__ import annotations

import hashlib
import heapq
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any, TypeVar

from connect6.game.model import Game
from connect6.game.timing import next_due

GAME_SK = "GAME"
INVITE_SK = "INVITE"
PLAY_SK = "PLAY"
HOLD_PK_VALUE = "HOLD"  # the holds' partition prefix; alone, the key every hold had before v1.2
CLOCK_PK_VALUE = "CLOCK"
DEFAULT_HOLDS_INDEX = "holds-by-expiry"
DEFAULT_CLOCKS_INDEX = "clocks-by-due"
INVITE_TTL = timedelta(days=30)

# Index shards. A sparse index keyed on one value puts every entry in one index partition, and a
# partition takes about 1,000 writes a second; an index that cannot keep up throttles the table's
# own writes. The clock index is written by every move of every timed game (``clock_due`` moves),
# so it is spread over SHARDS key values from the item's own id (a hash, so the spread is even and
# stable). 16 gives the index 16,000 writes a second of partition headroom, more than one table
# takes from moves before its own limits bind (docs/capacity.md), while a sweep stays 16 small
# queries (16 x 0.5 read units when nothing is due). Changing it moves every entry: the sweep would
# have to read the old shards until rewritten, as it reads the legacy HOLD key now.
SHARDS = 16

_T = TypeVar("_T")


def shard_of(key: str) -> int:
    """The shard (0..SHARDS-1) of an item, from its own id."""
    return int(hashlib.sha256(key.encode("utf-8")).hexdigest()[:8], 16) % SHARDS


def hold_pk(token_hash: str) -> str:
    return f"{HOLD_PK_VALUE}#{shard_of(token_hash)}"


def clock_pk(game_id: str) -> str:
    return f"{CLOCK_PK_VALUE}#{shard_of(game_id)}"


def hold_partitions() -> list[str]:
    """Every key the hold sweep queries: the shards, then the legacy ``HOLD`` (holds written before
    the shards, until :meth:`migrate_legacy_holds` has rewritten them)."""
    return [f"{HOLD_PK_VALUE}#{k}" for k in range(SHARDS)] + [HOLD_PK_VALUE]


def clock_partitions() -> list[str]:
    return [f"{CLOCK_PK_VALUE}#{k}" for k in range(SHARDS)]


def earliest(partitions: Iterable[str], query: Callable[[str, int], list[_T]],
             due: Callable[[_T], int], limit: int) -> list[_T]:
    """The ``limit`` earliest-due entries over every partition: each partition is queried (key
    equality, sort key ``<= now``, at most ``limit`` items: a query, never a scan) and the answers
    merged, so the most overdue go first whichever shard holds them."""
    found: list[_T] = []
    for partition in partitions:
        found.extend(query(partition, limit))
    return heapq.nsmallest(limit, found, key=due)


def clock_attributes(game: Game) -> dict[str, Any]:
    """The clock index's keys for a game item: present only while the game's clock runs."""
    due = next_due(game)
    if due is None:
        return {}
    return {"clock_pk": clock_pk(game.game_id), "clock_due": epoch_ms(due)}


def game_pk(game_id: str) -> str:
    return f"GAME#{game_id}"


def invite_pk(token_hash: str) -> str:
    return f"INVITE#{token_hash}"


def play_pk(token_hash: str) -> str:
    return f"PLAY#{token_hash}"


def epoch_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def epoch_s(moment: datetime) -> int:
    return int(moment.timestamp())
