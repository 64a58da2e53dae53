#!/usr/bin/env bash
# Run once by the postgres image on an empty data directory (/docker-entrypoint-initdb.d):
# the three roles of the service with their passwords, and the database owned by the owner role.
# `lowcostgpu migrate` then creates the schema, grants and the reader's read-only settings.
set -euo pipefail
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
    -v owner_pw="$LCG_OWNER_PASSWORD" -v publisher_pw="$LCG_PUBLISHER_PASSWORD" -v reader_pw="$LCG_READER_PASSWORD" <<'SQL'
CREATE ROLE lowcostgpu_owner LOGIN CREATEROLE PASSWORD :'owner_pw';
CREATE ROLE lowcostgpu_publisher LOGIN PASSWORD :'publisher_pw';
CREATE ROLE lowcostgpu_reader LOGIN PASSWORD :'reader_pw';
CREATE DATABASE lowcostgpu OWNER lowcostgpu_owner;
SQL
