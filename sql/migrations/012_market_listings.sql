-- Real market offers (issue 24, DESIGN §7): the sources the methodology counts, the mapping from the
-- market's names to catalog ids (data the operator extends, never code), every imported raw file
-- kept byte for byte, one observation per (source, listing id, observed_at), and what rules version
-- 2 publishes of each row's market.

-- The sources the methodology names. `memory_convention` says what GpuInfo's SizeInMiB holds in
-- that source's SkyPilot file (the market README lists them): per-gpu-mib, total-mib (over all the
-- instance's GPUs) or per-gpu-gb (a per-GPU figure in GB).
CREATE TABLE market_source (
  name              text PRIMARY KEY CHECK (name ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(name) <= 64),
  kind              text NOT NULL CHECK (kind IN ('marketplace', 'cloud', 'synthetic')),
  homepage          text NOT NULL CHECK (homepage ~ '^https://[^/?#]+' OR (kind = 'synthetic' AND homepage = '')),
  format            text NOT NULL CHECK (format IN ('skypilot-vms', 'vast-bundles', 'runpod-gpu-types', 'observations-csv')),
  memory_convention text NOT NULL DEFAULT 'per-gpu-mib'
                    CHECK (memory_convention IN ('per-gpu-mib', 'total-mib', 'per-gpu-gb'))
);

INSERT INTO market_source (name, kind, homepage, format, memory_convention) VALUES
  ('cudo',           'cloud',       'https://www.cudocompute.com', 'skypilot-vms', 'per-gpu-mib'),
  ('daytona',        'cloud',       'https://www.daytona.io',      'skypilot-vms', 'per-gpu-mib'),
  ('hyperbolic',     'marketplace', 'https://hyperbolic.xyz',      'skypilot-vms', 'per-gpu-mib'),
  ('hyperstack',     'cloud',       'https://www.hyperstack.cloud','skypilot-vms', 'per-gpu-mib'),
  ('jarvislabs',     'cloud',       'https://jarvislabs.ai',       'skypilot-vms', 'per-gpu-mib'),
  ('lambda',         'cloud',       'https://lambda.ai',           'skypilot-vms', 'per-gpu-mib'),
  ('lium',           'marketplace', 'https://lium.io',             'skypilot-vms', 'per-gpu-mib'),
  ('mithril',        'cloud',       'https://mithril.ai',          'skypilot-vms', 'per-gpu-mib'),
  ('nebius',         'cloud',       'https://nebius.com',          'skypilot-vms', 'per-gpu-mib'),
  ('primeintellect', 'marketplace', 'https://www.primeintellect.ai','skypilot-vms', 'total-mib'),
  ('runpod',         'cloud',       'https://www.runpod.io',       'runpod-gpu-types', 'per-gpu-mib'),
  ('seeweb',         'cloud',       'https://www.seeweb.it',       'skypilot-vms', 'per-gpu-mib'),
  ('shadeform',      'marketplace', 'https://www.shadeform.ai',    'skypilot-vms', 'per-gpu-gb'),
  ('spheron',        'marketplace', 'https://www.spheron.network', 'skypilot-vms', 'per-gpu-mib'),
  ('vast',           'marketplace', 'https://vast.ai',             'skypilot-vms', 'total-mib'),
  ('verda',          'cloud',       'https://verda.com',           'skypilot-vms', 'per-gpu-mib'),
  ('yotta',          'cloud',       'https://www.yottalabs.ai',    'skypilot-vms', 'per-gpu-mib');

-- The mapping, one rule a line (pricing/listing_mapping.hpp says how a listing is matched: a rule
-- with a hint the listing contains beats one without, and one with a memory range beats one without):
-- `accelerator` is the market's name with everything but letters and digits removed, in lower case
-- ("RTX-6000-Ada", "RTX6000Ada" and "RTX 6000 Ada" are all rtx6000ada); `hint` a piece of text the
-- listing's name, instance type, upstream id or GPU name must contain (any case) for the rule to
-- count; the memory range, in GiB per GPU, one the listing's memory must lie in. The outcome is a
-- catalog id, not_in_catalog (a real model the catalog does not carry) or ambiguous (the listing
-- cannot be told apart), with the reason shown to the operator.
CREATE TABLE market_alias (
  accelerator    text NOT NULL CHECK (accelerator ~ '^[a-z0-9]+$'),
  hint           text NOT NULL DEFAULT '' CHECK (hint = lower(hint) AND length(hint) <= 64),
  min_memory_gib integer CHECK (min_memory_gib > 0),
  max_memory_gib integer,
  outcome        text NOT NULL CHECK (outcome IN ('gpu', 'not_in_catalog', 'ambiguous')),
  gpu            text REFERENCES gpu_model (id),
  note           text NOT NULL DEFAULT '' CHECK (note !~ '[\n\r]'),
  CHECK ((min_memory_gib IS NULL) = (max_memory_gib IS NULL) AND max_memory_gib >= min_memory_gib),
  CHECK ((outcome = 'gpu') = (gpu IS NOT NULL)),
  CHECK (outcome = 'gpu' OR note <> ''),
  UNIQUE NULLS NOT DISTINCT (accelerator, hint, min_memory_gib, max_memory_gib)
);

INSERT INTO market_alias (accelerator, hint, min_memory_gib, max_memory_gib, outcome, gpu, note) VALUES
  -- H100: three catalog models under one name; the form factor must be written somewhere.
  ('h100', '', NULL, NULL, 'ambiguous', NULL, 'H100 without its form factor (SXM, PCIe or NVL)'),
  ('h100', 'sxm', NULL, NULL, 'gpu', 'h100-sxm', ''),
  ('h100', 'hbm3', 78, 82, 'gpu', 'h100-sxm', 'the 80 GB HBM3 H100 is the SXM5 board'),
  ('h100', '.80s.', NULL, NULL, 'gpu', 'h100-sxm', 'the 80S of DataCrunch ids is SXM'),
  ('h100', 'pcie', NULL, NULL, 'gpu', 'h100-pcie', ''),
  ('h100', 'n3-h100x', NULL, NULL, 'gpu', 'h100-pcie', 'Hyperstack n3-H100x ids are PCIe'),
  ('h100', 'nvl', 90, 96, 'gpu', 'h100-nvl', ''),
  ('h100sxm', '', NULL, NULL, 'gpu', 'h100-sxm', ''),
  ('h100sxm5', '', NULL, NULL, 'gpu', 'h100-sxm', ''),
  ('h10080gsxm5', '', NULL, NULL, 'gpu', 'h100-sxm', ''),
  ('h100pcie', '', NULL, NULL, 'gpu', 'h100-pcie', ''),
  ('h100pciebaremetal', '', NULL, NULL, 'gpu', 'h100-pcie', ''),
  ('h10080gpcie', '', NULL, NULL, 'gpu', 'h100-pcie', ''),
  ('h10080gpcienvlink', '', NULL, NULL, 'gpu', 'h100-pcie', 'PCIe boards joined by NVLink bridges'),
  ('h100nvl', '', NULL, NULL, 'ambiguous', NULL, 'H100 NVL name without the NVL''s 94 GB per GPU'),
  ('h100nvl', '', 90, 96, 'gpu', 'h100-nvl', ''),
  ('h100nvl', 'n3-h100x', 78, 82, 'gpu', 'h100-pcie', 'Hyperstack''s 80 GB PCIe NVLink id'),
  ('nvidiah10080gbhbm3', '', NULL, NULL, 'gpu', 'h100-sxm', 'RunPod''s id of the H100 SXM'),
  ('nvidiah100pcie', '', NULL, NULL, 'gpu', 'h100-pcie', ''),
  ('nvidiah100nvl', '', 90, 96, 'gpu', 'h100-nvl', ''),
  -- H200: SXM and NVL both have 141 GB.
  ('h200', '', NULL, NULL, 'ambiguous', NULL, 'H200 without its form factor (SXM or NVL)'),
  ('h200', 'sxm', NULL, NULL, 'gpu', 'h200-sxm', ''),
  ('h200', '.141s.', NULL, NULL, 'gpu', 'h200-sxm', 'the 141S of DataCrunch ids is SXM'),
  ('h200', 'nvl', NULL, NULL, 'gpu', 'h200-nvl', ''),
  ('h200sxm', '', NULL, NULL, 'gpu', 'h200-sxm', ''),
  ('h200nvl', '', NULL, NULL, 'gpu', 'h200-nvl', ''),
  ('nvidiah200', '', NULL, NULL, 'gpu', 'h200-sxm', 'RunPod''s id of the H200 SXM'),
  ('nvidiah200nvl', '', NULL, NULL, 'gpu', 'h200-nvl', ''),
  -- A100: 40 GB or 80 GB, SXM4 or PCIe.
  ('a100', '', NULL, NULL, 'ambiguous', NULL, 'A100 without its memory per GPU'),
  ('a100', '', 38, 42, 'ambiguous', NULL, 'A100 40 GB without its form factor'),
  ('a100', '', 78, 82, 'ambiguous', NULL, 'A100 80 GB without its form factor'),
  ('a100', 'sxm', 38, 42, 'gpu', 'a100-40gb-sxm', ''),
  ('a100', 'sxm', 78, 82, 'gpu', 'a100-80gb-sxm', ''),
  ('a100', 'dgx', 78, 82, 'gpu', 'a100-80gb-sxm', 'DGX A100 boards are SXM4'),
  ('a100', 'pci', 78, 82, 'gpu', 'a100-80gb-pcie', ''),
  ('a100', 'pci', 38, 42, 'not_in_catalog', NULL, 'A100 40 GB PCIe is not in the catalog'),
  ('a100sxm', '', 38, 42, 'gpu', 'a100-40gb-sxm', ''),
  ('a100sxm', '', 78, 82, 'gpu', 'a100-80gb-sxm', ''),
  ('a100sxm4', '', 38, 42, 'gpu', 'a100-40gb-sxm', ''),
  ('a100sxm4', '', 78, 82, 'gpu', 'a100-80gb-sxm', ''),
  ('a100pcie', '', 78, 82, 'gpu', 'a100-80gb-pcie', ''),
  ('a100pcie', '', 38, 42, 'not_in_catalog', NULL, 'A100 40 GB PCIe is not in the catalog'),
  ('a10080gb', '', NULL, NULL, 'ambiguous', NULL, 'A100 80 GB without its form factor'),
  ('a10080gb', 'sxm', NULL, NULL, 'gpu', 'a100-80gb-sxm', ''),
  ('a10080gb', 'pcie', NULL, NULL, 'gpu', 'a100-80gb-pcie', ''),
  ('a10080gb', 'n3-a100x', NULL, NULL, 'gpu', 'a100-80gb-pcie', 'Hyperstack n3-A100x ids are PCIe'),
  ('a10080gpcie', '', NULL, NULL, 'gpu', 'a100-80gb-pcie', ''),
  ('a10080gpcie', 'sxm', NULL, NULL, 'ambiguous', NULL, 'an SXM4 instance under a PCIe name'),
  ('a10080gpcie', 'dgx', NULL, NULL, 'ambiguous', NULL, 'a DGX (SXM4) instance under a PCIe name'),
  ('a10080gpcienvlink', '', NULL, NULL, 'gpu', 'a100-80gb-pcie', 'PCIe boards joined by NVLink bridges'),
  ('a10080gsxm4', '', NULL, NULL, 'gpu', 'a100-80gb-sxm', ''),
  ('nvidiaa10080gbpcie', '', NULL, NULL, 'gpu', 'a100-80gb-pcie', ''),
  ('nvidiaa100sxm480gb', '', NULL, NULL, 'gpu', 'a100-80gb-sxm', ''),
  -- Blackwell, Ada, Ampere and AMD models with one catalog entry each.
  ('b200', '', NULL, NULL, 'gpu', 'b200', ''),
  ('nvidiab200', '', NULL, NULL, 'gpu', 'b200', ''),
  ('b300', '', NULL, NULL, 'gpu', 'b300', ''),
  ('gb200', '', NULL, NULL, 'gpu', 'gb200', ''),
  ('mi300x', '', NULL, NULL, 'gpu', 'mi300x', ''),
  ('amdinstinctmi300xoam', '', NULL, NULL, 'gpu', 'mi300x', ''),
  ('mi325x', '', NULL, NULL, 'gpu', 'mi325x', ''),
  ('mi355x', '', NULL, NULL, 'gpu', 'mi355x', ''),
  ('l4', '', NULL, NULL, 'gpu', 'l4', ''),
  ('l4pcie', '', NULL, NULL, 'gpu', 'l4', ''),
  ('nvidial4', '', NULL, NULL, 'gpu', 'l4', ''),
  ('l40', '', NULL, NULL, 'gpu', 'l40', ''),
  ('l40', 'l40s', NULL, NULL, 'ambiguous', NULL, 'the listing names both the L40 and the L40S'),
  ('l40pcie', '', NULL, NULL, 'gpu', 'l40', ''),
  ('nvidial40', '', NULL, NULL, 'gpu', 'l40', ''),
  ('l40s', '', NULL, NULL, 'gpu', 'l40s', ''),
  ('l40spcie', '', NULL, NULL, 'gpu', 'l40s', ''),
  ('l40spciebaremetal', '', NULL, NULL, 'gpu', 'l40s', ''),
  ('nvidial40s', '', NULL, NULL, 'gpu', 'l40s', ''),
  ('a10', '', NULL, NULL, 'gpu', 'a10', ''),
  ('rtxpro6000', '', NULL, NULL, 'gpu', 'rtx-pro-6000-blackwell', ''),
  ('rtxpro6000pcie', '', NULL, NULL, 'gpu', 'rtx-pro-6000-blackwell', ''),
  ('rtxpro6000pciebaremetal', '', NULL, NULL, 'gpu', 'rtx-pro-6000-blackwell', ''),
  ('rtxpro600096gb', '', NULL, NULL, 'gpu', 'rtx-pro-6000-blackwell', ''),
  ('rtxpro6000wk', '', NULL, NULL, 'gpu', 'rtx-pro-6000-blackwell', 'the Workstation Edition'),
  ('rtxpro6000s', '', NULL, NULL, 'gpu', 'rtx-pro-6000-blackwell', 'the Server Edition'),
  ('nvidiartxpro6000blackwellserveredition', '', NULL, NULL, 'gpu', 'rtx-pro-6000-blackwell', ''),
  ('rtx6000ada', '', NULL, NULL, 'gpu', 'rtx-6000-ada', ''),
  ('rtx6000adapcie', '', NULL, NULL, 'gpu', 'rtx-6000-ada', ''),
  ('nvidiartx6000adageneration', '', NULL, NULL, 'gpu', 'rtx-6000-ada', ''),
  ('rtx6000', '', NULL, NULL, 'not_in_catalog', NULL, 'the Quadro RTX 6000 (Turing; 24 GB) is not the RTX 6000 Ada'),
  ('a6000', '', NULL, NULL, 'gpu', 'rtx-a6000', ''),
  ('rtxa6000', '', NULL, NULL, 'gpu', 'rtx-a6000', ''),
  ('a6000pciehighperf', '', NULL, NULL, 'gpu', 'rtx-a6000', ''),
  ('a6000pcielowram', '', NULL, NULL, 'gpu', 'rtx-a6000', ''),
  ('nvidiartxa6000', '', NULL, NULL, 'gpu', 'rtx-a6000', ''),
  ('a4000', '', NULL, NULL, 'gpu', 'rtx-a4000', ''),
  ('rtxa4000', '', NULL, NULL, 'gpu', 'rtx-a4000', ''),
  ('a4000pcie', '', NULL, NULL, 'gpu', 'rtx-a4000', ''),
  ('nvidiartxa4000', '', NULL, NULL, 'gpu', 'rtx-a4000', ''),
  ('rtx3090', '', NULL, NULL, 'gpu', 'rtx-3090', ''),
  ('nvidiageforcertx3090', '', NULL, NULL, 'gpu', 'rtx-3090', ''),
  ('rtx4090', '', NULL, NULL, 'ambiguous', NULL, 'RTX 4090 without its memory per GPU'),
  ('rtx4090', '', 22, 26, 'gpu', 'rtx-4090', ''),
  ('rtx4090', '', 44, 50, 'not_in_catalog', NULL, 'an RTX 4090 with 48 GB is a modified card the catalog does not carry'),
  ('nvidiageforcertx4090', '', NULL, NULL, 'gpu', 'rtx-4090', ''),
  ('rtx5090', '', NULL, NULL, 'gpu', 'rtx-5090', ''),
  ('rtx5090pcie', '', NULL, NULL, 'gpu', 'rtx-5090', ''),
  ('rtx5090pciebaremetal', '', NULL, NULL, 'gpu', 'rtx-5090', ''),
  ('nvidiageforcertx5090', '', NULL, NULL, 'gpu', 'rtx-5090', ''),
  ('rtx3060', '', NULL, NULL, 'ambiguous', NULL, 'RTX 3060 without its memory per GPU'),
  ('rtx3060', '', 11, 13, 'gpu', 'rtx-3060-12gb', ''),
  ('rtx3060', '3060_ti', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 3060 Ti is not in the catalog'),
  ('rtx2060', '', NULL, NULL, 'ambiguous', NULL, 'RTX 2060 without its memory per GPU'),
  ('rtx2060', '', 5, 7, 'gpu', 'rtx-2060', ''),
  -- Real models the catalog does not carry.
  ('a16', '', NULL, NULL, 'not_in_catalog', NULL, 'the A16 is not in the catalog'),
  ('a16pcie', '', NULL, NULL, 'not_in_catalog', NULL, 'the A16 is not in the catalog'),
  ('a30', '', NULL, NULL, 'not_in_catalog', NULL, 'the A30 is not in the catalog'),
  ('a40', '', NULL, NULL, 'not_in_catalog', NULL, 'the A40 is not in the catalog'),
  ('a800', '', NULL, NULL, 'not_in_catalog', NULL, 'the A800 is not in the catalog'),
  ('a5000', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX A5000 is not in the catalog'),
  ('a5000pcie', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX A5000 is not in the catalog'),
  ('rtxa5000', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX A5000 is not in the catalog'),
  ('rtxa2000', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX A2000 is not in the catalog'),
  ('rtx3070', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 3070 is not in the catalog'),
  ('rtx3080', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 3080 is not in the catalog'),
  ('rtx4060', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 4060 Ti is not in the catalog'),
  ('rtx4070', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 4070 Ti SUPER is not in the catalog'),
  ('v100', '', NULL, NULL, 'not_in_catalog', NULL, 'the V100 is not in the catalog'),
  ('v10032gb', '', NULL, NULL, 'not_in_catalog', NULL, 'the V100 is not in the catalog'),
  ('v10032gpcie', '', NULL, NULL, 'not_in_catalog', NULL, 'the V100 is not in the catalog'),
  ('gh200', '', NULL, NULL, 'not_in_catalog', NULL, 'the GH200 superchip is not in the catalog'),
  ('gaudi2', '', NULL, NULL, 'not_in_catalog', NULL, 'Intel Gaudi 2 is not in the catalog'),
  ('rtx3060ti', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 3060 Ti is not in the catalog'),
  ('rtx3080ti', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 3080 Ti is not in the catalog'),
  ('rtx3090ti', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 3090 Ti is not in the catalog'),
  ('rtx4060ti', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 4060 Ti is not in the catalog'),
  ('rtx4070ti', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 4070 Ti is not in the catalog'),
  ('rtx4070sti', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 4070 Ti SUPER is not in the catalog'),
  ('rtx4080', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 4080 is not in the catalog'),
  ('rtx4080super', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 4080 SUPER is not in the catalog'),
  ('rtx5080', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 5080 is not in the catalog'),
  ('rtx2000ada', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 2000 Ada is not in the catalog'),
  ('rtx4000ada', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 4000 Ada is not in the catalog'),
  ('rtx4000adasff', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 4000 SFF Ada is not in the catalog'),
  ('rtx5000ada', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 5000 Ada is not in the catalog'),
  ('rtxa4500', '', NULL, NULL, 'not_in_catalog', NULL, 'the RTX A4500 is not in the catalog'),
  ('teslav100', '', NULL, NULL, 'not_in_catalog', NULL, 'the V100 is not in the catalog'),
  ('v100fhhl', '', NULL, NULL, 'not_in_catalog', NULL, 'the V100 is not in the catalog'),
  ('v100sxm2', '', NULL, NULL, 'not_in_catalog', NULL, 'the V100 is not in the catalog'),
  ('v100sxm232gb', '', NULL, NULL, 'not_in_catalog', NULL, 'the V100 is not in the catalog');

-- The mapping an import used, kept as the canonical CSV an auditor re-runs (pricing::mapping_csv),
-- by its SHA-256: rules change, and a raw file is re-read with the rules it was read with.
CREATE TABLE listing_mapping (
  sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  csv    text NOT NULL
);

-- Every imported raw file, byte for byte. Importing the same bytes for the same source, format and
-- time again stores nothing.
CREATE TABLE raw_input (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source         text NOT NULL REFERENCES market_source (name),
  format         text NOT NULL CHECK (format IN ('skypilot-vms', 'vast-bundles', 'runpod-gpu-types')),
  -- the source's memory convention when it was read (market_source's may change later)
  memory_convention text NOT NULL CHECK (memory_convention IN ('per-gpu-mib', 'total-mib', 'per-gpu-gb')),
  observed_at    timestamptz NOT NULL,
  sha256         text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  bytes          bytea NOT NULL,
  mapping_sha256 text NOT NULL REFERENCES listing_mapping (sha256),
  imported_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (source, format, observed_at, sha256)
);
CREATE INDEX raw_input_observed ON raw_input (observed_at);

ALTER TABLE observation ADD COLUMN raw_input_id bigint REFERENCES raw_input (id);

-- One observation per (source, listing id, observed_at). Importing a file twice used to double
-- every observation; the doubles are removed (the first imported stays). Published sheets keep
-- their inputs (sheet_input_chunk), so no published figure changes.
DELETE FROM observation o USING observation earlier
 WHERE o.listing_id <> '' AND o.source = earlier.source AND o.listing_id = earlier.listing_id
   AND o.observed_at = earlier.observed_at AND earlier.id < o.id;
CREATE UNIQUE INDEX observation_listing ON observation (source, listing_id, observed_at) WHERE listing_id <> '';

-- Rules version 2: each row's sources and the spread of its listings' prices, and each source's
-- price. NULL on rows of version 1 sheets.
ALTER TABLE sheet_row
  ADD COLUMN sources              integer CHECK (sources >= 0),
  ADD COLUMN market_min_micros    bigint CHECK (market_min_micros > 0),
  ADD COLUMN market_p25_micros    bigint,
  ADD COLUMN market_median2_micros bigint,
  ADD COLUMN market_p75_micros    bigint,
  ADD COLUMN market_max_micros    bigint,
  ADD CHECK ((market_min_micros IS NULL) = (market_max_micros IS NULL)),
  ADD CHECK (market_min_micros <= market_p25_micros AND market_p25_micros <= market_p75_micros
             AND market_p75_micros <= market_max_micros
             AND 2 * market_min_micros <= market_median2_micros AND market_median2_micros <= 2 * market_max_micros);

CREATE TABLE sheet_row_source (
  week         text NOT NULL,
  gpu          text NOT NULL,
  source       text NOT NULL CHECK (length(source) BETWEEN 1 AND 64),
  price_micros bigint NOT NULL CHECK (price_micros > 0),
  listings     integer NOT NULL CHECK (listings > 0),
  PRIMARY KEY (week, gpu, source),
  FOREIGN KEY (week, gpu) REFERENCES sheet_row (week, gpu) ON DELETE CASCADE
);

-- The raw files a sheet was computed from: those observed in its window, in import order.
CREATE TABLE sheet_raw_input (
  week         text NOT NULL REFERENCES sheet (week) ON DELETE CASCADE,
  raw_input_id bigint NOT NULL REFERENCES raw_input (id),
  PRIMARY KEY (week, raw_input_id)
);

-- Readable by both roles through the default privileges of migration 001.
GRANT INSERT ON listing_mapping, raw_input TO lowcostgpu_publisher;
GRANT INSERT, DELETE ON sheet_row_source, sheet_raw_input TO lowcostgpu_publisher;

-- Imports stage their rows in a temporary table, so that a listing already imported is skipped and
-- counted instead of failing the import: the publisher now needs TEMPORARY (007 took it from
-- PUBLIC). The reader still has none.
DO $$
BEGIN
  EXECUTE format('GRANT TEMPORARY ON DATABASE %I TO lowcostgpu_publisher', current_database());
END
$$;
