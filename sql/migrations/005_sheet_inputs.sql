-- The exact bytes a sheet was computed from: its canonical observations CSV, whose SHA-256 the sheet
-- publishes. Kept beside the sheet so that observations imported later into a published window can
-- never change what auditors download for that week.
CREATE TABLE sheet_input (
  week          text PRIMARY KEY REFERENCES sheet (week) ON DELETE CASCADE,
  canonical_csv text NOT NULL CHECK (canonical_csv LIKE 'observed_at,gpu,price_per_gpu_hour,source,listing_id%')
);

-- Sample-data inventory: GPUs free per model and region. Production fills it from the fleet.
CREATE TABLE inventory (
  gpu            text NOT NULL REFERENCES gpu_model (id),
  region         text NOT NULL REFERENCES region (code),
  available_gpus integer NOT NULL CHECK (available_gpus >= 0),
  PRIMARY KEY (gpu, region)
);

GRANT INSERT, DELETE ON sheet_input TO lowcostgpu_publisher;
GRANT INSERT, UPDATE, DELETE ON inventory TO lowcostgpu_publisher;
