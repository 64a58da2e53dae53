#!/usr/bin/env python3
"""Generate sql/migrations/002_catalog.sql, the GPU catalog reference data.

The datasheet facts come from gpu-facts.csv (one row per GPU model, maintained next to its notes in
gpu-facts-notes.md). Two things that the CSV does not hold are kept in this script:

  * INSTANCE_LIMITS: how many GPUs of a model fit in one instance, and the vCPU, memory and CPU
    generation limits of that instance;
  * MIG_PROFILES: the MIG profiles of each MIG-capable model, transcribed from section 4 of
    gpu-facts-notes.md.

The output is deterministic: models in CSV order, MIG profiles in the order of the notes, no
timestamps. Figures are copied exactly as written in the CSV (text columns keep a trailing '?').
Re-applying the migration updates existing rows (INSERT ... ON CONFLICT DO UPDATE).

Usage (from the repository root):

    python3 sql/tools/make_catalog_sql.py [CSV] [-o OUTPUT]

CSV defaults to ../shared/data/gpu-facts.csv and OUTPUT to sql/migrations/002_catalog.sql, both
relative to the repository root; OUTPUT '-' writes to standard output. Standard library only.
"""

import argparse
import csv
import hashlib
import io
import os
import re
import sys

REPO_ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DEFAULT_CSV = os.path.join(REPO_ROOT, "..", "shared", "data", "gpu-facts.csv")
DEFAULT_OUTPUT = os.path.join(REPO_ROOT, "sql", "migrations", "002_catalog.sql")
SCRIPT_PATH = "sql/tools/make_catalog_sql.py"
INPUT_LABEL = "gpu-facts.csv"

EXPECTED_HEADER = [
    "id", "name", "vendor", "architecture", "form_factor", "vram_gb", "memory_type",
    "memory_bandwidth_gbs", "fp16_dense_tflops_fp32acc", "fp16_dense_tflops_fp16acc",
    "fp8_dense_tflops", "tdp_w", "nvlink_gbs", "mig_max_instances", "sm_count", "source", "notes",
]

# The same patterns as the CHECK constraints of sql/migrations/001_schema.sql, so a bad value fails
# here, with the row named, rather than half-way through a migration.
ID_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
FIGURE_RE = re.compile(r"^[0-9]+(\.[0-9]+)?\??$")
TDP_RE = re.compile(r"^[0-9]+\??$")
MIG_NAME_RE = re.compile(r"^([1-7])g\.([0-9]+)gb(\+[a-z]+)?$")
CPU_GENERATIONS = ("v5", "v6", "v7")

# Instance limits per model: (max GPUs per instance, max vCPUs, max memory GiB, CPU generations).
#
# Quoted from the public cloud documentation:
#   L40                          35 vCPUs, 250 GiB, v7
#   H100 PCIe / H100 SXM / NVL   32 vCPUs, 256 GiB, v7
#   A100 80GB PCIe / SXM         35 vCPUs, 256 GiB, v6
# (their max GPUs per instance, 8, is ours: every data-center model allows 8).
#
# SAMPLE VALUES: every other entry below is a plausible placeholder chosen by this team, not a
# documented limit. Consumer cards: at most 4 GPUs and a smaller host; SXM/OAM modules: 8 GPUs;
# data-center PCIe cards: 8 (workstation-class cards and the A10: 4). Replace them when the real
# limits are known, then re-run this script.
INSTANCE_LIMITS = {
    # consumer (GeForce) -- sample values
    "rtx-2060": (4, 16, 64, ["v5"]),
    "rtx-3060-12gb": (4, 16, 64, ["v5", "v6"]),
    "rtx-3090": (4, 24, 128, ["v5", "v6"]),
    "rtx-4090": (4, 32, 192, ["v6", "v7"]),
    "rtx-5090": (4, 32, 192, ["v7"]),
    # workstation / professional PCIe -- sample values
    "rtx-a4000": (4, 16, 96, ["v5", "v6"]),
    "rtx-a6000": (4, 24, 192, ["v5", "v6"]),
    "rtx-6000-ada": (8, 28, 224, ["v6", "v7"]),
    "rtx-pro-6000-blackwell": (8, 32, 256, ["v7"]),
    # data-center PCIe -- sample values except L40 (documented)
    "l4": (8, 16, 96, ["v6", "v7"]),
    "l40": (8, 35, 250, ["v7"]),  # documented
    "l40s": (8, 35, 250, ["v7"]),
    "a10": (4, 24, 128, ["v5", "v6"]),
    # Ampere SXM / PCIe -- A100 80GB documented, A100 40GB sample values
    "a100-40gb-sxm": (8, 30, 200, ["v5", "v6"]),
    "a100-80gb-pcie": (8, 35, 256, ["v6"]),  # documented
    "a100-80gb-sxm": (8, 35, 256, ["v6"]),  # documented
    # Hopper -- H100 documented, H200 sample values
    "h100-pcie": (8, 32, 256, ["v7"]),  # documented
    "h100-sxm": (8, 32, 256, ["v7"]),  # documented
    "h100-nvl": (8, 32, 256, ["v7"]),  # documented
    "h200-sxm": (8, 48, 384, ["v7"]),
    "h200-nvl": (8, 48, 384, ["v7"]),
    # Blackwell SXM -- sample values
    "b200": (8, 56, 512, ["v7"]),
    "b300": (8, 60, 640, ["v7"]),
    "gb200": (8, 60, 640, ["v7"]),
    # AMD OAM -- sample values
    "mi300x": (8, 48, 448, ["v6", "v7"]),
    "mi325x": (8, 48, 512, ["v7"]),
    "mi355x": (8, 56, 640, ["v7"]),
}

# MIG profiles, from gpu-facts-notes.md section 4: (name, max instances). Memory (GB) and compute
# slices are read from the name: "3g.40gb" -> 3 slices, 40 GB. Each count is the maximum for that
# profile alone; counts of different profiles do not add up.
_H100_80GB = [
    ("1g.10gb", 7), ("1g.10gb+me", 1), ("1g.20gb", 4), ("2g.20gb", 3),
    ("3g.40gb", 2), ("4g.40gb", 1), ("7g.80gb", 1),
]
_H100_94GB = [
    ("1g.12gb", 7), ("1g.12gb+me", 1), ("1g.24gb", 4), ("2g.24gb", 3),
    ("3g.47gb", 2), ("4g.47gb", 1), ("7g.94gb", 1),
]
_H200_141GB = [
    ("1g.18gb", 7), ("1g.18gb+me", 1), ("1g.35gb", 4), ("2g.35gb", 3),
    ("3g.71gb", 2), ("4g.71gb", 1), ("7g.141gb", 1),
]
MIG_PROFILES = {
    # The notes list the +gfx and +me variants of the RTX PRO 6000 without names; not included.
    "rtx-pro-6000-blackwell": [("1g.24gb", 4), ("2g.48gb", 2), ("4g.96gb", 1)],
    "a100-40gb-sxm": [
        ("1g.5gb", 7), ("1g.5gb+me", 1), ("1g.10gb", 4), ("2g.10gb", 3),
        ("3g.20gb", 2), ("4g.20gb", 1), ("7g.40gb", 1),
    ],
    # A100 80GB uses the same profile names as H100 80GB.
    "a100-80gb-pcie": _H100_80GB,
    "a100-80gb-sxm": _H100_80GB,
    "h100-pcie": _H100_80GB,
    "h100-sxm": _H100_80GB,
    "h100-nvl": _H100_94GB,
    # H200 SXM and H200 NVL share the H200 141GB profiles.
    "h200-sxm": _H200_141GB,
    "h200-nvl": _H200_141GB,
    "b200": [
        ("1g.23gb", 7), ("1g.23gb+me", 1), ("1g.45gb", 4), ("2g.45gb", 3),
        ("3g.90gb", 2), ("4g.90gb", 1), ("7g.180gb", 1),
    ],
    "b300": [
        ("1g.34gb", 7), ("1g.67gb", 4), ("2g.67gb", 3),
        ("3g.135gb", 2), ("4g.135gb", 1), ("7g.269gb", 1),
    ],
    # GB200: current mig-parted names. The notes give 1g.24gb x7 and the other names only through
    # the balanced layout (2 x 1g.24gb + 2g.47gb + 3g.95gb) and 7g.189gb, without their maximum
    # counts; 3 / 2 / 1 are assumed from the H100 pattern. Names depend on the driver (an older
    # mig-parted copy uses 1g.23gb and 3g.93gb; AWS lists 7g.186gb).
    # 002_catalog.sql keeps 7g.189gb as it was first applied; migration 010_catalog_fixes.sql renames
    # it 7g.186gb (AWS's name), since no profile may have more memory than the GPU's 186 GB. 010 also
    # renames the nvlink_gbs column interconnect_gbs and adds interconnect_kind.
    "gb200": [("1g.24gb", 7), ("2g.47gb", 3), ("3g.95gb", 2), ("7g.189gb", 1)],
}


class FactsError(Exception):
    pass


def sql_text(value):
    """A SQL string literal (standard_conforming_strings: only the single quote needs doubling)."""
    if "\x00" in value:
        raise FactsError("NUL character in a text value")
    return "'" + value.replace("'", "''") + "'"


def sql_text_or_null(value):
    return "NULL" if value == "" else sql_text(value)


def sql_text_array(values):
    return "ARRAY[" + ", ".join(sql_text(v) for v in values) + "]"


def parse_int(row, column, minimum=None):
    value = row[column]
    if not re.fullmatch(r"[0-9]+", value):
        raise FactsError(f"{row['id']}: {column} must be an integer, got {value!r}")
    number = int(value)
    if minimum is not None and number < minimum:
        raise FactsError(f"{row['id']}: {column} must be at least {minimum}, got {number}")
    return number


def check_pattern(row, column, pattern, optional=False):
    value = row[column]
    if optional and value == "":
        return value
    if not pattern.match(value):
        raise FactsError(f"{row['id']}: {column} {value!r} does not match {pattern.pattern}")
    return value


def read_facts(text):
    reader = csv.DictReader(io.StringIO(text, newline=""))
    if reader.fieldnames != EXPECTED_HEADER:
        raise FactsError(f"unexpected header {reader.fieldnames!r}; expected {EXPECTED_HEADER!r}")
    rows = []
    seen = set()
    for line_row in reader:
        if None in line_row or any(v is None for v in line_row.values()):
            raise FactsError(f"row {reader.line_num}: wrong number of fields")
        row = dict(line_row)
        gpu = row["id"]
        if not ID_RE.match(gpu):
            raise FactsError(f"row {reader.line_num}: bad id {gpu!r}")
        if gpu in seen:
            raise FactsError(f"duplicate id {gpu}")
        seen.add(gpu)
        for column in ("name", "vendor", "architecture", "form_factor", "memory_type", "source"):
            if row[column] == "":
                raise FactsError(f"{gpu}: {column} is empty")
        parse_int(row, "vram_gb", 1)
        parse_int(row, "memory_bandwidth_gbs", 1)
        parse_int(row, "sm_count", 1)
        mig = parse_int(row, "mig_max_instances", 0)
        if mig > 7:
            raise FactsError(f"{gpu}: mig_max_instances {mig} is above 7")
        check_pattern(row, "fp16_dense_tflops_fp32acc", FIGURE_RE)
        check_pattern(row, "fp16_dense_tflops_fp16acc", FIGURE_RE)
        check_pattern(row, "fp8_dense_tflops", FIGURE_RE, optional=True)
        check_pattern(row, "tdp_w", TDP_RE)
        check_pattern(row, "nvlink_gbs", FIGURE_RE, optional=True)
        rows.append(row)
    if not rows:
        raise FactsError("no rows")
    return rows


def mig_rows(rows):
    """[(gpu, name, memory_gb, compute_slices, max_instances)] in catalog order, checked."""
    ids = [row["id"] for row in rows]
    unknown = sorted(set(MIG_PROFILES) - set(ids))
    if unknown:
        raise FactsError(f"MIG profiles for models not in the CSV: {', '.join(unknown)}")
    out = []
    for row in rows:
        gpu = row["id"]
        mig_max = int(row["mig_max_instances"])
        profiles = MIG_PROFILES.get(gpu, [])
        if mig_max == 0 and profiles:
            raise FactsError(f"{gpu}: mig_max_instances is 0 but MIG profiles are listed")
        if mig_max > 0 and not profiles:
            raise FactsError(f"{gpu}: mig_max_instances is {mig_max} but no MIG profiles are listed")
        names = set()
        for name, max_instances in profiles:
            match = MIG_NAME_RE.match(name)
            if not match:
                raise FactsError(f"{gpu}: MIG profile name {name!r} does not match {MIG_NAME_RE.pattern}")
            if name in names:
                raise FactsError(f"{gpu}: duplicate MIG profile {name}")
            names.add(name)
            if not 1 <= max_instances <= mig_max:
                raise FactsError(f"{gpu}: {name} max instances {max_instances} not in 1..{mig_max}")
            out.append((gpu, name, int(match.group(2)), int(match.group(1)), max_instances))
    return out


def limits_for(rows):
    ids = [row["id"] for row in rows]
    missing = [gpu for gpu in ids if gpu not in INSTANCE_LIMITS]
    extra = sorted(set(INSTANCE_LIMITS) - set(ids))
    if missing:
        raise FactsError(f"no instance limits for: {', '.join(missing)}")
    if extra:
        raise FactsError(f"instance limits for models not in the CSV: {', '.join(extra)}")
    for gpu in ids:
        max_gpus, vcpus, memory, generations = INSTANCE_LIMITS[gpu]
        if not 1 <= max_gpus <= 8 or vcpus <= 0 or memory <= 0 or not generations:
            raise FactsError(f"{gpu}: bad instance limits {INSTANCE_LIMITS[gpu]!r}")
        if any(g not in CPU_GENERATIONS for g in generations):
            raise FactsError(f"{gpu}: CPU generations must be among {CPU_GENERATIONS}")
    return INSTANCE_LIMITS


GPU_COLUMNS = [
    "id", "name", "vendor", "architecture", "form_factor", "vram_gb", "memory_type",
    "memory_bandwidth_gbs", "fp16_dense_tflops", "fp16_dense_tflops_fp16acc", "fp8_dense_tflops",
    "tdp_w", "nvlink_gbs", "mig_max_instances", "sm_count", "source", "notes",
    "max_gpus_per_instance", "max_vcpus", "max_memory_gib", "cpu_generations",
]


def gpu_tuple(row, limits):
    max_gpus, vcpus, memory, generations = limits[row["id"]]
    lines = [
        ", ".join([
            sql_text(row["id"]), sql_text(row["name"]), sql_text(row["vendor"]),
            sql_text(row["architecture"]), sql_text(row["form_factor"]), row["vram_gb"],
            sql_text(row["memory_type"]), row["memory_bandwidth_gbs"],
        ]),
        ", ".join([
            sql_text(row["fp16_dense_tflops_fp32acc"]), sql_text(row["fp16_dense_tflops_fp16acc"]),
            sql_text_or_null(row["fp8_dense_tflops"]), sql_text(row["tdp_w"]),
            sql_text_or_null(row["nvlink_gbs"]), row["mig_max_instances"], row["sm_count"],
        ]),
        sql_text(row["source"]),
        sql_text(row["notes"]),
        f"{max_gpus}, {vcpus}, {memory}, {sql_text_array(generations)}",
    ]
    return "  (" + ",\n   ".join(lines) + ")"


def render(rows, csv_sha256):
    limits = limits_for(rows)
    migs = mig_rows(rows)
    out = []
    w = out.append
    w("-- GENERATED FILE - DO NOT EDIT BY HAND.")
    w(f"-- Generated by {SCRIPT_PATH} from the datasheet facts in {INPUT_LABEL}")
    w(f"-- (sha256 {csv_sha256})")
    w("-- and from the instance limits and MIG profiles kept in that script.")
    w("-- To change the catalog, edit the CSV or the script and re-run:")
    w(f"--   python3 {SCRIPT_PATH}")
    w("--")
    w("-- Reference data: the GPU catalog, installed and updated by `lowcostgpu migrate` in every")
    w("-- database. Re-applying it updates rows in place. Figures are copied as written in the CSV;")
    w("-- a trailing '?' marks a figure no primary source confirmed. Instance limits other than those")
    w("-- of the L40, H100 (PCIe, SXM, NVL) and A100 80GB (PCIe, SXM) are sample values.")
    w("")
    w(f"-- {len(rows)} GPU models, in the order of {INPUT_LABEL}.")
    w("INSERT INTO gpu_model (")
    # Laid out like the value tuples below: identity, figures, provenance, instance limits.
    groups = [GPU_COLUMNS[0:8], GPU_COLUMNS[8:15], GPU_COLUMNS[15:17], GPU_COLUMNS[17:]]
    w(",\n".join("  " + ", ".join(group) for group in groups))
    w(") VALUES")
    w(",\n".join(gpu_tuple(row, limits) for row in rows))
    w("ON CONFLICT (id) DO UPDATE SET")
    updates = [f"  {c} = EXCLUDED.{c}" for c in GPU_COLUMNS if c != "id"]
    w(",\n".join(updates) + ";")
    w("")
    w(f"-- {len(migs)} MIG profiles, from gpu-facts-notes.md section 4. memory_gb and compute_slices")
    w("-- are read from the profile name; max_instances is the maximum for that profile alone.")
    w("INSERT INTO mig_profile (gpu, name, memory_gb, compute_slices, max_instances) VALUES")
    w(",\n".join(
        f"  ({sql_text(g)}, {sql_text(n)}, {mem}, {slices}, {count})"
        for g, n, mem, slices, count in migs
    ))
    w("ON CONFLICT (gpu, name) DO UPDATE SET")
    w("  memory_gb = EXCLUDED.memory_gb,")
    w("  compute_slices = EXCLUDED.compute_slices,")
    w("  max_instances = EXCLUDED.max_instances;")
    w("")
    w("-- Profiles no longer in the list above (renamed by a driver, or removed) are dropped, so the")
    w("-- table matches this file after every application.")
    w("DELETE FROM mig_profile")
    w("WHERE (gpu, name) NOT IN (VALUES")
    w(",\n".join(f"  ({sql_text(g)}, {sql_text(n)})" for g, n, _m, _s, _c in migs))
    w(");")
    return "\n".join(out) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Generate the GPU catalog migration (002_catalog.sql) from gpu-facts.csv.")
    parser.add_argument("csv", nargs="?", default=DEFAULT_CSV,
                        help="datasheet facts CSV (default: ../shared/data/gpu-facts.csv "
                             "relative to the repository root)")
    parser.add_argument("-o", "--output", default=DEFAULT_OUTPUT,
                        help="output file, '-' for standard output "
                             "(default: sql/migrations/002_catalog.sql)")
    args = parser.parse_args(argv)

    try:
        with open(args.csv, "rb") as f:
            raw = f.read()
        text = raw.decode("utf-8-sig")
        sql = render(read_facts(text), hashlib.sha256(raw).hexdigest())
    except (OSError, UnicodeDecodeError, FactsError) as e:
        print(f"make_catalog_sql: {e}", file=sys.stderr)
        return 1

    if args.output == "-":
        sys.stdout.write(sql)
    else:
        tmp = args.output + ".tmp"
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(sql)
        os.replace(tmp, args.output)
        print(f"make_catalog_sql: wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
