-- The revision of the format's reader each raw file was read with (pricing/rules.hpp,
-- offer_reader_revision), published with it so that an auditor re-reads it the same way after a
-- reader changes. Every file imported before this migration was read with the first.
ALTER TABLE raw_input ADD COLUMN reader integer NOT NULL DEFAULT 1 CHECK (reader >= 1);
ALTER TABLE raw_input ALTER COLUMN reader DROP DEFAULT;
