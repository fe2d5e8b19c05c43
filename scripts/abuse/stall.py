#!/usr/bin/python3
"""Opens N connections that each send half a request header and then nothing; prints how many the server has
closed after each of the given seconds. Usage: stall.py PORT N SECONDS..."""
import socket, sys, time

port, count = int(sys.argv[1]), int(sys.argv[2])
checkpoints = [float(s) for s in sys.argv[3:]]
sockets = []
for _ in range(count):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"GET /v1/stores HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    s.setblocking(False)
    sockets.append(s)
print(f"stall: {len(sockets)} connections open, each half a header", flush=True)
start = time.monotonic()
closed = set()
for checkpoint in checkpoints:
    while time.monotonic() - start < checkpoint:
        for index, s in enumerate(sockets):
            if index in closed:
                continue
            try:
                if s.recv(1024) == b"":
                    closed.add(index)
            except BlockingIOError:
                pass
            except OSError:
                closed.add(index)
        time.sleep(0.2)
    print(f"stall: after {checkpoint:.0f} s the server had closed {len(closed)} of {len(sockets)}", flush=True)
