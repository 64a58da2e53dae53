#!/usr/bin/env python3
"""End-to-end test in headless Chromium against the real server and a real PostgreSQL.

Opens the HTML pages of the prices, the catalog and the glossary, reads their tables and headings
through the DOM (chromium --dump-dom) and checks them against the JSON of the same resources; saves a
screenshot of each (ARTIFACTS/*.png); checks that a .md URL is displayed as text, not downloaded.

Needs what deploy/test exports (LCG_BINARY, LCG_TEST_ADMIN_URL, LCG_TEST_TEMPLATE, LCG_TEST_PG_PORT)
and Debian's chromium; without them it fails and says so. Standard library only.
Usage: browser_test.py --artifacts DIR
"""

import argparse
import decimal
import html
import html.parser
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAIL: " + message, file=sys.stderr)


def required_env(name):
    value = os.environ.get(name)
    if not value:
        sys.exit(f"{name} is not set: this test needs a PostgreSQL and the built binary; run it with deploy/test")
    return value


class Dom(html.parser.HTMLParser):
    """The text of every table row (cells), of h1/h3 headings and of <pre> elements, and every link
    with a title inside a table cell (href, title, text)."""

    def __init__(self):
        super().__init__()
        self.rows, self.headings, self.pres, self.titled_links = [], [], [], []
        self._cell = None
        self._row = None
        self._heading = None
        self._pre = None
        self._link = None

    def handle_starttag(self, tag, attrs):
        if tag == "a" and self._cell is not None and dict(attrs).get("title"):
            self._link = [dict(attrs)["href"], dict(attrs)["title"], ""]
        if tag == "tr":
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = ""
        elif tag in ("h1", "h3"):
            self._heading = ""
        elif tag == "pre":
            self._pre = ""

    def handle_endtag(self, tag):
        if tag == "a" and self._link is not None:
            self.titled_links.append(tuple(self._link))
            self._link = None
        if tag in ("td", "th") and self._cell is not None:
            self._row.append(" ".join(self._cell.split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None
        elif tag in ("h1", "h3") and self._heading is not None:
            self.headings.append(" ".join(self._heading.split()))
            self._heading = None
        elif tag == "pre" and self._pre is not None:
            self.pres.append(self._pre)
            self._pre = None

    def handle_data(self, data):
        if self._link is not None:
            self._link[2] += data
        if self._cell is not None:
            self._cell += data
        if self._heading is not None:
            self._heading += data
        if self._pre is not None:
            self._pre += data


def parse_dom(text):
    dom = Dom()
    dom.feed(text)
    return dom


# How every test starts Chromium: headless, with nothing of its own reaching for the network.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_binary():
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if not binary:
        sys.exit("chromium is not installed: deploy/lib.sh installs Debian's chromium package")
    return binary


class Chromium:
    """Chromium run once per page from its command line (--dump-dom, --screenshot)."""

    def __init__(self):
        self.binary = chromium_binary()

    def run(self, *args):
        with tempfile.TemporaryDirectory(prefix="lcg-chromium-") as profile:
            command = [self.binary, *CHROMIUM_FLAGS, "--user-data-dir=" + profile, *args]
            done = subprocess.run(command, capture_output=True, text=True, timeout=120)
            if done.returncode != 0:
                raise RuntimeError(f"chromium failed ({done.returncode}): {done.stderr[-2000:]}")
            return done.stdout

    def dump_dom(self, url):
        return self.run("--dump-dom", url)

    def screenshot(self, url, path):
        self.run("--screenshot=" + path, "--window-size=1280,900", url)


def get(url, accept=None):
    request = urllib.request.Request(url, headers={"Accept": accept} if accept else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, dict(response.headers), response.read().decode("utf-8")


def get_json(url):
    return json.loads(get(url, "application/json")[2])


class Server:
    """lowcostgpu serve on a fresh copy of the sample database, on 127.0.0.1 and a free port, with
    `extra_args` after the others. Its request log stays on the pipe self.process.stdout."""

    def __init__(self, extra_args=()):
        self.binary = required_env("LCG_BINARY")
        admin = required_env("LCG_TEST_ADMIN_URL")
        template = required_env("LCG_TEST_TEMPLATE")
        port = required_env("LCG_TEST_PG_PORT")
        self.admin = admin
        self.database = f"lcg_web_{os.getpid()}"
        self.psql(f"CREATE DATABASE {self.database} TEMPLATE {template} OWNER lowcostgpu_owner")
        url = f"postgresql://lowcostgpu_reader@127.0.0.1:{port}/{self.database}"
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen([self.binary, "serve", "--listen", "127.0.0.1:0", "--database-url", url,
                                         *extra_args],
                                        stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
        if not match:
            self.stop()
            sys.exit("lowcostgpu serve did not start: " + line)
        self.base = match.group(1)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if get(self.base + "/readyz")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        sys.exit("lowcostgpu serve never became ready")

    def psql(self, sql):
        subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", self.admin, "-c", sql], check=True,
                       capture_output=True)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.psql(f"DROP DATABASE IF EXISTS {self.database} WITH (FORCE)")


def table_rows(dom, first_header):
    """The body rows of the table whose first header cell is `first_header`."""
    out, inside = [], False
    for row in dom.rows:
        if row and row[0] == first_header:
            inside = True
            continue
        if inside:
            out.append(row)
    return out


def to_mill(exact):
    """A figure as pages for people show it: to the mill, halves up (pricing::to_shown)."""
    return str(decimal.Decimal(exact).quantize(decimal.Decimal("0.001"), rounding=decimal.ROUND_HALF_UP))


def check_exact_figures(chromium, base, dom, sheet):
    """Issue 28, item 6: each figure that the sheet's HTML rounds to the mill is a link, titled with
    the exact figure, to that week's price of the model as JSON, which publishes the figure exactly."""
    links = {}
    for href, title, text in dom.titled_links:
        links.setdefault(href, []).append((title, text))
    rounded = 0
    for price in sheet["prices"]:
        href = f"/v1/prices/{price['gpu']}.json?week={sheet['week']}"
        for key in ("median", "cap", "headroom"):
            exact = price.get(key)
            if exact is None or decimal.Decimal(to_mill(exact)) == decimal.Decimal(exact):
                continue
            rounded += 1
            check((f"exact value: ${exact}", to_mill(exact)) in links.get(href, []),
                  f"{price['gpu']} {key}: {to_mill(exact)} links to {href} titled with {exact}")
    check(rounded > 0, "the sample sheet has figures finer than the mill, to round")
    # One click away: follow one rounded median's link in Chromium and read the exact figure there.
    finer = next(p for p in sheet["prices"] if p.get("median") and decimal.Decimal(to_mill(p["median"])) != decimal.Decimal(p["median"]))
    shown = parse_dom(chromium.dump_dom(base + f"/v1/prices/{finer['gpu']}.json?week={sheet['week']}"))
    followed = json.loads(html.unescape(shown.pres[0])) if shown.pres else {}
    check(followed.get("median") == finer["median"],
          f"the link of {finer['gpu']}'s median shows its exact median {finer['median']} ({followed.get('median')})")


def check_prices(chromium, base, artifacts):
    sheet = get_json(base + "/v1/prices")
    dom_text = chromium.dump_dom(base + "/v1/prices")
    dom = parse_dom(dom_text)
    check(f"GPU price sheet {sheet['week']}" in dom.headings, "the prices page names the sheet's week")
    check(("<blockquote>" in dom_text and "Synthetic sample data" in dom_text) == sheet["sample"],
          "the prices page carries the synthetic sample data banner exactly when the JSON says sample")
    rows = {row[0]: row for row in table_rows(dom, "GPU")}
    check(len(rows) == len(sheet["prices"]), f"the prices table has {len(rows)} rows, the JSON {len(sheet['prices'])}")
    for price in sheet["prices"]:
        row = rows.get(price["name"])
        check(row is not None, f"the prices table has a row for {price['name']}")
        if row is None or not price["available"]:
            continue
        # Rules version 2: sources and listings where version 1 had the observations.
        # Shown to the mill; the rates are whole mills already.
        expected = [price["name"], to_mill(price["median"]), to_mill(price["cap"]), price["on_demand"], price["spot"],
                    price["reserved"], to_mill(price["headroom"]), str(price["sources"]), str(price["listings"])]
        check(row[:9] == expected, f"prices row {row} equals the JSON {expected} to the mill")
    h100 = next(p for p in sheet["prices"] if p["gpu"] == "h100-sxm")
    check([h100["median"], h100["on_demand"], h100["spot"], h100["reserved"]] == ["2.400", "1.680", "0.840", "1.092"],
          "the H100 SXM row is the worked example")
    check_exact_figures(chromium, base, dom, sheet)
    chromium.screenshot(base + "/v1/prices", os.path.join(artifacts, "prices.png"))


def check_sparklines(chromium, base):
    """The HTML sheet shows each model's trend: an image of its sparkline, linking to its history."""
    sheet = get_json(base + "/v1/prices")
    dom_text = chromium.dump_dom(base + "/v1/prices")
    for price in sheet["prices"]:
        gpu = price["gpu"]
        check(f'src="/v1/prices/{gpu}/sparkline.svg"' in dom_text, f"the prices page shows {gpu}'s sparkline")
        check(f'href="/v1/prices/{gpu}/history.html?lang=en"' in dom_text, f"{gpu}'s sparkline links to its history page")
    svg = chromium.dump_dom(base + "/v1/prices/h100-sxm/sparkline.svg")
    check("<polyline" in svg, "the sparkline draws a line")
    table = get_json(base + "/v1/history")
    for gpu in table["gpus"]:
        check_sparkline(chromium, base, gpu, [w["rates"].get(gpu) for w in table["weeks"]])


SPARK_TOP, SPARK_BOTTOM = 2, 22  # the frame of a sparkline's line, in its 24 px height
CHANGE = re.compile(r'<text class="change"[^>]*>([^<]*)</text>')


def week_on_week(before, now):
    """The change as the pages print it (pricing::week_on_week_percent), from the published rates."""
    if before is None or now is None or decimal.Decimal(before) <= 0:
        return "—"
    diff = decimal.Decimal(now) - decimal.Decimal(before)
    if diff == 0:
        return "0 %"
    tenths = (abs(diff) * 100 / decimal.Decimal(before)).quantize(decimal.Decimal("0.1"), rounding=decimal.ROUND_HALF_UP)
    return ("-" if diff < 0 else "+") + str(tenths) + " %"


def check_sparkline(chromium, base, gpu, rates):
    """Issue 28, item 6: a model's sparkline, as Chromium loads it, spans the model's own range
    (its lowest rate at the bottom of the frame, its highest at the top; a flat series across the
    middle) and prints the on-demand change from the week before beside the line."""
    svg = chromium.dump_dom(base + f"/v1/prices/{gpu}/sparkline.svg")
    ys = [int(y) for points in re.findall(r'points="([^"]*)"', svg) for y in re.findall(r",(\d+)", points)]
    priced = [decimal.Decimal(r) for r in rates if r is not None]
    check(len(ys) == len(priced), f"{gpu}'s sparkline has {len(ys)} points for {len(priced)} priced weeks")
    if not ys:
        return
    if max(priced) - min(priced) >= max(priced) * decimal.Decimal("0.02"):
        check(min(ys) == SPARK_TOP and max(ys) == SPARK_BOTTOM,
              f"{gpu}'s sparkline spans the height: y from {min(ys)} to {max(ys)}")
        low, high = min(priced), max(priced)
        for rate, y in zip(priced, ys):
            expected = SPARK_BOTTOM - (rate - low) * (SPARK_BOTTOM - SPARK_TOP) / (high - low)
            check(abs(y - expected) <= 1, f"{gpu}: {rate} drawn at y {y}, its place in the range is {expected:.1f}")
    else:
        check(max(ys) - min(ys) <= SPARK_BOTTOM - SPARK_TOP, f"{gpu}'s small moves stay within the frame")
    change = CHANGE.search(svg)
    expected = week_on_week(rates[-2] if len(rates) > 1 else None, rates[-1])
    check(change is not None and change.group(1) == expected,
          f"{gpu}'s sparkline prints the change {expected} ({change.group(1) if change else 'nothing'})")


CIRCLE = re.compile(r'<circle data-series="([a-z_]+)" data-week="([0-9W-]+)" data-value="([0-9.]+)" '
                    r'cx="(\d+)" cy="(\d+)"')
Y_LABEL = re.compile(r'<text class="y-label" x="\d+" y="(\d+)"[^>]*>([0-9.]+)</text>')


def check_history_chart(chromium, base, artifacts):
    """The history page shows the chart, and the chart plots exactly the figures of the JSON, each
    at the height its value gives on the labelled axis."""
    history = get_json(base + "/v1/prices/h100-sxm/history")
    page = chromium.dump_dom(base + "/v1/prices/h100-sxm/history")
    check('src="/v1/prices/h100-sxm/history.svg"' in page, "the history page shows the chart")
    dom = parse_dom(page)
    rows = table_rows(dom, "Week")
    check(len(rows) == history["count"], f"the history table has {len(rows)} weeks, the JSON {history['count']}")
    svg = chromium.dump_dom(base + "/v1/prices/h100-sxm/history.svg")
    points = {(m[0], m[1]): (m[2], int(m[3]), int(m[4])) for m in CIRCLE.findall(svg)}
    labels = [(float(value), int(y) - 4) for y, value in Y_LABEL.findall(svg)]
    check(len(labels) >= 3, f"the value axis has {len(labels)} labels")
    (v0, y0), (v1, y1) = labels[0], labels[-1]
    expected_points = 0
    xs = []
    for week in history["weeks"]:
        for series in ("median", "on_demand", "spot", "reserved"):
            if series not in week:
                continue
            expected_points += 1
            point = points.get((series, week["week"]))
            check(point is not None, f"the chart plots {series} of {week['week']}")
            if point is None:
                continue
            value, cx, cy = point
            check(value == week[series], f"{series} {week['week']}: plotted {value}, the JSON {week[series]}")
            # Drawing only: the axis maps dollars to pixels linearly.
            expected_y = y0 + (float(value) - v0) * (y1 - y0) / (v1 - v0)
            check(abs(cy - expected_y) <= 1.5, f"{series} {week['week']}: y {cy}, the axis puts {value} at {expected_y:.1f}")
            if series == "median":
                xs.append(cx)
    check(len(points) == expected_points, f"the chart has {len(points)} points, the JSON {expected_points} figures")
    check(xs == sorted(xs) and len(set(xs)) == len(xs), "the weeks run left to right")
    chromium.screenshot(base + "/v1/prices/h100-sxm/history", os.path.join(artifacts, "history.png"))


def check_catalog(chromium, base, artifacts):
    catalog = get_json(base + "/v1/gpus")
    dom = parse_dom(chromium.dump_dom(base + "/v1/gpus"))
    rows = {row[0]: row for row in table_rows(dom, "GPU")}
    check(len(rows) == catalog["count"], f"the catalog table has {len(rows)} rows, the JSON count {catalog['count']}")
    for gpu in catalog["gpus"]:
        row = rows.get(gpu["name"])
        check(row is not None, f"the catalog has a row for {gpu['name']}")
        if row is None:
            continue
        tflops = gpu["fp16_dense_tflops"]["value"] + ("" if gpu["fp16_dense_tflops"]["confirmed"] else "?")
        check(row[3] == str(gpu["vram_gb"]), f"{gpu['id']}: VRAM {row[3]} = {gpu['vram_gb']}")
        check(row[4] == str(gpu["memory_bandwidth_gbs"]), f"{gpu['id']}: bandwidth {row[4]}")
        check(row[5] == tflops, f"{gpu['id']}: TFLOPS {row[5]} = {tflops}")
        on_demand = gpu.get("prices", {}).get("on_demand", "—")
        check(row[-1] == on_demand, f"{gpu['id']}: on-demand {row[-1]} = {on_demand}")
    chromium.screenshot(base + "/v1/gpus", os.path.join(artifacts, "catalog.png"))


def check_glossary(chromium, base, artifacts):
    glossary = get_json(base + "/v1/glossary")
    dom_text = chromium.dump_dom(base + "/v1/glossary")
    dom = parse_dom(dom_text)
    names = [t["name"] for t in glossary["terms"]]
    found = [h for h in dom.headings if h in names]
    check(len(found) == glossary["count"], f"the glossary page shows {len(found)} terms, the JSON {glossary['count']}")
    spot = next(t for t in glossary["terms"] if t["slug"] == "interruptible-instance")
    check("$0.840 per GPU-hour" in spot["definition"] and html_text(spot["definition"]) in dom_text,
          "the glossary page quotes the spot rate of the current sheet, as the JSON does")
    chromium.screenshot(base + "/v1/glossary", os.path.join(artifacts, "glossary.png"))


def html_text(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def check_markdown_is_shown(chromium, base):
    status, headers, body = get(base + "/v1/prices.md")
    check(status == 200, "/v1/prices.md answers 200")
    check(headers.get("Content-Type") == "text/markdown; charset=utf-8", "Markdown is text/markdown; charset=utf-8")
    check(headers.get("Content-Disposition") == "inline", "Markdown is served inline")
    dom = parse_dom(chromium.dump_dom(base + "/v1/prices.md"))
    check(len(dom.pres) == 1 and dom.pres[0].startswith("# GPU price sheet "),
          "Chromium displays the Markdown as text inside a <pre> rather than downloading it")


def check_french(chromium, base, artifacts):
    """The same sheet in French, reached through the language switch of the navigation: French words,
    French numbers (decimal comma) equal to the JSON's, and a navigation that stays in French."""
    english = chromium.dump_dom(base + "/v1/prices.html")
    check('href="/v1/prices.html?lang=fr"' in english, "the English page links to its French version")
    sheet = get_json(base + "/v1/prices")
    page = chromium.dump_dom(base + "/v1/prices.html?lang=fr")
    check('<html lang="fr">' in page, "the French page says it is French")
    dom = parse_dom(page)
    check(any(h.startswith("Fiche de prix GPU ") for h in dom.headings), "the French page has a French title")
    rows = {row[0]: row for row in table_rows(dom, "GPU")}
    h100 = next(p for p in sheet["prices"] if p["gpu"] == "h100-sxm")
    row = rows.get(h100["name"], [])
    check(row[1:4] == [to_mill(h100[k]).replace(".", ",") for k in ("median", "cap", "on_demand")],
          f"the French row {row[1:4]} has the JSON's figures, to the mill, with a decimal comma")
    titles = [title for _, title, _ in dom.titled_links]
    check(any(t.startswith("valeur exacte\u202f: ") and t.endswith("\u202f$") for t in titles),
          "the French page titles a rounded figure with its exact value, the French way")
    spark = chromium.dump_dom(base + "/v1/prices/h100-sxm/sparkline.svg?lang=fr")
    change = CHANGE.search(spark)
    check(change is not None and (change.group(1) == "0\u202f%" or re.fullmatch("[+\u2212][0-9]+,[0-9]\u202f%", change.group(1))),
          f"the French sparkline prints its change the French way ({change.group(1) if change else 'nothing'})")
    check('href="/v1/gpus.html?lang=fr"' in page and 'href="/v1/prices.html?lang=en"' in page,
          "the French navigation stays in French and links back to English")
    catalog = parse_dom(chromium.dump_dom(base + "/v1/gpus.html?lang=fr"))
    check("Catalogue des GPU" in catalog.headings, "the navigation's catalog is French too")
    chromium.screenshot(base + "/v1/prices.html?lang=fr", os.path.join(artifacts, "prices-fr.png"))


# The widths a page must fit without sideways scrolling: a phone's (390 CSS px) and a laptop's.
NARROW, WIDE = 390, 1280
# A frame of exactly NARROW px (Chromium's own window is never narrower than 500), and a script that
# reports how wide the framed page's document is; the frame is same-origin through FramingProxy.
FRAME_PAGE = """<!DOCTYPE html><html><body style="margin:0"><iframe id="f" src="{src}" style="width:{width}px;height:{height}px;border:0"></iframe>
<script>document.getElementById("f").addEventListener("load", () => {{
  const d = document.getElementById("f").contentDocument.documentElement;
  const p = document.createElement("pre"); p.id = "measured";
  p.textContent = JSON.stringify({{scroll: d.scrollWidth, client: d.clientWidth}});
  document.body.appendChild(p);
}});</script></body></html>"""


class FramingProxy:
    """A test-only origin on 127.0.0.1 that serves /__frame?page=P&width=W (FRAME_PAGE) and passes
    every other GET to the server, as HTML, without its headers: so the framed page is same-origin to
    the measuring script, and the server's own frame-ancestors refusal does not apply to the test."""

    def __init__(self, base):
        server_base = base

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                if self.path.startswith("/__frame?"):
                    q = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
                    body = FRAME_PAGE.format(src=html.escape(q["page"][0]), width=q["width"][0], height=900).encode()
                    kind = "text/html"
                else:
                    try:
                        with urllib.request.urlopen(urllib.request.Request(server_base + self.path,
                                                                           headers={"Accept": "text/html"}),
                                                    timeout=10) as r:
                            body, kind = r.read(), r.headers.get("Content-Type", "text/html")
                    except urllib.error.HTTPError as e:
                        body, kind = e.read(), e.headers.get("Content-Type", "text/plain")
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def check_narrow_screens(chromium, base, artifacts):
    """Issue 28, item 6: no page scrolls sideways at 390 px (its tables and code scroll inside
    themselves, its navigation wraps), in both languages; the sheet, a history page and a calculator
    are captured at 390 and 1280 px in both languages."""
    proxy = FramingProxy(base)
    try:
        pages = ["/", "/v1/prices", "/v1/gpus", "/v1/gpus/h100-sxm", "/v1/glossary", "/v1/methodology", "/v1/sheets",
                 "/v1/prices/h100-sxm/history", "/v1/estimate", "/v1/sizing", "/v1/cheapest"]
        shots = {"/v1/prices": "sheet", "/v1/prices/h100-sxm/history": "history", "/v1/estimate": "calculator"}
        measured = 0
        for path in pages:
            for lang in ("en", "fr"):
                page = path + ("?lang=fr" if lang == "fr" else "")
                frame = proxy.base + "/__frame?" + urllib.parse.urlencode({"page": page, "width": NARROW})
                found = re.search(r'<pre id="measured">(.*?)</pre>', chromium.run("--virtual-time-budget=5000",
                                                                                  "--dump-dom", frame))
                check(found is not None, f"{page} at {NARROW} px: measured")
                if not found:
                    continue
                width = json.loads(html.unescape(found.group(1)))
                check(width["scroll"] <= width["client"],
                      f"{page} at {NARROW} px scrolls sideways: {width['scroll']} px wide in {width['client']}")
                measured += 1
                if path in shots:
                    name = f"{shots[path]}-{lang}"
                    chromium.run(f"--screenshot={os.path.join(artifacts, name + '-390.png')}", "--window-size=500,900",
                                 "--virtual-time-budget=5000", frame)
                    chromium.run(f"--screenshot={os.path.join(artifacts, name + '-1280.png')}",
                                 f"--window-size={WIDE},900", base + page)
        check(measured == 2 * len(pages), f"every page measured at {NARROW} px in both languages ({measured})")
    finally:
        proxy.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifacts", required=True, help="folder for the screenshots")
    args = parser.parse_args()
    os.makedirs(args.artifacts, exist_ok=True)
    chromium = Chromium()
    server = Server()
    try:
        check_prices(chromium, server.base, args.artifacts)
        check_catalog(chromium, server.base, args.artifacts)
        check_glossary(chromium, server.base, args.artifacts)
        check_sparklines(chromium, server.base)
        check_history_chart(chromium, server.base, args.artifacts)
        check_markdown_is_shown(chromium, server.base)
        check_french(chromium, server.base, args.artifacts)
        check_narrow_screens(chromium, server.base, args.artifacts)
        narrow = [f"{page}-{lang}-{width}" for page in ("sheet", "history", "calculator") for lang in ("en", "fr")
                  for width in (NARROW, WIDE)]
        for name in ("prices", "catalog", "glossary", "history", "prices-fr", *narrow):
            path = os.path.join(args.artifacts, name + ".png")
            check(os.path.exists(path) and os.path.getsize(path) > 10_000, f"screenshot {path} saved")
    finally:
        server.stop()
    checks = ("prices (to the mill, exact figures a link away), sparklines (each model's range, the change beside), "
              "history chart, catalog, glossary, Markdown display, French pages and no sideways scrolling at 390 px")
    if FAILURES:
        print(f"0 passed, {len(FAILURES)} failed: browser end-to-end ({checks})")
        return 1
    print(f"browser end-to-end: {checks} checked in Chromium; screenshots in {args.artifacts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
