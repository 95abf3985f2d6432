// Creating a game (a person against a person, or against the engine) and reading one.

package portal

import (
	"net/http"
	"time"

	damierav1 "damiera.dev/client-examples/go/gen/damiera/v1"
	"google.golang.org/protobuf/types/known/durationpb"
)

// CreateRequest is the body of POST /games.
type CreateRequest struct {
	// Variant is "italian", "triestina" or "turkish".
	Variant string      `json:"variant"`
	White   SeatRequest `json:"white"`
	Black   SeatRequest `json:"black"`
	// TimeControl is the game's clock; absent: untimed.
	TimeControl *TimeControlRequest `json:"time_control,omitempty"`
}

// SeatRequest says who sits at a seat: a person with a name, or the engine.
type SeatRequest struct {
	Name   string         `json:"name,omitempty"`
	Engine *EngineRequest `json:"engine,omitempty"`
}

// EngineRequest sets the engine's strength: a level from 1 to 20 (0: the strongest, 20) and its
// time per move.
type EngineRequest struct {
	Level      int32 `json:"level"`
	MoveTimeMS int32 `json:"move_time_ms"`
}

// CreateResponse is the answer of POST /games.
type CreateResponse struct {
	Game GameView `json:"game"`
	// Seats maps "white" and "black" to the handle of each person's seat. This example answers
	// both to the caller; a portal with accounts hands each handle to its own player's session.
	Seats map[string]string `json:"seats"`
}

func (p *Portal) createGame(w http.ResponseWriter, r *http.Request) {
	var body CreateRequest
	if !readJSON(w, r, &body) {
		return
	}
	variant, ok := parseVariant(body.Variant)
	if !ok {
		writeError(w, http.StatusBadRequest, "UNKNOWN_VARIANT", "variant: italian, triestina or turkish")
		return
	}
	timeControl, ok := timeControlOf(body.TimeControl)
	if !ok {
		writeError(w, http.StatusBadRequest, "BAD_TIME_CONTROL",
			"time_control: one of base_s (with increment_s), per_move_s or days_per_move")
		return
	}
	key, ok := idempotencyKey(w, r)
	if !ok {
		return
	}
	session, ok := p.sessionOf(r)
	if key != "" && !ok {
		// Unscoped, the key could be anyone's; the answer carries a session for the retry.
		writeError(w, http.StatusBadRequest, "NO_SESSION",
			"an Idempotency-Key needs the session cookie of the portal's answers: send this request again")
		return
	}
	created, err := p.games.CreateGame(r.Context(), &damierav1.CreateGameRequest{
		Variant: variant,
		White:   seatOf(body.White),
		Black:   seatOf(body.Black),
		Options: &damierav1.GameOptions{TimeControl: timeControl},
		// The user's retry (same session, same Idempotency-Key) creates no second game.
		RequestId: p.requestID("session "+session, key),
	})
	if err != nil {
		writeDamieraError(w, r, err)
		return
	}
	game := created.GetGame()
	if created.GetTokensAlreadyIssued() {
		// A retry (the user's, with the same Idempotency-Key, or the connection's): Damiera gave
		// the tokens to the first call only, and this portal keeps the handles it made of them.
		seats := p.seats.HandlesOf(game.GetName())
		if len(seats) == 0 && (body.White.Engine == nil || body.Black.Engine == nil) {
			writeError(w, http.StatusBadGateway, "SEATS_LOST",
				"the game was made but its seat tokens were lost on the way: create another game")
			return
		}
		writeJSON(w, http.StatusCreated, CreateResponse{Game: gameView(game), Seats: seats})
		return
	}
	seats := make(map[string]string)
	for color, token := range map[damierav1.Color]string{
		damierav1.Color_COLOR_WHITE: created.GetWhiteToken(),
		damierav1.Color_COLOR_BLACK: created.GetBlackToken(),
	} {
		if token != "" { // an engine's seat has no token
			seats[colorWord(color)] = p.seats.Issue(game.GetName(), color, token)
		}
	}
	writeJSON(w, http.StatusCreated, CreateResponse{Game: gameView(game), Seats: seats})
}

func (p *Portal) getGame(w http.ResponseWriter, r *http.Request) {
	got, err := p.games.GetGame(r.Context(), &damierav1.GetGameRequest{Name: gameName(r)})
	if err != nil {
		writeDamieraError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, gameView(got.GetGame()))
}

func seatOf(seat SeatRequest) *damierav1.Seat {
	if seat.Engine == nil {
		return &damierav1.Seat{Player: &damierav1.Seat_Person{
			Person: &damierav1.Person{DisplayName: seat.Name},
		}}
	}
	engine := &damierav1.EngineSeat{Level: seat.Engine.Level}
	if seat.Engine.MoveTimeMS != 0 {
		moveTime := time.Duration(seat.Engine.MoveTimeMS) * time.Millisecond
		engine.Limits = &damierav1.SearchLimits{MoveTime: durationpb.New(moveTime)}
	}
	return &damierav1.Seat{Player: &damierav1.Seat_Engine{Engine: engine}}
}

// gameName is the Damiera resource name of the game in the request's path.
func gameName(r *http.Request) string {
	return "games/" + r.PathValue("id")
}
