"""The pool's wire format: length-prefixed JSON messages over a pair of pipe file descriptors.

Each message is a 4-byte big-endian length followed by that many bytes of UTF-8 JSON (ASCII in
practice: the sender escapes everything else). JSON only: the parent never unpickles anything a
worker sends, because the worker runs untrusted code.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import time
from collections.abc import Callable
from json.encoder import (  # type: ignore[attr-defined]
    c_make_encoder,
    encode_basestring_ascii,
)
from typing import Any

MAX_MESSAGE_BYTES = 256 * 1024 * 1024
"""A longer request is a protocol error."""

REPLY_LIMIT = 16 * 1024 * 1024
"""The largest reply the parent reads (16 MiB: a trace of 10,000 steps stays far below it).
A worker announcing more is killed without the parent reading a byte of it."""

_HEADER = 4
_CHUNK = 1 << 20
READ_CHUNK = 1 << 16
"""What one read of a reply asks for: a reply is usually far smaller, and a larger buffer is
an allocation of its own (an mmap, shrunk and unmapped again) on every read."""


class ProtocolError(Exception):
    """The other side sent something that is not a well-formed message."""


class Timeout(Exception):
    """No complete message arrived before the deadline."""


def _json_encoder() -> Callable[[Any], str]:
    """`json.dumps(message, ensure_ascii=True, separators=(",", ":"))`, with the encoder made
    once instead of for every message: a child of a fork server that encodes its reply, and
    the server that encodes a header for every child, then copy about 50 fewer of the
    template's pages per call between them. No check for circular values (the C encoder's
    table of them would outlive a failed call): they end in `RecursionError`, as deep ones do.
    """
    if c_make_encoder is None:  # an interpreter without the C accelerator
        return json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode
    make = c_make_encoder(None, None, encode_basestring_ascii, None, ":", ",", False, False, True)
    return lambda message: "".join(make(message, 0))


_ENCODE = _json_encoder()


def encode(message: Any) -> bytes:
    """One framed message; raises `ValueError`/`TypeError` for values JSON cannot hold (too
    deep or circular included)."""
    try:
        body = _ENCODE(message).encode("ascii")
    except RecursionError:
        raise ValueError("the message is nested too deeply (or circular)") from None
    if len(body) > MAX_MESSAGE_BYTES:
        raise ValueError(f"message of {len(body)} bytes exceeds {MAX_MESSAGE_BYTES}")
    return len(body).to_bytes(_HEADER, "big") + body


def write_all(fd: int, data: bytes) -> None:
    """Write every byte to a blocking descriptor (the worker's side)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def read_message(fd: int) -> Any:
    """Read one message from a blocking descriptor (the worker's side).

    Raises:
        EOFError: the other end closed the pipe.
        ProtocolError: the bytes are not a message.
    """
    header = _read_exactly(fd, _HEADER)
    size = int.from_bytes(header, "big")
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message of {size} bytes announced")
    return decode(_read_exactly(fd, size))


def _read_exactly(fd: int, size: int) -> bytes:
    parts: list[bytes] = []
    missing = size
    while missing:
        chunk = os.read(fd, min(missing, _CHUNK))
        if not chunk:
            raise EOFError("pipe closed")
        parts.append(chunk)
        missing -= len(chunk)
    return b"".join(parts)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if value - value != 0.0:  # inf (1e400) and nan
        raise ValueError(f"{text[:20]} is not a finite number")
    return value


def decode(body: bytes) -> Any:
    """Parse a message body, turning every failure into `ProtocolError`.

    Strict JSON: `NaN`, `Infinity` and numbers that overflow to infinity are refused, and so
    are integers beyond `sys.get_int_max_str_digits()` digits, so a decoded message holds
    nothing that breaks arithmetic on it later.
    """
    try:
        return json.loads(body, parse_constant=_no_constant, parse_float=_finite_float)
    except (ValueError, RecursionError, MemoryError) as exc:  # RecursionError: deep nesting
        raise ProtocolError(f"message is not JSON: {str(exc)[:200]}") from None


class Channel:
    """The parent's end of a worker's two pipes, with deadlines on both directions.

    Not thread-safe: one thread at a time uses a worker.
    """

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self.read_fd = read_fd
        self.write_fd = write_fd
        os.set_blocking(write_fd, False)
        self._buffer = bytearray()
        self._poll_in = select.poll()
        self._poll_in.register(read_fd, select.POLLIN)
        self._poll_out = select.poll()
        self._poll_out.register(write_fd, select.POLLOUT)

    def send(self, message: Any, deadline: float) -> None:
        """Send one message, waiting for room in the pipe until `deadline` (monotonic).

        Raises:
            Timeout: the worker did not read in time.
            BrokenPipeError: the worker is gone.
        """
        view = memoryview(encode(message))
        while view:
            try:
                written = os.write(self.write_fd, view)
            except BlockingIOError:
                written = 0
            view = view[written:]
            if view and not self._poll_out.poll(_millis(deadline)):
                raise Timeout("worker did not read its request")

    def receive(self, deadline: float, limit: int = REPLY_LIMIT) -> Any:
        """Receive and decode one message (see `receive_bytes`)."""
        return decode(self.receive_bytes(deadline, limit))

    def receive_bytes(self, deadline: float, limit: int = REPLY_LIMIT) -> bytes:
        """Receive one message of at most `limit` bytes, waiting until `deadline` (monotonic).

        Raises:
            Timeout: no complete message before the deadline.
            EOFError: the worker closed its end (it died).
            ProtocolError: the worker sent something that is not a message.
        """
        buffer = self._buffer
        while True:
            if len(buffer) >= _HEADER:
                size = int.from_bytes(buffer[:_HEADER], "big")
                if size > limit:
                    raise ProtocolError(f"reply of {size} bytes announced (limit {limit})")
                end = _HEADER + size
                if len(buffer) >= end:
                    body = bytes(buffer[_HEADER:end])
                    del buffer[:end]
                    return body
            if not self._poll_in.poll(_millis(deadline)):
                raise Timeout("no reply before the deadline")
            chunk = os.read(self.read_fd, READ_CHUNK)
            if not chunk:
                raise EOFError("worker closed its pipe")
            buffer += chunk

    def close(self) -> None:
        """Close both descriptors (idempotent)."""
        for fd in (self.read_fd, self.write_fd):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.read_fd = self.write_fd = -1


def _millis(deadline: float) -> int:
    """Milliseconds left until `deadline`, at least 0 (poll's timeout unit)."""
    return max(0, int((deadline - time.monotonic()) * 1000) + 1)
