-- Provenance of inputs: the public listing an observation was seen on, so that an auditor can check
-- that the inputs are real listings. Optional ('' when unknown); the rules are those of the import
-- (pricing::is_valid_source_url). The canonical CSV carries the column only when some observation of
-- the window has a URL, so sheets published before it keep their bytes and their inputs_sha256.
ALTER TABLE observation
  ADD COLUMN source_url text NOT NULL DEFAULT ''
    CHECK (source_url = '' OR (length(source_url) <= 2048 AND source_url ~ '^https?://[^/?#]' AND source_url ~ '^[!-~]+$'));
