"""Invitation tokens derived from a server-side secret: ``token = base64url(HMAC-SHA256(secret,
invite_id))``, 43 characters (256 bits), unguessable without the secret however many invitation
ids one has seen.

Why derived rather than random: a join sent with an ``Idempotency-Key`` is replayed from its
stored response, and that response carries the invitation URL with the raw token. The stored
record keeps the URL *without* the token (:func:`seal`), and the replay derives the same token
again from the invitation id (:func:`unseal`): no raw token is ever stored, the table keeps only
its SHA-256 as before, and the replay is byte-for-byte the first response.

The secret is ``INVITE_TOKEN_SECRET`` (the template's ``InviteTokenSecret`` parameter, NoEcho, at
least 32 characters). Outside Lambda an empty secret falls back to a fixed development secret so
``make run`` and the tests need no set-up; inside Lambda an empty secret is refused. Rotating the
secret leaves every issued invitation valid (only hashes are compared); only a replay of a join made
before the rotation would show a different URL.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
from typing import Any

DEVELOPMENT_SECRET = "connect6-development-secret-not-for-deployment"
_PLACEHOLDER = "{token}"


def secret_from_env(value: str) -> str:
    if value:
        return value
    if os.environ.get("AWS_LAMBDA_FUNCTION_NAME") and not os.environ.get("AWS_SAM_LOCAL"):
        raise RuntimeError("INVITE_TOKEN_SECRET is not set: invitation tokens need a server-side secret")
    return DEVELOPMENT_SECRET


class InviteTokens:
    def __init__(self, secret: str) -> None:
        self._key = secret.encode("utf-8")

    def token_for(self, invite_id: str) -> str:
        digest = hmac.new(self._key, b"connect6-invite:" + invite_id.encode("utf-8"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")

    def seal(self, stored: dict[str, Any]) -> dict[str, Any]:
        """The stored join response with the invitation URL's token replaced by a placeholder."""
        data = json.loads(stored["body"])
        invite = data.get("invite") if isinstance(data, dict) else None
        if not invite:
            return stored
        base, _, token = str(invite["url"]).rpartition("/")
        # Replace the exact text, so the replay is byte-for-byte the first response.
        return {**stored, "body": stored["body"].replace(f"{base}/{token}", f"{base}/{_PLACEHOLDER}")}

    def unseal(self, stored: dict[str, Any]) -> dict[str, Any]:
        data = json.loads(stored["body"])
        invite = data.get("invite") if isinstance(data, dict) else None
        if not invite:
            return stored
        token = self.token_for(invite["invite_id"])
        return {**stored, "body": stored["body"].replace(f"/{_PLACEHOLDER}", f"/{token}")}
