"""Item keys and shapes shared by the DynamoDB store and the in-memory fake.

One table, ``pk``/``sk``:

- ``GAME#<game_id>`` / ``GAME``: the whole game (settings, seats, invitations, turns, ``version``,
  ``turn``: the number of turns played, ``Game.move_count``). Every change is one put conditioned on
  ``version`` and ``turn``.
- ``INVITE#<sha256 of token>`` / ``INVITE``: token hash → game and invitation. While the hold is
  pending it carries ``hold_pk = "HOLD"`` and ``hold_expires`` (epoch ms): the sparse GSI
  ``HOLDS_INDEX`` the sweeper queries. ``ttl`` collects it long after.
- ``IDEMPOTENCY`` / ``connect6#<hash>``: an Idempotency-Key record, written by Powertools'
  idempotency utility (``connect6.api.idempotency``), not by the stores.
"""

from __future__ import annotations

from datetime import datetime, timedelta

GAME_SK = "GAME"
INVITE_SK = "INVITE"
HOLD_PK_VALUE = "HOLD"
DEFAULT_HOLDS_INDEX = "holds-by-expiry"
INVITE_TTL = timedelta(days=30)


def game_pk(game_id: str) -> str:
    return f"GAME#{game_id}"


def invite_pk(token_hash: str) -> str:
    return f"INVITE#{token_hash}"


def epoch_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def epoch_s(moment: datetime) -> int:
    return int(moment.timestamp())
