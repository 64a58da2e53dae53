#!/usr/bin/env python3
"""Holds idle keep-alive connections open, for the 10,000-connection row of tests/bench/run.

Usage: idle_connections.py PORT COUNT HOLD_SECONDS
Opens COUNT connections to 127.0.0.1:PORT, sends one GET /v1/prices on each and reads the whole
answer (so each connection is a keep-alive one that has served a request), prints "ready COUNT"
and keeps them all open, silent, until its standard input closes or HOLD_SECONDS pass.
"""
import resource
import select
import socket
import sys

REQUEST = b"GET /v1/prices HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def read_answer(conn):
    """Reads one response framed by Content-Length; True when it came whole and kept the connection."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return False
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            return False
        body += chunk
    return head.startswith(b"HTTP/1.1 200")


def main():
    port, count, hold = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if count + 16 > hard:
        sys.exit(f"the descriptor limit {hard} is too low for {count} connections")
    held = []
    for _ in range(count):
        conn = socket.create_connection(("127.0.0.1", port), timeout=10)
        conn.sendall(REQUEST)
        if not read_answer(conn):
            sys.exit(f"connection {len(held) + 1} was not answered 200 with keep-alive")
        held.append(conn)
    print(f"ready {len(held)}", flush=True)
    select.select([sys.stdin], [], [], hold)  # until the caller closes our stdin, bounded
    for conn in held:
        conn.close()


if __name__ == "__main__":
    main()
