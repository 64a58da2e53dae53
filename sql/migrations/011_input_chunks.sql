-- A week's inputs are sent to a client as they are read (server/archive, issue 15). Kept as one
-- value per week, the canonical CSV had to be read whole before its first byte left, and was held
-- whole in memory by every read, however slow its client. It is now stored in chunks of about
-- 1 MiB, each ending at a line end, so every chunk is whole CSV rows (chunk 0 begins with the
-- header line); the archive reads one chunk at a time as a client takes them. The chunks of a week
-- in seq order are its canonical CSV byte for byte: their SHA-256 is still the sheet's inputs_sha256.
-- The rule (the first line end at or after a chunk's 1,048,576th byte ends it) is also
-- store::input_chunks, which publish uses; chunk sizes are measured in bytes of UTF-8.
CREATE TABLE sheet_input_chunk (
  week text NOT NULL REFERENCES sheet (week) ON DELETE CASCADE,
  seq  integer NOT NULL CHECK (seq >= 0),
  csv  text NOT NULL CHECK (csv <> ''),
  PRIMARY KEY (week, seq),
  CHECK (seq > 0 OR csv LIKE 'observed_at,gpu,price_per_gpu_hour,source,listing_id%')
);

-- lz4, as the single value had (migration 009), where the server has it.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE sheet_input_chunk ALTER COLUMN csv SET COMPRESSION lz4;
  END IF;
END
$$;

-- The weeks already stored are split by the same rule. Positions are taken in a bytea, where
-- substring is by byte and costs only the bytes it copies (on text each call would walk the
-- characters from the start); a search for the line end looks at 64 KiB at a time.
DO $$
DECLARE
  target constant integer := 1048576;
  window_bytes constant integer := 65536;
  r record;
  whole bytea;
  total integer;
  from_byte integer;
  to_byte integer;
  found integer;
  chunk_seq integer;
BEGIN
  FOR r IN SELECT week, canonical_csv FROM sheet_input ORDER BY week LOOP
    whole := convert_to(r.canonical_csv, 'UTF8');
    total := length(whole);
    from_byte := 1;
    chunk_seq := 0;
    WHILE from_byte <= total LOOP
      to_byte := from_byte + target - 1;
      IF to_byte >= total THEN
        to_byte := total;
      ELSE
        LOOP
          found := position('\x0a'::bytea IN substring(whole FROM to_byte FOR window_bytes));
          EXIT WHEN found > 0 OR to_byte + window_bytes > total;
          to_byte := to_byte + window_bytes;
        END LOOP;
        to_byte := CASE WHEN found > 0 THEN to_byte + found - 1 ELSE total END;
      END IF;
      INSERT INTO sheet_input_chunk (week, seq, csv)
        VALUES (r.week, chunk_seq, convert_from(substring(whole FROM from_byte FOR to_byte - from_byte + 1), 'UTF8'));
      from_byte := to_byte + 1;
      chunk_seq := chunk_seq + 1;
    END LOOP;
  END LOOP;
END
$$;

DROP TABLE sheet_input;

-- Readable by both roles through the default privileges of migration 001; publish writes it.
GRANT INSERT, DELETE ON sheet_input_chunk TO lowcostgpu_publisher;
