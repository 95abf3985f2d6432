-- Hosted games: a header with a summary of the replayed game, and the append-only event log.
-- One script for SQLite and PostgreSQL, so only BIGINT and TEXT: times are milliseconds since the
-- Unix epoch, booleans are 0 or 1, seats are JSON text.

CREATE TABLE games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    forfeit_on_capture_fault BIGINT NOT NULL,
    first_mover TEXT NOT NULL,
    white_seat TEXT NOT NULL,
    black_seat TEXT NOT NULL,
    white_token_hash TEXT,
    black_token_hash TEXT,
    created_at_ms BIGINT NOT NULL,
    -- The CreateGame/ImportGame call's request id: a retry finds the game it made.
    request_id TEXT UNIQUE,
    -- The number of events; appends compare and bump it.
    version BIGINT NOT NULL,
    ply BIGINT NOT NULL,
    state TEXT NOT NULL,
    engine_due BIGINT NOT NULL,
    -- Until when a server has the engine's move of this version in hand.
    engine_lease_until_ms BIGINT NOT NULL,
    updated_at_ms BIGINT NOT NULL
);

-- ListGames: newest first.
CREATE INDEX games_by_creation ON games (created_at_ms, id);
-- The engine's work list: ongoing games it has to act in, oldest change first.
CREATE INDEX games_engine_due ON games (engine_due, state, updated_at_ms);

CREATE TABLE events (
    game_id TEXT NOT NULL REFERENCES games (id),
    -- 1 for the first event: the game's version once it is stored.
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    color TEXT NOT NULL,
    text TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    request_id TEXT,
    PRIMARY KEY (game_id, seq),
    UNIQUE (game_id, request_id)
);
