-- Tenants (issue 17): every game belongs to the tenant that made it, and API keys are each bound
-- to a tenant. Games stored before belong to the implicit tenant, `default`.

ALTER TABLE games ADD COLUMN tenant TEXT NOT NULL DEFAULT 'default';
-- The CreateGame/ImportGame call's request id, unique within its tenant: two tenants may send the
-- same id. It replaces `request_id`, which is unique across tenants and stays NULL from now on
-- (SQLite cannot drop a UNIQUE column in a script both databases run).
ALTER TABLE games ADD COLUMN create_request_id TEXT;
UPDATE games SET create_request_id = request_id, request_id = NULL WHERE request_id IS NOT NULL;
CREATE UNIQUE INDEX games_by_tenant_request ON games (tenant, create_request_id);
-- ListGames: a tenant's games, newest first.
CREATE INDEX games_by_tenant_creation ON games (tenant, created_at_ms, id);

-- API keys (`damiera keys`): the secret's SHA-256 only. A revoked key stays, so that the server
-- keeps wanting a key once it has had one.
CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    last_used_at_ms BIGINT,
    revoked_at_ms BIGINT
);
