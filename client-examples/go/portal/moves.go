// Playing a move: the user shows their seat handle, the portal checks it is a seat of this game
// and sends the move to Damiera with the seat's token. Damiera judges the rest: whose turn it is,
// whether the move is legal, whether the game is still on.

package portal

import (
	"net/http"
	"strings"

	"damiera.dev/client-examples/go/damiera"
	damierav1 "damiera.dev/client-examples/go/gen/damiera/v1"
)

// MoveRequest is the body of POST /games/{id}/moves.
type MoveRequest struct {
	// Move is the move in the variant's notation, in full or short: "22-18", "21x14".
	Move string `json:"move"`
	// Ply, when set, is the number of moves the player saw played: if the game has moved on
	// since, the move is refused (409 STALE_STATE) instead of being played in another position.
	Ply *int32 `json:"ply,omitempty"`
}

// MoveResponse is the answer of POST /games/{id}/moves: the move as stored and the state after
// it. The moves before it are the page's already (its events), so the portal asks Damiera for the
// game without them (MakeMove's default GAME_VIEW_BASIC): the answer costs the same at any ply.
type MoveResponse struct {
	Move  MoveView  `json:"move"`
	State StateView `json:"state"`
}

func (p *Portal) makeMove(w http.ResponseWriter, r *http.Request) {
	seat, ok := p.seatOfRequest(w, r)
	if !ok {
		return
	}
	var body MoveRequest
	if !readJSON(w, r, &body) {
		return
	}
	key, ok := idempotencyKey(w, r)
	if !ok {
		return
	}
	made, err := p.games.MakeMove(damiera.AsSeat(r.Context(), seat.token), &damierav1.MakeMoveRequest{
		Name:        seat.Game,
		Notation:    body.Move,
		ExpectedPly: body.Ply,
		// The seat's retry (same seat, same Idempotency-Key) plays the move once.
		RequestId: p.requestID("seat "+seat.Game+" "+colorWord(seat.Color), key),
	})
	if err != nil {
		writeDamieraError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, MoveResponse{Move: moveView(made.GetPlayedMove()), State: stateView(made.GetGame().GetState())})
}

// seatOfRequest is the seat of the request's `Authorization: Bearer <handle>`, when that is a
// seat of the game in its path; otherwise it answers the refusal and is false.
func (p *Portal) seatOfRequest(w http.ResponseWriter, r *http.Request) (Seat, bool) {
	handle, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !found || handle == "" {
		w.Header().Set("WWW-Authenticate", "Bearer")
		writeError(w, http.StatusUnauthorized, "NO_SEAT", "send your seat handle as Authorization: Bearer")
		return Seat{}, false
	}
	seat, known := p.seats.Lookup(handle)
	if !known {
		writeError(w, http.StatusUnauthorized, "UNKNOWN_SEAT", "this seat handle is not known")
		return Seat{}, false
	}
	if seat.Game != gameName(r) {
		writeError(w, http.StatusForbidden, "NOT_YOUR_GAME", "this seat handle is for another game")
		return Seat{}, false
	}
	return seat, true
}
