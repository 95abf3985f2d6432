// Package portal is the backend of a game portal whose own users play draughts on Damiera. The
// portal's users talk HTTP and JSON to it, never to Damiera: it creates the games (create.go),
// keeps each seat's Damiera token and hands its user a seat handle of its own (seats.go), plays
// their moves (moves.go), relays the games to them as Server-Sent Events (events.go, over the
// reconnecting watch of watch.go), and answers Damiera's refusals as HTTP errors (errors.go). A
// signed session cookie (sessions.go) makes each user's Idempotency-Keys their own (idempotency.go).
package portal

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"net/http"

	damierav1 "damiera.dev/client-examples/go/gen/damiera/v1"
)

// Portal serves the portal's HTTP API.
type Portal struct {
	// games is Damiera's GameService; every game of the portal lives there.
	games damierav1.GameServiceClient
	// seats maps the handles given to users to the Damiera seat tokens kept here.
	seats *SeatStore
	// streams ends when the portal stops, and with it every event stream, which would otherwise
	// last as long as its game; EndStreams ends it.
	streams context.Context
	// endStreams ends streams.
	endStreams context.CancelFunc
	// secret signs session cookies and derives request ids. It is made anew with the Portal, as
	// the seat store is; a real portal keeps it in its secret store.
	secret []byte
}

// New makes a Portal on a GameService client, with an empty seat store and a new secret.
func New(games damierav1.GameServiceClient) *Portal {
	streams, endStreams := context.WithCancel(context.Background())
	secret := make([]byte, 32)
	rand.Read(secret) // never fails: it would crash the program first
	return &Portal{
		games:      games,
		seats:      NewSeatStore(),
		streams:    streams,
		endStreams: endStreams,
		secret:     secret,
	}
}

// mac is the HMAC-SHA256 of parts, each ended by a NUL (which no header or cookie holds), under
// the portal's secret: no one without the secret can make or foresee one.
func (p *Portal) mac(parts ...string) []byte {
	hash := hmac.New(sha256.New, p.secret)
	for _, part := range parts {
		hash.Write([]byte(part))
		hash.Write([]byte{0})
	}
	return hash.Sum(nil)
}

// EndStreams ends every event stream, open or opened later, for a portal that stops: give it to
// http.Server.RegisterOnShutdown, since Shutdown waits for every handler to return. The pages
// reconnect with their Last-Event-ID, to another of the portal's instances. Other calls are not
// touched: Shutdown lets them finish.
func (p *Portal) EndStreams() {
	p.endStreams()
}

// Handler is the portal's HTTP API:
//
//	POST /games                 create a game; answers a seat handle per person
//	GET  /games/{id}            the game as it stands
//	POST /games/{id}/moves      play a move for the seat of the `Authorization: Bearer <handle>`
//	GET  /games/{id}/events     the game as Server-Sent Events, resumable with Last-Event-ID
func (p *Portal) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /games", p.createGame)
	mux.HandleFunc("GET /games/{id}", p.getGame)
	mux.HandleFunc("POST /games/{id}/moves", p.makeMove)
	mux.HandleFunc("GET /games/{id}/events", p.streamEvents)
	return p.withSessions(mux)
}
