-- Instance limits that depend on the region: reference data, installed by `lowcostgpu migrate` in
-- every database.
--
-- gpu_model.cpu_generations lists the processor generations an instance of a model may have in
-- every region. A few regions accept more: this table lists those extra generations. The public
-- documentation quotes one such case: the A100 80GB (PCIe and SXM) attaches to v6 instances
-- everywhere, and to v6 and v7 instances in the sovereign region, eu-paris-2.
--
-- The vCPU and memory limits of gpu_model are per instance (whatever its number of GPUs), as the
-- documentation quotes them.

CREATE TABLE gpu_region_cpu_generation (
  gpu            text NOT NULL REFERENCES gpu_model (id),
  region         text NOT NULL REFERENCES region (code),
  cpu_generation text NOT NULL CHECK (cpu_generation ~ '^v[0-9]+$'),
  PRIMARY KEY (gpu, region, cpu_generation)
);

INSERT INTO gpu_region_cpu_generation (gpu, region, cpu_generation) VALUES
  ('a100-80gb-pcie', 'eu-paris-2', 'v7'),
  ('a100-80gb-sxm',  'eu-paris-2', 'v7')
ON CONFLICT DO NOTHING;

-- Readable by the reader and publisher roles through the default privileges set in 001_schema.sql.
