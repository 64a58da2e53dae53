-- The revision of the format's reader each raw file was read with (pricing/rules.hpp,
-- offer_reader_revision), published with it so that an auditor re-reads it the same way after a
-- reader changes. Every file imported before this migration was read with the first, and so is
-- one an older binary imports during an upgrade (it names no reader): hence the default.
ALTER TABLE raw_input ADD COLUMN reader integer NOT NULL DEFAULT 1 CHECK (reader >= 1);
