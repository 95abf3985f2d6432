// The seat store: the portal keeps every Damiera seat token on its side and gives the player a
// handle of its own instead. A token never reaches a browser, where a script, a log or a shared
// link could leak it; the portal checks a handle belongs to the game before calling Damiera; and
// it can revoke or move a handle (a session ended, an account closed) without Damiera, which
// shows a token once and keeps only its hash. This store is in memory; a real portal keeps it in
// its database, the tokens encrypted, since a lost token leaves its seat unable to move.

package portal

import (
	"crypto/rand"
	"fmt"
	"log/slog"
	"sync"

	damierav1 "damiera.dev/client-examples/go/gen/damiera/v1"
)

// Seat is one person's place in one game, as the portal keeps it.
type Seat struct {
	// Game is the Damiera resource name, `games/{id}`.
	Game string
	// Color is the side the seat plays.
	Color damierav1.Color
	// token is the Damiera seat token, sent as `authorization: Bearer` on the seat's moves.
	token string
}

// String shows the seat without its token, for %v and %+v, which would print even an
// unexported field.
func (s Seat) String() string {
	return fmt.Sprintf("{Game:%s Color:%s token:[hidden]}", s.Game, s.Color)
}

// GoString shows the seat without its token, for %#v.
func (s Seat) GoString() string {
	return fmt.Sprintf("portal.Seat{Game:%q, Color:%s, token:[hidden]}", s.Game, s.Color)
}

// LogValue logs the seat without its token.
func (s Seat) LogValue() slog.Value {
	return slog.GroupValue(slog.String("game", s.Game), slog.String("color", colorWord(s.Color)))
}

// SeatStore maps seat handles to seats; safe for concurrent use.
type SeatStore struct {
	// mu guards byHandle.
	mu sync.Mutex
	// byHandle holds every seat handed out.
	byHandle map[string]Seat
}

// NewSeatStore makes an empty store.
func NewSeatStore() *SeatStore {
	return &SeatStore{byHandle: make(map[string]Seat)}
}

// Issue keeps a seat's token and answers a new, unguessable handle for it.
func (s *SeatStore) Issue(game string, color damierav1.Color, token string) string {
	handle := randomID()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byHandle[handle] = Seat{Game: game, Color: color, token: token}
	return handle
}

// HandlesOf answers the handles issued for the seats of `game`, by color word ("white",
// "black"): a retried create answers them again, since Damiera gives a seat's token only once.
func (s *SeatStore) HandlesOf(game string) map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	handles := make(map[string]string)
	for handle, seat := range s.byHandle {
		if seat.Game == game {
			handles[colorWord(seat.Color)] = handle
		}
	}
	return handles
}

// String shows how many seats the store holds, never their handles or tokens: fmt does not
// call Seat.String on a map inside a struct's unexported field.
func (s *SeatStore) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprintf("SeatStore{%d seats}", len(s.byHandle))
}

// GoString is String, for %#v.
func (s *SeatStore) GoString() string {
	return s.String()
}

// Lookup answers the seat of a handle.
func (s *SeatStore) Lookup(handle string) (Seat, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	seat, ok := s.byHandle[handle]
	return seat, ok
}

// randomID is 128 random bits as text: a session id or a seat handle.
func randomID() string {
	return rand.Text()
}
