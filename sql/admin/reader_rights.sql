-- Run by a superuser in the lowcostgpu database, once, after `lowcostgpu migrate` (deploy/lib.sh
-- does). The functions of pg_catalog belong to the bootstrap superuser, so the database owner cannot
-- revoke them (007_reader_rights.sql does what it can). Nothing of ours calls these functions
-- (publish and migrate lock tables; they send the NOTIFY statement, which no privilege guards), so
-- only the two writing roles keep them.
DO $$
DECLARE
  f regprocedure;
BEGIN
  FOR f IN SELECT p.oid::regprocedure FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
           WHERE n.nspname = 'pg_catalog' AND (p.proname LIKE 'pg\_advisory\_%' OR p.proname LIKE 'pg\_try\_advisory\_%')
  LOOP
    EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
    EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO lowcostgpu_owner, lowcostgpu_publisher', f);
  END LOOP;
  REVOKE EXECUTE ON FUNCTION pg_notify(text, text) FROM PUBLIC;
  GRANT EXECUTE ON FUNCTION pg_notify(text, text) TO lowcostgpu_owner, lowcostgpu_publisher;
END
$$;
