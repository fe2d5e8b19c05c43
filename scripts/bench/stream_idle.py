"""Holds N idle notification streams open against one server (issue #33) until stdin closes.

Usage: stream_idle.py HOST PORT TOKEN N. Prints "open=<n>" once every stream has its status line and first
comment, then waits; each stream reads (and drops) its heartbeats so none backs up.
"""
import asyncio
import sys


async def one(host, port, token, ready):
    for attempt in range(20):  # a full accept queue resets a connection: try again a little later
        try:
            await hold(host, port, token, ready)
            return
        except (ConnectionResetError, ConnectionRefusedError, asyncio.IncompleteReadError):
            await asyncio.sleep(0.2 * (attempt + 1))
    raise RuntimeError("could not open a stream")


async def hold(host, port, token, ready):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET /v1/me/notifications/stream HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n\r\n"
                 .encode())
    await writer.drain()
    head = await reader.readuntil(b": open")
    assert b" 200 " in head.split(b"\r\n", 1)[0], head[:100]
    ready.append(1)
    while await reader.read(4096):
        pass


async def main():
    host, port, token, n = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    ready = []
    tasks = []
    for i in range(n):
        tasks.append(asyncio.create_task(one(host, port, token, ready)))
        if i % 100 == 99:
            await asyncio.sleep(0.1)
    while len(ready) < n:
        failed = [t for t in tasks if t.done() and t.exception()]
        if failed:
            raise failed[0].exception()
        await asyncio.sleep(0.1)
    print(f"open={len(ready)}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


asyncio.run(main())
