-- The made-up sources of the synthetic sample observations (generate_observations.py): listed in
-- the methodology's sources like real ones, of kind 'synthetic', with no homepage. Sample data:
-- deploy/run and the tests load it; a production database never gets it.
INSERT INTO market_source (name, kind, homepage, format) VALUES
  ('synthetic-alpha',   'synthetic', '', 'observations-csv'),
  ('synthetic-bravo',   'synthetic', '', 'observations-csv'),
  ('synthetic-charlie', 'synthetic', '', 'observations-csv'),
  ('synthetic-delta',   'synthetic', '', 'observations-csv'),
  ('synthetic-echo',    'synthetic', '', 'observations-csv')
ON CONFLICT (name) DO NOTHING;
