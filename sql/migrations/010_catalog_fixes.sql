-- Catalog loose ends found by an independent recomputation (issue 17, point 4). Reference data,
-- applied by `lowcostgpu migrate` after 002_catalog.sql, which stays as it was first applied.

-- The GPU-to-GPU link figure is NVLink on NVIDIA models and Infinity Fabric (xGMI) on AMD ones:
-- the column is named for what it holds, and the kind of link goes with the figure.
ALTER TABLE gpu_model RENAME COLUMN nvlink_gbs TO interconnect_gbs;
ALTER TABLE gpu_model ADD COLUMN interconnect_kind text
  CHECK (interconnect_kind IN ('NVLink', 'Infinity Fabric'));
UPDATE gpu_model
   SET interconnect_kind = CASE WHEN vendor = 'AMD' THEN 'Infinity Fabric' ELSE 'NVLink' END
 WHERE interconnect_gbs IS NOT NULL;
ALTER TABLE gpu_model ADD CONSTRAINT interconnect_kind_with_its_figure
  CHECK ((interconnect_gbs IS NULL) = (interconnect_kind IS NULL));

-- GB200: the whole-GPU profile was listed under a driver's name, 7g.189gb, larger than the 186 GB
-- the catalog (and NVIDIA's MIG guide) gives the GPU. The name AWS lists, 7g.186gb, matches it.
UPDATE mig_profile SET name = '7g.186gb', memory_gb = 186 WHERE gpu = 'gb200' AND name = '7g.189gb';
-- A profile never has more memory than its GPU.
CREATE FUNCTION mig_profile_within_gpu() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.memory_gb > (SELECT vram_gb FROM gpu_model WHERE id = NEW.gpu) THEN
    RAISE EXCEPTION 'MIG profile % of % has more memory than the GPU', NEW.name, NEW.gpu;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER mig_profile_within_gpu BEFORE INSERT OR UPDATE ON mig_profile
  FOR EACH ROW EXECUTE FUNCTION mig_profile_within_gpu();

-- B200: 180 GB is the HGX B200's usable capacity as NVIDIA's datasheet gives it; 192 GB, quoted by
-- early material and by the multi-GPU lesson, is the physical memory. Said in the model's notes.
UPDATE gpu_model
   SET notes = notes || ' The catalog uses 180 GB, what an HGX B200 offers; sizing with 192 GB (the physical memory, as some lessons do) gives the same GPU counts for 70 B and 400 B at 1 byte per parameter (1 and 4).'
 WHERE id = 'b200' AND position('sizing with 192 GB' in notes) = 0;
