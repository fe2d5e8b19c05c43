#!/usr/bin/python3
"""Writes through the HTTP API, as users do: registers users who post reviews and favorite stores, and a manager
who buys promotions for his stores. `api_writes.py BASE_URL LABEL COUNT` prints one JSON line: what was
acknowledged (review ids, favorites, purchase ids) and every failure. With API_WRITES_UNTIL=PATH it goes on past
COUNT until that file exists. Used by scripts/restore-test.sh (writes
before and after the point restored to) and scripts/deploy-test.sh (writes during a deploy).
Standard library only (Debian's python3); a self-signed certificate is accepted."""

import itertools
import json
import os
import ssl
import sys
import urllib.error
import urllib.request

BASE, LABEL, COUNT = sys.argv[1].rstrip("/"), sys.argv[2], int(sys.argv[3])
CONTEXT = ssl._create_unverified_context()  # the cluster's generated certificate
failures = []


def call(method, path, body=None, token=None):
    headers = {"Accept": "application/json"}
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(BASE + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30, context=CONTEXT) as response:
            raw = response.read()
            return response.status, (json.loads(raw) if raw else None)
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            payload = json.loads(raw)
        except ValueError:
            payload = {"code": "(not JSON)", "contentType": error.headers.get("Content-Type")}
        return error.status, payload
    except OSError as error:
        return 0, {"code": type(error).__name__}


def expect(status, payload, wanted, what):
    if status != wanted:
        failures.append({"what": what, "status": status, "code": (payload or {}).get("code")})
        return False
    return True


status, manager = call("POST", "/v1/auth/login", {"name": "Manager4", "password": "111"})
if not expect(status, manager, 200, "manager sign-in"):
    print(json.dumps({"failures": failures}))
    sys.exit(1)
mine = call("GET", "/v1/me/stores?limit=5", token=manager["token"])[1]["items"]
stores = call("GET", "/v1/stores?limit=20&sort=newest")[1]["items"]
reviews, favorites, purchases = [], [], []
UNTIL = os.environ.get("API_WRITES_UNTIL")
for i in itertools.count():
    if i >= COUNT and (not UNTIL or os.path.exists(UNTIL)):
        break
    name = f"r{LABEL}{i}"
    status, session = call("POST", "/v1/auth/register", {"name": name, "password": "restore-test-1"})
    if not expect(status, session, 201, f"register {name}"):
        continue
    token = session["token"]
    store = stores[i % len(stores)]["id"]
    status, review = call("POST", f"/v1/stores/{store}/comments",
                          {"rating": 1 + i % 5, "body": f"{LABEL} review {i}: 味道不错"}, token=token)
    if expect(status, review, 201, "review"):
        reviews.append(review["id"])
    status, payload = call("PUT", f"/v1/stores/{store}/favorite", token=token)
    if expect(status, payload, 204, "favorite"):
        favorites.append([name, store])
    status, purchase = call("POST", f"/v1/stores/{mine[i % len(mine)]['id']}/promotions", {"amount": 1 + i},
                            token=manager["token"])
    if expect(status, purchase, 201, "promotion"):
        purchases.append(purchase["id"])
print(json.dumps({"reviews": reviews, "favorites": favorites, "purchases": purchases, "failures": failures}))
sys.exit(1 if failures else 0)
