-- Synthetic sample inventory (never for production): a deterministic number of free GPUs for every
-- model in every region, from a hash of the pair, with some models absent from some regions.
INSERT INTO inventory (gpu, region, available_gpus)
SELECT g.id, r.code, (abs(hashtext(g.id || '/' || r.code)) % 40) - 8
FROM gpu_model g CROSS JOIN region r
WHERE (abs(hashtext(g.id || '/' || r.code)) % 40) - 8 > 0
ON CONFLICT (gpu, region) DO UPDATE SET available_gpus = EXCLUDED.available_gpus;
