#!/usr/bin/env python3
"""Prints the table of tests/bench/run: every figure, its baseline, the ratio and a verdict.

Usage: report.py RUNS.tsv FIGURES.tsv [archive | CPU.tsv]   (archive: only the rows of tests/bench/archive.sh)
  RUNS.tsv     label, round, rps, p50_us, p99_us, status_errors, socket_errors (one run a line, wrk or
               lean_load; the labels of lean_load begin with lean_)
  FIGURES.tsv  key, value (start-up, import, publish, memory, and why a figure is missing)
  CPU.tsv      label, server CPU seconds, requests, load generator CPU seconds, seconds (one run a line)

Throughput is the best of the alternated rounds of each label: on a shared machine another
process can only slow a run down, so the best round is the closest to what the program can do.
"""
import csv
import sys


def load_runs(path):
    runs = {}
    with open(path, newline="") as f:
        for row in csv.reader(f, delimiter="\t"):
            label, _, rps, p50, p99, status_errors, socket_errors = row
            runs.setdefault(label, []).append(
                {"rps": float(rps), "p50_us": int(p50), "p99_us": int(p99),
                 "errors": int(status_errors) + int(socket_errors), "status_errors": int(status_errors)})
    return runs


def load_figures(path):
    with open(path, newline="") as f:
        return {row[0]: row[1] for row in csv.reader(f, delimiter="\t") if row}


class Table:
    def __init__(self):
        self.rows = []
        self.counts = {"PASS": 0, "FAIL": 0, "not measured": 0, "info": 0}

    def add(self, name, measured, baseline, ratio, target, verdict, note=""):
        key = verdict if verdict in self.counts else "FAIL" if verdict.startswith("FAIL") else "not measured"
        self.counts[key] += 1
        self.rows.append((name, measured, baseline, ratio, target, verdict, note))

    def print(self):
        head = ("benchmark", "measured", "baseline", "ratio", "target", "verdict")
        widths = [max(len(str(r[i])) for r in self.rows + [head]) for i in range(6)]
        line = "  ".join(f"{{:{'<' if i in (0, 5) else '>'}{w}}}" for i, w in enumerate(widths))
        print(line.format(*head))
        print("  ".join("-" * w for w in widths))
        for r in self.rows:
            print(line.format(*r[:6]) + (f"  {r[6]}" if r[6] else ""))
        c = self.counts
        missing = f", {c['not measured']} not measured" if c["not measured"] else ""
        print(f"\ntargets: {c['PASS']} passed, {c['FAIL']} failed{missing}")


def best(runs, label):
    return max(runs.get(label, []), key=lambda r: r["rps"], default=None)


def rps(r):
    return f"{r['rps']:,.0f} req/s"


def errors_note(a, b):
    """Non-2xx answers invalidate a figure; socket errors (time-outs of a slow baseline) are noted."""
    notes = []
    for who, r in (("ours", a), ("baseline", b)):
        if r["status_errors"]:
            notes.append(f"{who}: {r['status_errors']} non-2xx answers")
        if r["errors"] - r["status_errors"]:
            notes.append(f"{who}: {r['errors'] - r['status_errors']} socket errors")
    return "; ".join(notes)


def throughput_row(table, name, runs, ours, theirs, target, informational=False, extra="", lost_fails=False):
    """One ratio of best rounds. With lost_fails (lean_load, which does not replace a connection that
    breaks), a socket error fails the row as a non-2xx answer does."""
    a, b = best(runs, ours), best(runs, theirs)
    shown_target = "none (reported)" if informational else f">= {target:g}x"
    if not a or not b or not b["rps"]:
        table.add(name, rps(a) if a else "-", rps(b) if b else "-", "-", shown_target,
                  "info" if informational else "not measured", "the baseline answered nothing" if b else "")
        return None
    ratio = a["rps"] / b["rps"]
    note = "; ".join(n for n in (errors_note(a, b), extra) if n)
    if informational:
        verdict = "info"
    elif a["status_errors"] or b["status_errors"]:
        verdict = "FAIL (non-2xx)"
    elif lost_fails and (a["errors"] > a["status_errors"] or b["errors"] > b["status_errors"]):
        verdict = "FAIL (connections lost)"
    else:
        verdict = "PASS" if ratio >= target else "FAIL"
    table.add(name, rps(a), rps(b), f"{ratio:.2f}x", shown_target, verdict, note)
    return ratio


def load_cpu(path):
    """Per label: the server's CPU seconds, the requests, the load generator's CPU seconds and the
    run's seconds, summed over the rounds."""
    cpu = {}
    with open(path, newline="") as f:
        for row in csv.reader(f, delimiter="\t"):
            total = cpu.setdefault(row[0], [0.0] * 4)
            for i, value in enumerate(row[1:5]):
                total[i] += float(value or 0)
    return cpu


def cpu_row(table, cpu, ours, theirs, name, client):
    """The server's CPU seconds per 100,000 requests, ours against nginx: what still compares the
    servers when the load generator's core is the full one. The note gives the share of its core
    each process used."""
    if any(cpu.get(k, [0] * 4)[1] == 0 or cpu[k][3] == 0 for k in (ours, theirs)):
        return
    per = {k: 1e5 * cpu[k][0] / cpu[k][1] for k in (ours, theirs)}

    def shares(k):
        return f"server {100 * cpu[k][0] / cpu[k][3]:.0f} %, {client} {100 * cpu[k][2] / cpu[k][3]:.0f} %"

    table.add(name, f"{per[ours]:.2f} s", f"{per[theirs]:.2f} s nginx",
              f"{per[ours] / per[theirs]:.2f}x", "none (reported)", "info",
              f"lower is better; share of a core, ours: {shares(ours)}; nginx: {shares(theirs)}")


# The labels of each load generator's runs of issue 27's throughput targets (tests/bench/run). wrk's
# rows name no client; lean_load does not replace a connection that breaks, so a lost one fails its row.
CLIENTS = [
    {"prefix": "", "client": "wrk", "lost_fails": False, "prices": "prices_1t", "nginx": "nginx_1w",
     "estimate": "estimate_1t", "mcp": "mcp_1t", "sdk": "mcp_sdk", "mcp_nginx": "mcp_nginx"},
    {"prefix": "lean_load: ", "client": "lean_load", "lost_fails": True, "prices": "lean_prices",
     "nginx": "lean_nginx", "estimate": "lean_estimate", "mcp": "lean_mcp", "sdk": "lean_sdk",
     "mcp_nginx": "lean_mcp_nginx", "mcp_gzip": "lean_mcp_gzip", "mcp_new_id": "lean_mcp_new_id",
     "floor": "lean_floor"},
]


def target_rows(table, runs, fig, cpu, labels):
    """Issue 27's targets: /v1/prices 1.5x nginx, /v1/estimate 1.0x, MCP 60x the SDK and within 25 % of
    the HTTP route answering the same question, as one load generator measured them, with the
    server's CPU per request and what that client can take of the MCP reply's bytes."""
    if not best(runs, labels["prices"]):
        return  # a run from before that client
    prefix = labels["prefix"]

    def row(name, ours, theirs, target, **kw):
        throughput_row(table, prefix + name, runs, labels[ours], labels[theirs], target,
                       lost_fails=labels["lost_fails"], **kw)

    def cpu_of(name, ours, theirs):
        if cpu:
            cpu_row(table, cpu, labels[ours], labels[theirs], prefix + name, client=labels["client"])

    row("GET /v1/prices, 1 thread vs nginx 1 worker", "prices", "nginx", 1.5)
    cpu_of("server CPU per 100,000 GET /v1/prices vs nginx", "prices", "nginx")
    if "floor" in labels and best(runs, labels["floor"]):
        # A server that does nothing but receive and send the same bytes: the kernel's share alone.
        row("a server that only receives and sends these bytes vs nginx", "floor", "nginx", 1.5, informational=True,
            extra="tests/bench/floor_server.cpp, one recv and one sendfile per answer: the most any server shows here")
        row("GET /v1/prices, 1 thread vs that server", "prices", "floor", 1.0, informational=True,
            extra="what our own work costs above the kernel's")
    row("GET /v1/estimate (computed) vs nginx static", "estimate", "nginx", 1.0)
    sdk = best(runs, labels["sdk"])
    if "mcp_missing" in fig:
        table.add(prefix + "POST /mcp get_prices vs MCP TypeScript SDK", "-", rps(sdk) if sdk else "-", "-",
                  ">= 60.0x", "not measured", fig["mcp_missing"])
        return
    row("POST /mcp get_prices vs MCP TypeScript SDK", "mcp", "sdk", 60.0)
    row("POST /mcp get_prices vs GET /v1/prices (ours)", "mcp", "prices", 0.75)
    # What the client on one core can take of replies this size: past it, no server shows a higher figure.
    needed = f"60x the SDK is {60 * sdk['rps']:,.0f} req/s" if sdk else ""
    row("POST /mcp get_prices vs nginx sending its bytes", "mcp", "mcp_nginx", 1.0, informational=True,
        extra=needed)
    cpu_of("server CPU per 100,000 POST /mcp vs nginx", "mcp", "mcp_nginx")
    if "mcp_gzip" in labels and best(runs, labels["mcp_gzip"]):
        row("POST /mcp get_prices gzip-encoded vs GET /v1/prices (ours)", "mcp_gzip", "prices", 0.75,
            informational=True, extra="Accept-Encoding: gzip, deflate, as the SDKs' clients send it")
    if "mcp_new_id" in labels and best(runs, labels["mcp_new_id"]):
        row("POST /mcp get_prices, a new id each call, vs GET /v1/prices (ours)", "mcp_new_id", "prices", 0.75,
            informational=True, extra="never a stored reply: the cost of a message asked for the first time")
    # The same two reply sizes from nginx: the ratio the 0.75x target asks of us, where the server
    # costs nearly nothing and only the client's cost per byte is left.
    row("nginx: the MCP reply's bytes vs /v1/prices'", "mcp_nginx", "nginx", 0.75, informational=True)


def many_connections_rows(table, runs, fig):
    """The 10,000-connection rows: the busy connections' throughput and p99, memory per idle one."""
    idle = int(fig.get("many_idle", 9900))
    throughput_row(table, f"10,000 connections ({idle:,} idle), 100 busy vs nginx", runs, "many_ours", "many_nginx",
                   1.0, lost_fails=True)
    ours = runs.get("many_ours")
    if ours:
        p99 = min(r["p99_us"] for r in ours) / 1000
        theirs = runs.get("many_nginx")
        nginx_p99 = min(r["p99_us"] for r in theirs) / 1000 if theirs else None
        table.add("p99 latency of the 100 busy connections", f"{p99:.2f} ms",
                  f"{nginx_p99:.2f} ms nginx" if nginx_p99 is not None else "-",
                  f"{p99 / nginx_p99:.2f}x" if nginx_p99 else "-", "<= 20 ms", "PASS" if p99 <= 20 else "FAIL",
                  "best round")
    if "many_rss1_kib" in fig:
        per = (int(fig["many_rss1_kib"]) - int(fig["many_rss0_kib"])) / idle
        nginx_per = (int(fig["many_nginx_rss1_kib"]) - int(fig["many_nginx_rss0_kib"])) / idle
        table.add("memory per idle keep-alive connection", f"{per:.1f} KiB", f"{nginx_per:.1f} KiB nginx",
                  f"{per / nginx_per:.2f}x" if nginx_per > 0 else "-", "<= 16 KiB", "PASS" if per <= 16 else "FAIL",
                  f"RSS {int(fig['many_rss0_kib']) / 1024:.1f} -> {int(fig['many_rss1_kib']) / 1024:.1f} MiB"
                  " with the idle connections open")


def slow_row(table, fig):
    """A week of over 100 MB read by a client throttled to 1 MB/s: all of it, and the server's RSS meanwhile."""
    if "archive_slow_bytes" not in fig:
        return
    got, length = int(fig["archive_slow_bytes"]), int(fig.get("archive_slow_length") or 0)
    sha_ok = fig.get("archive_slow_sha_matches") == "1"
    complete = fig.get("archive_slow_status") == "200" and length > 0 and got == length and sha_ok
    rate = int(fig["archive_slow_rate"]) / 1e6
    rss_before, rss_max = int(fig["archive_slow_rss_before_kib"]) / 1024, int(fig["archive_slow_rss_max_kib"]) / 1024
    table.add(f"{length / 1e6:.0f} MB week read at {rate:g} MB/s: bytes received", f"{got:,}",
              f"{length:,} (Content-Length)", f"{got / length if length else 0:.3f}x", "all, SHA-256 matching",
              "PASS" if complete else "FAIL",
              f"SHA-256 {'matches' if sha_ok else 'DIFFERS'}; {float(fig['archive_slow_seconds']):.0f} s;"
              f" server RSS {rss_before:.1f} MiB before, at most {rss_max:.1f} MiB during the read;"
              f" archive cache {int(fig.get('archive_slow_cache_bytes') or 0) / 2**20:.1f} MiB after it")


def archive_rows(table, runs, fig):
    """Years of history (tests/bench/archive.sh): what serving costs with the archive, against 1 week."""
    if "archive_weeks" not in fig:
        return
    weeks, rows = int(fig["archive_weeks"]), int(fig["archive_rows"])
    scale = f"{weeks} weeks x {rows:,} observations"
    s1, sa = float(fig["archive_1w_startup_s"]), float(fig["archive_all_startup_s"])
    table.add(f"serve ready with {scale}", f"{sa:.3f} s", f"{s1:.3f} s with 1 week", f"{sa / s1:.2f}x", "< 1 s",
              "PASS" if sa < 1 else "FAIL", f"best of 3 (hyperfine); {weeks} weeks generated, imported and"
              f" published in {float(fig['archive_load_s']):.0f} s")
    r1, ra = int(fig["archive_1w_rss_kib"]) / 1024, int(fig["archive_all_rss_kib"]) / 1024
    table.add(f"RSS of serve with {scale}", f"{ra:.1f} MiB", f"{r1:.1f} MiB with 1 week", f"{ra / r1:.2f}x",
              "<= 96 MiB", "PASS" if ra <= 96 else "FAIL", "once ready")
    if "archive_publish_seen_s" in fig:
        seen = float(fig["archive_publish_seen_s"])
        table.add("a new week published while serving: shown after", f"{seen:.3f} s", "1 s target", f"{seen:.2f}x",
                  "< 1 s", "PASS" if seen < 1 else "FAIL", "from the end of publish to /v1/sheets listing it")
    else:
        table.add("a new week published while serving: shown after", "-", "1 s target", "-", "< 1 s", "not measured",
                  fig.get("archive_publish_missing", ""))
    start = int(fig["archive_start_rss_kib"]) / 1024
    before, after = int(fig["archive_first_publish_rss_kib"]) / 1024, int(fig["archive_after_publish_rss_kib"]) / 1024
    table.add("RSS growth with a new week", f"{after - before:+.2f} MiB", f"{before:.1f} MiB before",
              f"{after / before:.3f}x", "<= +1 MiB", "PASS" if after - before <= 1 else "FAIL",
              f"the second new week; the first after start took {start:.1f} -> {before:.1f} MiB (once)")
    first = float(fig["archive_cold_first_byte_s"]) * 1000
    table.add("old week observations.csv, cold: first byte", f"{first:.1f} ms", "100 ms target", f"{first / 100:.2f}x",
              "<= 100 ms", "PASS" if first <= 100 else "FAIL",
              f"{int(fig['archive_csv_bytes']) / 1e6:.1f} MB body read from PostgreSQL; best of 3 weeks")
    rate = float(fig["archive_cold_mb_per_s"])
    table.add("old week observations.csv, cold: whole body", f"{rate:,.0f} MB/s", "100 MB/s target",
              f"{rate / 100:.2f}x", ">= 100 MB/s", "PASS" if rate >= 100 else "FAIL", "loopback, curl")
    throughput_row(table, "old week observations.csv, warm vs nginx same file", runs, "archive_warm", "archive_nginx",
                   0.9)
    slow_row(table, fig)
    throughput_row(table, f"GET /v1/prices/h100-sxm/history ({weeks}+ weeks) vs /v1/prices", runs,
                   "archive_history", "archive_prices", 0.8)


def main():
    runs = load_runs(sys.argv[1])
    fig = load_figures(sys.argv[2])
    t = Table()
    if sys.argv[3:] == ["archive"]:
        archive_rows(t, runs, fig)
        t.print()
        return
    cpu = load_cpu(sys.argv[3]) if sys.argv[3:] else None

    for labels in CLIENTS:
        target_rows(t, runs, fig, cpu, labels)

    if best(runs, "prices_1t_nolog"):
        throughput_row(t, "GET /v1/prices, 1 thread, --log-every 0", runs, "prices_1t_nolog", "nginx_1w", 1.0,
                       informational=True)

    ratio2 = throughput_row(t, "GET /v1/prices, 2 threads vs nginx 2 workers", runs, "prices_2t", "nginx_2w", 1.0,
                            informational=True)
    one, two = best(runs, "prices_1t"), best(runs, "prices_2t")
    if ratio2 is not None and one and two:
        n1, n2 = best(runs, "nginx_1w"), best(runs, "nginx_2w")
        t.add("scaling 1 -> 2 threads (ours; nginx 1 -> 2 workers)", rps(two), rps(one),
              f"{two['rps'] / one['rps']:.2f}x", "none (reported)", "info",
              f"nginx: {n2['rps'] / n1['rps']:.2f}x" if n1 and n2 else "")

    p = best(runs, "prices_1t")
    if p:
        n = best(runs, "nginx_1w")
        p99 = min(r["p99_us"] for r in runs["prices_1t"]) / 1000
        nginx_p99 = min(r["p99_us"] for r in runs["nginx_1w"]) / 1000 if n else None
        t.add("p99 latency GET /v1/prices, 64 connections", f"{p99:.2f} ms",
              f"{nginx_p99:.2f} ms nginx" if nginx_p99 is not None else "-",
              f"{p99 / nginx_p99:.2f}x" if nginx_p99 else "-", "<= 2 ms", "PASS" if p99 <= 2.0 else "FAIL",
              "best round; baseline is nginx's p99 in the same conditions, for reference")

    many_connections_rows(t, runs, fig)

    n = int(fig.get("mem_requests", 1000000))
    if "rss1_kib" in fig:
        rss0, rss1, rss2 = (int(fig[k]) / 1024 for k in ("rss0_kib", "rss1_kib", "rss2_kib"))
        t.add(f"RSS of serve after {n:,} requests", f"{rss1:.1f} MiB", f"{rss0:.1f} MiB at start",
              f"{rss1 / rss0:.2f}x", "<= 64 MiB", "PASS" if rss1 <= 64 else "FAIL",
              f"2 threads, {fig.get('mem_rps1', '?')} req/s of documents, computed answers and MCP calls"
              + (f"; {int(fig['mem_errors1']) + int(fig['mem_errors2'])} non-2xx" if "mem_errors1" in fig else ""))
        growth = rss2 - rss1
        t.add(f"RSS growth over a second {n:,}", f"{growth:+.2f} MiB", f"{rss1:.1f} MiB", f"{rss2 / rss1:.3f}x",
              "<= +1 MiB", "PASS" if growth <= 1.0 else "FAIL", f"{rss2:.1f} MiB after {2 * n:,}")
    else:
        t.add(f"RSS of serve after {n:,} requests", "-", "-", "-", "<= 64 MiB", "not measured",
              fig.get("mem_missing", ""))

    if "startup_s" in fig:
        s = float(fig["startup_s"])
        t.add("start-up: exec -> /readyz 200", f"{s:.3f} s", "1 s target", f"{s:.2f}x", "< 1 s",
              "PASS" if s < 1 else "FAIL", "best of 5 (hyperfine)")
    if "import_s" in fig:
        s, c = float(fig["import_s"]), float(fig["copy_s"])
        t.add("import-observations, 1,000,000 rows", f"{s:.2f} s", f"{c:.2f} s psql \\copy", f"{s / c:.2f}x",
              "<= 20 s", "PASS" if s <= 20 else "FAIL", "baseline: PostgreSQL COPY of the same file, bare table")
    if "publish_s" in fig:
        s = float(fig["publish_s"])
        t.add("publish, week of 1,000,000 observations", f"{s:.2f} s", "3 s target", f"{s / 3:.2f}x", "<= 3 s",
              "PASS" if s <= 3 else "FAIL", f"best of 3 (hyperfine; mean {float(fig['publish_mean_s']):.2f} s)")

    if "big_rss_kib" in fig:
        t.add("serve with a 1,000,000-observation week loaded", f"{int(fig['big_rss_kib']) / 1024:.1f} MiB",
              f"{int(fig['rss0_kib']) / 1024:.1f} MiB sample" if "rss0_kib" in fig else "-", "-", "none (reported)",
              "info", f"RSS at start; ready after {float(fig['big_startup_s']):.1f} s")
    elif "big_missing" in fig:
        t.add("serve with a 1,000,000-observation week loaded", "-", "-", "-", "none (reported)", "info",
              fig["big_missing"])
    archive_rows(t, runs, fig)
    t.print()


if __name__ == "__main__":
    main()
