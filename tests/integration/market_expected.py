#!/usr/bin/env python3
"""Expected results for the SkyPilot market import (integration test).

This is the test's INDEPENDENT implementation of the mapping policy
("How a SkyPilot vms.csv row becomes (or does not become) an observation")
and of rules version 2 (per-source lower median, market median, mills).
It was written from the policy text only, not from the C++ importer, so that
the two can be compared.

    market_expected.py --market DIR [--rows]

DIR is the `.../catalogs/v8` folder; every sub-folder except `common/` is a
source holding a `vms.csv`. One JSON object is printed on stdout.
Standard library only; all arithmetic is exact (int / Fraction, no floats).
"""
import argparse
import ast
import csv
import json
import os
import re
import sys
from fractions import Fraction

# --- mapping rules: (AcceleratorName, hint or None, (lo, hi) GiB or None) -> outcome
# outcome is a catalog id, NIC (not in catalog) or AMB (ambiguous).
# "otherwise ambiguous" in the policy is no rule at all: no candidate -> ambiguous.
NIC, AMB = 'not_in_catalog', 'ambiguous'


def same(names, outcome):
    return [(n, None, None, outcome) for n in names.split()]


RULES = [
    ('H100', 'sxm', None, 'h100-sxm'),
    ('H100', 'hbm3', (78, 82), 'h100-sxm'),
    ('H100', '.80S.', None, 'h100-sxm'),
    ('H100', 'pcie', None, 'h100-pcie'),
    ('H100', 'n3-H100x', None, 'h100-pcie'),
    ('H100', 'nvl', (90, 96), 'h100-nvl'),
    *same('H100-SXM H100_SXM5 H100-80G-SXM5', 'h100-sxm'),
    *same('H100-80G-PCIe H100-80G-PCIe-NVLink H100_PCIE H100_PCIE_BAREMETAL', 'h100-pcie'),
    ('H100_NVL', None, (90, 96), 'h100-nvl'),
    ('H100_NVL', 'n3-H100x', None, 'h100-pcie'),
    ('H200', 'sxm', None, 'h200-sxm'),
    ('H200', '141S', None, 'h200-sxm'),
    ('H200', 'nvl', None, 'h200-nvl'),
    ('H200', 'nvlink', None, AMB),
    ('A100', 'sxm', (38, 42), 'a100-40gb-sxm'),
    ('A100', 'sxm', (78, 82), 'a100-80gb-sxm'),
    ('A100', 'dgx', (78, 82), 'a100-80gb-sxm'),
    ('A100', 'pci', (78, 82), 'a100-80gb-pcie'),
    ('A100-80GB', 'sxm', None, 'a100-80gb-sxm'),
    ('A100-80GB', 'pcie', None, 'a100-80gb-pcie'),
    ('A100-80GB', 'n3-A100x', None, 'a100-80gb-pcie'),
    ('A100_80G_SXM4', None, None, 'a100-80gb-sxm'),
    ('A100-80GB-SXM', None, None, 'a100-80gb-sxm'),
    *same('B200', 'b200'), *same('B300', 'b300'), *same('MI355X', 'mi355x'),
    *same('L4 L4_PCIE', 'l4'),
    *same('L40S L40S_PCIE L40S_PCIE_BAREMETAL', 'l40s'),
    *same('L40 L40_PCIE', 'l40'),
    *[(n, 'l40s', None, AMB) for n in ('L40', 'L40_PCIE')],
    *same('RTXPRO6000 RTXPro6000 RTX-PRO-6000 RTXPRO6000_PCIE RTXPRO6000_PCIE_BAREMETAL'
          ' RTXPRO6000-WK RTXPRO6000S', 'rtx-pro-6000-blackwell'),
    ('RTX PRO 6000 96GB', None, None, 'rtx-pro-6000-blackwell'),
    *same('RTX6000-Ada RTX6000Ada RTX-6000-Ada RTX6000ADA_PCIE', 'rtx-6000-ada'),
    *same('A6000 RTXA6000 RTX-A6000 A6000_PCIE_HIGH_PERF A6000_PCIE_LOW_RAM', 'rtx-a6000'),
    *same('A4000 RTX-A4000 A4000_PCIE', 'rtx-a4000'),
    *same('RTX3090', 'rtx-3090'),
    ('RTX4090', None, (22, 26), 'rtx-4090'),
    ('RTX4090', None, (44, 50), NIC),
    *same('RTX5090 RTX5090_PCIE RTX5090_PCIE_BAREMETAL', 'rtx-5090'),
    ('RTX3060', None, (11, 13), 'rtx-3060-12gb'),
    ('RTX3060', '3060_Ti', None, NIC),
    *[('RTX' + n[:4], n, None, NIC) for n in ('3090_Ti', '4090D', '4090_D', '5090D', '5090_D')],
    *same('A10', 'a10'),
    *same('A10G A16 A16_PCIE A30 A40 A800 A5000 A5000_PCIE RTXA5000 RTXA2000 RTX3070'
          ' RTX3080 RTX4060 RTX4070 RTX6000 V100 V100-32GB V100_32G_PCIE GH200 GAUDI2', NIC),
]
# The A100 80 GB PCIe names: PCIe unless the row also says sxm/dgx, which
# conflicts -> ambiguous. The PCIe rule is hinted by the name's own "pcie"
# (always in the text) so that an sxm/dgx hint yields two outcomes.
for _n in ('A100-80G-PCIe', 'A100-80G-PCIe-NVLink', 'A100_80G_PCIE'):
    RULES += [(_n, 'pcie', None, 'a100-80gb-pcie'),
              (_n, 'sxm', None, 'a100-80gb-sxm'), (_n, 'dgx', None, 'a100-80gb-sxm')]

TOTAL_MEM = {'vast', 'primeintellect'}   # SizeInMiB is the total over all GPUs
GB_MEM = {'shadeform'}                   # SizeInMiB is per-GPU GB
DECIMAL = re.compile(r'[+-]?(\d+\.?\d*|\.\d+)')


def decimal(text):
    """Exact Fraction of a decimal text, or None."""
    return Fraction(text) if DECIMAL.fullmatch(text) else None


def map_row(name, text, mem_gib):
    """Outcome of the mapping for one row (catalog id, NIC or AMB)."""
    rules = [r for r in RULES if r[0].lower() == name.lower()]
    if not rules:
        return NIC
    cands = [r for r in rules if r[2] is None
             or (mem_gib is not None and r[2][0] <= mem_gib <= r[2][1])]
    hinted = [r for r in cands if r[1] is not None and r[1].lower() in text]
    chosen = hinted or [r for r in cands if r[1] is None]
    outcomes = {r[3] for r in chosen}
    return outcomes.pop() if len(outcomes) == 1 else AMB


def parse_gpuinfo(text):
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        return ast.literal_eval(re.sub(r'\bnull\b', 'None', re.sub(
            r'\btrue\b', 'True', re.sub(r'\bfalse\b', 'False', text))))
    except (ValueError, SyntaxError):
        return None


def gpu_name_and_mem(source, gpuinfo, count):
    """(GpuInfo Gpus[0] Name, per-GPU memory in GiB as Fraction or None)."""
    try:
        gpu = parse_gpuinfo(gpuinfo)['Gpus'][0]
    except (TypeError, KeyError, IndexError):
        return '', None
    size = decimal(str(gpu.get('MemoryInfo', {}).get('SizeInMiB', '')))
    if not size:                        # missing or 0 -> unknown memory
        return str(gpu.get('Name', '')), None
    mib = size / count if source in TOTAL_MEM else size * 1024 if source in GB_MEM else size
    return str(gpu.get('Name', '')), mib / 1024


def read_source(source, path):
    """Yield one dict per data row: listing_id, outcome, gpu, price_micros.

    gpu is set on imported rows only; price_micros on every row that passed the
    price check (imported, not_in_catalog, ambiguous)."""
    seen = set()
    with open(path, newline='', encoding='utf-8') as f:
        reader = csv.DictReader(f)
        has_az = 'AvailabilityZone' in reader.fieldnames
        for r in reader:
            lid = r['InstanceType'] + '|' + r['Region'] + ('|' + r['AvailabilityZone'] if has_az else '')
            row = {'source': source, 'listing_id': lid, 'outcome': None, 'gpu': None, 'price_micros': None}
            name, count = r['AcceleratorName'], decimal(r['AcceleratorCount'])
            price = decimal(r['Price'])
            if price is not None and price == decimal(r.get('SpotPrice') or ''):
                price = None   # an auction floor written as both prices (mithril): not on demand
            if not name or count is None or count <= 0 or count.denominator != 1:
                row['outcome'] = 'not_gpu'
            elif lid in seen:
                row['outcome'] = 'duplicate'
            elif price is None or price <= 0:
                row['outcome'] = 'no_price'
            else:
                x = price * 1_000_000 / count
                row['price_micros'] = int(x + Fraction(1, 2))   # half-up (x > 0)
                gname, mem = gpu_name_and_mem(source, r.get('GpuInfo', ''), count)
                text = ' '.join([name, r['InstanceType'], r.get('UpstreamCloudId', ''), gname]).lower()
                out = map_row(name, text, mem)
                row['outcome'] = out if out in (NIC, AMB) else 'imported'
                row['gpu'] = None if out in (NIC, AMB) else out
            if row['outcome'] != 'not_gpu':
                seen.add(lid)
            yield row


def mills(m):
    return '%d.%03d' % divmod(m, 1000)


def model_summary(by_src):
    """Rules version 2 for one model; by_src: {source: [per-GPU micros]}.
    twice_median_micros and the prices are null unless the model is priced."""
    per_source = []
    for s in sorted(by_src):
        p = sorted(by_src[s])
        per_source.append({'source': s, 'price_micros': p[(len(p) - 1) // 2], 'listings': len(p)})
    listings = sum(x['listings'] for x in per_source)
    out = {'listings': listings, 'sources': len(per_source), 'twice_median_micros': None,
           'on_demand': None, 'spot': None, 'reserved': None, 'by_source': per_source}
    if len(per_source) >= 3 and listings >= 5:
        v, n = sorted(x['price_micros'] for x in per_source), len(per_source)
        m2 = 2 * v[n // 2] if n % 2 else v[n // 2 - 1] + v[n // 2]
        od = 7 * m2 // 20000
        out.update(twice_median_micros=m2, on_demand=mills(od),
                   spot=mills(od * 50 // 100), reserved=mills(od * 65 // 100))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--market', required=True, help='the catalogs/v8 folder')
    ap.add_argument('--rows', action='store_true', help='also list every data row')
    args = ap.parse_args()
    outcomes = ['imported', 'duplicate', 'not_gpu', 'no_price', 'not_in_catalog', 'ambiguous']
    files, prices, all_rows = {}, {}, []
    for source in sorted(os.listdir(args.market)):
        path = os.path.join(args.market, source, 'vms.csv')
        if source == 'common' or not os.path.isfile(path):
            continue
        counts = dict.fromkeys(['rows'] + outcomes, 0)
        for row in read_source(source, path):
            counts['rows'] += 1
            counts[row['outcome']] += 1
            if row['gpu']:
                prices.setdefault(row['gpu'], {}).setdefault(source, []).append(row['price_micros'])
            all_rows.append(row)
        files[source] = counts
    result = {'files': files, 'models': {m: model_summary(prices[m]) for m in sorted(prices)}}
    if args.rows:
        result['rows'] = all_rows
    json.dump(result, sys.stdout, indent=1)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
