-- Two rules of the mapping (migration 012) that a review of the market's names found missing. No
-- row of the SkyPilot v8 files the tests import is affected by either.
INSERT INTO market_alias (accelerator, hint, min_memory_gib, max_memory_gib, outcome, gpu, note) VALUES
  -- The hint "nvl" also occurs in "NVLink", which joins H200 SXM boards as much as H200 NVL cards:
  -- an H200 listing that names NVLink fits this rule and the NVL's, so it is ambiguous rather than
  -- counted as an H200 NVL. The cost: an H200 NVL that names its NVLink bridge gets no price (as
  -- an H200 SXM that names NVLink did not before); a hint is a piece of text, not a word.
  ('h200', 'nvlink', NULL, NULL, 'ambiguous', NULL, 'NVLink joins H200 SXM boards and H200 NVL cards alike'),
  -- SkyPilot's RunPod catalog renames RunPod's "A100 SXM" (80 GB) to A100-80GB-SXM.
  ('a10080gbsxm', '', NULL, NULL, 'gpu', 'a100-80gb-sxm', '');
