-- Regions: reference data, installed and updated by `lowcostgpu migrate` in every database.
-- 32 regions on five continents. Prices are the same in every region.
-- Code: <area>-<city>-<n>. Country: ISO 3166-1 alpha-2. Exactly one region is sovereign:
-- eu-paris-2, in France.
-- Re-applying this file updates rows in place.

INSERT INTO region (code, city, country, continent, sovereign) VALUES
  -- Europe (11)
  ('eu-paris-1',     'Paris',          'FR', 'Europe',        false),
  ('eu-paris-2',     'Paris',          'FR', 'Europe',        true),
  ('eu-marseille-1', 'Marseille',      'FR', 'Europe',        false),
  ('eu-frankfurt-1', 'Frankfurt',      'DE', 'Europe',        false),
  ('eu-amsterdam-1', 'Amsterdam',      'NL', 'Europe',        false),
  ('eu-london-1',    'London',         'GB', 'Europe',        false),
  ('eu-dublin-1',    'Dublin',         'IE', 'Europe',        false),
  ('eu-stockholm-1', 'Stockholm',      'SE', 'Europe',        false),
  ('eu-madrid-1',    'Madrid',         'ES', 'Europe',        false),
  ('eu-milan-1',     'Milan',          'IT', 'Europe',        false),
  ('eu-zurich-1',    'Zurich',         'CH', 'Europe',        false),
  -- North America (9)
  ('us-ashburn-1',   'Ashburn',        'US', 'North America', false),
  ('us-chicago-1',   'Chicago',        'US', 'North America', false),
  ('us-dallas-1',    'Dallas',         'US', 'North America', false),
  ('us-phoenix-1',   'Phoenix',        'US', 'North America', false),
  ('us-sanjose-1',   'San Jose',       'US', 'North America', false),
  ('us-hillsboro-1', 'Hillsboro',      'US', 'North America', false),
  ('ca-toronto-1',   'Toronto',        'CA', 'North America', false),
  ('ca-montreal-1',  'Montreal',       'CA', 'North America', false),
  ('mx-queretaro-1', 'Querétaro',      'MX', 'North America', false),
  -- Asia (7)
  ('ap-tokyo-1',     'Tokyo',          'JP', 'Asia',          false),
  ('ap-osaka-1',     'Osaka',          'JP', 'Asia',          false),
  ('ap-seoul-1',     'Seoul',          'KR', 'Asia',          false),
  ('ap-singapore-1', 'Singapore',      'SG', 'Asia',          false),
  ('ap-mumbai-1',    'Mumbai',         'IN', 'Asia',          false),
  ('ap-jakarta-1',   'Jakarta',        'ID', 'Asia',          false),
  ('me-dubai-1',     'Dubai',          'AE', 'Asia',          false),
  -- Oceania (2)
  ('ap-sydney-1',    'Sydney',         'AU', 'Oceania',       false),
  ('ap-melbourne-1', 'Melbourne',      'AU', 'Oceania',       false),
  -- South America (3)
  ('sa-saopaulo-1',  'São Paulo',      'BR', 'South America', false),
  ('sa-santiago-1',  'Santiago',       'CL', 'South America', false),
  ('sa-bogota-1',    'Bogotá',         'CO', 'South America', false)
ON CONFLICT (code) DO UPDATE SET
  city = EXCLUDED.city,
  country = EXCLUDED.country,
  continent = EXCLUDED.continent,
  sovereign = EXCLUDED.sovereign;
