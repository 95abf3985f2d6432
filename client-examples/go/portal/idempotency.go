// Idempotency-Keys as Damiera request ids. Damiera's request ids are global and a retry of
// CreateGame with one answers the game with fresh seat tokens, so the portal never passes a
// user's key on: it sends an HMAC of the key and its scope (the user's session for a new game,
// the seat for a move) under the portal's secret. Another user's same key is another id, and no
// one can guess an id the portal sends.

package portal

import (
	"encoding/hex"
	"net/http"
)

// maxIdempotencyKey is the longest Idempotency-Key taken, in bytes: Damiera's limit for its own
// request ids.
const maxIdempotencyKey = 64

// idempotencyKey is the request's Idempotency-Key, "" when it has none; otherwise it answers the
// refusal of a key too long and is false.
func idempotencyKey(w http.ResponseWriter, r *http.Request) (string, bool) {
	key := r.Header.Get("Idempotency-Key")
	if len(key) > maxIdempotencyKey {
		writeError(w, http.StatusBadRequest, "BAD_IDEMPOTENCY_KEY", "Idempotency-Key: at most 64 characters")
		return "", false
	}
	return key, true
}

// requestID is the request_id of the Damiera call made for a user's request: for an
// Idempotency-Key, its HMAC with the scope (64 hex digits, Damiera's most), so that the user's
// retry is the same call; without one, a fresh id, which still makes the portal's own retries
// (../damiera/retry.go) safe.
func (p *Portal) requestID(scope, key string) string {
	if key == "" {
		return randomID()
	}
	return hex.EncodeToString(p.mac("request", scope, key))
}
