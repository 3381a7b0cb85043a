"""The hall's devices (issue 34): an audience phone is a device id the server issued, signed.

An id is 16 random bytes and a tag, both base64url: ``<random>.<tag>``. The tag is HMAC-SHA1
of ``referee-device:<random>``, cut to 12 bytes, under the devices' own key: a key derived from
the server's secret (``device_key``), so that nginx, which checks ids too when it takes the
hall's predictions itself (deploy/nginx/hall.lua, with the HMAC its Lua module has built in),
never holds the secret that signs the players' links. The audience page sets an id in an
HttpOnly cookie on a first visit; a prediction, a nickname or a socket with an id the server
did not issue (a made-up one, an old one of another server) is refused and counts nothing.
Standard library only: a benchmark's light workers import it to sign ids as the page would.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

TOKEN_CHARS, TAG_CHARS = 22, 16  # 16 random bytes and a 12-byte tag, in base64url
FORM = re.compile(rf"[A-Za-z0-9_-]{{{TOKEN_CHARS}}}\.[A-Za-z0-9_-]{{{TAG_CHARS}}}")


def device_key(secret: bytes) -> bytes:
    """The key that signs device ids, derived from the server's secret key."""
    return hmac.new(secret, b"referee-devices", hashlib.sha256).digest()


def _tag(key: bytes, token: str) -> str:
    digest = hmac.new(key, b"referee-device:" + token.encode(), hashlib.sha1).digest()[:12]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def new_device(key: bytes) -> str:
    """A new device id, signed under the devices' `key` (``device_key``)."""
    token = secrets.token_urlsafe(16)
    return f"{token}.{_tag(key, token)}"


def is_device(value: object, key: bytes) -> bool:
    """Whether `value` is a device id signed under the devices' `key`."""
    if not isinstance(value, str) or not FORM.fullmatch(value):
        return False
    token, tag = value.split(".")
    return hmac.compare_digest(tag, _tag(key, token))
