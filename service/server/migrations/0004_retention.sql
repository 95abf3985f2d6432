-- Retention (issue 17): the games over for longest, found without reading every game.

CREATE INDEX games_by_state_update ON games (state, updated_at_ms);
