#!/usr/bin/env python3
"""The calculators in headless Chromium, against the real server and a real PostgreSQL.

For each of the six calculator pages (estimate, sizing, compare, cheapest, instance check, rent versus
buy) Chromium
opens the empty form, a person's steps are played on it (a choice picked in each drop-down list, text
typed in each box, the button clicked), and the page the browser lands on is read through the DOM:
its form is pre-filled with what was sent and its figures are those of the JSON of the same
operation. A refused value shows the problem under the form. Driven over the DevTools protocol on
a pipe (--remote-debugging-pipe), standard library only; screenshots in ARTIFACTS/calculator-*.png.

Needs what deploy/test exports (LCG_BINARY, LCG_TEST_ADMIN_URL, LCG_TEST_TEMPLATE, LCG_TEST_PG_PORT).
Usage: calculator_test.py --artifacts DIR
"""

import argparse
import base64
import fcntl
import json
import os
import select
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_test import CHROMIUM_FLAGS, FAILURES, Server, check, chromium_binary, get_json, parse_dom, table_rows  # noqa: E402


class Browser:
    """Headless Chromium driven over the DevTools protocol on fds 3 (commands) and 4 (answers)."""

    def __init__(self):
        binary = chromium_binary()
        self.profile = tempfile.TemporaryDirectory(prefix="lcg-chromium-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        # The child reads commands on its fd 3 and writes answers on its fd 4: both pipe ends are first
        # moved above 4, so that placing one cannot overwrite the other, and 3 and 4 are kept open.
        def child_fds():
            high_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
            high_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)
        self.process = subprocess.Popen(
            [binary, *CHROMIUM_FLAGS, "--remote-debugging-pipe", "--window-size=1280,900", "--user-data-dir=" + self.profile.name,
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(to_browser_r, from_browser_w, 3, 4), preexec_fn=child_fds)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Page.enable", session=True)

    def _message(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_browser], [], [], left)[0]:
                raise RuntimeError("Chromium did not answer within the time allowed")
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=False, timeout=30):
        self.next_id += 1
        command = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            command["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(command).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            message = self._message(deadline)
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_for_load(self, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            for i, event in enumerate(self.events):
                if event.get("method") == "Page.loadEventFired":
                    del self.events[: i + 1]
                    return
            self.events.append(self._message(deadline))

    def evaluate(self, expression):
        answer = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=True)
        if "exceptionDetails" in answer:
            raise RuntimeError(f"{expression}: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    def open(self, url):
        self.events.clear()
        self.call("Page.navigate", {"url": url}, session=True)
        self.wait_for_load()

    def fill_and_submit(self, fields):
        """A person's steps: each field set by its label's control, then the button clicked."""
        for name, value in fields.items():
            found = self.evaluate(
                f"(() => {{ const e = document.querySelector('form.calculator [name={json.dumps(name)}]');"
                f" if (!e) return false; e.focus(); e.value = {json.dumps(value)};"
                f" e.dispatchEvent(new Event('input', {{bubbles: true}})); return e.value === {json.dumps(value)}; }})()")
            check(found, f"the form has a field {name} that takes {value!r}")
        self.events.clear()
        self.evaluate("document.querySelector('form.calculator button[type=submit]').click()")
        self.wait_for_load()

    def location(self):
        return self.evaluate("location.href")

    def dom(self):
        return self.evaluate("document.documentElement.outerHTML")

    def field_values(self):
        return self.evaluate("Object.fromEntries([...document.querySelectorAll('form.calculator [name]')]"
                             ".map(e => [e.name, e.value]))")

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except (RuntimeError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        os.close(self.to_browser)
        os.close(self.from_browser)
        self.profile.cleanup()


def submit(browser, base, page, fields, artifacts, name):
    """Opens the empty calculator, fills and submits it; returns the DOM text, the parsed DOM, and
    the JSON of the same operation for the fields given."""
    browser.open(base + page)
    check(browser.evaluate("document.querySelectorAll('form.calculator').length") == 1,
          f"{page} shows one calculator form")
    browser.fill_and_submit(fields)
    landed = urllib.parse.urlsplit(browser.location())
    check(landed.path == page, f"the {page} form submits to its own page (landed on {landed.path})")
    sent = dict(urllib.parse.parse_qsl(landed.query))
    check(sent == fields, f"{page} sent {sent}, the fields filled {fields}")
    values = browser.field_values()
    kept = {k: v for k, v in values.items() if v}
    check(kept == fields, f"the form of the result page is pre-filled with what was sent: {kept}")
    text = browser.dom()
    browser.screenshot(os.path.join(artifacts, f"calculator-{name}.png"))
    operation = page.removesuffix(".html")
    return text, parse_dom(text), get_json(base + operation + "?" + urllib.parse.urlencode(fields))


def cells(dom, first_header):
    return {row[0]: row for row in table_rows(dom, first_header)}


def check_estimate(browser, base, artifacts):
    text, dom, doc = submit(browser, base, "/v1/estimate.html",
                            {"gpu": "h100-sxm", "gpus": "2", "hours": "10", "tier": "spot"}, artifacts, "estimate")
    check(doc["total"] == "16.800", f"/v1/estimate costs 2 × H100 SXM spot for 10 hours at 16.800 ({doc['total']})")
    rows = cells(dom, "Item")
    gpu_time = rows.get("GPU time", [])
    check(gpu_time[-1:] == ["16.800"], f"the estimate page shows GPU time 16.800 ({gpu_time})")
    total = rows.get("Total", [])
    check(total[-1:] == [doc["total"]], f"the estimate page's total {total[-1:]} is the JSON's {doc['total']}")
    tiers = cells(dom, "Tier")
    for t in doc["tiers"]:
        shown = [row for name, row in tiers.items() if name.lower().replace("-", "_").startswith(t["tier"])]
        check(shown and shown[0][1:4] == [t["per_gpu_hour"], t["gpu_time"], t["total"]],
              f"the {t['tier']} row shows {t['per_gpu_hour']}, {t['gpu_time']}, {t['total']}")


def check_sizing(browser, base, artifacts):
    _, dom, doc = submit(browser, base, "/v1/sizing.html", {"params_b": "70", "precision": "int8"}, artifacts, "sizing")
    text = " ".join(" ".join(row) for row in dom.rows)
    check(doc["needed_gb"] == "105", "70 B at int8 needs 105 GB")
    a6000 = next(m for m in doc["models"] if m["gpu"] == "rtx-a6000")
    check(a6000["smallest_hourly"]["on_demand"] == "0.936", "3 × RTX A6000 cost 0.936 per hour on demand")
    for m in doc["models"]:
        if m.get("hourly"):
            check(m["hourly"]["on_demand"] in text, f"the sizing page shows {m['gpu']}'s {m['hourly']['on_demand']}")
        if m.get("smallest_hourly"):
            check(m["smallest_hourly"]["on_demand"] in text,
                  f"the sizing page shows {m['gpu']}'s smallest {m['smallest_hourly']['on_demand']}")


def check_compare(browser, base, artifacts):
    _, dom, doc = submit(browser, base, "/v1/compare.html", {"gpus": "h100-sxm,a100-80gb-sxm"}, artifacts, "compare")
    text = " ".join(" ".join(row) for row in dom.rows)
    for g in doc["gpus"]:
        for figure in (g["prices"]["on_demand"], g["prices"]["spot"], g["prices"]["reserved"], g["power_score"]["value"]):
            check(figure in text, f"the comparison page shows {g['gpu']}'s {figure}")


def check_cheapest(browser, base, artifacts):
    _, dom, doc = submit(browser, base, "/v1/cheapest.html",
                         {"params_b": "70", "precision": "fp8", "hours": "10"}, artifacts, "cheapest")
    text = " ".join(" ".join(row) for row in dom.rows)
    best = doc["cheapest"]
    # Not 3 × RTX A6000 (9.360 for 10 hours): Ampere has no FP8, and 3 GPUs do not shard.
    check(best["precision"]["native"] and best["gpus"] in (1, 2, 4, 8) and best["gpu"] != "rtx-a6000",
          f"the cheapest for 70 B at fp8 runs FP8 natively on a power-of-two count ({best})")
    for c in doc["alternatives"]:
        check(c["gpus"] in (1, 2, 4, 8) or c["gpus"] % 8 == 0, f"{c['gpu']}'s {c['gpus']} GPUs shard")
    for c in (c for c in doc["alternatives"] if not c["precision"]["native"]):
        check(c["precision"]["computes_in"] == "fp16" and "no native FP8 on this GPU" in text,
              f"the cheapest page says {c['gpu']} only emulates FP8")
    for c in [best, *doc["alternatives"]]:
        check(c["hourly"] in text and c["total"] in text, f"the cheapest page shows {c['gpu']}: {c['hourly']}, {c['total']}")


def check_rent_vs_buy(browser, base, artifacts):
    fields = {"gpu": "h100-sxm", "gpus": "8", "purchase_price": "250000", "power_watts": "10200",
              "electricity_price": "0.12", "hosting_per_month": "1500", "utilisation": "50", "months": "36"}
    text, dom, doc = submit(browser, base, "/v1/rent-vs-buy.html", fields, artifacts, "rent-vs-buy")
    check(doc["inputs"]["purchase_price"] == "250000.000" and doc["inputs"]["months"] == 36,
          f"the rent-versus-buy JSON echoes what was typed ({doc['inputs']})")
    for figure in (doc["rent"]["total"], doc["own"]["total"], doc["own"]["energy"]):
        check(figure in text, f"the rent-versus-buy page shows {figure}")
    months = doc["break_even_months"]
    check(months["value"] is None or months["value"] in text,
          f"the rent-versus-buy page shows the break-even months ({months})")
    check(doc["note"] in text, "the rent-versus-buy page says which is cheaper, as the JSON does")


def check_instance(browser, base, artifacts):
    fields = {"gpu": "a100-80gb-sxm", "gpus": "8", "vcpus": "256", "memory_gib": "2048", "cpu_generation": "v7",
              "dedicated_vm": "true"}
    text, dom, doc = submit(browser, base, "/v1/instances/check.html", fields, artifacts, "instance")
    check(doc["status"] == "vm-specs-mismatch", "the instance is refused by the JSON")
    check("vm-specs-mismatch" in text, "the instance check page says vm-specs-mismatch")
    exceeded = [row for row in table_rows(dom, "Limit") if row[-1] == "exceeded"]
    check(len(exceeded) == len(doc["problems"]),
          f"the instance check page marks {len(exceeded)} limits exceeded, the JSON {len(doc['problems'])}")
    check(any(p["limit"] == "not_dedicated_vm" for p in doc["problems"]), "a dedicated VM breaks a named limit")
    for p in doc["problems"]:
        requested = p["requested"]
        requested = ("yes" if requested else "no") if isinstance(requested, bool) else str(requested)
        check(any(requested == row[2] for row in exceeded),
              f"the instance check page shows the requested {p['requested']} against its broken limit {p['limit']}")


def check_refusal(browser, base, artifacts):
    """A value the operation refuses: the page answers with the form, filled as sent, and the problem."""
    browser.open(base + "/v1/estimate.html")
    browser.fill_and_submit({"gpu": "h100-sxm", "gpus": "2", "hours": "ten"})
    problem = browser.evaluate("document.querySelector('.problem') && document.querySelector('.problem').textContent")
    check(problem is not None and problem.startswith("400 Bad Request (hours)"),
          f"a refused duration is explained under the form: {problem}")
    check(browser.field_values().get("hours") == "ten", "the refused value stays in the form")
    browser.screenshot(os.path.join(artifacts, "calculator-refusal.png"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifacts", required=True, help="folder for the screenshots")
    args = parser.parse_args()
    os.makedirs(args.artifacts, exist_ok=True)
    server = Server()
    browser = None
    try:
        browser = Browser()
        for run in (check_estimate, check_sizing, check_compare, check_cheapest, check_instance, check_rent_vs_buy,
                    check_refusal):
            run(browser, server.base, args.artifacts)
    finally:
        if browser:
            browser.close()
        server.stop()
    if FAILURES:
        print(f"0 passed, {len(FAILURES)} failed: calculators in the browser")
        return 1
    print(f"calculators: estimate, sizing, compare, cheapest and instance check filled and submitted in Chromium; "
          f"screenshots in {args.artifacts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
