-- The signed catalog (issue 29, DESIGN §10): mirrors show only what is signed, the catalog included.
-- `publish` and `sign` store the /v1/catalog document they signed (render::catalog_document: the
-- models, regions, inventory and sources) whenever it differs from the newest one; the newest is
-- served with its signature at /v1/catalog and /v1/catalog/signature. The signature covers the
-- lowcostgpu-catalog-v1 lines of pricing/signing.hpp: signed_at, the document's SHA-256 and length.
CREATE TABLE catalog_signature (
  id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  signed_at timestamptz NOT NULL,
  document  text NOT NULL CHECK (octet_length(document) <= 16777216),
  sha256    text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  key_id    text NOT NULL CHECK (key_id ~ '^[0-9a-f]{16}$'),
  signature text NOT NULL CHECK (signature ~ '^[A-Za-z0-9+/]{86}==$')
);

-- Readable by both roles through the default privileges of migration 001.
GRANT INSERT ON catalog_signature TO lowcostgpu_publisher;
