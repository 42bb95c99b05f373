"""The HTTP client: the envelope, errors, retries with an Idempotency-Key."""

import email.utils
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Dict, Iterable, List, Mapping, Optional

USER_AGENT = "chapar-python/0.1.0"


class ChaparError(Exception):
    """An error answer of the API: its HTTP status, the envelope's Persian message,
    its message_code and per-field errors."""

    def __init__(self, status: int, message: str, code: str = "", errors: Optional[Dict[str, List[str]]] = None,
                 data: Any = None, retry_after: Optional[float] = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.errors = errors or {}
        self.data = data
        self.retry_after = retry_after

    def __str__(self) -> str:
        return f"{self.status} {self.code}: {self.message}" if self.code else f"{self.status}: {self.message}"


class ChaparNetworkError(ChaparError):
    """The API could not be reached (after the retries)."""

    def __init__(self, message: str, cause: Optional[BaseException] = None):
        super().__init__(0, message, "network")
        self.__cause__ = cause


def _retry_after(value: Optional[str]) -> Optional[float]:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class Client:
    """A client of one account, authenticated with an API key.

    base_url is the panel's address (https://panel.example.ir); /v1/api is added
    when missing. Calls are retried on network errors, 5xx and 429 (max_retries
    more times, waiting Retry-After when the answer gives one, else an exponential
    back-off); each POST carries an Idempotency-Key that stays the same on every
    retry, so a retried send is one send."""

    def __init__(self, base_url: str, api_key: str, timeout: float = 30.0, max_retries: int = 3,
                 backoff: float = 0.5, max_backoff: float = 30.0):
        url = base_url.rstrip("/")
        if not url.endswith("/v1/api"):
            url += "/v1/api"
        self.base_url = url
        self.api_key = api_key
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_backoff = max_backoff

    # --- sending ---

    def send(self, sender: str, numbers: Iterable[str], text: str, local_id: Optional[str] = None,
             send_at: Optional[str] = None, cancel11: Optional[bool] = None,
             idempotency_key: Optional[str] = None, **extra: Any) -> Dict[str, Any]:
        """Quick send of text from the line sender to numbers: {id, status, price, sender, cancel11}."""
        body: Dict[str, Any] = {"type": "quick", "sender": sender, "text": text, "numbers": list(numbers)}
        for k, v in (("local_id", local_id), ("send_at", send_at), ("cancel11", cancel11)):
            if v is not None:
                body[k] = v
        body.update(extra)
        return self.request("POST", "/send", body=body, idempotency_key=idempotency_key)

    def send_pattern(self, code: str, recipient: Optional[str] = None, values: Optional[Mapping[str, Any]] = None,
                     recipients: Optional[List[Mapping[str, Any]]] = None, sender: Optional[str] = None,
                     local_id: Optional[str] = None, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """Sends an approved pattern (a one-time code or a service message) to recipient with
        values, or to recipients ([{"mobile", "values"}], up to 1,000)."""
        body: Dict[str, Any] = {"code": code}
        if recipient is not None:
            body["recipient"] = recipient
            body["values"] = {k: str(v) for k, v in (values or {}).items()}
        if recipients is not None:
            body["recipients"] = list(recipients)
        for k, v in (("sender", sender), ("local_id", local_id)):
            if v is not None:
                body[k] = v
        return self.request("POST", "/patterns/send", body=body, idempotency_key=idempotency_key)

    def status(self, send_id: int, mobile: Optional[str] = None) -> Dict[str, Any]:
        """A send by its id (with mobile: that recipient's status in "recipient")."""
        return self.request("GET", "/send/status", query={"id": send_id, "mobile": mobile})

    def status_by_local_id(self, local_id: str, mobile: Optional[str] = None) -> Dict[str, Any]:
        """A send by the local_id it was sent with."""
        return self.request("GET", "/send/status", query={"local_id": local_id, "mobile": mobile})

    # --- account ---

    def credit(self) -> int:
        """The wallet's credit in rials."""
        return int(self.request("GET", "/payment/credit/mine")["credit"])

    def lines(self) -> List[Dict[str, Any]]:
        """The account's sender lines, the default first."""
        return self.request("GET", "/number/numbers")

    def inbox_since(self, after_id: int = 0, limit: int = 100) -> List[Dict[str, Any]]:
        """Received messages with an id above after_id, oldest first (keep the last id)."""
        return self.request("GET", "/inbox/since", query={"after_id": after_id, "limit": limit})

    # --- transport ---

    def request(self, method: str, path: str, body: Any = None, query: Optional[Mapping[str, Any]] = None,
                idempotency_key: Optional[str] = None) -> Any:
        """One API call with retries; returns the envelope's data or raises ChaparError."""
        url = self.base_url + path
        q = {k: v for k, v in (query or {}).items() if v is not None}
        if q:
            url += "?" + urllib.parse.urlencode(q)
        headers = {"Authorization": f"Bearer {self.api_key}", "Accept": "application/json", "User-Agent": USER_AGENT}
        payload = None
        if body is not None:
            payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if method == "POST":
            headers["Idempotency-Key"] = idempotency_key or uuid.uuid4().hex
        attempt = 0
        while True:
            try:
                return self._once(method, url, payload, headers)
            except ChaparError as err:
                if attempt >= self.max_retries or not self._retryable(err):
                    raise
                time.sleep(self._delay(attempt, err.retry_after))
                attempt += 1

    @staticmethod
    def _retryable(err: ChaparError) -> bool:
        return (isinstance(err, ChaparNetworkError) or err.status >= 500 or err.status == 429
                or err.code == "idempotency-key-busy")

    def _delay(self, attempt: int, retry_after: Optional[float]) -> float:
        if retry_after is not None:
            return min(retry_after, self.max_backoff)
        base = min(self.backoff * (2 ** attempt), self.max_backoff)
        return base * (0.8 + 0.4 * random.random())

    def _once(self, method: str, url: str, payload: Optional[bytes], headers: Dict[str, str]) -> Any:
        req = urllib.request.Request(url, data=payload, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                return self._decode(res.status, res.read(), res.headers)
        except urllib.error.HTTPError as res:
            return self._decode(res.code, res.read(), res.headers)
        except (urllib.error.URLError, socket.timeout, ConnectionError, OSError) as err:
            raise ChaparNetworkError(f"chapar: {method} {url}: {err}", err) from err

    @staticmethod
    def _decode(status: int, raw: bytes, headers: Any) -> Any:
        try:
            env = json.loads(raw.decode("utf-8")) if raw else {}
        except ValueError:
            env = {}
        meta = (env.get("meta") or {}) if isinstance(env, dict) else {}
        if 200 <= status < 300:
            return env.get("data") if isinstance(env, dict) else None
        raise ChaparError(status, meta.get("message") or f"HTTP {status}", str(meta.get("message_code") or ""),
                          meta.get("errors") or {}, env.get("data") if isinstance(env, dict) else None,
                          _retry_after(headers.get("Retry-After")))
