"""The hall's devices (issue 34): an audience phone is a device id the server issued, signed.

An id is 16 random bytes and a tag (HMAC-SHA256 under the server's secret key, cut to 12 bytes),
both base64url: ``<random>.<tag>``. The audience page sets it in an HttpOnly cookie on a first
visit; a prediction, a nickname or a socket with an id the server did not issue (a made-up one,
an old one of another server) is refused and counts nothing. Standard library only: a benchmark's
light workers import it to sign ids as the page would.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

FORM = re.compile(r"[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{16}")


def _tag(key: bytes, token: str) -> str:
    digest = hmac.new(key, b"referee-device:" + token.encode(), hashlib.sha256).digest()[:12]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def new_device(key: bytes) -> str:
    """A new device id, signed under `key`."""
    token = secrets.token_urlsafe(16)
    return f"{token}.{_tag(key, token)}"


def is_device(value: object, key: bytes) -> bool:
    """Whether `value` is a device id this server (its `key`) issued."""
    if not isinstance(value, str) or not FORM.fullmatch(value):
        return False
    token, tag = value.split(".")
    return hmac.compare_digest(tag, _tag(key, token))
