-- The signed catalog and sheet index (issue 29, DESIGN §10): mirrors show only what is signed, the
-- catalog included, and refuse an index that withholds or rolls back a sheet.
-- `publish` and `sign` store the /v1/catalog document they signed (render::catalog_document: the
-- models, regions, inventory and sources) and the sheet index whenever either differs from the
-- newest one's; the newest is
-- served with its signature at /v1/catalog and /v1/catalog/signature. The signature covers the
-- lowcostgpu-catalog-v1 lines of pricing/signing.hpp: signed_at, the document's SHA-256 and length,
-- and a line per published sheet.
CREATE TABLE catalog_signature (
  id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  signed_at timestamptz NOT NULL,
  document  text NOT NULL CHECK (octet_length(document) <= 16777216),
  sha256    text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  -- the sheet index it signs, a line per published sheet: "week epoch inputs_sha256 inputs_bytes"
  sheets    text NOT NULL CHECK (sheets ~ '^([0-9]{4}-W[0-9]{2} [0-9]+ [0-9a-f]{64} [0-9]+\n)*$'),
  key_id    text NOT NULL CHECK (key_id ~ '^[0-9a-f]{16}$'),
  signature text NOT NULL CHECK (signature ~ '^[A-Za-z0-9+/]{86}==$')
);

-- Readable by both roles through the default privileges of migration 001.
GRANT INSERT ON catalog_signature TO lowcostgpu_publisher;
