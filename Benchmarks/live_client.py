"""Load client for Benchmarks/live.sh: PARTICIPANTS players join a live event and hold its
event stream open; then SAMPLES of them answer one at a time, and for each answer the client
measures how long until every stream has received the scoreboard update it caused.
Prints one JSON object."""
import asyncio
import http.client
import json
import os
import re
import statistics
import sys
import time
import urllib.parse

PORT = int(os.environ["PORT"])
CODE = os.environ["CODE"]
PARTICIPANTS = int(os.environ.get("PARTICIPANTS", "1000"))
SAMPLES = int(os.environ.get("SAMPLES", "200"))


def join(index):
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    cookies = {}

    def request(method, path, form=None):
        # The joins are the set-up, not what is measured: a request the portal shed (503, it
        # waited over a second for a worker and did nothing) is sent again after its Retry-After.
        for _ in range(60):
            headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else {}
            body = None
            if form is not None:
                body = urllib.parse.urlencode(form)
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read().decode("utf-8", "replace")
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    cookies[key] = rest.split(";")[0]
            if response.status != 503:
                return response.status, data
            time.sleep(float(response.getheader("Retry-After") or "1"))
        return response.status, data

    _, page = request("GET", f"/live/{CODE}")
    token = re.search(r'name="csrf_token" value="([^"]*)"', page).group(1)
    status, _ = request("POST", f"/live/{CODE}/join", {"csrf_token": token, "nickname": f"Player {index:04d}"})
    assert status == 303, f"join answered {status}"
    connection.close()
    return cookies, token


OPENED = None


async def listen(cookies, arrivals, ready):
    cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
    while True:
        reader, writer = await asyncio.open_connection("127.0.0.1", PORT)
        writer.write(f"GET /live/{CODE}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        if head.startswith(b"HTTP/1.1 200"):
            break
        # 503 with Retry-After: the server sheds load when its queue is full; come back.
        writer.close()
        await asyncio.sleep(0.2)
    ready.set_result(True) if not ready.done() else None
    buffer = b""
    while True:
        size_line = await reader.readuntil(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            return
        buffer += await reader.readexactly(size + 2)
        buffer = buffer[:-2] if buffer.endswith(b"\r\n") else buffer
        while b"\n\n" in buffer:
            event, buffer = buffer.split(b"\n\n", 1)
            if event.startswith(b"event: scores"):
                arrivals.append(time.monotonic())
            elif event.startswith(b"event: phase") and b'"open"' in event and OPENED is not None and not OPENED.done():
                OPENED.set_result(True)


async def main():
    global OPENED
    loop = asyncio.get_running_loop()
    OPENED = loop.create_future()
    joined = await asyncio.gather(*[loop.run_in_executor(None, join, index) for index in range(PARTICIPANTS)])
    arrivals = [[] for _ in range(PARTICIPANTS)]
    readies = [loop.create_future() for _ in range(PARTICIPANTS)]
    tasks = [asyncio.create_task(listen(joined[i][0], arrivals[i], readies[i])) for i in range(PARTICIPANTS)]
    await asyncio.gather(*readies)
    # The host starts the event; wait for its first question to open.
    await asyncio.wait_for(OPENED, timeout=120)
    await asyncio.sleep(0.5)
    latencies = []
    for sample in range(SAMPLES):
        cookies, token = joined[sample]
        counts = [len(a) for a in arrivals]
        began = time.monotonic()
        status = await loop.run_in_executor(None, answer, cookies, token)
        assert status == 303, f"answer answered {status}"
        deadline = began + 10
        while time.monotonic() < deadline and any(len(arrivals[i]) <= counts[i] for i in range(PARTICIPANTS)):
            await asyncio.sleep(0.001)
        missing = sum(1 for i in range(PARTICIPANTS) if len(arrivals[i]) <= counts[i])
        assert missing == 0, f"{missing} streams never heard answer {sample}"
        latencies.append(max(arrivals[i][counts[i]] for i in range(PARTICIPANTS)) - began)
    for task in tasks:
        task.cancel()
    latencies.sort()
    print(json.dumps({
        "participants": PARTICIPANTS, "samples": SAMPLES,
        "p50_ms": round(statistics.median(latencies) * 1000, 1),
        "p99_ms": round(latencies[int(len(latencies) * 0.99) - 1] * 1000, 1),
        "max_ms": round(latencies[-1] * 1000, 1),
    }))


def answer(cookies, token):
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    # A valid answer to any kind of question: the server reads the fields its kind needs (choices,
    # positions, a target per item, a typed answer).
    form = {"csrf_token": token, "index": "0", "choice": "0", "answer": "0"}
    form.update({f"position_{i}": str(i + 1) for i in range(10)})
    form.update({f"target_{i}": "1" for i in range(10)})
    body = urllib.parse.urlencode(form)
    connection.request("POST", f"/live/{CODE}/answers", body=body, headers={
        "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()), "Content-Type": "application/x-www-form-urlencoded"})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
