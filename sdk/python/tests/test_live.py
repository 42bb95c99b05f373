"""Against a running Chapar (scripts/sdk-test.sh): CHAPAR_URL, CHAPAR_KEY, CHAPAR_LINE
and SIM_URL (the carrier simulator, which delivers and injects received messages)."""

import json
import os
import random
import time
import unittest
import urllib.request
import uuid

from chapar import ChaparError, Client

URL, KEY = os.environ.get("CHAPAR_URL"), os.environ.get("CHAPAR_KEY")
LINE, SIM = os.environ.get("CHAPAR_LINE", ""), os.environ.get("SIM_URL", "")
PATTERN = os.environ.get("CHAPAR_PATTERN", "login-otp")


def sim(path, body):
    req = urllib.request.Request(SIM + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as res:
        return res.status


def mobile():
    """A fresh number the simulator is told to deliver to (its random outcomes aside)."""
    local = "0912" + "".join(random.choice("0123456789") for _ in range(7))
    sim("/control/outcome", {"to": "98" + local[1:], "stat": "DELIVRD"})
    return local


def wait(fn, what, timeout=90):
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        last = fn()
        if last:
            return last
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}: {last}")


@unittest.skipUnless(URL and KEY and SIM, "CHAPAR_URL, CHAPAR_KEY and SIM_URL not set (scripts/sdk-test.sh)")
class LiveTest(unittest.TestCase):
    def setUp(self):
        self.client = Client(URL, KEY)

    def test_send_status_credit(self):
        before = self.client.credit()
        to, local_id = mobile(), "py-" + uuid.uuid4().hex[:12]
        sent = self.client.send(LINE, [to], "سلام از کتابخانهٔ پایتون", local_id=local_id)
        self.assertGreater(sent["id"], 0)
        self.assertEqual(sent["sender"], LINE)
        done = wait(lambda: (lambda s: s if s["delivered"] == 1 else None)(self.client.status(sent["id"])), "delivered")
        self.assertEqual(done["id"], sent["id"])
        by_local = self.client.status_by_local_id(local_id, mobile=to)
        self.assertEqual((by_local["id"], by_local["local_id"]), (sent["id"], local_id))
        self.assertEqual(by_local["recipient"]["status"], 2)
        self.assertLessEqual(self.client.credit(), before - sent["price"])

    def test_same_idempotency_key_is_one_send(self):
        to, key = mobile(), "py-idem-" + uuid.uuid4().hex
        first = self.client.send(LINE, [to], "یک بار", idempotency_key=key)
        again = self.client.send(LINE, [to], "یک بار", idempotency_key=key)
        self.assertEqual(first["id"], again["id"])

    def test_pattern_send(self):
        to, code = mobile(), str(random.randint(10000000, 99999999))
        sent = self.client.send_pattern(PATTERN, to, {"code": code}, local_id="py-otp-" + code)
        self.assertEqual(sent["type"], "pattern_otp")
        st = wait(lambda: (lambda s: s if s["recipient"]["status"] == 2 else None)(
            self.client.status_by_local_id("py-otp-" + code, mobile=to)), "pattern delivered")
        self.assertEqual(st["id"], sent["id"])

    def test_inbox_since(self):
        cursor = 0
        while True:
            page = self.client.inbox_since(cursor, 500)
            if not page:
                break
            cursor = page[-1]["id"]
        text = "پیام دریافتی پایتون " + uuid.uuid4().hex[:6]
        sender = "98912" + "".join(random.choice("0123456789") for _ in range(7))
        self.assertEqual(sim("/mo", {"operator": "mci", "from": sender, "to": LINE, "text": text}), 202)
        got = wait(lambda: [m for m in self.client.inbox_since(cursor, 500) if m["text"] == text], "inbound message")
        self.assertEqual(got[0]["sender"], sender)
        self.assertEqual(got[0]["line"], LINE)
        self.assertGreater(got[0]["id"], cursor)

    def test_persian_error(self):
        with self.assertRaises(ChaparError) as ctx:
            self.client.send(LINE, ["12345"], "سلام")
        err = ctx.exception
        self.assertEqual(err.status, 422)
        self.assertTrue(err.code)
        self.assertRegex(err.message, "[\u0600-\u06FF]")
        self.assertIn("numbers", err.errors)

    def test_bad_key(self):
        with self.assertRaises(ChaparError) as ctx:
            Client(URL, "chp_live_000000000000_bad").credit()
        self.assertEqual(ctx.exception.status, 401)
        self.assertRegex(ctx.exception.message, "[\u0600-\u06FF]")


if __name__ == "__main__":
    unittest.main()
