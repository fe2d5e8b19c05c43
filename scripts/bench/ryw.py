#!/usr/bin/env python3
"""Read-your-writes check for `make bench`: one signed-in client that writes and at once reads what it wrote.

  ryw.py --api http://127.0.0.1:PORT --token TOKEN --user USER_ID --stores FILE --reviewed FILE
         --seconds S --out FILE [--log FILE] [--seed N]

Runs alongside the mixed scenario's wrk (and once alone, as a quick correctness pass). Each cycle takes the next
store of --stores (Zipf-drawn paths /v1/stores/{id}, walked from a seeded offset) and checks, each read right
after its write on the same keep-alive connection:

  favorite    PUT favorite, then GET /v1/stores/{id}: favorited, favoriteCount at least one above the count read
              before; DELETE favorite, then GET: not favorited, favoriteCount not below the count before.
  like        a review on the store's newest page that we have not liked: PUT like, then GET the page again: the
              review liked, likeCount at least one above; DELETE like, then GET: not liked, likeCount not below.
  post        POST a review, then GET /v1/stores/{id}/comments?sort=newest: the new review is on the page with
              only newer reviews before it (the first item unless someone posted in between), and GET the store:
              rating.count up by one if this is our first review of the store (a store counts an author's latest
              review only), else not down.

The bounds hold under the mixed load because it only adds likes, favorites and reviews (workload.py). A check that
fails is a stale read. The response's Chidian-LSN is sent back on the next reads, as docs/API.md asks of clients
(it matters only with read replicas). Writes `checks=N stale=M skipped=K errors=E cycles=C` to --out; the first
stale reads and errors go to --log. Python 3 standard library only.
"""
import argparse
import datetime
import http.client
import json
import random
import sys
import time
import urllib.parse


class Client:
    def __init__(self, api, token, timeout=10):
        url = urllib.parse.urlsplit(api)
        self.host, self.port, self.timeout = url.hostname, url.port, timeout
        self.token = token
        self.lsn = None
        self.connection = None

    def request(self, method, path, body=None):
        """(status, parsed JSON or None). Reconnects once if the kept-alive connection was closed."""
        headers = {"Authorization": f"Bearer {self.token}"}
        if self.lsn:
            headers["Chidian-LSN"] = self.lsn
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                self.connection.request(method, path, payload, headers)
                response = self.connection.getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, OSError):
                self.connection.close()
                self.connection = None
                if attempt == 2:
                    raise
        if response.getheader("Chidian-LSN"):
            self.lsn = response.getheader("Chidian-LSN")
        try:
            parsed = json.loads(data) if data else None
        except ValueError:
            parsed = None
        return response.status, parsed


def instant(text):
    """An RFC 3339 timestamp as a datetime (as strings, "…:00Z" would sort after "…:00.5Z")."""
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


class Unexpected(Exception):
    """A status or body the API does not give for this request: an error, not a stale read."""


class Checker:
    def __init__(self, client, user, reviewed, log):
        self.client, self.user, self.reviewed, self.log = client, user, reviewed, log
        self.checks = self.stale = self.skipped = self.errors = self.cycles = 0
        self.posted = 0

    def call(self, method, path, want, body=None):
        status, parsed = self.client.request(method, path, body)
        if status != want:
            raise Unexpected(f"{method} {path}: HTTP {status} (wanted {want}): {str(parsed)[:200]}")
        return parsed

    def check(self, ok, what):
        self.checks += 1
        if not ok:
            self.stale += 1
            self.note(f"STALE {what}")

    def note(self, line):
        if self.log and self.stale + self.errors <= 50:
            self.log.write(f"{time.strftime('%H:%M:%S')} {line}\n")
            self.log.flush()

    def favorite(self, store):
        path = f"/v1/stores/{store}"
        before = self.call("GET", path, 200)
        if before["favorited"]:  # left over from an interrupted run
            self.call("DELETE", path + "/favorite", 204)
            before = self.call("GET", path, 200)
        count = before["favoriteCount"]
        self.call("PUT", path + "/favorite", 204)
        after = self.call("GET", path, 200)
        self.check(after["favorited"] and after["favoriteCount"] >= count + 1,
                   f"favorite {store}: favorited={after['favorited']} favoriteCount={after['favoriteCount']}, "
                   f"{count} before the PUT")
        self.call("DELETE", path + "/favorite", 204)
        after = self.call("GET", path, 200)
        self.check(not after["favorited"] and after["favoriteCount"] >= count,
                   f"unfavorite {store}: favorited={after['favorited']} favoriteCount={after['favoriteCount']}, "
                   f"{count} before the PUT")

    def like(self, store):
        page_path = f"/v1/stores/{store}/comments?sort=newest"
        items = self.call("GET", page_path, 200)["items"]
        target = next((c for c in items if c["kind"] == "review" and not c["liked"]
                       and c["author"]["id"] != self.user), None)
        if target is None:
            self.skipped += 1
            return
        review, count = target["id"], target["likeCount"]
        for method, liked in (("PUT", True), ("DELETE", False)):
            self.call(method, f"/v1/comments/{review}/like", 204)
            seen = next((c for c in self.call("GET", page_path, 200)["items"] if c["id"] == review), None)
            if seen is None:  # pushed off the first page by newer reviews: nothing to compare
                self.skipped += 1
                continue
            low = count + 1 if liked else count
            self.check(seen["liked"] == liked and seen["likeCount"] >= low,
                       f"{method} like {review} (store {store}): liked={seen['liked']} likeCount={seen['likeCount']}, "
                       f"{count} before, wanted liked={liked} and at least {low}")

    def post(self, store):
        path = f"/v1/stores/{store}"
        count = self.call("GET", path, 200)["rating"]["count"]
        first = store not in self.reviewed
        self.posted += 1
        body = {"rating": 5, "body": f"read-your-writes check {self.posted} at {time.time():.3f}"}
        review = self.call("POST", path + "/comments", 201, body)
        self.reviewed.add(store)
        items = self.call("GET", path + "/comments?sort=newest", 200)["items"]
        ids = [c["id"] for c in items]
        # Newest first: anything above ours must be a review someone else posted after it.
        place = ids.index(review["id"]) if review["id"] in ids else None
        ok = place is not None and all(instant(c["createdAt"]) >= instant(review["createdAt"]) for c in items[:place])
        self.check(ok, f"post {review['id']} to {store}: the newest page starts {ids[:3]}")
        after = self.call("GET", path, 200)["rating"]["count"]
        low = count + 1 if first else count
        self.check(after >= low, f"post {review['id']} to {store}: rating.count {after}, {count} before, "
                                 f"wanted at least {low} ({'first' if first else 'another'} review of ours)")

    def cycle(self, store):
        for step in (self.favorite, self.like, self.post):
            try:
                step(store)
            except (Unexpected, KeyError, TypeError, ValueError, http.client.HTTPException, OSError) as error:
                self.errors += 1
                self.note(f"ERROR {step.__name__} {store}: {error!r}")
        self.cycles += 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--api", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--user", required=True, help="the token's user id (its own reviews are not liked)")
    parser.add_argument("--stores", required=True)
    parser.add_argument("--reviewed", required=True, help="ids of the stores the user has reviewed already")
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--log")
    parser.add_argument("--seed", default="1")
    args = parser.parse_args()

    with open(args.stores, encoding="utf-8") as f:
        stores = [line.strip().rsplit("/", 1)[-1] for line in f if line.strip()]
    with open(args.reviewed, encoding="utf-8") as f:
        reviewed = {line.strip() for line in f if line.strip()}
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    checker = Checker(Client(args.api, args.token), args.user, reviewed, log)
    start = random.Random(f"ryw:{args.seed}").randrange(len(stores))
    deadline = time.monotonic() + args.seconds
    i = start
    # At least one cycle, however short the run; never past the deadline by more than one cycle.
    while checker.cycles == 0 or time.monotonic() < deadline:
        checker.cycle(stores[i % len(stores)])
        i += 1
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(f"checks={checker.checks} stale={checker.stale} skipped={checker.skipped} "
                  f"errors={checker.errors} cycles={checker.cycles}\n")
    print(f"ryw: checks={checker.checks} stale={checker.stale} skipped={checker.skipped} errors={checker.errors} "
          f"cycles={checker.cycles}", file=sys.stderr)


if __name__ == "__main__":
    main()
