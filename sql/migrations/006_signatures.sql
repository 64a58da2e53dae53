-- Ed25519 signatures of sheets (DESIGN §10). The signature covers the sheet's signed bytes (see
-- pricing/signing.hpp and /v1/methodology); key_id names the public key, published with its
-- validity window at /.well-known/lowcostgpu-keys.json. Private keys never enter the database.
-- A sheet published before signing existed, or with `publish --unsigned`, has neither until
-- `lowcostgpu sign --all` signs it.
ALTER TABLE sheet
  ADD COLUMN rules_version integer NOT NULL DEFAULT 1 CHECK (rules_version > 0),
  ADD COLUMN signature text CHECK (signature ~ '^[A-Za-z0-9+/]{86}==$'),
  ADD COLUMN key_id text CHECK (key_id ~ '^[0-9a-f]{16}$'),
  ADD CONSTRAINT sheet_signed_by_a_key CHECK ((signature IS NULL) = (key_id IS NULL));
