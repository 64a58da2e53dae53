-- The reader role only reads (issue 14). Every role may create temporary objects in a new database
-- (PUBLIC holds TEMPORARY on it); the owner of the database, who runs migrations, can take that away.
-- The publisher writes through ordinary tables and needs no temporary ones either; the owner keeps
-- the right as the database's owner.
DO $$
BEGIN
  EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
END
$$;

-- What the owner cannot do: EXECUTE on pg_advisory_lock and pg_notify belongs to the bootstrap
-- superuser, and no privilege guards the NOTIFY statement (read-only transactions allow it). So
-- publish and migrate no longer wait on advisory locks (they lock tables the reader may only read),
-- sql/admin/reader_rights.sql, run once by a superuser, takes the advisory-lock functions and
-- pg_notify() away from PUBLIC, and servers rebuild on notifications at most once a second.
