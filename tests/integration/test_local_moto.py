"""The local server's moto is as strict as DynamoDB: a conditional write is atomic.

moto checks a write's condition and then stores the item, without a lock. The tests widen that
window on purpose (a short sleep between the check and the write) and release many threads at
once: on moto's own threaded server two writers then both "win"; on the local server's moto, which
applies one request at a time, exactly one does, every round."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from moto.dynamodb.models import table as moto_table
from moto.server import ThreadedMotoServer
from pytest_socket import socket_allow_hosts

from tests.integration.conftest import aws_environment
from tools.local.samlocal.concurrency import serial_moto_server

THREADS = 16
ROUNDS = 15


@pytest.fixture
def interleaved(monkeypatch: pytest.MonkeyPatch, socket_enabled: None) -> None:
    """Every conditional write pauses between reading the stored item and writing the new one."""
    socket_allow_hosts(["127.0.0.1"], allow_unix_socket=True)
    aws_environment(monkeypatch)
    original = moto_table.get_filter_expression

    def slow_condition(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.003)  # releases the GIL: other request threads run between check and write
        return original(*args, **kwargs)

    monkeypatch.setattr(moto_table, "get_filter_expression", slow_condition)


@contextmanager
def _serve(server: Any) -> Iterator[tuple[Any, str]]:
    server.start()
    host, port = server.get_host_and_port()
    client = boto3.client("dynamodb", region_name="us-east-1", endpoint_url=f"http://{host}:{port}",
                          config=boto3.session.Config(max_pool_connections=THREADS))
    name = f"atomic-{id(server)}"
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
    try:
        yield client, name
    finally:
        client.delete_table(TableName=name)
        server.stop()


def _winners_per_round(client: Any, table: str) -> list[int]:
    """Each round: THREADS threads put the same new key under ``attribute_not_exists(pk)``."""
    counts = []
    for round_ in range(ROUNDS):
        barrier = threading.Barrier(THREADS)
        won: list[int] = []
        failures: list[BaseException] = []

        def put(writer: int, round_: int = round_, barrier: threading.Barrier = barrier,
                won: list[int] = won, failures: list[BaseException] = failures) -> None:
            barrier.wait()
            try:
                client.put_item(TableName=table, Item={"pk": {"S": f"r{round_}"}, "w": {"N": str(writer)}},
                                ConditionExpression="attribute_not_exists(pk)")
                won.append(writer)
            except ClientError as error:
                if error.response["Error"]["Code"] != "ConditionalCheckFailedException":
                    failures.append(error)
            except BaseException as error:
                failures.append(error)

        _run_all([lambda w=w: put(w) for w in range(THREADS)])
        assert not failures, failures
        counts.append(len(won))
        stored = client.get_item(TableName=table, Key={"pk": {"S": f"r{round_}"}}, ConsistentRead=True)
        assert stored["Item"]["w"]["N"] in {str(w) for w in won}
    return counts


def _run_all(calls: list[Callable[[], None]]) -> None:
    threads = [threading.Thread(target=call) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)


def test_on_the_local_servers_moto_exactly_one_conditional_put_wins_each_round(interleaved: None) -> None:
    # Given the moto server tools/local/local_api.py runs, with the check-then-write window widened
    with _serve(serial_moto_server()) as (client, table):
        # When 16 writers race for one new key, 15 rounds
        counts = _winners_per_round(client, table)
        # Then exactly one wins every round
        assert counts == [1] * ROUNDS


def test_on_motos_own_threaded_server_the_same_race_lets_two_win(interleaved: None) -> None:
    """The control: the forced interleaving does reach the race (so the test above can fail)."""
    with _serve(ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)) as (client, table):
        counts = _winners_per_round(client, table)
        assert max(counts) > 1, counts
