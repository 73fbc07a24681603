-- Support search (docs/api.md#staff): users and servers by name, partial, case- and accent-insensitive,
-- ranked, answered from indexes as staff type (services/staff-search.ts, bench/support-search.mjs).
--
-- The extensions are the database's, not this schema's: created in `public` when missing (the database
-- user needs the right to, or an administrator creates them first, in any schema: docs/operations.md,
-- "Database extensions"). Instances (or test suites, each in its own schema) migrating at once wait
-- for each other here, so two never create them together.
SELECT pg_advisory_xact_lock(hashtext('tickety-extensions'));
CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;
CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public;

-- This schema's wrappers, naming the extensions' schema wherever it is (the search path may not
-- include it):
-- - support_fold(text): lower case without accents ("Zoë" -> "zoe"). IMMUTABLE (unaccent itself is
--   only STABLE: its dictionary could change), so a stored column can be computed with it; unaccent's rules are
--   fixed for the life of the database.
-- - support_similar(a, b): pg_trgm's `%` (similar beyond pg_trgm.similarity_threshold, 0.3 by default),
--   and support_similarity(a, b) its figure. SQL functions the planner inlines, so `%` meets the index.
DO $$
DECLARE
  trgm text := (SELECT quote_ident(n.nspname) FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm');
  ua text := (SELECT quote_ident(n.nspname) FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent');
BEGIN
  EXECUTE format(
    'CREATE FUNCTION support_fold(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS %L',
    format('SELECT lower(%s.unaccent(%L::regdictionary, $1))', ua, ua || '.unaccent'));
  EXECUTE format(
    'CREATE FUNCTION support_similar(a text, b text) RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS %L',
    format('SELECT $1 OPERATOR(%s.%%) $2', trgm));
  EXECUTE format(
    'CREATE FUNCTION support_similarity(a text, b text) RETURNS real LANGUAGE sql STABLE PARALLEL SAFE AS %L',
    format('SELECT %s.similarity($1, $2)', trgm));
END
$$;

-- The folded names, kept by the database on every write: searching compares these plain columns
-- (calling support_fold per row, a SQL function around unaccent, would cost microseconds a row).
ALTER TABLE users ADD COLUMN search_username text GENERATED ALWAYS AS (support_fold(username)) STORED,
                  ADD COLUMN search_global_name text GENERATED ALWAYS AS (support_fold(global_name)) STORED;
ALTER TABLE guilds ADD COLUMN search_name text GENERATED ALWAYS AS (support_fold(name)) STORED;

DO $$
DECLARE
  trgm text := (SELECT quote_ident(n.nspname) FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm');
BEGIN
  -- Trigram indexes (substrings of three letters or more, and similar names) on the folded names.
  EXECUTE format('CREATE INDEX users_search_username_trgm ON users USING gin (search_username %s.gin_trgm_ops)', trgm);
  EXECUTE format('CREATE INDEX users_search_global_name_trgm ON users USING gin (search_global_name %s.gin_trgm_ops)', trgm);
  EXECUTE format('CREATE INDEX guilds_search_name_trgm ON guilds USING gin (search_name %s.gin_trgm_ops)', trgm);
END
$$;
-- Exact names and prefixes (the short queries trigrams cannot answer).
CREATE INDEX users_search_username_prefix ON users (search_username text_pattern_ops);
CREATE INDEX users_search_global_name_prefix ON users (search_global_name text_pattern_ops);
CREATE INDEX guilds_search_name_prefix ON guilds (search_name text_pattern_ops);

-- A user's card: the tickets they opened, newest first.
CREATE INDEX tickets_opener_idx ON tickets (opener_id, opened_at DESC) WHERE opener_id IS NOT NULL;
