-- The transparency log of publications (issue 26, DESIGN §10). Every publish, correction and
-- signing of a sheet appends one entry in the transaction that writes the sheet; `entry` is the
-- leaf's exact text (server/tlog/entry.hpp), hashed into an RFC 6962 Merkle tree whose tiles the
-- server publishes under /v1/log/. Each entry keeps that version's signed bytes and signature, so
-- an earlier version of a corrected week stays readable and verifiable.
CREATE TABLE log_entry (
  seq          bigint PRIMARY KEY CHECK (seq >= 0),
  week         text NOT NULL CHECK (week ~ '^[0-9]{4}-W(0[1-9]|[1-4][0-9]|5[0-3])$'),
  kind         text NOT NULL CHECK (kind IN ('publication', 'correction', 'signature')),
  published_at timestamptz NOT NULL,
  logged_at    timestamptz NOT NULL,
  entry        text NOT NULL CHECK (octet_length(entry) < 65536),
  signed_bytes text NOT NULL CHECK (octet_length(signed_bytes) <= 16777216),
  key_id       text CHECK (key_id ~ '^[0-9a-f]{16}$'),
  signature    text CHECK (signature ~ '^[A-Za-z0-9+/]{86}==$'),
  CHECK ((signature IS NULL) = (key_id IS NULL))
);
CREATE INDEX log_entry_week ON log_entry (week, seq);

-- One signed checkpoint (a C2SP signed note) per size the log was signed at; the largest is served.
CREATE TABLE log_checkpoint (
  size      bigint PRIMARY KEY CHECK (size > 0),
  signed_at timestamptz NOT NULL,
  note      text NOT NULL CHECK (octet_length(note) <= 65536)
);

-- Append-only: no role, the owner included, rewrites or removes what was logged. A superuser can
-- still disable the triggers, and the log's hashes then show what changed.
CREATE FUNCTION refuse_log_rewrite() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the publication log is append-only: % on % refused', TG_OP, TG_TABLE_NAME;
END
$$;
CREATE TRIGGER log_entry_append_only BEFORE UPDATE OR DELETE ON log_entry
  FOR EACH ROW EXECUTE FUNCTION refuse_log_rewrite();
CREATE TRIGGER log_entry_no_truncate BEFORE TRUNCATE ON log_entry
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_log_rewrite();
CREATE TRIGGER log_checkpoint_append_only BEFORE UPDATE OR DELETE ON log_checkpoint
  FOR EACH ROW EXECUTE FUNCTION refuse_log_rewrite();
CREATE TRIGGER log_checkpoint_no_truncate BEFORE TRUNCATE ON log_checkpoint
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_log_rewrite();

-- Readable by both roles through the default privileges of migration 001.
GRANT INSERT ON log_entry, log_checkpoint TO lowcostgpu_publisher;
