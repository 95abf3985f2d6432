// The portal's stand-in for its users' accounts: an anonymous session per browser, in a cookie
// the portal signs, so that no one can claim another's session by making up its cookie. A real
// portal uses its accounts' sessions instead. Sessions scope what belongs to one user: their
// Idempotency-Keys (idempotency.go).

package portal

import (
	"crypto/hmac"
	"encoding/base64"
	"net/http"
	"strings"
)

// sessionCookie is the name of the cookie that holds the session.
const sessionCookie = "portal_session"

// withSessions gives every answer to a request without a valid session cookie a new session.
func (p *Portal) withSessions(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := p.sessionOf(r); !ok {
			id := randomID()
			http.SetCookie(w, &http.Cookie{
				Name:     sessionCookie,
				Value:    id + "." + p.sessionSignature(id),
				Path:     "/",
				HttpOnly: true,
				Secure:   r.TLS != nil,
				SameSite: http.SameSiteLaxMode,
			})
		}
		next.ServeHTTP(w, r)
	})
}

// sessionOf is the session of the request's cookie; false when it has none the portal signed.
func (p *Portal) sessionOf(r *http.Request) (string, bool) {
	cookie, err := r.Cookie(sessionCookie)
	if err != nil {
		return "", false
	}
	id, signature, found := strings.Cut(cookie.Value, ".")
	if !found || !hmac.Equal([]byte(signature), []byte(p.sessionSignature(id))) {
		return "", false
	}
	return id, true
}

func (p *Portal) sessionSignature(id string) string {
	return base64.RawURLEncoding.EncodeToString(p.mac("session", id))
}
