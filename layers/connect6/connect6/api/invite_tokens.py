"""Invitation tokens derived from a server-side secret: ``token = base64url(HMAC-SHA256(secret,
invite_id))``, 43 characters (256 bits), unguessable without the secret however many invitation
ids one has seen.

Why derived rather than random: a join sent with an ``Idempotency-Key`` is replayed from its
stored response, and that response carries the invitation URL with the raw token. The stored
record keeps the URL *without* the token (:func:`seal`), and the replay derives the same token
again from the invitation id (:func:`unseal`): no raw token is ever stored, the table keeps only
its SHA-256 as before, and the replay is byte-for-byte the first response.

The secret lives in Secrets Manager (the stack's ``InviteTokenSecret``, generated at creation);
``INVITE_TOKEN_SECRET_ARN`` only names it. In Lambda its value is read through Powertools'
parameters utility when a token is first needed (never at import, nor by functions that make no
token) and cached for :data:`SECRET_MAX_AGE_S`, so a rotation is picked up within that time.
Outside Lambda (``make run``, the tests) there is no Secrets Manager: a fixed development secret
stands in. In Lambda without the ARN, making a token fails with an error naming the variable.
Rotating the secret leaves every issued invitation valid (only hashes are compared); only a replay
of a join made before the rotation would show a different URL (docs/operations.md).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Callable
from typing import Any

from connect6.api.config import MissingSetting, in_lambda
from connect6.game.repository import StoreUnavailable

DEVELOPMENT_SECRET = "connect6-development-secret-not-for-deployment"  # nosec B105 # used outside Lambda only
SECRET_MAX_AGE_S = 300
MIN_SECRET_LENGTH = 32
_PLACEHOLDER = "{token}"
_PLAY_PLACEHOLDER = "{play_token}"


def secret_source(arn: str) -> Callable[[], str]:
    """Where the secret comes from, read only when called: Secrets Manager in Lambda (``arn``,
    cached), the development secret outside it. Nothing is read here."""
    if not in_lambda():
        return lambda: DEVELOPMENT_SECRET
    if not arn:
        def missing() -> str:
            raise MissingSetting("INVITE_TOKEN_SECRET_ARN is not set: invitation tokens need the secret")
        return missing
    return lambda: read_secret(arn)


def read_secret(arn: str) -> str:
    """The secret's value from Secrets Manager (Powertools caches it for :data:`SECRET_MAX_AGE_S`).
    Secrets Manager failing is answered like the store failing: 503, try again."""
    from aws_lambda_powertools.utilities import parameters

    try:
        value = parameters.get_secret(arn, max_age=SECRET_MAX_AGE_S)
    except parameters.GetParameterError as error:
        raise StoreUnavailable("GetSecretValue", str(error.__cause__ or error)[:200]) from error
    text = value.decode("utf-8") if isinstance(value, bytes) else str(value)
    if len(text) < MIN_SECRET_LENGTH:
        raise RuntimeError(f"the invitation secret is shorter than {MIN_SECRET_LENGTH} characters")
    return text


class InviteTokens:
    """Tokens derived from the secret, which is read (through ``secret``, a value or a source from
    :func:`secret_source`) each time a token is made: the source caches it."""

    def __init__(self, secret: str | Callable[[], str]) -> None:
        self._secret: Callable[[], str] = secret if callable(secret) else (lambda: secret)

    @property
    def _key(self) -> bytes:
        return self._secret().encode("utf-8")

    def token_for(self, invite_id: str) -> str:
        digest = hmac.new(self._key, b"connect6-invite:" + invite_id.encode("utf-8"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")

    def play_token_for(self, player_id: str) -> str:
        """A player's play link token (v1.2): the same derivation with its own purpose prefix, so
        no play token is an invitation token and neither is ever stored (only its SHA-256)."""
        digest = hmac.new(self._key, b"connect6-play:" + player_id.encode("utf-8"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")

    def seal(self, stored: dict[str, Any]) -> dict[str, Any]:
        """The stored join response with the invitation URL's token and the play URL's token
        replaced by placeholders."""
        data = json.loads(stored["body"])
        if not isinstance(data, dict):
            return stored
        body = stored["body"]
        invite = data.get("invite")
        if invite:
            base, _, token = str(invite["url"]).rpartition("/")
            # Replace the exact text, so the replay is byte-for-byte the first response.
            body = body.replace(f"{base}/{token}", f"{base}/{_PLACEHOLDER}")
        if data.get("play_url"):
            base, _, token = str(data["play_url"]).rpartition("/")
            body = body.replace(f"{base}/{token}", f"{base}/{_PLAY_PLACEHOLDER}")
        return {**stored, "body": body}

    def unseal(self, stored: dict[str, Any]) -> dict[str, Any]:
        data = json.loads(stored["body"])
        if not isinstance(data, dict):
            return stored
        body = stored["body"]
        invite = data.get("invite")
        if invite:
            body = body.replace(f"/{_PLACEHOLDER}", f"/{self.token_for(invite['invite_id'])}")
        if data.get("play_url") and data.get("player_id"):
            body = body.replace(f"/{_PLAY_PLACEHOLDER}", f"/{self.play_token_for(data['player_id'])}")
        return {**stored, "body": body}
