#!/usr/bin/python3
"""A reader on one kept-alive HTTPS connection, as a browser reads: `keepalive_reader.py FRONT PATH STOPFILE` GETs
PATH until STOPFILE exists. A request written on a kept-alive connection that the server closed while idle (nginx's
old workers do that when nginx reloads) is sent again once on a new connection, as RFC 9112 §9.3.1 allows for
idempotent requests; any other failure, or a failed retry, counts. Prints one JSON line: requests, retried, failures."""

import http.client
import json
import os
import ssl
import sys
import time
import urllib.parse

front = urllib.parse.urlparse(sys.argv[1])
path, stop = sys.argv[2], sys.argv[3]
context = ssl._create_unverified_context()  # the cluster's generated certificate
conn, requests, retried, failures = None, 0, 0, []


def connect():
    if front.scheme == "https":
        return http.client.HTTPSConnection(front.hostname, front.port, timeout=15, context=context)
    return http.client.HTTPConnection(front.hostname, front.port, timeout=15)


while not os.path.exists(stop):
    requests += 1
    for attempt in (1, 2):
        reused = conn is not None
        if conn is None:
            conn = connect()
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                failures.append({"status": response.status, "contentType": response.getheader("Content-Type")})
            break
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as error:
            conn = None
            if reused and attempt == 1:
                retried += 1
                continue
            failures.append({"error": type(error).__name__})
            break
        except (OSError, http.client.HTTPException) as error:
            conn = None
            failures.append({"error": type(error).__name__})
            break
    time.sleep(0.01)
print(json.dumps({"requests": requests, "retried": retried, "failures": failures}))
sys.exit(1 if failures else 0)
