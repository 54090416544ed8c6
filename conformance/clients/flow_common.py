"""What both Python client flows share: the run's settings, a test image, checks that say what broke, the summary."""

import json
import os
import struct
import sys
import zlib
from typing import Any, NoReturn

BASE_URL = os.environ["EMULATOR_URL"]
API_KEY = os.environ["EMULATOR_API_KEY"]
MODEL_SLUG = os.environ["EMULATOR_MODEL"]
PROMPT = "a lighthouse at dusk, waves rolling in"


class FlowFailed(Exception):
    """A step of the flow did not get what the document or the spec promises."""


def check(condition: bool, what: str) -> None:
    if not condition:
        raise FlowFailed(what)


def png(width: int = 96, height: int = 80) -> bytes:
    """A grey RGB PNG, large enough for every model's reference limits."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + b"\x80\x80\x80" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def finish(name: str, run: Any) -> NoReturn:
    """Runs the flow; prints its summary as one JSON line, or what failed; exits 0 or 1."""
    try:
        summary = run()
    except FlowFailed as failure:
        print(f"{name}: FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
    print(json.dumps({"flow": name, **summary}, sort_keys=True))
    sys.exit(0)
