#!/usr/bin/env python3
"""Writes N synthetic observations (CSV) inside one sheet's window, for benchmarks only.

Usage: make_observations.py N WEEK_MONDAY_ISO [WEEKS] > file.csv   (e.g. 200000 2019-01-07 52)
With WEEKS, N observations in the window of each of WEEKS consecutive weeks from that Monday.
Deterministic (fixed seed); prices are integer micro-dollars printed with 6 decimals. Each model's
listings are spread over the five synthetic sources of sql/sample/sources.sql, so that rules
version 2 (at least 3 sources per model) prices every model, as it would a real week.
"""
import datetime
import random
import sys

GPUS = ["a10", "a100-40gb-sxm", "a100-80gb-pcie", "a100-80gb-sxm", "b200", "b300", "gb200", "h100-nvl",
        "h100-pcie", "h100-sxm", "h200-nvl", "h200-sxm", "l4", "l40", "l40s", "mi300x", "mi325x", "mi355x",
        "rtx-2060", "rtx-3060-12gb", "rtx-3090", "rtx-4090", "rtx-5090", "rtx-6000-ada", "rtx-a4000",
        "rtx-a6000", "rtx-pro-6000-blackwell"]
SOURCES = ["synthetic-alpha", "synthetic-bravo", "synthetic-charlie", "synthetic-delta", "synthetic-echo"]


def main():
    count = int(sys.argv[1])
    monday = datetime.datetime.fromisoformat(sys.argv[2]).replace(tzinfo=datetime.timezone.utc)
    weeks = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    first_start = int((monday - datetime.timedelta(days=7)).timestamp())
    rng = random.Random(20261130)
    out = sys.stdout
    out.write("observed_at,gpu,price_per_gpu_hour,source,listing_id\n")
    for i in range(count * weeks):
        start = first_start + (i // count) * 7 * 86400
        t = datetime.datetime.fromtimestamp(start + rng.randrange(7 * 86400), datetime.timezone.utc)
        micros = rng.randrange(100_000, 9_000_000)
        out.write(f"{t:%Y-%m-%dT%H:%M:%SZ},{GPUS[i % len(GPUS)]},{micros // 1_000_000}.{micros % 1_000_000:06d},"
                  f"{SOURCES[(i // len(GPUS)) % len(SOURCES)]},B-{i:07d}\n")


if __name__ == "__main__":
    main()
