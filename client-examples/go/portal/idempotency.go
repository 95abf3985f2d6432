// Idempotency-Keys as Damiera request ids. Damiera's request ids are UUIDs, shared by every
// caller of the portal's tenant, so the portal never passes a user's key on (another user's same
// key would get the first user's game, and a retried create answers the seats' handles this
// portal issued: create.go): it sends a UUID made from an HMAC of
// the key and its scope (the user's session for a new game, the seat for a move) under the
// portal's secret. Another user's same key is another id, and no one can guess an id the portal
// sends.

package portal

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
)

// maxIdempotencyKey is the longest Idempotency-Key taken, in bytes: a key names a request, it is
// never a document.
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
// Idempotency-Key, a UUID made of its HMAC with the scope, so that the user's retry is the same
// call; without one, a random UUID, which still makes the portal's own retries
// (../damiera/retry.go) safe.
func (p *Portal) requestID(scope, key string) string {
	if key == "" {
		var random [16]byte
		rand.Read(random[:])
		return uuidText(random[:], 4)
	}
	return uuidText(p.mac("request", scope, key)[:16], 8)
}

// uuidText writes 16 bytes as a UUID of the given version (4: random, 8: made by the portal,
// RFC 9562), 8-4-4-4-12 hex digits.
func uuidText(b []byte, version byte) string {
	var u [16]byte
	copy(u[:], b)
	u[6] = u[6]&0x0f | version<<4
	u[8] = u[8]&0x3f | 0x80 // the RFC's variant
	h := hex.EncodeToString(u[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
