#!/usr/bin/env python3
"""Generate SYNTHETIC market observations for the sample data. Never for production.

The rows are made up by seeded pseudo-random generators: they are not prices seen on any market.
Every row says so in its `source` column (five made-up sources, "synthetic-alpha",
"synthetic-bravo", "synthetic-charlie", "synthetic-delta" and "synthetic-echo") and its listing id
("SYN-..."). `deploy/run` and the tests load them; a production database never gets them.

Output (standard output, nothing else): the observations CSV of DESIGN.md section 7,

    observed_at,gpu,price_per_gpu_hour,source,listing_id
    2026-11-24T10:15:00Z,h100-sxm,2.412000,synthetic-bravo,SYN-2026W48-h100-sxm-0007

sorted by observed_at, gpu, listing_id, with '\\n' line ends.

Weeks. The current week is the ISO week containing --now; its sheet takes effect on that week's
Monday 00:00 UTC and is computed from the 7 days before it. Observations are generated for that
window and the windows of the (weeks - 1) sheets before it, every timestamp strictly inside its
window, in whole seconds. A listing id names the ISO week in which the listing was observed
(the week before the sheet's) and numbers the model's listings of that week in time order,
whatever their source, so (source, listing_id, observed_at) is unique.

Prices. Money is integer micro-dollars throughout; no float touches a price. Each model has a base
market median per GPU-hour (BASE_MEDIANS); the current week is centred on it and earlier weeks
drift from it by a random walk of at most +/-2 % a week. Inside a week prices spread over +/-15 %
of the centre. Every model gets 20 to 40 observations a week; each week at least 3 models have an
even count and at least 3 an odd count.

Two stages, so that rules version 2 gives every sheet the median rules version 1 gave it.
  1. The draws of the generator written for rules version 1 (one pool of listings, the market
     median is the median of all their prices), unchanged and in the same order: the drift, each
     week's counts, then per model the week's n prices and n timestamps. These prices are not
     written out; what is kept is the count n, the timestamps and the median, as twice the
     median m2 (odd n: twice the middle price; even n: the sum of the two middle prices).
  2. The n listings are spread over named sources and priced again for rules version 2: a
     source's price is the LOWER median of its listings' prices (sorted ascending, the one at
     index (k - 1) // 2 of k), the market median is the median of the sources' prices, and a
     model is priced with >= 3 sources and >= 5 listings. The source prices are chosen around
     the median (at most 5 % of the centre from it, inside the week's band):
       * odd n (m2 even, M = m2 / 2): 3 or 5 sources priced M - a < M < M + a or
         M - b < M - a < M < M + a < M + b; the middle source's price is M;
       * even n (or m2 odd): 4 sources priced p1 < p2 < p3 < p4 with p2 + p3 = m2 and p2 != p3,
         so the median goes through the even-count path just as before.
     Every source gets at least one of the n listings. Of a source's k listings, (k - 1) // 2
     are priced at or below its price, one at it and the rest at or above it, all inside the
     week's +/-15 % band, so its lower median is exactly its price. The market median of
     version 2 is then m2 / 2, the median of version 1, to the half micro-dollar.

Cases built on purpose in the current week's window, for tests and for the published worked
example (stage 1 designs the median, stage 2 keeps it):
  * h100-sxm: odd count, median exactly 2.400000 (the middle source's price), so the median is
    $2.400 and on-demand is exactly $1.680 (70 % lands on a mill boundary), spot $0.840,
    reserved $1.092;
  * a100-80gb-sxm: even count, 4 sources, the two middle source prices differ and their mean is
    a whole cent, so 70 % lands exactly on a mill boundary through the even-count path;
  * rtx-4090: even count, 4 sources, the two middle source prices differ by an odd number of
    micro-dollars, so the median ends in half a micro-dollar; twice the median is chosen so that
    7 * m2 mod 20000 is 19999, i.e. 70 % of the median falls 0.00005 mill short of a mill and
    rounding down matters.

Same arguments, same output: stage 1 draws from random.Random(seed) in a fixed order, stage 2
from its own random.Random(seed + 1), so stage 2 never moves a draw of stage 1. Standard library
only. Run with --help for the options.
"""

import argparse
import datetime as dt
import os
import random
import re
import sys

SOURCES = ("synthetic-alpha", "synthetic-bravo", "synthetic-charlie", "synthetic-delta",
           "synthetic-echo")
HEADER = "observed_at,gpu,price_per_gpu_hour,source,listing_id"
MICROS_PER_USD = 1_000_000
WEEK = dt.timedelta(days=7)
WINDOW_SECONDS = 7 * 24 * 3600
MIN_COUNT, MAX_COUNT = 20, 40
MIN_PER_PARITY = 3
DRIFT_BP = 200  # at most +/-2 % a week, in basis points
SPREAD_PERCENT = 15  # +/-15 % around the week's centre
SOURCE_SPREAD_PERCENT = 5  # source prices at most 5 % of the centre from the median

# Base market median per GPU-hour in micro-dollars, in the order of gpu-facts.csv (27 models).
# Plausible round figures for a public GPU marketplace; sample values, not observations.
BASE_MEDIANS = [
    ("rtx-2060", 100_000),
    ("rtx-3060-12gb", 120_000),
    ("rtx-3090", 220_000),
    ("rtx-4090", 400_000),
    ("rtx-5090", 650_000),
    ("rtx-a4000", 170_000),
    ("rtx-a6000", 450_000),
    ("rtx-6000-ada", 750_000),
    ("rtx-pro-6000-blackwell", 1_300_000),
    ("l4", 380_000),
    ("l40", 850_000),
    ("l40s", 950_000),
    ("a10", 300_000),
    ("a100-40gb-sxm", 1_000_000),
    ("a100-80gb-pcie", 1_250_000),
    ("a100-80gb-sxm", 1_400_000),
    ("h100-pcie", 2_000_000),
    ("h100-sxm", 2_400_000),
    ("h100-nvl", 2_600_000),
    ("h200-sxm", 3_300_000),
    ("h200-nvl", 3_100_000),
    ("b200", 5_500_000),
    ("b300", 7_000_000),
    ("gb200", 6_500_000),
    ("mi300x", 2_200_000),
    ("mi325x", 2_600_000),
    ("mi355x", 3_800_000),
]
BASE = dict(BASE_MEDIANS)

EXACT_GPU, EXACT_MEDIAN = "h100-sxm", 2_400_000  # the published worked example
EVEN_ON_MILL_GPU = "a100-80gb-sxm"
HALF_MICRO_GPU = "rtx-4090"
# 7 * 2857 = 19999 (mod 20000): with m2 = 20000 q + 2857, m2 is odd (a half micro-dollar median)
# and floor(7 * m2 / 20000) = 7 q, one mill below the rounded-to-nearest result.
HALF_MICRO_M2_RESIDUE = 2857

ID_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
TUPLE_START_RE = re.compile(r"^\s*\('([a-z0-9]+(?:-[a-z0-9]+)*)',", re.MULTILINE)


def money(micros):
    return f"{micros // MICROS_PER_USD}.{micros % MICROS_PER_USD:06d}"


def rfc3339(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_now(text):
    s = text.strip()
    if s.endswith(("Z", "z")):
        s = s[:-1] + "+00:00"
    try:
        t = dt.datetime.fromisoformat(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an RFC 3339 date-time: {text!r}")
    if t.tzinfo is None:
        raise argparse.ArgumentTypeError(f"needs a time zone (e.g. a trailing Z): {text!r}")
    return t.astimezone(dt.timezone.utc)


def parse_weeks(text):
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}")
    if not 1 <= n <= 520:
        raise argparse.ArgumentTypeError("must be between 1 and 520")
    return n


def load_catalog(value):
    """GPU ids from a catalog migration (002_catalog.sql) or a comma-separated list."""
    if value is None:
        return [gpu for gpu, _ in BASE_MEDIANS]
    if os.path.isfile(value):
        with open(value, encoding="utf-8") as f:
            text = f.read()
        start = text.find("INSERT INTO gpu_model")
        end = text.find("ON CONFLICT", start)
        if start < 0 or end < 0:
            raise ValueError(f"{value}: no 'INSERT INTO gpu_model ... ON CONFLICT' statement")
        ids = TUPLE_START_RE.findall(text[start:end])
    else:
        ids = [part.strip() for part in value.split(",") if part.strip()]
    if not ids:
        raise ValueError(f"no GPU ids in {value!r}")
    bad = [gpu for gpu in ids if not ID_RE.match(gpu)]
    if bad:
        raise ValueError(f"not GPU ids: {', '.join(bad)}")
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate GPU ids in the catalog")
    unknown = [gpu for gpu in ids if gpu not in BASE]
    if unknown:
        raise ValueError(f"no base median for: {', '.join(unknown)} (add them to BASE_MEDIANS)")
    return ids


def windows(now, weeks):
    """[(window_start, window_end)] oldest first; the last is the current week's sheet."""
    monday = dt.datetime(now.year, now.month, now.day, tzinfo=dt.timezone.utc)
    monday -= dt.timedelta(days=now.weekday())
    out = []
    for k in range(weeks - 1, -1, -1):
        end = monday - k * WEEK
        out.append((end - WEEK, end))
    return out


def week_label(t):
    year, week, _ = t.isocalendar()
    return f"{year}W{week:02d}"


def draw_counts(rng, ids, forced):
    """Observation count per model for one week. forced: {gpu: 'even' | 'odd'}."""
    parity = dict(forced)
    free = [gpu for gpu in ids if gpu not in parity]
    rng.shuffle(free)
    need_even = max(0, MIN_PER_PARITY - sum(1 for p in parity.values() if p == "even"))
    need_odd = max(0, MIN_PER_PARITY - sum(1 for p in parity.values() if p == "odd"))
    for gpu in free:
        if need_even:
            parity[gpu], need_even = "even", need_even - 1
        elif need_odd:
            parity[gpu], need_odd = "odd", need_odd - 1
        else:
            parity[gpu] = "even" if rng.random() < 0.5 else "odd"
    counts = {}
    for gpu in ids:  # catalog order, so the draws do not depend on the shuffle above
        if parity[gpu] == "even":
            counts[gpu] = 2 * rng.randint(MIN_COUNT // 2, MAX_COUNT // 2)
        else:
            counts[gpu] = 2 * rng.randint(MIN_COUNT // 2, (MAX_COUNT - 1) // 2) + 1
    return counts


def with_middle(rng, n, a, b, lo, hi):
    """n prices in [lo, hi] whose sorted middle is a (odd n, a == b) or a, b (even n)."""
    k = (n - 1) // 2 if n % 2 else n // 2 - 1
    middle = [a] if n % 2 else [a, b]
    return ([rng.randint(lo, a) for _ in range(k)] + middle
            + [rng.randint(b, hi) for _ in range(k)])


def week_prices(rng, gpu, n, centre, current):
    spread = centre * SPREAD_PERCENT // 100
    lo, hi = centre - spread, centre + spread
    if current and gpu == EXACT_GPU:
        return with_middle(rng, n, EXACT_MEDIAN, EXACT_MEDIAN, lo, hi)
    if current and gpu == EVEN_ON_MILL_GPU:
        mid = (centre + 5_000) // 10_000 * 10_000  # the centre rounded to a whole cent
        d = rng.randint(1, 5_000)
        return with_middle(rng, n, mid - d, mid + d, lo, hi)
    if current and gpu == HALF_MICRO_GPU:
        q = (2 * centre) // 20_000 + rng.randint(-2, 2)
        m2 = 20_000 * q + HALF_MICRO_M2_RESIDUE
        gap = 2 * rng.randint(0, centre // 400) + 1  # odd
        a = (m2 - gap) // 2
        return with_middle(rng, n, a, a + gap, lo, hi)
    return [rng.randint(lo, hi) for _ in range(n)]


def twice_median(prices):
    """Twice the median of all the prices (rules version 1), exact."""
    s = sorted(prices)
    n = len(s)
    return 2 * s[n // 2] if n % 2 else s[n // 2 - 1] + s[n // 2]


def source_prices(rng2, n, m2, lo, hi, centre):
    """Source prices, ascending, whose median is exactly m2 / 2 (see the module docstring)."""
    cap = max(2, centre * SOURCE_SPREAD_PERCENT // 100)
    if n % 2 and m2 % 2 == 0:  # 3 or 5 sources, the middle one at M
        m = m2 // 2
        side = 1 if rng2.random() < 0.5 else 2  # sources on each side of M
        down = rng2.sample(range(1, max(side, min(cap, m - lo)) + 1), side)
        up = rng2.sample(range(1, max(side, min(cap, hi - m)) + 1), side)
        return sorted(m - x for x in down) + [m] + sorted(m + x for x in up)
    # 4 sources: p2 = h - d and p3 = h + odd + d sum to m2; d >= 1 when m2 is even, so p2 != p3.
    h, odd = m2 // 2, m2 % 2
    dmin = 1 - odd
    room = min(h - lo, hi - h - odd) - 1  # leaves room for p1 and p4 inside the band
    d = rng2.randint(dmin, max(dmin, min(cap // 2, room)))
    p2, p3 = h - d, h + odd + d
    p1 = p2 - rng2.randint(1, max(1, min(cap - d, p2 - lo)))
    p4 = p3 + rng2.randint(1, max(1, min(cap - d - odd, hi - p3)))
    return [p1, p2, p3, p4]


def split_count(rng2, n, parts):
    """n as `parts` counts of at least 1 each."""
    cuts = sorted(rng2.sample(range(1, n), parts - 1))
    return [b - a for a, b in zip([0] + cuts, cuts + [n])]


def with_lower_median(rng2, k, price, lo, hi):
    """k prices in [lo, hi] (widened to price if need be) whose lower median is price."""
    below = (k - 1) // 2
    return ([rng2.randint(min(lo, price), price) for _ in range(below)] + [price]
            + [rng2.randint(price, max(hi, price)) for _ in range(k - 1 - below)])


def source_listings(rng2, n, m2, centre):
    """n (source, price) listings, shuffled, whose market median (rules version 2) is m2 / 2."""
    spread = centre * SPREAD_PERCENT // 100
    lo, hi = centre - spread, centre + spread
    prices = source_prices(rng2, n, m2, lo, hi, centre)
    names = rng2.sample(SOURCES, len(prices))
    listings = []
    for name, price, k in zip(names, prices, split_count(rng2, n, len(prices))):
        listings += [(name, p) for p in with_lower_median(rng2, k, price, lo, hi)]
    if min(p for _, p in listings) <= 0:
        raise ValueError(f"a price at or below zero (week centre {centre} micro-dollars)")
    rng2.shuffle(listings)
    return listings


def generate(seed, weeks, now, ids):
    rng = random.Random(seed)  # stage 1: the draws of rules version 1, in their order
    rng2 = random.Random(seed + 1)  # stage 2: sources and the prices written out
    wins = windows(now, weeks)

    # Week-to-week drift, in basis points of the base median: the current week is the base
    # itself, each earlier week moves by at most DRIFT_BP from the week after it.
    factor = {}
    for gpu in ids:
        f = [10_000] * weeks  # index 0 = oldest window
        for i in range(weeks - 2, -1, -1):
            f[i] = f[i + 1] + rng.randint(-DRIFT_BP, DRIFT_BP)
        factor[gpu] = f

    rows = []
    for w, (start, _end) in enumerate(wins):
        current = w == weeks - 1
        forced = {}
        if current:
            forced = {EXACT_GPU: "odd", EVEN_ON_MILL_GPU: "even", HALF_MICRO_GPU: "even"}
            forced = {gpu: p for gpu, p in forced.items() if gpu in ids}
        counts = draw_counts(rng, ids, forced)
        label = week_label(start)
        for gpu in ids:
            centre = BASE[gpu] * factor[gpu][w] // 10_000
            prices = week_prices(rng, gpu, counts[gpu], centre, current)
            offsets = [rng.randint(1, WINDOW_SECONDS - 1) for _ in prices]
            # Stage 2: the same count, timestamps and median, spread over sources.
            listings = source_listings(rng2, len(prices), twice_median(prices), centre)
            for i, (offset, (source, price)) in enumerate(zip(sorted(offsets), listings), 1):
                observed = start + dt.timedelta(seconds=offset)
                rows.append((rfc3339(observed), gpu, money(price), source,
                             f"SYN-{label}-{gpu}-{i:04d}"))
    rows.sort(key=lambda r: (r[0], r[1], r[4]))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Write SYNTHETIC sample market observations (CSV, DESIGN.md section 7) to "
                    "standard output. Sample data only, never for production.")
    parser.add_argument("--seed", type=int, default=2026, help="random seed (default: 2026)")
    parser.add_argument("--weeks", type=parse_weeks, default=10,
                        help="number of weekly sheets to cover, the current one included "
                             "(default: 10)")
    parser.add_argument("--now", type=parse_now, default=None,
                        help="RFC 3339 instant that fixes the current week, e.g. "
                             "2026-11-30T12:00:00Z (default: the current UTC time)")
    parser.add_argument("--catalog", default=None,
                        help="catalog migration to take the GPU ids from (e.g. "
                             "sql/migrations/002_catalog.sql) or a comma-separated list of ids "
                             "(default: the 27 models of gpu-facts.csv)")
    args = parser.parse_args(argv)

    now = args.now or dt.datetime.now(dt.timezone.utc)
    try:
        ids = load_catalog(args.catalog)
    except (OSError, ValueError) as e:
        parser.error(str(e))

    out = [HEADER] + [",".join(row) for row in generate(args.seed, args.weeks, now, ids)]
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
