-- Clocks, aborts and takebacks (issue 19). Games stored before have no time control and no
-- waiting times: they never end by themselves.

-- The time control and the host's waiting times, as JSON (games/clock.rs `Timing`).
ALTER TABLE games ADD COLUMN timing TEXT NOT NULL
    DEFAULT '{"control":{"kind":"none"},"first_move_ms":null,"abandon_after_ms":null,"imported_events":0}';
-- Whether the seats may take moves back by agreement: 0 or 1.
ALTER TABLE games ADD COLUMN takebacks BIGINT NOT NULL DEFAULT 0;
-- When the game ends by itself if nobody acts (a flag, a first move, abandonment); NULL: never,
-- or over.
ALTER TABLE games ADD COLUMN deadline_ms BIGINT;
-- Why the game ended (a win, draw or abort reason); empty while it goes on.
ALTER TABLE games ADD COLUMN reason TEXT NOT NULL DEFAULT '';

-- The referee's work list: the next deadlines.
CREATE INDEX games_by_deadline ON games (deadline_ms);
