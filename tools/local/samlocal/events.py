"""API Gateway HTTP API (payload 2.0) events and responses, and EventBridge scheduled events."""

from __future__ import annotations

import base64
import json
import re
import uuid
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit

from .template import ACCOUNT, REGION

if TYPE_CHECKING:
    from .service import Function, Route

HOST = "127.0.0.1"
TEXT_TYPES = re.compile(
    r"^(text/|application/(json|[\w.+-]+\+json|xml|[\w.+-]+\+xml|javascript|graphql)\b)", re.I
)


def build_event(
    *, method: str, target: str, headers: list[tuple[str, str]], body: bytes, route: Route,
    params: dict[str, str], source_ip: str,
) -> dict[str, Any]:
    """The HTTP API v2 event API Gateway would send for this request."""
    parts = urlsplit(target)
    raw_path = parts.path or "/"
    lowered: dict[str, str] = {}
    cookies: list[str] = []
    for key, value in headers:
        k = key.lower()
        if k == "cookie":
            cookies += [c.strip() for c in value.split(";") if c.strip()]
            continue
        lowered[k] = f"{lowered[k]},{value}" if k in lowered else value
    host = lowered.get("host", f"{HOST}")
    lowered.setdefault("x-forwarded-for", source_ip)
    lowered.setdefault("x-forwarded-proto", "http")
    lowered.setdefault("x-forwarded-port", host.rpartition(":")[2] if ":" in host else "80")
    now = datetime.now(UTC)
    request_id = base64.b32encode(uuid.uuid4().bytes).decode()[:16]
    event: dict[str, Any] = {
        "version": "2.0",
        "routeKey": route.key,
        "rawPath": raw_path,
        "rawQueryString": parts.query,
        "headers": lowered,
        "requestContext": {
            "accountId": ACCOUNT, "apiId": "local", "domainName": host,
            "domainPrefix": host.split(".")[0].split(":")[0],
            "http": {"method": method, "path": raw_path, "protocol": "HTTP/1.1", "sourceIp": source_ip,
                     "userAgent": lowered.get("user-agent", "")},
            "requestId": request_id, "routeKey": route.key, "stage": "$default",
            "time": now.strftime("%d/%b/%Y:%H:%M:%S +0000"), "timeEpoch": int(now.timestamp() * 1000),
        },
        "isBase64Encoded": False,
    }
    if cookies:
        event["cookies"] = cookies
    if parts.query:
        query: dict[str, str] = {}
        for k, v in parse_qsl(parts.query, keep_blank_values=True):
            query[k] = f"{query[k]},{v}" if k in query else v
        event["queryStringParameters"] = query
    if params:
        event["pathParameters"] = params
    if route.auth == "AWS_IAM":
        event["requestContext"]["authorizer"] = {"iam": {
            "accessKey": "LOCALACCESSKEY", "accountId": ACCOUNT, "callerId": "LOCAL",
            "principalOrgId": None, "userArn": f"arn:aws:iam::{ACCOUNT}:user/local",
            "userId": "LOCAL", "cognitoIdentity": None}}
    if body:
        content_type = lowered.get("content-type", "")
        text: str | None = None
        if TEXT_TYPES.match(content_type):
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError:
                text = None
        # Like API Gateway: text types pass through, everything else (forms included) is base64.
        event["body"] = text if text is not None else base64.b64encode(body).decode()
        event["isBase64Encoded"] = text is None
    return event


def to_http(result: Any) -> tuple[int, list[tuple[str, str]], bytes]:
    """Status, headers and body from a v2 handler result (including the inferred format)."""
    if isinstance(result, dict) and "statusCode" in result:
        status = int(result["statusCode"])
        headers = [(str(k), str(v)) for k, v in (result.get("headers") or {}).items()]
        headers += [("Set-Cookie", str(c)) for c in result.get("cookies") or []]
        raw = result.get("body") or ""
        body = base64.b64decode(raw) if result.get("isBase64Encoded") else str(raw).encode("utf-8")
        return status, headers, body
    text = result if isinstance(result, str) else json.dumps(result)
    return 200, [("Content-Type", "application/json")], text.encode("utf-8")


def scheduled_event(spec: dict[str, Any], function: Function) -> dict[str, Any]:
    if spec.get("Input"):
        loaded: dict[str, Any] = json.loads(spec["Input"])
        return loaded
    return {
        "version": "0", "id": str(uuid.uuid4()), "detail-type": "Scheduled Event", "source": "aws.events",
        "account": ACCOUNT, "time": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), "region": REGION,
        "resources": [f"arn:aws:events:{REGION}:{ACCOUNT}:rule/{function.name}-schedule"], "detail": {},
    }
