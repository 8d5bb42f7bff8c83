"""What a threaded local server needs to be as strict as AWS where it matters: moto applying one
request at a time (atomic conditional writes), a clock the sweeper can run ahead on, Powertools
metrics under a lock."""

from __future__ import annotations

import functools
import io
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

HOST = "127.0.0.1"  # never anything else


def one_request_at_a_time(app: Callable[..., Any]) -> Callable[..., Any]:
    """WSGI middleware: ``app`` handles one request at a time. DynamoDB applies each conditional
    write atomically; moto checks the condition and then writes without a lock, so under a
    threaded server two racing writes can both pass. The body is read before the lock and the
    answer is sent after it, so only moto's own work is serialised."""
    lock = threading.Lock()

    def serialised(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        length = int(environ.get("CONTENT_LENGTH") or 0)
        if length:
            environ["wsgi.input"] = io.BytesIO(environ["wsgi.input"].read(length))
        with lock:
            answer = app(environ, start_response)
            try:
                return list(answer)
            finally:
                close = getattr(answer, "close", None)
                if close is not None:
                    close()

    return serialised


def serial_moto_server() -> Any:
    """moto in server mode on 127.0.0.1 and a free port: connections are accepted on threads, and
    every request (DynamoDB, its streams, EventBridge) is applied one at a time."""
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
    from moto.server import ThreadedMotoServer
    from werkzeug.serving import make_server

    class SerialMotoServer(ThreadedMotoServer):
        def _server_entry(self) -> None:
            app = one_request_at_a_time(DomainDispatcherApplication(create_backend_app))
            self._server = make_server(self._ip_address, self._port, app, threaded=True)
            self._server_ready_event.set()
            self._server.serve_forever()

    return SerialMotoServer(ip_address=HOST, port=0, verbose=False)


def widen_race_window(seconds: float) -> None:
    """A testing aid (``--race-window-ms``): moto sleeps between reading the stored item and
    checking a write's condition, which lets other requests run in between, as they could on a
    busier machine. With moto serialised nothing changes but speed; without, racing writers win twice."""
    from moto.dynamodb import models as moto_models
    from moto.dynamodb.models import table as moto_table

    for module in (moto_models, moto_table):
        original = module.get_filter_expression

        def slow(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
            time.sleep(seconds)
            return _original(*args, **kwargs)

        module.get_filter_expression = slow  # type: ignore[attr-defined]


class ShiftableClock:
    """The service's clock on the local server: now plus an offset that only grows.

    ``POST /_local/sweep?shift_seconds=S`` moves it ``S`` seconds on (:meth:`advance`) and then fires
    the scheduled functions: the move lasts, so every later request of the process (reads, moves,
    the timed sweeps) sees the same later time, and a loss on time, a reminder or an expired hold can
    be shown in seconds without the views and the sweeper disagreeing about the time. It never goes
    back (a new server starts at the real time). :meth:`shifted` adds a further shift for the
    current thread only, for a test that wants one call ahead of the rest."""

    def __init__(self) -> None:
        self._local = threading.local()
        self._lock = threading.Lock()
        self._offset = timedelta(0)

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self._offset + getattr(self._local, "shift", timedelta(0))

    @property
    def offset_seconds(self) -> float:
        return self._offset.total_seconds()

    def advance(self, seconds: float) -> float:
        """Move the clock ``seconds`` (>= 0) on for good; the offset after the move."""
        if not seconds >= 0:
            raise ValueError("the clock only moves on")
        with self._lock:
            self._offset += timedelta(seconds=seconds)
            return self._offset.total_seconds()

    @contextmanager
    def shifted(self, seconds: float) -> Iterator[None]:
        self._local.shift = timedelta(seconds=seconds)
        try:
            yield
        finally:
            self._local.shift = timedelta(0)


CLOCK = ShiftableClock()


def install_clock() -> None:
    """Give the service :data:`CLOCK` (through ``connect6.api.runtime.configure``, the hook tests use)."""
    from connect6.api import runtime

    runtime.configure(clock=CLOCK)


def serialise_powertools_metrics() -> None:
    """Powertools keeps one metric set per ``Metrics`` object, shared by all threads of a process.
    Lambda runs one request per process; here requests run side by side, and adding a metric while
    another thread serialises the set could fail ("dictionary changed size during iteration").
    One lock around the provider's metric-set methods keeps them whole (metrics only)."""
    from aws_lambda_powertools.metrics.provider.cloudwatch_emf.cloudwatch import AmazonCloudWatchEMFProvider

    if getattr(AmazonCloudWatchEMFProvider, "_local_api_locked", False):
        return
    lock = threading.RLock()
    for name in ("add_metric", "serialize_metric_set", "flush_metrics", "clear_metrics"):
        original = getattr(AmazonCloudWatchEMFProvider, name)

        def locked(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            with lock:
                return _original(self, *args, **kwargs)

        setattr(AmazonCloudWatchEMFProvider, name, functools.wraps(original)(locked))
    AmazonCloudWatchEMFProvider._local_api_locked = True  # type: ignore[attr-defined]
