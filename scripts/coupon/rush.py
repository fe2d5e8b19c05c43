"""The coupon rush's client: every token claims the coupon once, CONCURRENCY at a time, through BASE (nginx in
front of two servers). Prints one JSON line: answers by status and problem code, the claims answered 201 (their
ids), latency percentiles in ms, and how many requests failed to get any answer (a killed server's in flight).
Usage: rush.py BASE COUPON_ID TOKENS_FILE CONCURRENCY"""
import http.client
import json
import queue
import sys
import threading
import time
import urllib.parse

base, coupon, tokens_file, concurrency = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
url = urllib.parse.urlparse(base)
tokens = [line.strip() for line in open(tokens_file) if line.strip()]
work = queue.Queue()
for n, token in enumerate(tokens):
    work.put((n, token))
lock = threading.Lock()
answers, created, latencies, unanswered = {}, [], [], 0


def worker():
    global unanswered
    connection = None
    while True:
        try:
            n, token = work.get_nowait()
        except queue.Empty:
            return
        started = time.monotonic()
        try:
            if connection is None:
                connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
            connection.request("POST", f"/v1/coupons/{coupon}/claims", headers={
                "Authorization": f"Bearer {token}", "Idempotency-Key": "rush-" + coupon[-8:] + token[:40], "Content-Length": "0"})
            response = connection.getresponse()
            body = response.read()
            elapsed = (time.monotonic() - started) * 1000
            code = str(response.status)
            if response.status >= 400:
                try:
                    code += " " + json.loads(body).get("code", "")
                except ValueError:
                    pass
            with lock:
                answers[code] = answers.get(code, 0) + 1
                latencies.append(elapsed)
                if response.status in (200, 201):
                    created.append(json.loads(body)["id"])
        except (OSError, http.client.HTTPException):
            with lock:
                unanswered += 1
            connection = None


threads = [threading.Thread(target=worker) for _ in range(concurrency)]
started = time.monotonic()
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
seconds = time.monotonic() - started
latencies.sort()


def percentile(p):
    return round(latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))], 1) if latencies else None


print(json.dumps({"answers": answers, "created": created, "unanswered": unanswered, "seconds": round(seconds, 2),
                  "rps": round(len(latencies) / seconds, 1), "p50": percentile(50), "p95": percentile(95),
                  "p99": percentile(99), "max": round(latencies[-1], 1) if latencies else None}))
