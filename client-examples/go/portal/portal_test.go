// The portal against the live Damiera server: games made, played and watched through the
// portal's HTTP API, as its users would.

package portal_test

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"damiera.dev/client-examples/go/damiera"
	damierav1 "damiera.dev/client-examples/go/gen/damiera/v1"
	"damiera.dev/client-examples/go/internal/damieratest"
	"damiera.dev/client-examples/go/portal"
)

// italianOpenings are White's legal moves from the Italian start, in the server's order.
var italianOpenings = []string{"21-17", "22-18", "23-19", "24-20", "21-18", "22-19", "23-20"}

// newUser starts a portal on the given GameService (the live one when nil) for one test.
func newUser(t *testing.T, games damierav1.GameServiceClient) user {
	if games == nil {
		games = damieratest.Connect(t).Games
	}
	server := httptest.NewServer(portal.New(games).Handler())
	t.Cleanup(server.Close)
	return visitor(t, server)
}

// humanGame is a game of two of the portal's users.
var humanGame = portal.CreateRequest{
	Variant: "italian",
	White:   portal.SeatRequest{Name: "Anna"},
	Black:   portal.SeatRequest{Name: "Bruno"},
}

func TestTwoUsersPlayInTurnAndAWatcherSeesEveryMoveInOrder(t *testing.T) {
	anna := newUser(t, nil)
	created := anna.create(humanGame)
	id, seats := created.Game.ID, created.Seats
	if len(seats) != 2 || seats["white"] == "" || seats["black"] == "" || seats["white"] == seats["black"] {
		t.Fatalf("seats = %v, want a handle each for white and black", seats)
	}
	if created.Game.White.Name != "Anna" || created.Game.State.SideToMove != "white" {
		t.Errorf("created game = %+v", created.Game)
	}

	events := anna.watch(id, "")
	var start portal.GameView
	if got := next(t, events, &start); got.kind != "game" || got.id != "0" || len(start.Moves) != 0 {
		t.Fatalf("first event = %s %s %+v, want the game at ply 0", got.kind, got.id, start)
	}

	sequence := []struct{ seat, notation, color string }{
		{"white", "22-18", "white"}, {"black", "12-16", "black"}, {"white", "23-19", "white"},
	}
	for ply, step := range sequence {
		played := anna.move(id, seats[step.seat], step.notation)
		if played.Move.Ply != int32(ply) || played.Move.Color != step.color || played.State.Ply != int32(ply+1) {
			t.Errorf("move %s answered %+v at ply %d", step.notation, played.Move, played.State.Ply)
		}
		var update portal.UpdateView
		got := next(t, events, &update)
		want := []portal.MoveView{{Ply: int32(ply), Color: step.color, Notation: step.notation}}
		if got.kind != "update" || got.id != strconv.Itoa(ply+1) || !reflect.DeepEqual(update.Moves, want) {
			t.Errorf("event after %s = %s %s %+v, want update %d with %+v",
				step.notation, got.kind, got.id, update.Moves, ply+1, want)
		}
	}
	var final portal.GameView
	if code := anna.call("GET", "/games/"+id, "", nil, &final); code != http.StatusOK ||
		final.State.FEN != "B:W18,19,21,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,16" {
		t.Errorf("GET game = %d %+v", code, final.State)
	}
}

func TestIllegalMoveAnswers422WithTheLegalMoves(t *testing.T) {
	anna := newUser(t, nil)
	created := anna.create(humanGame)
	var refusal portal.ErrorView
	code := anna.call("POST", "/games/"+created.Game.ID+"/moves", created.Seats["white"],
		portal.MoveRequest{Move: "22-17"}, &refusal)
	if code != http.StatusUnprocessableEntity || refusal.Error != damiera.ReasonIllegalMove {
		t.Errorf("22-17 answered %d %s, want 422 ILLEGAL_MOVE", code, refusal.Error)
	}
	if !slices.Equal(refusal.LegalMoves, italianOpenings) {
		t.Errorf("legal_moves = %v, want %v", refusal.LegalMoves, italianOpenings)
	}
}

func TestAWrongSeatIsRefused(t *testing.T) {
	anna := newUser(t, nil)
	game := anna.create(humanGame)
	other := anna.create(humanGame)
	moves := "/games/" + game.Game.ID + "/moves"
	opening := portal.MoveRequest{Move: "22-18"}
	for _, refused := range []struct {
		why    string
		handle string
		code   int
		reason string
	}{
		{"Black's seat on White's turn (Damiera refuses)", game.Seats["black"], http.StatusConflict, damiera.ReasonNotYourTurn},
		{"a seat of another game (the portal refuses)", other.Seats["white"], http.StatusForbidden, "NOT_YOUR_GAME"},
		{"a handle the portal never gave", "made-up", http.StatusUnauthorized, "UNKNOWN_SEAT"},
		{"no handle", "", http.StatusUnauthorized, "NO_SEAT"},
	} {
		var refusal portal.ErrorView
		if code := anna.call("POST", moves, refused.handle, opening, &refusal); code != refused.code ||
			refusal.Error != refused.reason {
			t.Errorf("%s: answered %d %s, want %d %s", refused.why, code, refusal.Error, refused.code, refused.reason)
		}
	}
	var game0 portal.GameView
	if anna.call("GET", "/games/"+game.Game.ID, "", nil, &game0); game0.State.Ply != 0 {
		t.Errorf("after the refusals the game is at ply %d, want 0", game0.State.Ply)
	}
}

func TestAMoveForAStalePlyIsRefused(t *testing.T) {
	anna := newUser(t, nil)
	created := anna.create(humanGame)
	anna.move(created.Game.ID, created.Seats["white"], "22-18")
	var refusal portal.ErrorView
	code := anna.call("POST", "/games/"+created.Game.ID+"/moves", created.Seats["black"],
		portal.MoveRequest{Move: "12-16", Ply: new(int32(0))}, &refusal)
	if code != http.StatusConflict || refusal.Error != damiera.ReasonStaleState {
		t.Errorf("a move for ply 0 at ply 1 answered %d %s, want 409 STALE_STATE", code, refusal.Error)
	}
}

func TestAnUnknownGameIsNotFound(t *testing.T) {
	anna := newUser(t, nil)
	var refusal portal.ErrorView
	if code := anna.call("GET", "/games/no-such-game", "", nil, &refusal); code != http.StatusNotFound ||
		refusal.Error != damiera.ReasonGameNotFound {
		t.Errorf("GET answered %d %s, want 404 GAME_NOT_FOUND", code, refusal.Error)
	}
	if code := anna.call("GET", "/games/no-such-game/events", "", nil, &refusal); code != http.StatusNotFound ||
		refusal.Error != damiera.ReasonGameNotFound {
		t.Errorf("GET events answered %d %s, want 404 GAME_NOT_FOUND", code, refusal.Error)
	}
}

func TestTheEngineRepliesToAMove(t *testing.T) {
	client := damieratest.Connect(t)
	anna := newUser(t, client.Games)
	created := anna.create(portal.CreateRequest{
		Variant: "italian",
		White:   portal.SeatRequest{Name: "Anna"},
		Black:   portal.SeatRequest{Engine: &portal.EngineRequest{Level: 1, MoveTimeMS: 100}},
	})
	if len(created.Seats) != 1 || created.Seats["white"] == "" || created.Game.Black.EngineLevel != 1 {
		t.Fatalf("created %+v with seats %v, want only White's handle, the engine at level 1",
			created.Game, created.Seats)
	}
	events := anna.watch(created.Game.ID, "")
	var start portal.GameView
	next(t, events, &start)
	played := anna.move(created.Game.ID, created.Seats["white"], "22-18")

	// The engine's reply may come in the update of White's move or in one of its own.
	var moves []portal.MoveView
	for len(moves) < 2 {
		var update portal.UpdateView
		next(t, events, &update)
		moves = append(moves, update.Moves...)
	}
	reply := moves[1]
	legal, err := client.Rules.ListLegalMoves(t.Context(), &damierav1.ListLegalMovesRequest{
		Variant: damierav1.Variant_VARIANT_ITALIAN, Fen: played.State.FEN,
	})
	if err != nil {
		t.Fatal(err)
	}
	var replies []string
	for _, move := range legal.GetMoves() {
		replies = append(replies, move.GetNotation())
	}
	if len(moves) != 2 || reply.Ply != 1 || reply.Color != "black" || !slices.Contains(replies, reply.Notation) {
		t.Errorf("moves = %+v, want 22-18 then one of Black's %v", moves, replies)
	}
}

func TestEngineLevelZeroShowsAsTheStrongest(t *testing.T) {
	anna := newUser(t, nil)
	created := anna.create(portal.CreateRequest{
		Variant: "italian",
		White:   portal.SeatRequest{Name: "Anna"},
		Black:   portal.SeatRequest{Engine: &portal.EngineRequest{Level: 0, MoveTimeMS: 100}},
	})
	if created.Game.Black.EngineLevel != 20 {
		t.Errorf("an engine at level 0 shows as level %d, want 20", created.Game.Black.EngineLevel)
	}
}

func TestABodyOverTheLimitIsRefused(t *testing.T) {
	anna := newUser(t, nil)
	huge := humanGame
	huge.White.Name = strings.Repeat("A", 10_000)
	var refusal portal.ErrorView
	if code := anna.call("POST", "/games", "", huge, &refusal); code != http.StatusRequestEntityTooLarge ||
		refusal.Error != "BODY_TOO_LARGE" {
		t.Errorf("a 10 kB body answered %d %s, want 413 BODY_TOO_LARGE", code, refusal.Error)
	}
}
