-- Core tables of the price sheet. Constraints make bad rows impossible rather than merely unlikely:
-- prices are positive integers of micro-dollars, GPU ids must be in the catalog, one sheet per week.

DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lowcostgpu_owner') THEN
    CREATE ROLE lowcostgpu_owner NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lowcostgpu_publisher') THEN
    CREATE ROLE lowcostgpu_publisher NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lowcostgpu_reader') THEN
    CREATE ROLE lowcostgpu_reader NOLOGIN;
  END IF;
END
$$;

-- Reader sessions can never write, even by mistake in our own code.
ALTER ROLE lowcostgpu_reader SET default_transaction_read_only = on;
ALTER ROLE lowcostgpu_reader SET statement_timeout = '5s';
ALTER ROLE lowcostgpu_reader SET idle_in_transaction_session_timeout = '10s';

CREATE TABLE gpu_model (
  id                        text PRIMARY KEY CHECK (id ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  name                      text NOT NULL CHECK (name <> ''),
  vendor                    text NOT NULL CHECK (vendor <> ''),
  architecture              text NOT NULL CHECK (architecture <> ''),
  form_factor               text NOT NULL CHECK (form_factor <> ''),
  vram_gb                   integer NOT NULL CHECK (vram_gb > 0),
  memory_type               text NOT NULL,
  memory_bandwidth_gbs      integer NOT NULL CHECK (memory_bandwidth_gbs > 0),
  -- Datasheet figures are kept as written: a decimal, with a trailing '?' when no primary source
  -- confirmed it. They are never used on a money path.
  fp16_dense_tflops         text NOT NULL CHECK (fp16_dense_tflops ~ '^[0-9]+(\.[0-9]+)?\??$'),
  fp16_dense_tflops_fp16acc text NOT NULL CHECK (fp16_dense_tflops_fp16acc ~ '^[0-9]+(\.[0-9]+)?\??$'),
  fp8_dense_tflops          text CHECK (fp8_dense_tflops ~ '^[0-9]+(\.[0-9]+)?\??$'),
  tdp_w                     text NOT NULL CHECK (tdp_w ~ '^[0-9]+\??$'),
  nvlink_gbs                text CHECK (nvlink_gbs ~ '^[0-9]+(\.[0-9]+)?\??$'),
  mig_max_instances         integer NOT NULL CHECK (mig_max_instances BETWEEN 0 AND 7),
  sm_count                  integer NOT NULL CHECK (sm_count > 0),
  source                    text NOT NULL CHECK (source <> ''),
  notes                     text NOT NULL DEFAULT '',
  max_gpus_per_instance     integer NOT NULL CHECK (max_gpus_per_instance BETWEEN 1 AND 8),
  max_vcpus                 integer NOT NULL CHECK (max_vcpus > 0),
  max_memory_gib            integer NOT NULL CHECK (max_memory_gib > 0),
  cpu_generations           text[] NOT NULL CHECK (cardinality(cpu_generations) > 0)
);

CREATE TABLE mig_profile (
  gpu            text NOT NULL REFERENCES gpu_model (id),
  name           text NOT NULL CHECK (name ~ '^[1-7]g\.[0-9]+gb(\+[a-z]+)?$'),
  memory_gb      integer NOT NULL CHECK (memory_gb > 0),
  compute_slices integer NOT NULL CHECK (compute_slices BETWEEN 1 AND 7),
  max_instances  integer NOT NULL CHECK (max_instances BETWEEN 1 AND 7),
  PRIMARY KEY (gpu, name)
);

CREATE TABLE region (
  code      text PRIMARY KEY CHECK (code ~ '^[a-z]{2}-[a-z]+-[0-9]$'),
  city      text NOT NULL CHECK (city <> ''),
  country   text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  continent text NOT NULL CHECK (continent IN ('Africa', 'Asia', 'Europe', 'North America',
                                               'Oceania', 'South America')),
  sovereign boolean NOT NULL DEFAULT false
);

-- Per-GPU hourly prices of on-demand listings seen on the public marketplace.
CREATE TABLE observation (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  observed_at timestamptz NOT NULL,
  gpu         text NOT NULL REFERENCES gpu_model (id),
  price_micros bigint NOT NULL CHECK (price_micros > 0 AND price_micros <= 100000000000),
  source      text NOT NULL CHECK (length(source) BETWEEN 1 AND 64),
  listing_id  text NOT NULL DEFAULT '' CHECK (length(listing_id) <= 128)
);
CREATE INDEX observation_window ON observation (observed_at, gpu);

CREATE TABLE sheet (
  week            text PRIMARY KEY CHECK (week ~ '^[0-9]{4}-W(0[1-9]|[1-4][0-9]|5[0-3])$'),
  effective_from  timestamptz NOT NULL UNIQUE,
  effective_until timestamptz NOT NULL CHECK (effective_until = effective_from + interval '7 days'),
  published_at    timestamptz NOT NULL DEFAULT now(),
  inputs_sha256   text NOT NULL CHECK (inputs_sha256 ~ '^[0-9a-f]{64}$'),
  observations    integer NOT NULL CHECK (observations >= 0)
);

-- One row per catalog model. Twice the median is stored so an even count's median stays an integer.
CREATE TABLE sheet_row (
  week              text NOT NULL REFERENCES sheet (week) ON DELETE CASCADE,
  gpu               text NOT NULL REFERENCES gpu_model (id),
  observations      integer NOT NULL CHECK (observations >= 0),
  median2_micros    bigint CHECK (median2_micros > 0),
  on_demand_micros  bigint CHECK (on_demand_micros > 0 AND on_demand_micros % 1000 = 0),
  spot_micros       bigint CHECK (spot_micros >= 0 AND spot_micros % 1000 = 0),
  reserved_micros   bigint CHECK (reserved_micros >= 0 AND reserved_micros % 1000 = 0),
  unavailable_reason text,
  PRIMARY KEY (week, gpu),
  CHECK ((on_demand_micros IS NULL) = (unavailable_reason IS NOT NULL)),
  CHECK ((on_demand_micros IS NULL) = (spot_micros IS NULL)),
  CHECK ((on_demand_micros IS NULL) = (reserved_micros IS NULL)),
  -- The promise itself, enforced by the database as a last line of defence.
  CHECK (on_demand_micros IS NULL OR on_demand_micros * 20 <= 7 * median2_micros)
);

GRANT USAGE ON SCHEMA public TO lowcostgpu_publisher, lowcostgpu_reader;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO lowcostgpu_reader, lowcostgpu_publisher;
GRANT INSERT ON observation TO lowcostgpu_publisher;
GRANT INSERT, UPDATE, DELETE ON sheet, sheet_row TO lowcostgpu_publisher;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO lowcostgpu_publisher;
-- Tables added by later migrations are readable by both roles without another GRANT.
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO lowcostgpu_reader, lowcostgpu_publisher;
