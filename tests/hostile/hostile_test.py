#!/usr/bin/env python3
"""The hostile suite of issue 14: each finding replayed against a real server on 127.0.0.1.

Every case is one entry of CASES: a name, the finding it pins, and a function that attacks a running
server (and, for the command-line findings, the database behind it) and checks the outcome. While a
case runs, a normal client asks GET /v1/prices in a loop; after each case the suite checks that the
server is still up and that every one of the normal client's requests got a 200. The normal
client's p99 is printed, not asserted (timed assertions belong in tests/bench/). Every loop is
bounded. The wire findings (framing, buffering, per-address limits, write deadlines) are to be
added as more entries of CASES.

Needs what deploy/test and the developer script export (LCG_BINARY, LCG_TEST_ADMIN_URL,
LCG_TEST_TEMPLATE, LCG_TEST_PG_PORT), psql and prlimit; without them it fails and says so.
Standard library only. Usage: hostile_test.py [-k SUBSTRING]

Where the machine has a memory cgroup to give (cgroup v1's memory controller, as root), the server
under attack runs capped at LCG_HOSTILE_MEMORY_LIMIT_MIB (256 MiB, the pod's limit): the suite fails
if the kernel ever kills it for memory, and prints its peak. LCG_HOSTILE_BIG_WEEK_ROWS (160,000) sizes
the big week; tests/bench/hostile_memory runs the suite with a week of 1,000,000 rows published on
that server too, the size issue 29 names.
"""

import argparse
import calendar
import hashlib
import json
import os
import re
import select
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import xml.etree.ElementTree

FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("  FAIL: " + message, file=sys.stderr)
    return condition


def wait_for(condition, seconds=5.0):
    """The first true value `condition` gives within `seconds` (polled every 50 ms), else None."""
    deadline = time.monotonic() + seconds
    while not (value := condition()):
        if time.monotonic() > deadline:
            return None
        time.sleep(0.05)
    return value


def required_env(name):
    value = os.environ.get(name)
    if not value:
        sys.exit(f"{name} is not set: this test needs a PostgreSQL and the built binary; run it with deploy/test")
    return value


def http(port, target, method="GET", headers=None, body=b"", timeout=10, source="127.0.0.1"):
    """One request on a fresh connection from `source`: (status, headers with lower-case names,
    body bytes)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0)) as s:
        head = f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for k, v in (headers or {}).items():
            head += f"{k}: {v}\r\n"
        if body:
            head += f"Content-Length: {len(body)}\r\n"
        s.sendall(head.encode() + b"\r\n" + body)
        data = b""
        for _ in range(100000):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1]) if lines and lines[0].startswith("HTTP/1.1 ") else 0
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    return status, fields, rest


def served(port, target):
    """The body of a 200 for `target`, else None."""
    status, _, body = http(port, target)
    return body if status == 200 else None


class Database:
    """A copy of the sample database, dropped at the end."""

    def __init__(self, suffix=""):
        self.admin = required_env("LCG_TEST_ADMIN_URL")
        self.port = required_env("LCG_TEST_PG_PORT")
        self.name = f"lcg_hostile_{os.getpid()}{suffix}"
        template = required_env("LCG_TEST_TEMPLATE")
        self.psql(self.admin, f"CREATE DATABASE {self.name} TEMPLATE {template} OWNER lowcostgpu_owner")

    def url(self, role):
        return f"postgresql://lowcostgpu_{role}@127.0.0.1:{self.port}/{self.name}"

    @staticmethod
    def psql(url, sql):
        return subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", sql], capture_output=True,
                              text=True)

    def drop(self):
        self.psql(self.admin, f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")


MEMORY_LIMIT_MIB = int(os.environ.get("LCG_HOSTILE_MEMORY_LIMIT_MIB", "256"))
SERVER_CPU = os.environ.get("LCG_HOSTILE_SERVER_CPU", "")  # the core of the servers under attack, if set
# How long a server may take to be ready: a mirror of a server holding a 1,000,000-row week first
# fetches and checks that week's inputs (tens of MB).
READY_SECONDS = 120 if "LCG_HOSTILE_BIG_WEEK_ROWS" in os.environ else 10
# The 1,000,000-row run publishes the big week in the suite's own database, before the server starts.
BIG_WEEK_PUBLISHED_IN_MAIN = "LCG_HOSTILE_BIG_WEEK_ROWS" in os.environ


class MemoryCap:
    """A memory cgroup (v1) that caps what is started in it; None from create() where the machine
    gives none (no v1 memory controller, or not root). The kernel kills a process in it that takes
    more: oom_kills() counts those, peak_kib() the most it ever held (page cache of what it wrote
    included, which the kernel reclaims rather than kill)."""

    ROOT = "/sys/fs/cgroup/memory"

    def __init__(self, path):
        self.path = path

    @staticmethod
    def create(name, mib):
        path = f"{MemoryCap.ROOT}/{name}"
        try:
            os.mkdir(path)
            with open(f"{path}/memory.limit_in_bytes", "w", encoding="ascii") as f:
                f.write(str(mib * 1024 * 1024))
        except OSError:
            return None
        return MemoryCap(path)

    def prefix(self):
        """A command prefix that joins the cgroup, then runs the rest."""
        return ["sh", "-c", f'echo $$ > {self.path}/cgroup.procs && exec "$@"', "sh"]

    def read(self, name):
        with open(f"{self.path}/{name}", encoding="ascii") as f:
            return f.read()

    def peak_kib(self):
        return int(self.read("memory.max_usage_in_bytes")) // 1024

    def oom_kills(self):
        found = re.search(r"^oom_kill (\d+)$", self.read("memory.oom_control"), re.M)
        # Kernels before 4.13 do not count kills here; the suite's liveness checks still catch one.
        return int(found.group(1)) if found else 0

    def remove(self):
        for _ in range(50):  # the last process may still be leaving it
            try:
                os.rmdir(self.path)
                return
            except OSError:
                time.sleep(0.1)


def capped_server(database_url, name, extra_args=(), env=None):
    """A Server inside a memory cap of MEMORY_LIMIT_MIB, and the cap (None where there is none). A
    server built with AddressSanitizer (ASAN_OPTIONS set) is not capped: its shadow memory and
    quarantine are the sanitizer's, not the server's."""
    sanitized = "ASAN_OPTIONS" in os.environ
    cap = None if sanitized else MemoryCap.create(f"lcg-hostile-{os.getpid()}-{name}", MEMORY_LIMIT_MIB)
    # The 1,000,000-row run gives the server a core of its own (the suite runs on the other).
    pinned = ["taskset", "-c", SERVER_CPU] if SERVER_CPU else []
    return Server(database_url, extra_args, prefix=(cap.prefix() if cap else []) + pinned, env=env), cap


def check_cap(cap, server, what):
    """Checks that nothing in `cap` was killed for memory; prints its peak. Then removes it."""
    if cap is None:
        print(f"  {what}: no memory cgroup on this machine, not capped")
        return
    try:
        hwm = peak_rss_kib(server)
    except OSError:
        hwm = None
    server.stop()
    check(cap.oom_kills() == 0, f"{what} was killed for memory under its {MEMORY_LIMIT_MIB} MiB cap")
    print(f"  {what}: peak {cap.peak_kib() // 1024} MiB charged of {MEMORY_LIMIT_MIB} MiB (page cache included), "
          f"peak RSS {hwm // 1024 if hwm else '?'} MiB, 0 kills for memory")
    cap.remove()


def lowcostgpu(*args, stdin="", env=None):
    return subprocess.run([required_env("LCG_BINARY"), *args], input=stdin, capture_output=True, text=True,
                          timeout=120, env=None if env is None else {**os.environ, **env})


class Server:
    """lowcostgpu serve on 127.0.0.1:0 (under `prefix`, such as prlimit), its output in a file; with
    no database URL, a mirror (`extra_args` name its upstream)."""

    def __init__(self, database_url, extra_args=(), prefix=(), ready=True, env=None):
        self.out = tempfile.NamedTemporaryFile(prefix="lcg-hostile-", suffix=".log", delete=False)
        database = ["--database-url", database_url] if database_url else []
        self.process = subprocess.Popen([*prefix, required_env("LCG_BINARY"), "serve", "--listen", "127.0.0.1:0",
                                         *database, *extra_args],
                                        stdout=self.out, stderr=subprocess.STDOUT,
                                        env=None if env is None else {**os.environ, **env})
        match = wait_for(lambda: re.search(r"listening on http://127\.0\.0\.1:(\d+)", self.output()), 10)
        if match is None:
            self.fail("lowcostgpu serve did not start: ")
        self.port = int(match.group(1))
        if ready and not wait_for(lambda: self.alive_and(lambda: http(self.port, "/readyz")[0] == 200), READY_SECONDS):
            self.fail("lowcostgpu serve never became ready: ")

    def fail(self, why):
        output = self.output()
        self.stop()
        sys.exit(why + output)

    def output(self):
        with open(self.out.name, encoding="utf-8", errors="replace") as f:
            return f.read()

    def alive_and(self, probe):
        try:
            return self.process.poll() is None and probe()
        except OSError:
            return False

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=15)
        if os.path.exists(self.out.name):
            os.unlink(self.out.name)


class NormalClient:
    """GET /v1/prices in a loop on its own thread until stopped (at most 100,000 requests)."""

    def __init__(self, port):
        self.port, self.latencies, self.failures = port, [], []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        for _ in range(100000):
            if self.stopping.is_set():
                return
            started = time.monotonic()
            try:
                status = http(self.port, "/v1/prices", timeout=5)[0]
            except OSError as e:
                status = str(e)
            self.latencies.append(time.monotonic() - started)
            if status != 200:
                self.failures.append(status)
            time.sleep(0.005)

    def stop(self):
        self.stopping.set()
        self.thread.join(timeout=10)
        ordered = sorted(self.latencies)
        p99 = ordered[int(len(ordered) * 0.99)] * 1000 if ordered else float("nan")
        return len(ordered), p99


# --- the cases: one function each, (server, database) -> None, checking with check() ---


def week_before(weeks):
    """An ISO week `weeks` before this one, far from the sample data's (a week is published only
    once its window has closed)."""
    return time.strftime("%G-W%V", time.gmtime(time.time() - weeks * 7 * 86400))


def observed_in_window_of(week, day):
    """A timestamp `day` days into the 7-day window before `week`'s Monday (day 0..6)."""
    monday = calendar.timegm(time.strptime(week + "-1", "%G-W%V-%u"))
    return time.strftime("%Y-%m-%dT12:00:00Z", time.gmtime(monday - (7 - day) * 86400))


def case_unpublishable_model(server, db):
    week = week_before(60)
    header = "observed_at,gpu,price_per_gpu_hour,source,listing_id\n"
    # five sources of one listing each (rules version 2 needs three sources)
    rows = "".join(f"{observed_in_window_of(week, d)},l4,0.001,hostile-{d},cheap{d}\n"
                   f"{observed_in_window_of(week, d)},h100-sxm,2.400,hostile-{d},fine{d}\n" for d in range(5))
    imported = lowcostgpu("import-observations", "--database-url", db.url("publisher"), "-", stdin=header + rows)
    check(imported.returncode == 0, "the observations are imported: " + imported.stderr)
    published = lowcostgpu("publish", "--database-url", db.url("publisher"), "--week", week)
    check(published.returncode == 0, "publish succeeds with one unpublishable model: " + published.stderr)
    check("not priced: l4:" in published.stdout and "0.000" in published.stdout,
          "publish names the refused model and why: " + published.stdout)
    body = wait_for(lambda: served(server.port, f"/v1/sheets/{week}"))  # the server follows the NOTIFY
    sheet = json.loads(body) if body else None
    if check(sheet is not None, f"the server serves the new sheet {week}"):
        rows = {r["gpu"]: r for r in sheet["prices"]}
        check(rows["l4"]["available"] is False and "0.000" in rows["l4"]["reason"], "l4 is unavailable with the reason")
        check(rows["h100-sxm"]["on_demand"] == "1.680", "h100-sxm is priced")


def case_audit_window(server, db):
    status, _, body = http(server.port, "/v1/prices")
    week = json.loads(body)["week"]
    sheet = http(server.port, f"/v1/sheets/{week}")[2].decode()
    csv = http(server.port, f"/v1/sheets/{week}/observations.csv")[2].decode()
    lines = csv.split("\n")
    moved = "\n".join([lines[0]] + ["2019" + line[4:] if line else line for line in lines[1:]])
    forged = sheet.replace(json.loads(sheet)["inputs_sha256"], hashlib.sha256(moved.encode()).hexdigest())
    with tempfile.TemporaryDirectory() as d:
        open(os.path.join(d, "sheet.json"), "w").write(forged)
        open(os.path.join(d, "obs.csv"), "w").write(moved)
        audit = lowcostgpu("audit", "--sheet", os.path.join(d, "sheet.json"), "--observations",
                           os.path.join(d, "obs.csv"))
    check(audit.returncode == 1, "the audit fails inputs moved to 2019 behind a matching hash")
    check("outside the window" in audit.stdout, "the audit says the observations are outside the window")


def case_markdown_injection(server, db):
    q = urllib.parse.quote("spot\n\n# Injected heading\n\n- item\r\n")
    for suffix, forbidden in ((".md", ["\n# Injected", "\n- item"]), (".html", ["<h1>Injected", "<li>item"])):
        status, _, body = http(server.port, f"/v1/glossary{suffix}?q={q}")
        text = body.decode()
        check(status == 200, f"/v1/glossary{suffix} answers the search")
        for f in forbidden:
            check(f not in text, f"the echoed search adds no block to {suffix}: {f!r}")


def case_link_header(server, db):
    status, fields, _ = http(server.port, "/v1/glossary?q=a%3E%3B%20rel%3D%22x%22%2C%3Chttp://evil/%3E")
    link = fields.get("link", "")
    check(status == 200 and "q=a%3E%3B%20rel%3D%22x%22%2C%3Chttp%3A%2F%2Fevil%2F%3E" in link,
          "the Link header carries the query percent-encoded: " + link)
    check(link.count("<") == link.count(">") == 3, "the Link header has only its own three links")


def case_csv_formulas(server, db):
    week = week_before(70)
    header = "observed_at,gpu,price_per_gpu_hour,source,listing_id\n"
    rows = "".join(f"{observed_in_window_of(week, d)},l4,0.500,\"=HYPERLINK(\"\"http://x\"\")\",@cmd{d}\n"
                   for d in range(5))
    check(lowcostgpu("import-observations", "--database-url", db.url("publisher"), "-",
                     stdin=header + rows).returncode == 0, "formula-like observations are imported")
    check(lowcostgpu("publish", "--database-url", db.url("publisher"), "--week", week).returncode == 0,
          "and published")
    body = wait_for(lambda: served(server.port, f"/v1/sheets/{week}/observations.csv"))
    csv = body.decode() if body else None
    check(csv is not None and '"=HYPERLINK(""http://x"")",@cmd0' in csv,
          "the canonical CSV keeps the observed bytes (its SHA-256 is published)")
    for target in ("/v1/prices.csv", "/v1/gpus.csv", "/v1/sheets.csv", "/v1/glossary.csv", "/v1/regions.csv"):
        body = http(server.port, target)[2].decode()
        cells = [c for line in body.split("\n") for c in line.split(",")]
        risky = [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")]
        check(not risky, f"{target} has no formula-like cell: {risky[:3]}")


def case_reader_rights(server, db):
    for sql in ("CREATE TEMP TABLE intruder (x int)", "SELECT pg_advisory_lock(4243)",
                "SELECT pg_notify('lowcostgpu_changed', '')"):
        template_url = (f"postgresql://lowcostgpu_reader@127.0.0.1:{db.port}/"
                        f"{required_env('LCG_TEST_TEMPLATE')}")  # a copy does not inherit TEMPORARY's revoke
        r = Database.psql(template_url, "BEGIN READ WRITE; " + sql + "; ROLLBACK")
        check(r.returncode != 0 and "permission denied" in r.stderr, f"the reader is refused: {sql}: {r.stderr}")


def case_lifted_timeout(server, db):
    # Any role may change its own defaults: with the reader's password, ALTER ROLE CURRENT_USER lifts
    # the 5 s statement_timeout migration 001 gave it, and the refresher, which relied on it, then
    # waited on a lock for as long as it was held. It now sets its own limit on its session (10 s).
    lifted = Database("_lifted")
    served = None
    locker = None
    try:
        r = Database.psql(lifted.url("reader"), f"BEGIN READ WRITE; ALTER ROLE CURRENT_USER IN DATABASE "
                                                f"{lifted.name} SET statement_timeout = 0; COMMIT")
        check(r.returncode == 0, f"the reader lifts its own default: {r.stderr}")
        served = Server(lifted.url("reader"))
        # The publisher holds the sheets locked for 20 s, then a change is notified: the refresher
        # reads them again and waits on the lock.
        locker = subprocess.Popen(["psql", "-X", "-q", lifted.url("publisher"), "-c",
                                   "BEGIN; LOCK TABLE sheet IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(20); COMMIT"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)
        Database.psql(lifted.url("publisher"), "NOTIFY lowcostgpu_changed")
        started = time.monotonic()
        cancelled = wait_for(lambda: "canceling statement due to statement timeout" in served.output()
                             or "database error 57014" in served.output(), 16)
        took = time.monotonic() - started
        check(cancelled and took < 14, f"the refresher's read is cancelled at its own limit: after {took:.1f} s, "
              f"{served.output()[-400:]!r}")
        check(http(served.port, "/v1/prices")[0] == 200, "the snapshot in force serves on meanwhile")
    finally:
        if locker:
            locker.kill()
            locker.wait()
        if served:
            served.stop()
        lifted.drop()


def metric(port, name):
    """The value of an unlabelled metric at /metrics."""
    text = http(port, "/metrics")[2].decode()
    return int(re.search(rf"^{name} (\d+)$", text, re.M).group(1))


def reloads(port):
    return metric(port, "lowcostgpu_snapshot_reloads_total")


def storm(server, url, script, what):
    """Runs `script` through psql as `url`, waits for the last deferred rebuild: the rebuilds it
    caused and the seconds it took."""
    before, started = reloads(server.port), time.monotonic()
    r = subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-f", "-"], input=script,
                       capture_output=True, text=True, timeout=60)
    check(r.returncode == 0, what + ": " + r.stderr)
    time.sleep(1.5)  # the last deferred rebuild
    seconds, rebuilt = time.monotonic() - started, reloads(server.port) - before
    print(f"  {rebuilt} rebuilds over {seconds:.1f} s: {what}")
    return rebuilt, seconds


def case_notify_storm(server, db):
    # No privilege guards NOTIFY: the reader can send it (read-only transactions allow it too). What
    # it costs the servers is bounded instead: at most one read of the inputs a second, and no
    # rebuild at all when they are what the snapshot was built from. 300 notifications, one per
    # transaction, 10 ms apart: about 3 seconds, which would be hundreds of rebuilds otherwise.
    rebuilt, seconds = storm(server, db.url("reader"), "SELECT pg_sleep(0.01);\nNOTIFY lowcostgpu_changed;\n" * 300,
                             "the reader can send NOTIFY (PostgreSQL has no privilege for it)")
    check(rebuilt == 0, f"notifications that change nothing rebuild nothing: {rebuilt} over {seconds:.1f} s")
    # Each with a change (as the owner, who may write the catalog): still at most one rebuild a second.
    changes = "".join(f"SELECT pg_sleep(0.01);\nUPDATE gpu_model SET notes = 'storm {i}' WHERE id = 'l4';\n"
                      "NOTIFY lowcostgpu_changed;\n" for i in range(200))
    rebuilt, seconds = storm(server, db.url("owner"), changes, "the owner changes the catalog 200 times")
    check(1 <= rebuilt <= seconds + 2, f"at most one rebuild a second: {rebuilt} over {seconds:.1f} s")


def case_ready_max_age(server, db):
    quick = Server(db.url("reader"), ["--ready-max-age", "1"])
    try:
        statuses = []
        for _ in range(30):  # three seconds: three times the limit, with no new sheet
            statuses.append(http(quick.port, "/readyz")[0])
            time.sleep(0.1)
        check(set(statuses) == {200}, f"/readyz stays 200 on a healthy database with --ready-max-age 1: {statuses}")
    finally:
        quick.stop()


def case_descriptor_limit(server, db):
    limited = Server(db.url("reader"), [], prefix=["prlimit", "--nofile=64:64"])
    held = []
    try:
        lines = [json.loads(l) for l in limited.output().splitlines() if l.startswith("{")]
        lowered = [l for l in lines if l.get("event") == "max_connections_lowered"]
        if not check(lowered, "serve logs that it lowered --max-connections to fit 64 descriptors"):
            return
        fitting = lowered[0]["max_connections"]
        check(0 < fitting < 64, f"to a number below the limit: {fitting}")
        for _ in range(fitting):
            held.append(socket.create_connection(("127.0.0.1", limited.port), timeout=5))
        time.sleep(0.3)  # let the server accept them all
        status, _, _ = http(limited.port, "/healthz", timeout=5)
        check(status == 503, f"a client past the limit gets 503 at once, not a hang in the backlog: {status}")
    finally:
        for s in held:
            s.close()
        time.sleep(0.2)
        check(limited.alive_and(lambda: http(limited.port, "/healthz")[0] == 200), "and it serves again after")
        limited.stop()


def case_metrics(server, db):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": "get_gpu", "arguments": {"gpu": "h100-sxm"}}}).encode()
    status, _, _ = http(server.port, "/mcp", "POST", {"Content-Type": "application/json",
                                                      "Accept": "application/json"}, body)
    check(status == 200, "an MCP tool call answers")
    text = http(server.port, "/metrics")[2].decode()
    check(re.search(r'lowcostgpu_mcp_calls_total\{tool="get_gpu",outcome="ok"\} [1-9]', text) is not None,
          "/metrics counts the MCP call by tool and outcome")
    check('lowcostgpu_caught_exceptions_total{where="http"}' in text, "/metrics counts caught exceptions")


def case_long_glossary_slug(server, db):
    # Refused by its length before any comparison (tests/glossary/search_test.cpp bounds the cost of
    # suggestions for the names that are compared).
    status, fields, body = http(server.port, "/v1/glossary/gpu-hourr" + "x" * 4000)
    check(status == 400 and fields.get("content-type") == "application/problem+json" and b"term: at most" in body,
          f"a 4 KiB unknown glossary slug is a 400 saying what is accepted: {status} {body[:200]!r}")


def rss_kib(server):
    with open(f"/proc/{server.process.pid}/status", encoding="ascii") as f:
        return int(re.search(r"VmRSS:\s+(\d+) kB", f.read()).group(1))


def peak_rss_kib(server):
    with open(f"/proc/{server.process.pid}/status", encoding="ascii") as f:
        return int(re.search(r"VmHWM:\s+(\d+) kB", f.read()).group(1))


def stalled_upload(port, head, body_bytes, source="127.0.0.1"):
    """Headers and `body_bytes` of a body, then silence: the socket, left open."""
    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    s.sendall(head.encode() + b"\r\n")
    s.settimeout(0.5)
    sent, chunk = 0, b"x" * 65536
    try:
        while sent < body_bytes:
            sent += s.send(chunk[:min(len(chunk), body_bytes - sent)])
    except (socket.timeout, OSError):
        pass  # the server stopped reading: it refused the body
    return s


def answers_of(socks):
    """The status line of what the server sent on each socket, or None where nothing came within
    the one second they all share (the server holds accepted uploads while they make progress)."""
    deadline = time.monotonic() + 1
    statuses = []
    for sock in socks:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            data = sock.recv(4096)
        except (socket.timeout, OSError):
            data = None
        statuses.append(data.split(b"\r\n", 1)[0].decode("latin-1") if data else None)
    return statuses


def case_stalled_uploads(server, db):
    before = rss_kib(server)
    # 300 connections announce a 1 MB body to a route that takes none, send 256 KiB of it and stall.
    held = [stalled_upload(server.port, "GET /v1/prices HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n",
                           256 * 1024) for _ in range(300)]
    taken = metric(server.port, "lowcostgpu_request_body_bytes")
    statuses = answers_of(held)
    grown = rss_kib(server) - before
    for s in held:
        s.close()
    check(statuses.count("HTTP/1.1 400 Bad Request") == 300,
          f"each body on a route that takes none is refused from its headers: {set(statuses)}")
    check(taken == 0, f"none of their bodies is taken on: {taken} bytes")
    check(grown < 32 * 1024, f"300 stalled uploads cost the server {grown} KiB, not their bodies (300 MB)")
    # POST /mcp takes a body: at most the budget (32 MiB) is held at once, charged as the bytes
    # arrive, and one address holds at most a quarter of it. What the server holds for them is what
    # it has taken on (its gauge), not RSS: freed memory is reused under glibc and quarantined under
    # AddressSanitizer, so RSS measures neither.
    mib = 1024 * 1024
    head = ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Accept: application/json\r\nContent-Length: {mib}\r\n")
    ping = (b'{"jsonrpc":"2.0","id":1,"method":"ping"}', {"Content-Type": "application/json", "Accept": "application/json"})

    # Before: 32 bodies announced by one address and never sent took the whole budget, and every
    # MCP call of everyone else got 503; then 8 of them still took a quarter. Now a body announced
    # and not sent holds nothing.
    held = [stalled_upload(server.port, head, 0) for _ in range(32)]
    statuses = answers_of(held)
    taken = metric(server.port, "lowcostgpu_request_body_bytes")
    other = http(server.port, "/mcp", "POST", ping[1], ping[0], source="127.0.0.2")[0]
    mine = http(server.port, "/mcp", "POST", ping[1], ping[0])[0]
    for s in held:
        s.close()
    check(statuses.count(None) == 32, f"32 bodies announced and not sent are all waited for: {set(statuses)}")
    check(taken == 0, f"and hold no budget: {taken} bytes")
    check(other == 200 and mine == 200, f"MCP calls are answered meanwhile, from that address too: {other} {mine}")
    # Half sent, one address's bodies hold at most a quarter of the budget; past it, 503.
    held = [stalled_upload(server.port, head, mib // 2) for _ in range(32)]
    statuses = answers_of(held)
    taken = metric(server.port, "lowcostgpu_request_body_bytes")
    other = http(server.port, "/mcp", "POST", ping[1], ping[0], source="127.0.0.2")[0]
    for s in held:
        s.close()
    refused = statuses.count("HTTP/1.1 503 Service Unavailable")
    check(refused >= 16 and taken <= 8 * mib, f"one address's half-sent bodies hold {taken} bytes (a quarter of "
          f"the budget at most), {refused} of 32 refused")
    check(other == 200, f"another address's MCP call is answered meanwhile: {other}")
    check(wait_for(lambda: metric(server.port, "lowcostgpu_request_body_bytes") == 0),
          "closed uploads give their bytes back")
    # Five addresses with eight each, nearly whole: the first four fill the budget, the fifth waits.
    # Which ones are refused depends on when their bytes arrive; that the held ones fit does not.
    held = [stalled_upload(server.port, head, mib - 1000, f"127.0.0.{1 + i // 8}") for i in range(40)]
    statuses = answers_of(held)
    taken = metric(server.port, "lowcostgpu_request_body_bytes")
    for s in held:
        s.close()
    refused = statuses.count("HTTP/1.1 503 Service Unavailable")
    check(refused >= 8 and statuses.count(None) == 40 - refused,
          f"uploads past the body budget get 503 as their bytes arrive, the others wait: {refused} of 40 refused")
    check(taken == (40 - refused) * mib <= 32 * mib, f"the 40 stalled uploads to /mcp hold {taken} bytes of bodies: "
          f"the {40 - refused} that fit, {mib} bytes each (their announced length), and the refused nothing")
    check(wait_for(lambda: metric(server.port, "lowcostgpu_request_body_bytes") == 0),
          "closed uploads give their bytes back")
    time.sleep(0.3)
    check(http(server.port, "/mcp", "POST", ping[1], ping[0])[0] == 200, "once they are gone, /mcp takes a body again")


def case_one_address_every_slot(server, db):
    # One address (127.0.0.2) opens idle keep-alive connections up to --max-connections: it gets
    # its share (a sixteenth, at least 8) and 503 beyond, and other clients and probes still get in.
    capped = Server(db.url("reader"), ["--max-connections", "40"])
    held = []
    try:
        for _ in range(40):
            s = socket.create_connection(("127.0.0.1", capped.port), timeout=5, source_address=("127.0.0.2", 0))
            held.append(s)
        time.sleep(0.3)
        refused = 0
        for s in held:
            s.settimeout(0.2)
            try:
                refused += s.recv(64).startswith(b"HTTP/1.1 503")
            except (socket.timeout, OSError):
                pass
        check(refused == 40 - 8, f"one address holds 8 of 40 connections; its other 32 get 503: {refused} refused")
        check(http(capped.port, "/healthz")[0] == 200, "the probe from another address is answered")
        check(http(capped.port, "/v1/prices")[0] == 200, "and so is a normal client")
    finally:
        for s in held:
            s.close()
        capped.stop()


def case_many_addresses_every_slot(server, db):
    # Five addresses (127.0.0.2-6) hold their share each (8 of 40): together every slot. Past four
    # fifths of the slots each new connection closes the one that has waited longest for a request,
    # so the probe and a normal client still get in, and the first idle connections are the ones gone.
    capped = Server(db.url("reader"), ["--max-connections", "40"])
    held = []
    try:
        for address in range(2, 7):
            for _ in range(8):
                held.append(socket.create_connection(("127.0.0.1", capped.port), timeout=5,
                                                     source_address=(f"127.0.0.{address}", 0)))
                time.sleep(0.005)  # opened in order: the first is the longest idle
        time.sleep(0.3)
        check(http(capped.port, "/healthz")[0] == 200, "the probe is answered though idle clients hold every slot")
        check(http(capped.port, "/v1/prices")[0] == 200, "and so is a normal client")

        def closed(s):
            s.settimeout(0.2)
            try:
                return s.recv(64) == b""
            except (socket.timeout, OSError):
                return False
        gone = [i for i, s in enumerate(held) if closed(s)]
        check(gone and gone == list(range(len(gone))), f"the longest idle connections were the ones closed: {gone}")
        check(metric(capped.port, "lowcostgpu_evicted_connections_total") >= len(gone),
              "each is counted in lowcostgpu_evicted_connections_total")
    finally:
        for s in held:
            s.close()
        capped.stop()


def raw_exchange(port, data):
    """Sends `data` as it is and returns the status line of the answer (or None)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(data)
        s.settimeout(2)
        try:
            answer = s.recv(4096)
        except (socket.timeout, OSError):
            return None
    return answer.split(b"\r\n", 1)[0].decode("latin-1") if answer else None


def case_transfer_codings(server, db):
    # RFC 9112 §6.1: a request whose Transfer-Encoding does not end with chunked, one in HTTP/1.0, and
    # one folded over lines cannot be framed unambiguously; each is refused, and nothing after it is
    # read as a second request.
    smuggled = b"GET /v1/prices HTTP/1.1\r\nHost: x\r\n\r\n"
    cases = {
        "last coding not chunked": b"POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
        "identity only": b"POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: identity\r\n\r\n" + smuggled,
        "chunked in HTTP/1.0": b"POST /mcp HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "obs-fold": b"POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n",
        "GET with a coding": b"GET /v1/prices HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n" + smuggled,
        # Round three: a coding before chunked (none is implemented), a trailing comma, chunked twice,
        # and a missing or doubled Host.
        "gzip then chunked": b"POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
        "trailing comma": b"POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked,\r\n\r\n0\r\n\r\n",
        "chunked twice": b"POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                         b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "no Host": b"GET /v1/prices HTTP/1.1\r\n\r\n",
        "two Hosts": b"GET /v1/prices HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
    }
    for name, data in cases.items():
        status = raw_exchange(server.port, data)
        check(status is not None and status.split(" ")[1:2] == ["400"], f"{name}: refused with 400, got {status}")


def case_expect_continue(server, db):
    # A client that sends Expect: 100-continue waits for the interim answer before its body (curl
    # waits a second, others for ever); the server sent none. Any other expectation is a 417.
    body = b'{"jsonrpc":"2.0","id":1,"method":"ping"}'
    head = (b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Accept: application/json, text/event-stream\r\nConnection: close\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\nExpect: 100-continue\r\n\r\n")
    with socket.create_connection(("127.0.0.1", server.port), timeout=3) as s:
        s.sendall(head)
        interim = b""
        try:
            while b"\r\n\r\n" not in interim and len(interim) < 4096:
                chunk = s.recv(4096)
                if not chunk:
                    break
                interim += chunk
        except socket.timeout:
            pass
        check(interim.startswith(b"HTTP/1.1 100 Continue\r\n\r\n"),
              f"the interim 100 Continue comes before the body: {interim[:80]!r}")
        s.sendall(body)
        rest = interim[len(b"HTTP/1.1 100 Continue\r\n\r\n"):]
        for _ in range(100):
            if b'"result"' in rest:
                break
            chunk = s.recv(65536)
            if not chunk:
                break
            rest += chunk
        check(rest.startswith(b"HTTP/1.1 200") and b'"result"' in rest, f"then the answer: {rest[:80]!r}")
    status = raw_exchange(server.port, b"GET /v1/prices HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n")
    check(status is not None and status.split(" ")[1:2] == ["417"], f"an unmet expectation gets 417, got {status}")


def case_forwarded_for(server, db):
    # Behind a proxy that appends (trusted: 127.0.0.1), a client writes its own X-Forwarded-For. The
    # proxy's hop is the rightmost, so that is the client: spoofed values to its left, a loopback
    # string among them, neither change the bucket nor buy the loopback exemption.
    proxied = Server(db.url("reader"), ["--rate-limit", "1", "--rate-burst", "2", "--trusted-proxies", "127.0.0.1"])
    try:
        statuses = []
        for spoof in ("127.0.0.1", "127.evil", "10.0.0.1", "10.0.0.2", "::1"):
            chain = f"{spoof}, 203.0.113.7"  # what the client sent, then what the proxy appended
            statuses.append(http(proxied.port, "/healthz", headers={"X-Forwarded-For": chain})[0])
        check(statuses.count(429) >= 3,
              f"spoofed leftmost hops all count as the one client the proxy saw (203.0.113.7): {statuses}")
        other = http(proxied.port, "/healthz", headers={"X-Forwarded-For": "203.0.113.7"})
        check(other[0] == 429, f"the same client, the bucket is empty: {other[0]}")
        fresh = http(proxied.port, "/healthz", headers={"X-Forwarded-For": "203.0.113.7, 198.51.100.9"})
        check(fresh[0] == 200, f"another client behind the proxy has its own bucket: {fresh[0]}")
    finally:
        proxied.stop()


def case_ipv6_prefix(server, db):
    # An IPv6 subscriber holds a whole /64 and may send from any address in it: counted per address,
    # it had 2^64 buckets. Behind a trusted proxy, rotating the low 64 bits now draws on one bucket.
    proxied = Server(db.url("reader"), ["--rate-limit", "1", "--rate-burst", "2", "--trusted-proxies", "127.0.0.1"])
    try:
        statuses = [http(proxied.port, "/healthz", headers={"X-Forwarded-For": f"2001:db8:7:1::{i + 1:x}"})[0]
                    for i in range(6)]
        check(statuses[:2] == [200, 200] and statuses[2:].count(429) == 4,
              f"six addresses of one /64 share the burst of 2: {statuses}")
        other = http(proxied.port, "/healthz", headers={"X-Forwarded-For": "2001:db8:7:2::1"})
        check(other[0] == 200, f"the next /64 is another client: {other[0]}")
    finally:
        proxied.stop()


def case_batch_rate(server, db):
    # One POST of a 32-message batch was charged as one request: a client at the rate limit ran 32
    # glossary calls for each token. Now a batch pays for every message before any of it runs.
    limited = Server(db.url("reader"), ["--rate-limit", "20", "--rate-burst", "40", "--rate-limit-loopback", "true"])
    try:
        calls = [{"jsonrpc": "2.0", "id": i, "method": "tools/call",
                  "params": {"name": "explain_term", "arguments": {"term": "gpu-hour"}}} for i in range(32)]
        headers = {"Content-Type": "application/json", "Accept": "application/json",
                   "MCP-Protocol-Version": "2025-03-26"}
        body = json.dumps(calls).encode()
        statuses, answered = [], 0
        for _ in range(4):
            status, fields, reply = http(limited.port, "/mcp", "POST", headers, body)
            statuses.append(status)
            if status == 200:
                answered += len(json.loads(reply))
            elif status == 429:
                refusal = json.loads(reply)
                check(refusal.get("error", {}).get("code") == -32000 and "per message" in refusal["error"]["message"],
                      f"the 429 is a JSON-RPC error that says why: {reply[:160]!r}")
                check(fields.get("retry-after", "").isdigit(), f"with Retry-After: {fields}")
        check(statuses[0] == 200, f"the first batch fits the burst of 40: {statuses}")
        check(statuses[1:].count(429) == 3, f"the next ones do not (8 tokens left, 32 asked): {statuses}")
        check(answered <= 40, f"at most the burst of messages answered at once: {answered}")
        single = http(limited.port, "/mcp", "POST", headers, b'{"jsonrpc":"2.0","id":1,"method":"ping"}')
        check(single[0] == 200, f"a lone message still passes on what is left: {single[0]}")
    finally:
        limited.stop()


def case_batch_cpu(server, db):
    # A batch of 32 glossary calls took 19.5 ms of one event loop's CPU per POST, so 16 connections
    # sending them pushed a normal client's p50 to 244 ms. A term the glossary lacks is the costly
    # kind: each is ranked against every term for suggestions, about 1 ms. A batch now runs until it has used 5 ms
    # of CPU; the messages left are answered -32000 with their ids, to be sent again.
    calls = [{"jsonrpc": "2.0", "id": i, "method": "tools/call",
              "params": {"name": "explain_term", "arguments": {"term": f"quantum flux {i}"}}} for i in range(32)]
    headers = {"Content-Type": "application/json", "Accept": "application/json", "MCP-Protocol-Version": "2025-03-26"}
    status, _, reply = http(server.port, "/mcp", "POST", headers, json.dumps(calls).encode())
    answers = json.loads(reply) if status == 200 else []
    check(len(answers) == 32 and [a.get("id") for a in answers] == list(range(32)),
          f"every message of the batch is answered, in order: {status} {reply[:160]!r}")
    ran = [a for a in answers if "result" in a]
    held = [a for a in answers if a.get("error", {}).get("code") == -32000 and "budget" in a["error"]["message"]]
    check(answers and "result" in answers[0], "the first message always runs")
    check(held and len(ran) + len(held) == 32, f"past 5 ms of CPU the rest are refused: {len(ran)} ran, {len(held)} not")
    print(f"  a batch of 32 glossary misses: {len(ran)} ran within the budget")


def case_unread_log(server, db):
    """serve with its standard output a pipe nobody reads: it answers on, and SIGTERM ends it."""
    process = subprocess.Popen([required_env("LCG_BINARY"), "serve", "--listen", "127.0.0.1:0", "--database-url",
                                db.url("reader")], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        seen, deadline = b"", time.monotonic() + 10
        while b"\n" not in seen.split(b"listening on ", 1)[-1] and time.monotonic() < deadline:
            ready, _, _ = select.select([process.stdout], [], [], 0.5)
            if ready:
                seen += os.read(process.stdout.fileno(), 4096)
        match = re.search(rb"listening on http://127\.0\.0\.1:(\d+)", seen)
        if not check(match is not None, f"the server started: {seen[-300:]!r}"):
            return
        port = int(match.group(1))
        wait_for(lambda: http(port, "/readyz")[0] == 200, 10)
        # From here on nobody reads: the pipe (64 KiB) fills after a few hundred log lines.
        statuses = [http(port, "/healthz", timeout=5)[0] for _ in range(3000)]
        check(statuses.count(200) == 3000, f"3,000 requests answered with the log unread: "
              f"{len(statuses) - statuses.count(200)} were not")
        check(http(port, "/v1/prices", timeout=5)[0] == 200, "a document is still served")
        check(metric(port, "lowcostgpu_log_lines_dropped_total") is not None, "/metrics counts dropped log lines")
        started = time.monotonic()
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        check(process.poll() is not None, "SIGTERM ends it within 10 s with its log unread")
        print(f"  stopped {time.monotonic() - started:.1f} s after SIGTERM")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


class LoopbackServer:
    """A server on 127.0.0.1 that hands each connection to `answer(conn)` on a thread of its own."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.listener.settimeout(0.2)
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        for _ in range(1000000):
            if self.stopping.is_set():
                return
            try:
                conn, _ = self.listener.accept()
            except OSError:
                continue
            threading.Thread(target=self.answer, args=(conn,), daemon=True).start()

    def stop(self):
        self.stopping.set()
        self.thread.join(timeout=5)
        self.listener.close()


class ForgingProxy(LoopbackServer):
    """An HTTP proxy on 127.0.0.1 in front of `origin_port` that passes every GET through, except
    what `rewrite(path, body) -> body` changes."""

    def __init__(self, origin_port, rewrite):
        self.origin_port, self.rewrite = origin_port, rewrite
        super().__init__()

    def answer(self, conn):
        with conn:
            conn.settimeout(10)
            data = b""
            while b"\r\n\r\n" not in data and len(data) < 65536:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                data += chunk
            method, target = data.split(b" ", 2)[:2]
            accept = re.search(rb"(?i)\r\naccept: ([^\r]*)", data)
            headers = {"Accept": accept.group(1).decode()} if accept else {}
            status, fields, body = http(self.origin_port, target.decode(), method.decode(), headers)
            body = self.rewrite(urllib.parse.urlsplit(target.decode()).path, body)
            head = f"HTTP/1.1 {status} X\r\nContent-Type: {fields.get('content-type', 'application/json')}\r\n" \
                   f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
            conn.sendall(head.encode() + (b"" if method == b"HEAD" else body))


def openssl(*args):
    return subprocess.run(["openssl", *args], capture_output=True, check=True)


def case_backdated_retired_key(server, db):
    # Key A was retired 30 days before this week's Monday, key B took over then. An attacker who
    # kept A takes this week's genuine sheet (signed by B), moves its published_at into A's window
    # and signs it again with A: the signature is good and A covers that time, but no sheet of this
    # week can have been published before the week began.
    this_week = time.strftime("%G-W%V", time.gmtime())
    monday = calendar.timegm(time.strptime(this_week + "-1", "%G-W%V-%u"))
    rotated_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(monday - 30 * 86400))
    backdated = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(monday - 31 * 86400))
    other = Database("_keys")
    origin = proxy = mirror = None
    try:
        with tempfile.TemporaryDirectory() as d:
            a, b, keys = (os.path.join(d, n) for n in ("a.pem", "b.pem", "keys.json"))
            for k in (a, b):
                openssl("genpkey", "-algorithm", "ed25519", "-out", k)
            first = lowcostgpu("public-key", "--signing-key", a, "--valid-from", "2000-01-01T00:00:00Z")
            open(os.path.join(d, "a.json"), "w").write(first.stdout)
            both = lowcostgpu("public-key", "--signing-key", b, "--valid-from", rotated_at, "--keys",
                              os.path.join(d, "a.json"))
            check(both.returncode == 0, f"the rotated keys document: {both.stderr}")
            open(keys, "w").write(both.stdout)
            key_a = json.loads(both.stdout)["keys"][0]["key_id"]
            # A retired key signs nothing new.
            refused = lowcostgpu("publish", "--database-url", other.url("publisher"), "--week", this_week, "--replace",
                                 "--signing-key", a, "--public-keys", keys)
            check(refused.returncode != 0 and "a retired key signs nothing new" in refused.stderr,
                  f"publish refuses the retired key: {refused.returncode} {refused.stderr.strip()}")
            # Every sheet of the other database signed again with B, as after a real rotation.
            Database.psql(other.url("owner"), "UPDATE sheet SET signature = NULL, key_id = NULL; "
                                              "DELETE FROM catalog_signature")
            signed = lowcostgpu("sign", "--all", "--database-url", other.url("publisher"), "--signing-key", b,
                                "--public-keys", keys)
            check(signed.returncode == 0, f"sign --all with B: {signed.stderr}")
            origin = Server(other.url("reader"), ["--public-keys", keys])
            genuine = json.loads(served(origin.port, f"/v1/sheets/{this_week}"))
            signed_text = served(origin.port, f"/v1/sheets/{this_week}/signed.txt").decode()
            forged_text = signed_text.replace(f"published_at {genuine['published_at']}\n", f"published_at {backdated}\n")
            check(forged_text != signed_text, "the signed bytes name published_at")
            open(os.path.join(d, "forged.txt"), "w").write(forged_text)
            signature = openssl("pkeyutl", "-sign", "-rawin", "-inkey", a, "-in", os.path.join(d, "forged.txt")).stdout
            forged_signature = __import__("base64").b64encode(signature).decode()

            def rewrite(path, body):
                if path == f"/v1/sheets/{this_week}":
                    doc = json.loads(body)
                    doc.update(published_at=backdated, key_id=key_a, signature=forged_signature)
                    return json.dumps(doc).encode()
                if path == "/v1/sheets":
                    return body.replace(genuine["published_at"].encode(), backdated.encode())
                return body

            proxy = ForgingProxy(origin.port, rewrite)
            audit = lowcostgpu("audit", "--url", f"http://127.0.0.1:{proxy.port}", "--week", this_week,
                               "--keys", keys)
            check(audit.returncode == 1, f"audit fails the backdated sheet: exit {audit.returncode}")
            check("is before its week began" in audit.stdout, f"audit says why: {audit.stdout[-400:]}")
            honest = lowcostgpu("audit", "--url", f"http://127.0.0.1:{origin.port}", "--week", this_week,
                                "--keys", keys)
            check(honest.returncode == 0, f"the genuine sheet audits: {honest.stdout[-300:]}")
            mirror = Server(None, ["--upstream", f"http://127.0.0.1:{proxy.port}", "--upstream-keys", keys],
                            ready=False)
            # The backdated published_at in /v1/sheets is not the signed index's: refused before the
            # sheet itself is read.
            ready = wait_for(lambda: b"refused as rolled back" in (http(mirror.port, "/readyz")[2] or b""), 10)
            check(ready, f"the mirror refuses the upstream and says why: {http(mirror.port, '/readyz')[2][:400]}")
            check(http(mirror.port, f"/v1/sheets/{this_week}")[0] != 200 or
                  json.loads(served(mirror.port, f"/v1/sheets/{this_week}"))["key_id"] != key_a,
                  "the mirror never serves the backdated sheet")
    finally:
        for s_ in (mirror, proxy, origin):
            if s_:
                s_.stop()
        other.drop()


class DrippingUpstream(LoopbackServer):
    """An upstream on 127.0.0.1 that answers every request with a head announcing 100 kB, then one
    byte of it a second: never silent long enough for a timeout."""

    def answer(self, conn):
        with conn:
            try:
                conn.recv(65536)
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
                for _ in range(600):
                    if self.stopping.wait(1):
                        return
                    conn.sendall(b" ")
            except OSError:
                pass


def case_dripping_upstream(server, db):
    # An upstream that sends a byte a second is never silent for --upstream-timeout: a mirror waited
    # up to 600 s per document. It now gives up an answer slower than 1 KiB/s after 10 s, and says so.
    upstream = DrippingUpstream()
    mirror = None
    try:
        mirror = Server(None, ["--upstream", f"http://127.0.0.1:{upstream.port}", "--upstream-keys",
                               required_env("LCG_PUBLIC_KEYS_FILE")], ready=False)
        started = time.monotonic()
        said = wait_for(lambda: b"slower than 1024 bytes/s" in (http(mirror.port, "/readyz")[2] or b""), 25)
        check(said, f"the mirror gives the dripping upstream up and says why: {http(mirror.port, '/readyz')[2][:300]}")
        check(time.monotonic() - started < 25, "within the grace and a retry, not the 600 s total")
        stopping = time.monotonic()
        mirror.stop()
        check(time.monotonic() - stopping < 10.5, "and it stops within 10 s of SIGTERM")
        mirror = None
    finally:
        for s_ in (mirror, upstream):
            if s_:
                s_.stop()


def case_xml_forbidden_characters(server, db):
    # Characters XML 1.0 forbids (U+0001, U+000B, U+FFFE) in a model's name: a mirror takes the
    # catalog only as signed (H5), so they can come only from the operator's own catalog. The SVG
    # charts, the Atom feed and the HTML page that show the name must still parse, without them.
    forged = "H100\u0001\u000b SXM\ufffe"
    original = json.loads(served(server.port, "/v1/gpus/h100-sxm"))["name"]

    def rename(name):
        quoted = name.replace("'", "''")
        done = Database.psql(db.url("owner"), f"UPDATE gpu_model SET name = '{quoted}' WHERE id = 'h100-sxm'; "
                                              "NOTIFY lowcostgpu_changed")
        check(done.returncode == 0, f"the catalog renamed: {done.stderr}")
        return wait_for(lambda: json.loads(served(server.port, "/v1/gpus/h100-sxm") or b"{}").get("name") == name, 10)

    try:
        check(rename(forged), "the server shows the new name")
        for target in ("/v1/prices/h100-sxm/history.svg", "/v1/prices/h100-sxm/sparkline.svg", "/v1/sheets.atom",
                       "/v1/gpus/h100-sxm.html"):
            body = served(server.port, target)
            check(body is not None, f"{target} is served")
            if body is None:
                continue
            check(not re.search(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]|\xef\xbf[\xbe\xbf]", body),
                  f"{target} holds no character XML forbids")
            if not target.endswith(".html"):
                try:
                    xml.etree.ElementTree.fromstring(body)
                except xml.etree.ElementTree.ParseError as e:
                    check(False, f"{target} is well-formed XML: {e}")
    finally:
        check(rename(original), "the name restored")


def swap_models(doc, first, second, fields=("name", "vram_gb")):
    """`doc`'s models `first` and `second` with `fields` swapped, as the hostile upstream of H5 did."""
    models = {g["id"]: g for g in doc["gpus"]}
    for field in fields:
        models[first][field], models[second][field] = models[second][field], models[first][field]
    return doc


def case_swapped_catalog(server, db):
    # An upstream that swaps the name and memory of the H100 SXM and the RTX 2060 in /v1/gpus made a
    # mirror show the RTX 2060's price under the H100's name and size models on one "H100" (H5). A
    # mirror takes the catalog only from /v1/catalog, under its signature: the swap in /v1/gpus
    # changes nothing it shows (and audit names it); the same swap in /v1/catalog, or in it and in the signature's hash
    # too, is refused with the reason in /readyz, and the mirror is not ready.
    keys = required_env("LCG_PUBLIC_KEYS_FILE")
    genuine = json.loads(served(server.port, "/v1/gpus/h100-sxm"))

    def swapped_gpus(path, body):
        if path == "/v1/gpus":
            return json.dumps(swap_models(json.loads(body), "h100-sxm", "rtx-2060")).encode()
        return body

    def swapped_catalog(path, body):
        if path == "/v1/catalog":
            doc = json.loads(body)
            doc["gpus"] = swap_models(doc["gpus"], "h100-sxm", "rtx-2060")
            return (json.dumps(doc, separators=(",", ":"), ensure_ascii=False) + "\n").encode()
        return body

    def swapped_and_rehashed(path, body):
        if path == "/v1/catalog/signature":
            forged = swapped_catalog("/v1/catalog", served(server.port, "/v1/catalog"))
            sig = json.loads(body)
            sig.update(catalog_sha256=hashlib.sha256(forged).hexdigest(), catalog_bytes=len(forged))
            return json.dumps(sig).encode()
        return swapped_catalog(path, body)

    proxy = ForgingProxy(server.port, swapped_gpus)
    mirror = None
    try:
        mirror = Server(None, ["--upstream", f"http://127.0.0.1:{proxy.port}", "--upstream-keys", keys])
        shown = json.loads(served(mirror.port, "/v1/gpus/h100-sxm"))
        check(shown["name"] == genuine["name"] and shown["vram_gb"] == genuine["vram_gb"],
              f"the mirror shows the signed H100, not the swapped one: {shown['name']}, {shown['vram_gb']} GB")
        check(served(mirror.port, "/v1/catalog") == served(server.port, "/v1/catalog"),
              "the mirror serves the signed catalog byte for byte")
        audit = lowcostgpu("audit", "--url", f"http://127.0.0.1:{proxy.port}", "--keys", keys)
        check(audit.returncode == 1 and "catalog: FAILED: /v1/gpus shows h100-sxm's name" in audit.stdout,
              f"audit refuses the swapped /v1/gpus and says why: {audit.returncode} {audit.stdout[:300]}")
    finally:
        for s_ in (mirror, proxy):
            if s_:
                s_.stop()
    check_mirror_refuses(server, swapped_catalog, b"not the document its signature vouches for", "the swapped catalog")
    check_mirror_refuses(server, swapped_and_rehashed, b"its signature: the signature does not match",
                         "the swapped catalog with its hash")


def check_mirror_refuses(server, rewrite, reason, what):
    """A mirror of `server` seen through a ForgingProxy with `rewrite` is not ready, and its /readyz
    gives `reason` (bytes)."""
    proxy = ForgingProxy(server.port, rewrite)
    mirror = None
    try:
        mirror = Server(None, ["--upstream", f"http://127.0.0.1:{proxy.port}", "--upstream-keys",
                               required_env("LCG_PUBLIC_KEYS_FILE")], ready=False)
        said = wait_for(lambda: reason in (http(mirror.port, "/readyz")[2] or b""), 10)
        status, _, body = http(mirror.port, "/readyz")
        check(said and status == 503, f"the mirror refuses {what} and says why: {status} {body[:300]}")
    finally:
        for s_ in (mirror, proxy):
            if s_:
                s_.stop()


def case_withheld_and_rolled_back(server, db):
    # Mirrors accepted withholding and rollback of sheets (medium finding): an upstream that stops
    # listing this week, or lists an older version of a week, shows what the signed index does not.
    # audit and a fresh mirror refuse both, each with its reason.
    keys = required_env("LCG_PUBLIC_KEYS_FILE")
    index = json.loads(served(server.port, "/v1/sheets"))
    newest, oldest = index["sheets"][0], index["sheets"][-1]

    def withheld(path, body):
        if path == "/v1/sheets":
            doc = json.loads(body)
            doc["sheets"] = [s_ for s_ in doc["sheets"] if s_["week"] != newest["week"]]
            doc["count"] = len(doc["sheets"])
            return json.dumps(doc).encode()
        return body

    def rolled_back(path, body):
        if path == "/v1/sheets":
            return body.replace(f'"published_at":"{oldest["published_at"]}"'.encode(),
                                b'"published_at":"2000-01-01T00:00:00Z"', 1)
        return body

    for rewrite, why in ((withheld, "withheld"), (rolled_back, "rolled back")):
        proxy = ForgingProxy(server.port, rewrite)
        try:
            audit = lowcostgpu("audit", "--url", f"http://127.0.0.1:{proxy.port}", "--keys", keys)
            check(audit.returncode == 1 and f": {why}" in audit.stdout,
                  f"audit refuses the {why} index and says why: {audit.returncode} {audit.stdout[:300]}")
        finally:
            proxy.stop()
        check_mirror_refuses(server, rewrite, f"refused as {why}".encode(), f"the {why} index")


class PeakRss:
    """The highest VmRSS of `server` (KiB), sampled every 10 ms on a thread until stop() (at most 10 min)."""

    def __init__(self, server):
        self.server, self.peak = server, rss_kib(server)
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        for _ in range(60000):
            if self.stopping.wait(0.01):
                return
            try:
                self.peak = max(self.peak, rss_kib(self.server))
            except (OSError, AttributeError):
                return

    def stop(self):
        self.stopping.set()
        self.thread.join(timeout=5)
        return self.peak


BIG_WEEK = week_before(75)  # no other case publishes it


def publish_big_week(database):
    """Imports BIG_WEEK_ROWS observations of four models into BIG_WEEK and publishes it; whether that worked."""
    gpus = ["h100-sxm", "a100-80gb-sxm", "l4", "rtx-4090"]
    rows = "".join(f"{observed_in_window_of(BIG_WEEK, i % 7)},{gpus[i % 4]},{1 + i % 997 / 1000:.6f},"
                   f"hostile-{i % 5},BIG-{i:07d}\n" for i in range(BIG_WEEK_ROWS))
    imported = lowcostgpu("import-observations", "--database-url", database.url("publisher"), "-",
                          stdin="observed_at,gpu,price_per_gpu_hour,source,listing_id\n" + rows)
    published = lowcostgpu("publish", "--database-url", database.url("publisher"), "--week", BIG_WEEK)
    return check(imported.returncode == 0 and published.returncode == 0,
                 f"the big week is published: {imported.stderr} {published.stderr}")


def first_bytes_of(socks):
    """What the server sent first on each socket, up to 16 KiB: a whole answer where it has a
    Content-Length that fits (a refusal's head and body), else what came within the one second
    they all share."""
    def whole(data):
        head, end, body = data.partition(b"\r\n\r\n")
        length = re.search(rb"(?im)^content-length:\s*(\d+)", head) if end else None
        return length is not None and len(body) >= int(length.group(1))

    deadline = time.monotonic() + 1
    replies = []
    for sock in socks:
        data = b""
        while len(data) < 16384 and not whole(data):
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                more = sock.recv(16384 - len(data))
            except (socket.timeout, OSError):
                break
            if not more:
                break
            data += more
        replies.append(data)
    return replies


def unread_get(port, target, source):
    """A GET whose answer is never read: a socket with a small receive window, left open."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.bind((source, 0))
    s.settimeout(5)
    s.connect(("127.0.0.1", port))
    s.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    return s


# 160,000 rows: about 11 MiB of CSV, 11 chunks; each chunk's JSON part about 2 MiB.
BIG_WEEK_ROWS = int(os.environ.get("LCG_HOSTILE_BIG_WEEK_ROWS", "160000"))
STREAM_BUDGET = 8 * 1024 * 1024


def mirror_of(origin):
    """A mirror of `origin` that keeps no archive cache, ready."""
    return Server(None, ["--upstream", f"http://127.0.0.1:{origin.port}", "--upstream-keys",
                         required_env("LCG_PUBLIC_KEYS_FILE"), "--archive-cache-bytes", "0"])


def check_mirror_of_big_week(origin, week, csv):
    """Mirrors stream too (item 1): a mirror of the big week, with no archive cache, checks it as it
    arrives and serves it from a spool on disk. Its peak RSS once ready, and once it has served the
    week's CSV, stays within the CSV's size of that of a mirror of the sample data alone. Before, it
    held the CSV whole to check it and again to serve it, with more beside: past the CSV's size."""
    small_db, small_origin, small, big = Database("_small"), None, None, None
    try:
        small_origin = Server(small_db.url("reader"))
        small = mirror_of(small_origin)
        fixed = peak_rss_kib(small)
        big = mirror_of(origin)
        accepting = peak_rss_kib(big) - fixed
        status, _, served_csv = http(big.port, f"/v1/sheets/{week}/observations.csv", timeout=60)
        serving = peak_rss_kib(big) - fixed
        check(status == 200 and served_csv == csv, f"the mirror serves the big week's CSV byte for byte: {status}")
        print(f"  a mirror of the big week ({len(csv) // 1024} KiB of CSV): peak RSS {accepting} KiB above a mirror "
              f"of the sample's ({fixed} KiB) once ready, {serving} KiB once it served the CSV")
        if "ASAN_OPTIONS" in os.environ:  # the sanitizer's redzones and quarantine are not the mirror's
            return
        bound = len(csv) // 1024
        check(accepting < bound, f"accepting the big week cost a mirror {accepting} KiB, under the CSV's {bound} KiB")
        check(serving < bound, f"serving the big week cost a mirror {serving} KiB, under the CSV's {bound} KiB")
    finally:
        for s_ in (big, small, small_origin):
            if s_:
                s_.stop()
        small_db.drop()


def case_big_week(server, db):
    """H1 and H2 on a week of BIG_WEEK_ROWS observations: its summary pages take a chunk's memory, not
    the week's, and slow readers of its JSON hold at most the stream budget, past which streams get
    503, and those of one address a quarter of it (H2b). Where the suite's own database holds the big week already (the 1,000,000-row run), a second
    server on it is attacked, so that no import runs beside the normal client."""
    shared = BIG_WEEK_PUBLISHED_IN_MAIN
    big = db if shared else Database("_big")
    week = BIG_WEEK
    served_big, cap = None, None
    try:
        if not shared and not publish_big_week(big):
            return
        # Under AddressSanitizer freed memory is quarantined, which RSS would count: none is kept.
        served_big, cap = capped_server(big.url("reader"), "big", ["--archive-stream-bytes", str(STREAM_BUDGET)],
                                        env={"ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=0"})
        port = served_big.port
        check(http(port, "/v1/prices")[0] == 200, "the server on the big week answers")
        # H1: the four summary pages at once. Before: each held the whole week (its CSV and every
        # observation parsed), 247 MB for one of a million rows and 509 MB for the four; about a
        # sixth of that for this week.
        base = rss_kib(served_big)
        peak = PeakRss(served_big)
        pages = [f"/v1/sheets/{week}/observations.{ext}{lang}" for ext in ("md", "html") for lang in ("", "?lang=fr")]
        answers = [None] * len(pages)
        threads = [threading.Thread(target=lambda i=i: answers.__setitem__(i, http(port, pages[i], timeout=30)))
                   for i in range(len(pages))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        grown = peak.stop() - base
        check(all(a and a[0] == 200 for a in answers), f"the four pages are served: {[a and a[0] for a in answers]}")
        md = answers[0][2].decode() if answers[0] else ""
        check(f"{BIG_WEEK_ROWS // 4:,}".replace(",", "") in md.replace(",", "").replace("\u202f", ""),
              "the Markdown counts each model's 40,000 observations")
        cached = metric(port, "lowcostgpu_archive_cache_bytes") // 1024  # the chunks, kept for the next
        check(grown < cached + 40 * 1024, f"four pages of a 160,000-row week at once cost {grown} KiB of RSS at "
              f"peak, {cached} KiB of them cached chunks: a chunk's worth each, not the week's")
        print(f"  four summary pages: peak RSS +{grown} KiB, {cached} KiB of it the cache")
        # H2: 40 readers of the JSON (8 from each of 5 addresses) that take nothing. Before: each held
        # up to three parts whatever the budgets, 40 of them some 250 MB.
        base = rss_kib(served_big)
        peak = PeakRss(served_big)
        target = f"/v1/sheets/{week}/observations.json"
        readers = [unread_get(port, target, f"127.0.0.{1 + i // 8}") for i in range(40)]
        time.sleep(2)
        held = metric(port, "lowcostgpu_archive_streamed_bytes")
        refused = metric(port, "lowcostgpu_archive_refused_streams_total")
        heads = answers_of(readers)
        grown = peak.stop() - base
        busy = [h for h in heads if h and h.startswith("HTTP/1.1 503")]
        check(held is not None and held <= STREAM_BUDGET + 3 * 3 * 1024 * 1024,
              f"the streams hold {held} bytes, the budget ({STREAM_BUDGET}) and the parts in flight when it filled")
        check(len(busy) > 0 and refused and refused >= len(busy),
              f"streams past the budget get 503: {len(busy)} of 40 (counted {refused})")
        check(grown < 48 * 1024, f"40 readers that take nothing cost {grown} KiB of RSS at peak")
        status, fields, _ = http(port, target)
        check(status == 503 and "retry-after" in fields, f"a new reader meanwhile gets 503 with Retry-After: {status}")
        print(f"  40 unread streams: {held} bytes held, {len(busy)} refused, peak RSS +{grown} KiB")
        for r in readers:
            r.close()
        check(wait_for(lambda: metric(port, "lowcostgpu_archive_streamed_bytes") == 0, 10),
              "the readers gone, their parts are let go")
        status, _, body = http(port, f"/v1/sheets/{week}/observations.csv", timeout=60)
        check(status == 200 and body.count(b"\n") >= BIG_WEEK_ROWS + 1, f"then the whole week is sent again: {status}")
        # H2b: one address that opens stream after stream holds its share of the budget (a quarter),
        # not the budget. Before: eight unread readers from one address took all of it, and every
        # other client got 503 for any week's CSV or JSON.
        first = unread_get(port, target, "127.0.0.9")
        check(answers_of([first])[0] == "HTTP/1.1 200 OK", "one address's first unread reader is answered")
        # Its share is full once its part and the one read ahead are held (a JSON part is about 2 MiB).
        check(wait_for(lambda: (metric(port, "lowcostgpu_archive_streamed_bytes") or 0) >= STREAM_BUDGET // 4, 10),
              "the first reader's stream holds its address's share")
        greedy = [unread_get(port, target, "127.0.0.9") for _ in range(7)]
        replies = first_bytes_of(greedy)
        held = metric(port, "lowcostgpu_archive_streamed_bytes")
        check(all(r.startswith(b"HTTP/1.1 503") and b"as one client may" in r for r in replies),
              f"its readers past its share get 503, saying so: {[r[:200] for r in replies]}")
        check(held is not None and held < STREAM_BUDGET, f"its streams hold {held} bytes, not the budget ({STREAM_BUDGET})")
        status, _, body = http(port, f"/v1/sheets/{week}/observations.csv", timeout=60, source="127.0.0.10")
        check(status == 200 and body.count(b"\n") >= BIG_WEEK_ROWS + 1,
              f"meanwhile another address is sent the whole week: {status}")
        print(f"  one address's unread streams: {held} bytes held, {len(replies)} more refused")
        for r in [first] + greedy:
            r.close()
        check(wait_for(lambda: metric(port, "lowcostgpu_archive_streamed_bytes") == 0, 10),
              "that address gone, its parts are let go")
        check_mirror_of_big_week(served_big, week, body)
        check_cap(cap, served_big, "the server of the big week")
        cap = None
    finally:
        if served_big:
            served_big.stop()
        if cap:
            check(cap.oom_kills() == 0, f"the server of the big week was killed for memory under its "
                  f"{MEMORY_LIMIT_MIB} MiB cap")
            cap.remove()
        if not shared:
            big.drop()


CASES = [
    ("unpublishable model", "five observations at $0.001 for one model made publish fail the week",
     case_unpublishable_model),
    ("audit window", "audit passed a sheet whose observations lie outside its window (moved to 2019)",
     case_audit_window),
    ("markdown injection", "newlines in glossary q injected Markdown headings", case_markdown_injection),
    ("link header", "the raw query string was copied unencoded into Link", case_link_header),
    ("csv formulas", "= + - @ values reached spreadsheets unneutralised", case_csv_formulas),
    ("reader rights", "the reader could create TEMP objects, NOTIFY and take advisory locks", case_reader_rights),
    ("lifted timeout", "the refresher relied on the reader role's statement_timeout, which the reader may lift "
     "for itself: then a held lock stopped it for as long as it was held", case_lifted_timeout),
    ("notify storm", "the reader could NOTIFY lowcostgpu_changed (each one rebuilt every server's snapshot)",
     case_notify_storm),
    ("ready max age", "--ready-max-age below 30 s made /readyz flap", case_ready_max_age),
    ("descriptor limit", "clients past the descriptor limit hung in the backlog", case_descriptor_limit),
    ("metrics", "the MCP call counter was never fed; caught exceptions were not counted", case_metrics),
    ("long glossary slug", "a 4 KiB unknown glossary slug", case_long_glossary_slug),
    ("stalled uploads", "any route buffered up to 1 MiB of body per connection: 300 stalled uploads, 306 MiB; then "
     "32 bodies announced by one address and never sent took the whole body budget; then a quarter of it", case_stalled_uploads),
    ("one address every slot", "one address filling --max-connections with idle keep-alives shut out everyone",
     case_one_address_every_slot),
    ("many addresses every slot", "17 addresses holding idle connections filled every slot; the probes got 503",
     case_many_addresses_every_slot),
    ("transfer codings", "a Transfer-Encoding not ending in chunked, chunked on HTTP/1.0 and obs-fold were accepted; "
     "then gzip before chunked, a trailing comma, chunked twice and a missing or doubled Host", case_transfer_codings),
    ("forwarded for", "the first X-Forwarded-For value was believed, and any 127.* string was loopback",
     case_forwarded_for),
    ("expect continue", "Expect: 100-continue was never answered, and other expectations were ignored",
     case_expect_continue),
    ("ipv6 prefix", "each IPv6 address had its own rate-limit bucket, so one /64 had 2^64 of them", case_ipv6_prefix),
    ("batch rate", "an MCP batch of 32 messages was charged one request of the rate limit", case_batch_rate),
    ("batch cpu", "an MCP batch of 32 glossary calls held an event loop for 19.5 ms of CPU per POST", case_batch_cpu),
    ("unread log", "request logs were written from the event loops: with standard output unread the server froze "
     "after about 590 requests and ignored SIGTERM", case_unread_log),
    ("backdated retired key", "a sheet signed with a retired key, its published_at moved back into that key's "
     "window, passed audit and a mirror (H4)", case_backdated_retired_key),
    ("dripping upstream", "an upstream dripping a byte a second held a mirror's every request for up to 600 s",
     case_dripping_upstream),
    ("xml forbidden characters", "a model name with U+0001 or U+FFFE made the SVG charts and the Atom feed "
     "ill-formed XML", case_xml_forbidden_characters),
    ("swapped catalog", "an upstream that swapped two models' names and memory in /v1/gpus made a mirror price "
     "and size the RTX 2060 as the H100 (H5)", case_swapped_catalog),
    ("withheld and rolled back", "mirrors accepted an index that withheld a sheet or listed an older version "
     "of one", case_withheld_and_rolled_back),
    ("big week", "a summary page of a big week loaded the whole week (H1); slow readers of its JSON held their parts "
     "outside every budget (H2); then one address's unread streams took the whole budget (H2b)", case_big_week),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-k", default="", help="run only the cases whose name contains this")
    args = parser.parse_args()
    db = Database()
    # The 1,000,000-row run (tests/bench/hostile_memory) attacks a server that holds such a week.
    if BIG_WEEK_PUBLISHED_IN_MAIN and not publish_big_week(db):
        sys.exit("the big week could not be published on the server under attack")
    server, cap = capped_server(db.url("reader"), "main")
    worst_p99 = 0.0
    try:
        for name, finding, run in CASES:
            if args.k not in name:
                continue
            print(f"case {name}: {finding}")
            before = len(FAILURES)
            client = NormalClient(server.port)
            try:
                run(server, db)
            except Exception as e:  # a case that breaks is a failure, and the others still run
                check(False, f"{name} raised {type(e).__name__}: {e}")
            count, p99 = client.stop()
            worst_p99 = max(worst_p99, p99 if p99 == p99 else 0.0)
            check(server.alive_and(lambda: http(server.port, "/healthz")[0] == 200), f"{name}: the server is up")
            check(not client.failures, f"{name}: the normal client always got 200: {client.failures[:5]}")
            print(f"  {'ok' if len(FAILURES) == before else 'FAILED'}; normal client: {count} requests, "
                  f"p99 {p99:.1f} ms")
        print(f"the normal client's worst p99 over the cases: {worst_p99:.1f} ms")
        check_cap(cap, server, "the server under attack")
        cap = None
    finally:
        server.stop()
        if cap:
            cap.remove()
        db.drop()
    if FAILURES:
        sys.exit(f"{len(FAILURES)} check(s) failed")
    print("hostile suite passed")


if __name__ == "__main__":
    main()
