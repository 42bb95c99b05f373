"""Webhook signatures: X-Chapar-Signature is "v1=" + hex HMAC-SHA256 of "<timestamp>.<raw body>"."""

import hashlib
import hmac
import time
from typing import Optional, Union

HEADER_TIMESTAMP = "X-Chapar-Timestamp"
HEADER_SIGNATURE = "X-Chapar-Signature"
HEADER_DELIVERY = "X-Chapar-Delivery"


def _bytes(v: Union[str, bytes]) -> bytes:
    return v.encode("utf-8") if isinstance(v, str) else v


def sign_webhook(secret: str, timestamp: Union[int, str], body: Union[str, bytes]) -> str:
    """The X-Chapar-Signature value of body sent at timestamp (Unix seconds)."""
    mac = hmac.new(_bytes(secret), _bytes(str(timestamp)) + b"." + _bytes(body), hashlib.sha256)
    return "v1=" + mac.hexdigest()


def verify_webhook(secret: str, timestamp: str, signature: str, body: Union[str, bytes],
                   tolerance: int = 300, now: Optional[float] = None) -> bool:
    """True when signature (one or more comma-separated values) signs the raw body at
    timestamp and timestamp is within tolerance seconds of now."""
    try:
        ts = int(str(timestamp).strip())
    except ValueError:
        return False
    current = time.time() if now is None else now
    if abs(current - ts) > tolerance:
        return False
    want = sign_webhook(secret, ts, body)
    return any(hmac.compare_digest(s.strip(), want) for s in str(signature).split(","))
