#!/usr/bin/python3
"""The cluster fault test's driver (scripts/cluster-test.sh runs it with the cluster up and wrk loading it).

While probes run through nginx — a reader, a promotion buyer, a review writer and a coupon claimer — it kills one
server process, stops the replica, starts both again, then kills the primary's node (Patroni and PostgreSQL at
once) and starts it again. It prints what clients saw in each phase and checks: no 500 and no hang, every
acknowledged purchase in the ledger and ad spend equal to the ledger's sum, every review visible to its author at
once, every acknowledged claim stored, each coupon's count equal to its claims and nobody over its perUser; a
claim whose answer was lost, retried afterwards with its Idempotency-Key, is never made twice.
Standard library only (Debian's python3)."""

import http.client
import itertools
import json
import os
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

FRONT = urllib.parse.urlparse(os.environ["FRONT"])
WRITE_URL = os.environ["DATABASE_URL"]
CLUSTER = [os.environ.get("CLUSTER_SH", "scripts/cluster.sh")]
HANG = 10.0  # seconds: an answer slower than this counts as a hang
START = time.monotonic()


def now():
    return time.monotonic() - START


class Client:
    """One keep-alive connection to nginx; reconnects after any failure."""

    def __init__(self):
        self.conn = None
        self.lsn = None  # the read-your-writes marker of this client's last write

    def call(self, method, path, body=None, token=None, fresh=True, key=None):
        headers = {"Accept": "application/json"}
        if key:
            headers["Idempotency-Key"] = key
        if body is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(body)
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if fresh and self.lsn:
            headers["Chidian-LSN"] = self.lsn
        started = time.monotonic()
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection(FRONT.hostname, FRONT.port, timeout=HANG + 5)
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
            data = response.read()
            status = response.status
            if response.getheader("Chidian-LSN"):
                self.lsn = response.getheader("Chidian-LSN")
            retry_after = response.getheader("Retry-After")
            code = None
            if status >= 400:
                try:
                    code = json.loads(data).get("code")
                except ValueError:
                    code = "(not JSON: nginx)" if b"nginx" in data else "(not JSON)"
            payload = json.loads(data) if status < 300 and data else None
        except (OSError, http.client.HTTPException) as error:
            self.conn = None
            status, code, payload, retry_after = 0, type(error).__name__, None, None
        return {"t": now(), "ms": (time.monotonic() - started) * 1000, "status": status, "code": code,
                "retryAfter": retry_after, "payload": payload}


class Probe(threading.Thread):
    def __init__(self, name, step, pause):
        super().__init__(daemon=True)
        self.name, self.step, self.pause = name, step, pause
        self.log = []
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            self.log.extend(self.step())
            time.sleep(self.pause)


def cluster(*args):
    subprocess.run(CLUSTER + list(args), check=True, stdout=subprocess.DEVNULL)


def psql(sql, **variables):
    """Runs one statement through psql's stdin, so values arrive as quoted psql variables."""
    args = ["psql", "-qAtX", WRITE_URL, "-v", "ON_ERROR_STOP=1"]
    for name, value in variables.items():
        args += ["-v", f"{name}={value}"]
    return subprocess.run(args, input=sql, check=True, capture_output=True, text=True).stdout.strip()


def pool_reads():
    """Reads each pool served, summed over both servers' /metrics."""
    totals = {}
    for server in (os.environ["SERVER1"], os.environ["SERVER2"]):
        try:
            with urllib.request.urlopen(f"{server}/metrics", timeout=5) as response:
                text = response.read().decode()
        except OSError:
            continue
        for line in text.splitlines():
            if line.startswith("chidian_db_reads_total{"):
                pool = line.split('pool="', 1)[1].split('"', 1)[0]
                totals[pool] = totals.get(pool, 0) + float(line.rsplit(" ", 1)[1])
    return totals


def sign_in(name, password):
    answer = Client().call("POST", "/v1/auth/login", {"name": name, "password": password})
    assert answer["status"] == 200, f"sign-in of {name}: {answer}"
    return answer["payload"]["token"]


def main():
    manager = sign_in("Manager4", "111")
    author = sign_in("User1", "111")
    stores = Client().call("GET", "/v1/me/stores?limit=3", token=manager)["payload"]["items"]
    store_ids = [s["id"] for s in stores]
    review_store = Client().call("GET", "/v1/stores?limit=1&sort=rating")["payload"]["items"][0]["id"]

    reader_client = Client()
    reads = Probe("read", lambda: [reader_client.call("GET", f"/v1/stores/{store_ids[0]}")], 0.02)

    buyer_client = Client()
    bought = []

    next_store = itertools.cycle(store_ids)

    def buy():
        store = next(next_store)
        answer = buyer_client.call("POST", f"/v1/stores/{store}/promotions", {"amount": 1}, token=manager)
        if answer["status"] == 201:
            bought.append(answer["payload"]["id"])
        return [answer]

    buys = Probe("buy", buy, 0.05)

    writer_client = Client()
    anonymous = Client()
    stale_for_author = []
    replay_delays = []

    def review():
        posted = writer_client.call("POST", f"/v1/stores/{review_store}/comments",
                                    {"rating": 4, "body": f"故障演练 {now():.1f}"}, token=author)
        out = [posted]
        if posted["status"] != 201:
            return out
        cid = posted["payload"]["id"]
        own = writer_client.call("GET", f"/v1/comments/{cid}?track=false", token=author)
        out.append(own)
        if own["status"] == 404:
            stale_for_author.append(cid)
        written = time.monotonic()
        while time.monotonic() - written < 15:
            seen = anonymous.call("GET", f"/v1/comments/{cid}?track=false", fresh=False)
            if seen["status"] == 200:
                replay_delays.append((time.monotonic() - written) * 1000)
                break
            time.sleep(0.02)
        return out

    writes = Probe("review", review, 0.5)

    # Coupons: five diners claim ten coupons of the manager's first store in turn, each claim with a key of its own.
    diners = [sign_in(name, "111") for name in ("User2", "User3", "吃货小王", "爱吃辣的猫", "zhangwei88")]
    coupons = []
    for n in range(10):
        offered = Client().call("POST", f"/v1/stores/{store_ids[0]}/coupons", {
            "title": f"故障演练券{n}", "faceValue": 5, "stock": 1000, "perUser": 10,
            "endsAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 86400))}, token=manager)
        assert offered["status"] == 201, f"offer a coupon: {offered}"
        coupons.append(offered["payload"]["id"])
    claimer_client = Client()
    claimed, lost = [], []
    attempts = itertools.count()

    def claim():
        n = next(attempts)
        diner, coupon, key = diners[n % len(diners)], coupons[(n // len(diners)) % len(coupons)], f"fault-claim-{n:06d}"
        answer = claimer_client.call("POST", f"/v1/coupons/{coupon}/claims", token=diner, key=key)
        if answer["status"] in (200, 201):
            claimed.append(answer["payload"]["id"])
        elif answer["status"] == 0 or answer["status"] >= 500:
            lost.append((diner, coupon, key))
        return [answer]

    claims = Probe("claim", claim, 0.15)
    reads_before = pool_reads()
    probes = [reads, buys, writes, claims]
    for probe in probes:
        probe.start()

    events = []

    def event(name, action):
        events.append((now(), name))
        print(f"cluster-test: {now():5.1f}s {name}", file=sys.stderr)
        action()

    leader = subprocess.run(CLUSTER + ["leader"], check=True, capture_output=True, text=True).stdout.strip()
    replica = str(3 - int(leader))
    time.sleep(6)
    steady = {pool: count - reads_before.get(pool, 0) for pool, count in pool_reads().items()}
    event("SIGKILL server 1", lambda: cluster("kill-server", "1"))
    time.sleep(6)
    event("server 1 started", lambda: cluster("start-server", "1"))
    time.sleep(6)
    event("replica stopped", lambda: cluster("stop-node", replica))
    time.sleep(8)
    event("replica started", lambda: cluster("start-node", replica))
    # Patroni promotes only its synchronous standby: the next fault waits until the replica is that again.
    resynced = None
    while now() - events[-1][0] < 60:
        if subprocess.run(CLUSTER + ["sync-standby"], capture_output=True, text=True).stdout.strip() == replica:
            resynced = now() - events[-1][0]
            break
        time.sleep(0.5)
    time.sleep(max(0.0, 10 - (now() - events[-1][0])))
    event("primary killed", lambda: cluster("kill-node", leader))
    promoted = None
    while now() - events[-1][0] < 60:
        if subprocess.run(CLUSTER + ["leader"], capture_output=True, text=True).stdout.strip() == replica:
            promoted = now() - events[-1][0]
            break
        time.sleep(0.2)
    events.append((now(), "replica promoted"))
    time.sleep(4)
    event("old primary started", lambda: cluster("start-node", leader))
    time.sleep(8)
    events.append((now(), "end"))
    for probe in probes:
        probe.stop.set()
    for probe in probes:
        probe.join(HANG + 10)

    # What clients saw, phase by phase.
    answers = sorted((a | {"probe": p.name} for p in probes for a in p.log), key=lambda a: a["t"])
    failures = []
    print(f"{'phase':<22} {'from':>6} {'answers':>8} {'errors':>7} {'error window':>13} {'max ms':>8}  codes")
    starts = [(0.0, "steady")] + events[:-1]
    for (begin, name), (end, _) in zip(starts, events):
        inside = [a for a in answers if begin <= a["t"] < end]
        bad = [a for a in inside if a["status"] == 0 or a["status"] >= 500]
        window = f"{bad[-1]['t'] - bad[0]['t']:.1f}s" if bad else "-"
        codes = {}
        for a in bad:
            key = f"{a['status']} {a['code']}"
            codes[key] = codes.get(key, 0) + 1
        top = max((a["ms"] for a in inside), default=0)
        print(f"{name:<22} {begin:6.1f} {len(inside):8d} {len(bad):7d} {window:>13} {top:8.0f}  "
              f"{', '.join(f'{k}×{v}' for k, v in sorted(codes.items()))}")
        for a in bad:
            if a["status"] == 500:
                failures.append(f"a 500 at {a['t']:.1f}s ({a['probe']})")
            if a["status"] == 503 and not a["retryAfter"]:
                failures.append(f"a 503 without Retry-After at {a['t']:.1f}s ({a['probe']}, {a['code']})")
        failures += [f"a {a['ms']:.0f} ms answer at {a['t']:.1f}s ({a['probe']})" for a in inside if a["ms"] > HANG * 1000]

    # The ledger: every acknowledged purchase is there, and ad spend is the ledger's sum.
    present = int(psql("SELECT count(*) FROM promotions WHERE id = ANY(string_to_array(:'ids', ','))",
                       ids=",".join(bought)))
    mismatched = int(psql("SELECT count(*) FROM stores s WHERE ad_spend <> "
                          "(SELECT coalesce(sum(amount), 0) FROM promotions p WHERE p.store_id = s.id)"))
    # The claims: a lost answer retried with its key answers the claim made (200) or makes it now (201), once.
    retried = {}
    for diner, coupon, key in lost:
        answer = Client().call("POST", f"/v1/coupons/{coupon}/claims", token=diner, key=key)
        retried[answer["status"]] = retried.get(answer["status"], 0) + 1
        if answer["status"] in (200, 201):
            claimed.append(answer["payload"]["id"])
    stored = int(psql("SELECT count(*) FROM coupon_claims WHERE id = ANY(string_to_array(:'ids', ','))",
                      ids=",".join(claimed)))
    miscounted = int(psql("SELECT count(*) FROM coupons c WHERE claimed <> "
                          "(SELECT count(*) FROM coupon_claims q WHERE q.coupon_id = c.id)"))
    over = int(psql("SELECT count(*) FROM (SELECT q.coupon_id, q.user_id FROM coupon_claims q "
                    "JOIN coupons c ON c.id = q.coupon_id GROUP BY q.coupon_id, q.user_id, c.per_user "
                    "HAVING count(*) > c.per_user) x"))
    twice = int(psql("SELECT count(*) FROM (SELECT 1 FROM coupon_claims WHERE idempotency_key LIKE 'fault-claim-%' "
                     "GROUP BY user_id, coupon_id, idempotency_key HAVING count(*) > 1) x"))
    print(f"coupon claims acknowledged: {len(set(claimed))}, stored: {stored}; answers lost and retried with their "
          f"key: {len(lost)} ({', '.join(f'{k}×{v}' for k, v in sorted(retried.items())) or 'none'}); coupons whose "
          f"count differs from their claims: {miscounted}; holders over perUser: {over}")
    if stored != len(set(claimed)):
        failures.append(f"{len(set(claimed)) - stored} acknowledged claims are missing")
    if miscounted or over or twice:
        failures.append(f"claims miscounted: {miscounted} coupons, {over} holders over perUser, {twice} keys twice")
    if any(status not in (200, 201, 409) for status in retried):
        failures.append(f"a lost claim's retry answered {retried}")
    delays = sorted(replay_delays)
    print(f"promotion purchases acknowledged: {len(bought)}, in the ledger: {present}; "
          f"stores whose ad spend differs from the ledger: {mismatched}")
    print(f"reviews written: {len(delays) + len(stale_for_author)}, not visible to their author at once: "
          f"{len(stale_for_author)}; visible to everyone after p50 {delays[len(delays) // 2] if delays else 0:.0f} ms, "
          f"max {delays[-1] if delays else 0:.0f} ms")
    print(f"seconds without a primary until the replica was promoted: "
          f"{promoted:.1f}" if promoted is not None else "the replica was never promoted")
    replica_reads = sum(count for pool, count in steady.items() if pool.startswith("replica"))
    print(f"reads before the first fault: {replica_reads:.0f} on the replica, {steady.get('primary', 0):.0f} on the primary")
    if replica_reads == 0:
        failures.append("no read was served by the replica while it was healthy")
    print(f"seconds until the restarted replica was the synchronous standby again: "
          f"{resynced:.1f}" if resynced is not None else "the restarted replica never became the synchronous standby")
    if resynced is None:
        failures.append("the restarted replica did not become the synchronous standby within 60 s")
    if promoted is None:
        failures.append("the replica was not promoted within 60 s")
    if present != len(bought):
        failures.append(f"{len(bought) - present} acknowledged purchases are missing from the ledger")
    if mismatched:
        failures.append(f"{mismatched} stores' ad spend differs from their ledger")
    if stale_for_author:
        failures.append(f"{len(stale_for_author)} reviews were not visible to their author at once")
    for failure in failures:
        print(f"cluster-test: FAILED: {failure}", file=sys.stderr)
    print(f"cluster-test: {'passed' if not failures else 'failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
