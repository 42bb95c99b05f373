#!/usr/bin/env python3
"""Follows one send's bulk_stats until every recipient has its final state.

The benchmarks' poll loop: one process and one kept-alive HTTP connection, where
a loop of curl and jq in the shell spent about a fifth of the 2-core machine
during the end-to-end run (its processes are not in the figures, but they took
the cores the product runs on). Usage:

  bench-poll.py URL TOKEN INTERVAL TIMEOUT STALL LOG_EVERY SNAP_EVERY [expanding-moves]

It prints one event a line, for the shell to act on:
  exp T            the send was first seen expanded (T: epoch seconds)
  sent T           every recipient was first seen submitted or rejected
  snap             progress was seen SNAP_EVERY seconds or more after the last
                   snap (0: never): take the "after" figures now
  log TEXT         a progress line
  done T STATS     every recipient has its final state; T the time it was seen
  stall T STATS    nothing moved for STALL seconds, or TIMEOUT passed; T is the
                   last progress seen
STATS is bulk_stats' data as compact JSON. With expanding-moves, a send not yet
expanded counts as moving (a long expansion shows no progress until it commits).
"""
import http.client
import json
import sys
import time
import urllib.parse


def main():
    url, token = sys.argv[1], sys.argv[2]
    interval, timeout, stall, log_every, snap_every = map(float, sys.argv[3:8])
    expanding_moves = len(sys.argv) > 8 and sys.argv[8] == "expanding-moves"
    u = urllib.parse.urlsplit(url)
    path = u.path + ("?" + u.query if u.query else "")
    conn = None
    stats, prev = None, None
    start = time.time()
    moved = last_progress = last_snap = last_log = start
    dirty = seen_exp = seen_sent = False

    def emit(*parts):
        print(*parts, flush=True)

    while True:
        try:
            if conn is None:
                conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
            conn.request("GET", path, headers={"Authorization": "Bearer " + token})
            resp = conn.getresponse()
            body = resp.read()
            if resp.status == 200:
                stats = json.loads(body).get("data") or stats
        except (OSError, http.client.HTTPException, ValueError):
            conn = None  # a failed poll keeps the last answer
        now = time.time()
        if stats:
            compact = json.dumps(stats, separators=(",", ":"), ensure_ascii=False)
            n = stats.get("recipients", 0)
            final = stats.get("delivered", 0) + stats.get("undelivered", 0) + stats.get("rejected", 0)
            if n > 0 and final >= n:
                emit("snap")
                emit("done", f"{now:.6f}", compact)
                return
            if not seen_exp and stats.get("expanded"):
                seen_exp = True
                emit("exp", f"{now:.6f}")
            if not seen_sent and stats.get("expanded") and stats.get("sent", 0) + stats.get("rejected", 0) >= n:
                seen_sent = True
                emit("sent", f"{now:.6f}")
            cur = (stats.get("sent"), stats.get("delivered"), stats.get("undelivered"))
            if expanding_moves and not stats.get("expanded"):
                cur = ("expanding", now)
            if cur != prev:
                prev, moved, last_progress, dirty = cur, now, now, True
            if dirty and snap_every > 0 and now - last_snap >= snap_every:
                emit("snap")
                last_snap, dirty = now, False
            if now - last_log >= log_every:
                last_log = now
                emit("log", f"status {stats.get('status')}, sent {stats.get('sent')}, "
                     f"delivered {stats.get('delivered')} of {n}")
        if now - start >= timeout or now - moved >= stall:
            emit("stall", f"{last_progress:.6f}", json.dumps(stats or {}, separators=(",", ":"), ensure_ascii=False))
            return
        time.sleep(interval)


if __name__ == "__main__":
    main()
