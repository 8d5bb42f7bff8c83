"""boto3 clients made on first use, for the classes that talk to AWS (the DynamoDB store here, the
EventBridge publisher in ``connect6.delivery``).

A client is created from the standard configuration (region, credentials,
``AWS_ENDPOINT_URL_DYNAMODB`` / ``AWS_ENDPOINT_URL_EVENTS``) when it is first needed, so a cold
start that never calls AWS builds none, and the same code talks to AWS in Lambda and to moto in
tests and the local server. A test may hand in its own factory, or set the client outright.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import boto3
from botocore.config import Config

ClientFactory = Callable[[], Any]


def factory(service: str, config: Config) -> ClientFactory:
    """A factory for ``boto3.client(service, config=config)``."""
    return lambda: boto3.client(service, config=config)


class LazyClient:
    """The client as an attribute (``client = LazyClient()`` in the class body): the first read
    calls the instance's ``client_factory`` and keeps what it returns; an assignment replaces it."""

    def __set_name__(self, _owner: type, name: str) -> None:
        self.slot = f"_{name}"

    def __get__(self, instance: Any, _owner: type | None = None) -> Any:
        if instance is None:
            return self
        found = instance.__dict__.get(self.slot)
        if found is None:
            found = instance.__dict__[self.slot] = instance.client_factory()
        return found

    def __set__(self, instance: Any, value: Any) -> None:
        instance.__dict__[self.slot] = value
