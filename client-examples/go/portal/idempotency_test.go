// Idempotency-Keys are their user's own: a retry with one answers the same game or move, and
// another user's same key is another request.

package portal_test

import (
	"net/http"
	"strings"
	"testing"

	"damiera.dev/client-examples/go/portal"
)

// keyed is the headers of a request with an Idempotency-Key.
func keyed(key string) http.Header {
	return http.Header{"Idempotency-Key": {key}}
}

// createKeyed makes a game with an Idempotency-Key and fails the test unless it is created.
func (u user) createKeyed(key string) portal.CreateResponse {
	u.t.Helper()
	var created portal.CreateResponse
	if code := u.callWith(keyed(key), "POST", "/games", humanGame, &created); code != http.StatusCreated {
		u.t.Fatalf("POST /games with key %q answered %d", key, code)
	}
	return created
}

func TestAnIdempotencyKeyIsItsUsersOwn(t *testing.T) {
	anna := newUser(t, nil)
	bruno := visitor(t, anna.portal)
	var refusal portal.ErrorView
	// The first call, without a session, is refused, and its answer starts one.
	if code := bruno.callWith(keyed("1"), "POST", "/games", humanGame, &refusal); code != http.StatusBadRequest ||
		refusal.Error != "NO_SESSION" {
		t.Errorf("a key without a session answered %d %s, want 400 NO_SESSION", code, refusal.Error)
	}
	anna.call("GET", "/games/none", "", nil, &refusal) // any answer starts a session

	annas := anna.createKeyed("1")
	retried := anna.createKeyed("1")
	brunos := bruno.createKeyed("1")
	if retried.Game.ID != annas.Game.ID {
		t.Errorf("Anna's retry made game %s, want her game %s", retried.Game.ID, annas.Game.ID)
	}
	if brunos.Game.ID == annas.Game.ID {
		t.Fatalf("Bruno's request with Anna's key got her game %s", annas.Game.ID)
	}
	// The seats stay Anna's: the handles of her retry play her game. A move's key is its seat's
	// own: White's retry answers the move played, and Black's same key is another move.
	moves := "/games/" + annas.Game.ID + "/moves"
	for _, step := range []struct {
		seat, move string
		ply        int32
	}{{"white", "22-18", 0}, {"white", "22-18", 0}, {"black", "12-16", 1}} {
		header := keyed("m")
		header.Set("Authorization", "Bearer "+retried.Seats[step.seat])
		var played portal.MoveResponse
		code := anna.callWith(header, "POST", moves, portal.MoveRequest{Move: step.move}, &played)
		if code != http.StatusOK || played.Move.Ply != step.ply || played.State.Ply != step.ply+1 {
			t.Errorf("%s %s with key m answered %d, move at ply %d, game at ply %d; want 200, %d, %d",
				step.seat, step.move, code, played.Move.Ply, played.State.Ply, step.ply, step.ply+1)
		}
	}
}

func TestAnIdempotencyKeyOver64CharactersIsRefused(t *testing.T) {
	anna := newUser(t, nil)
	var refusal portal.ErrorView
	anna.call("GET", "/games/none", "", nil, &refusal)
	code := anna.callWith(keyed(strings.Repeat("k", 65)), "POST", "/games", humanGame, &refusal)
	if code != http.StatusBadRequest || refusal.Error != "BAD_IDEMPOTENCY_KEY" {
		t.Errorf("a 65-character key answered %d %s, want 400 BAD_IDEMPOTENCY_KEY", code, refusal.Error)
	}
}
