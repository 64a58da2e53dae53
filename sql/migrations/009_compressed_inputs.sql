-- A week's inputs are read back on demand (server/archive), years of them: their canonical CSV is
-- kept compressed with lz4, which compresses about ten times faster than pglz and reads back
-- faster. Rows written before keep the compression they have; publish writes every new week with
-- lz4. A server built without lz4 keeps its default (pglz).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE sheet_input ALTER COLUMN canonical_csv SET COMPRESSION lz4;
  END IF;
END
$$;
