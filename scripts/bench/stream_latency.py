"""How long a store's reply takes to reach its author's open notification stream (issue #33).

The stream and the replies go through the given front (nginx in front of two servers, scripts/bench/stream-bench.sh),
so the reply is usually taken by one server and the event sent by the other. Each sample: the manager PUTs a reply
to one of the author's reviews; the time from sending it to reading its event on the stream. Prints p50/p95/max.
Usage: stream_latency.py API DATABASE_URL SAMPLES
"""
import http.client
import json
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid


def call(api, method, path, body=None, token=None):
    url = urllib.parse.urlsplit(api)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    data = response.read()
    conn.close()
    if response.status >= 300:
        raise RuntimeError(f"{method} {path}: {response.status} {data[:200]!r}")
    return json.loads(data) if data else None


def register(api, name, role="user"):
    session = call(api, "POST", "/v1/auth/register", {"name": name, "password": "bench-password-1", "role": role})
    return session["token"], session["user"]["id"]


def main():
    api, database, samples = sys.argv[1], sys.argv[2], int(sys.argv[3])
    tag = uuid.uuid4().hex[:8]
    manager_token, manager_id = register(api, f"sl-manager-{tag}", "manager")
    author_token, author_id = register(api, f"sl-author-{tag}")
    # A category and a store of the manager's, straight into the database (no API makes categories).
    store_id = subprocess.run(
        ["psql", "-At", database, "-c",
         f"WITH g AS (INSERT INTO categories (name) VALUES ('sl-{tag}') RETURNING id) "
         f"INSERT INTO stores (name, category_id, manager_id) SELECT 'sl-store-{tag}', id, '{manager_id}' FROM g "
         f"RETURNING id"], check=True, capture_output=True, text=True).stdout.split()[0]
    reviews = [call(api, "POST", f"/v1/stores/{store_id}/comments", {"rating": 4, "body": f"stream bench {i}"},
                    author_token)["id"] for i in range(samples)]

    seen = {}
    url = urllib.parse.urlsplit(api)
    stream = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
    stream.request("GET", "/v1/me/notifications/stream", headers={"Authorization": f"Bearer {author_token}"})
    response = stream.getresponse()
    assert response.status == 200, response.status

    def read():
        for raw in iter(response.fp.readline, b""):
            line = raw.decode().rstrip("\r\n")
            if line.startswith("data: "):
                event = json.loads(line[6:])
                if event["kind"] == "reply" and event["comment"]:
                    seen[event["comment"]["id"]] = time.monotonic()

    threading.Thread(target=read, daemon=True).start()
    time.sleep(1)  # the stream is open on its server
    latencies = []
    for review in reviews:
        sent = time.monotonic()
        call(api, "PUT", f"/v1/comments/{review}/reply", {"body": "谢谢光临"}, manager_token)
        deadline = sent + 10
        while review not in seen and time.monotonic() < deadline:
            time.sleep(0.001)
        latencies.append((seen.get(review, float("inf")) - sent) * 1000)
        time.sleep(0.05)
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(len(latencies) * q))]
    lost = sum(1 for x in latencies if x == float("inf"))
    print(f"samples={len(latencies)} p50_ms={p(0.5):.1f} p95_ms={p(0.95):.1f} max_ms={latencies[-1]:.1f} lost={lost}")


if __name__ == "__main__":
    main()
