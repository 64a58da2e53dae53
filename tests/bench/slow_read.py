#!/usr/bin/env python3
"""Reads one HTTP/1.1 response over loopback no faster than RATE bytes/s, for benchmarks only.

Usage: slow_read.py PORT TARGET RATE
Prints: STATUS BODY_BYTES CONTENT_LENGTH SHA256_OF_BODY SECONDS (CONTENT_LENGTH -1 when absent).
The receive buffer is small and each read waits for its share of time, so the server meets a
client that drains its socket at RATE; the body ends at Content-Length or when the server closes.
"""
import hashlib
import socket
import sys
import time


def main():
    port, target, rate = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)
    s.settimeout(30)
    s.connect(("127.0.0.1", port))
    s.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    started = time.monotonic()
    head, body_bytes, length, status, in_head = b"", 0, -1, 0, True
    digest = hashlib.sha256()
    received = 0
    while True:  # ends with the body, or when the server closes or stalls for 30 s (the timeout)
        # Never ahead of RATE: wait until the bytes received so far are due.
        ahead = received / rate - (time.monotonic() - started)
        if ahead > 0:
            time.sleep(ahead)
        data = s.recv(16 * 1024)
        if not data:
            break
        received += len(data)
        if in_head:
            head += data
            if b"\r\n\r\n" not in head:
                continue
            in_head = False
            head, data = head.split(b"\r\n\r\n", 1)
            lines = head.decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            for line in lines[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
        digest.update(data)
        body_bytes += len(data)
        if 0 <= length <= body_bytes:
            break
    s.close()
    print(status, body_bytes, length, digest.hexdigest(), f"{time.monotonic() - started:.3f}")


if __name__ == "__main__":
    main()
