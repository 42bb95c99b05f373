"""Retries and webhook signatures without a server of Chapar's: a local HTTP server
answers 503/429 first, and the webhook vector comes from the Go signer (CHAPAR_WEBHOOK_VECTOR)."""

import http.server
import json
import os
import threading
import time
import unittest

from chapar import ChaparError, Client, sign_webhook, verify_webhook


class _Flaky(http.server.BaseHTTPRequestHandler):
    answers: list = []
    seen: list = []

    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        type(self).seen.append((time.monotonic(), self.headers.get("Idempotency-Key")))
        status, headers = type(self).answers.pop(0)
        body = json.dumps({"data": {"id": 7} if status < 300 else None,
                           "meta": {"status": status, "message": "خطای سرور", "message_code": str(status), "errors": {}}})
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args):
        pass


class RetryTest(unittest.TestCase):
    def serve(self, answers):
        _Flaky.answers, _Flaky.seen = list(answers), []
        srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Flaky)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        self.addCleanup(srv.server_close)
        self.addCleanup(srv.shutdown)
        return Client(f"http://127.0.0.1:{srv.server_address[1]}", "chp_live_x", backoff=0.05)

    def test_retries_5xx_and_429_with_one_key_and_retry_after(self):
        client = self.serve([(503, {}), (429, {"Retry-After": "1"}), (201, {})])
        self.assertEqual(client.send("300012345", ["09121234567"], "سلام")["id"], 7)
        keys = {k for _, k in _Flaky.seen}
        self.assertEqual(len(_Flaky.seen), 3)
        self.assertEqual(len(keys), 1)
        self.assertTrue(next(iter(keys)))
        self.assertGreaterEqual(_Flaky.seen[2][0] - _Flaky.seen[1][0], 0.9)  # waited Retry-After

    def test_gives_up_after_max_retries(self):
        client = self.serve([(500, {})] * 4)
        with self.assertRaises(ChaparError) as ctx:
            client.send("300012345", ["09121234567"], "سلام", idempotency_key="k-1")
        self.assertEqual(ctx.exception.status, 500)
        self.assertEqual([k for _, k in _Flaky.seen], ["k-1"] * 4)

    def test_no_retry_on_422(self):
        client = self.serve([(422, {})])
        with self.assertRaises(ChaparError) as ctx:
            client.send("300012345", ["1"], "سلام")
        self.assertEqual(ctx.exception.code, "422")
        self.assertEqual(len(_Flaky.seen), 1)


class WebhookTest(unittest.TestCase):
    def test_go_signer_vector(self):
        raw = os.environ.get("CHAPAR_WEBHOOK_VECTOR")
        if not raw:
            self.skipTest("CHAPAR_WEBHOOK_VECTOR not set (scripts/sdk-test.sh sets it)")
        v = json.loads(raw)
        body = v["body"].encode()
        self.assertEqual(sign_webhook(v["secret"], v["timestamp"], body), v["signature"])
        self.assertTrue(verify_webhook(v["secret"], v["timestamp"], v["signature"], body))
        self.assertTrue(verify_webhook(v["secret"], v["timestamp"], "v1=00," + v["signature"], body))
        self.assertFalse(verify_webhook(v["secret"], v["timestamp"], v["signature"], body + b" "))
        self.assertFalse(verify_webhook("whsec_other", v["timestamp"], v["signature"], body))
        self.assertFalse(verify_webhook(v["secret"], v["timestamp"], v["signature"], body, now=int(v["timestamp"]) + 301))

    def test_round_trip(self):
        ts = str(int(time.time()))
        sig = sign_webhook("whsec_abc", ts, '{"events":[]}')
        self.assertTrue(verify_webhook("whsec_abc", ts, sig, b'{"events":[]}'))
        self.assertFalse(verify_webhook("whsec_abc", "not-a-number", sig, b'{"events":[]}'))


if __name__ == "__main__":
    unittest.main()
