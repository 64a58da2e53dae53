-- SkyPilot's Vast fetcher drops a trailing "Ti", and a "D" after RTX and a number of the form d0d0,
-- from the GPU name (the market README), while the instance type keeps the whole name: an RTX 3090
-- Ti is listed as RTX3090 and an RTX 4090 D (24 GB, as the 4090) as RTX4090. The RTX 3060 Ti has
-- had its rule since migration 012; these are the other such cards next to a catalog model. No row
-- of the SkyPilot v8 files the tests import is affected.
INSERT INTO market_alias (accelerator, hint, min_memory_gib, max_memory_gib, outcome, gpu, note) VALUES
  ('rtx3090', '3090_ti', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 3090 Ti is not in the catalog'),
  ('rtx4090', '4090d', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 4090 D is not in the catalog'),
  ('rtx4090', '4090_d', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 4090 D is not in the catalog'),
  ('rtx5090', '5090d', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 5090 D is not in the catalog'),
  ('rtx5090', '5090_d', NULL, NULL, 'not_in_catalog', NULL, 'the RTX 5090 D is not in the catalog')
-- An operator may have added one of these already: theirs stays.
ON CONFLICT DO NOTHING;
