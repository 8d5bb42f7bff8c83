"""Nothing a client sends produces a 5xx: random bodies, headers and ids against every route."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.integration.harness import Api, routes

RUN = "/v1/games/run-42"

scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True),
                    st.text(max_size=30))
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)), max_leaves=12)
plausible = st.fixed_dictionaries({}, optional={
    "game_name": st.one_of(st.text(max_size=120), json_values),
    "allow_computer_opponents": st.one_of(st.booleans(), json_values),
    "name": st.one_of(st.text(max_size=90), json_values),
    "email": st.one_of(st.emails(), st.text(max_size=40)),
    "opponent": st.one_of(st.none(), json_values, st.fixed_dictionaries({
        "kind": st.sampled_from(["computer", "invite", "robot"]),
        "level": st.sampled_from(["easy", "normal", "hard", "x"]), "name": st.text(max_size=10),
        "email": st.emails()})),
    "move_number": st.one_of(st.integers(-5, 2**40), json_values),
    "stones": st.one_of(st.lists(st.one_of(st.sampled_from(["h8", "H9", "a1", "o15", "p16", "z99", "i0"]),
                                           st.text(max_size=6)), max_size=4), json_values),
    "table_talk": st.one_of(st.none(), st.sampled_from(["good_luck", "nope"]), json_values),
    "action": st.one_of(st.sampled_from(["offer", "accept", "decline", "x"]), json_values),
})
bodies = st.one_of(plausible.map(json.dumps), json_values.map(json.dumps), st.text(max_size=40),
                   st.just(""), st.just("{"))
segment = st.one_of(st.sampled_from(["run-42", "x" * 65, "a b", "%00", "ünï", "p1", "..", "-"]),
                    st.text(alphabet=st.characters(blacklist_characters="/?#"), min_size=1, max_size=20))
headers = st.dictionaries(st.sampled_from(["accept", "content-type", "if-none-match", "idempotency-key"]),
                          st.one_of(st.sampled_from(["text/html", "application/json", "*/*",
                                                     "application/x-www-form-urlencoded", "image/png"]),
                                    st.text(max_size=20)), max_size=4)


def _seed(api: Api) -> dict[str, str]:
    api.put(RUN, {"game_name": "Sunday club", "allow_computer_opponents": True})
    joined = api.post(f"{RUN}/players", {"name": "Ana", "email": "ana@example.com", "opponent": {
        "kind": "invite", "name": "Ben", "email": "ben@example.com"}}).json
    return {"player_id": joined["player_id"], "token": joined["invite"]["url"].rsplit("/", 1)[-1],
            "game_id": "run-42"}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_client_input_yields_a_5xx(api: Api, data: Any) -> None:
    known = getattr(api, "_fuzz_ids", None)
    if known is None:
        known = _seed(api)
        api._fuzz_ids = known  # type: ignore[attr-defined]
    route = data.draw(st.sampled_from(list(routes())))
    path = route.path
    for name in ("game_id", "player_id", "token"):
        if "{" + name + "}" in path:
            value = data.draw(st.one_of(st.just(known[name]), segment))
            path = path.replace("{" + name + "}", value)
    sent = data.draw(headers)
    body = data.draw(bodies) if route.method in ("POST", "PUT") else None
    try:
        api.route(route.method, path)
    except LookupError:
        return  # API Gateway itself answers paths no route matches
    reply = api.request(route.method, path, body, headers=sent)
    assert reply.status < 500, (route.method, path, body, sent, reply.text)
    if route.method == "HEAD":  # v1.2: as GET, without the body
        assert reply.body == b"", (path, sent)
        return
    if reply.status >= 400 and reply.headers.get("content-type", "").startswith("application/json"):
        assert set(reply.json) == {"error"} and set(reply.json["error"]) == {"code", "message", "field"}
