// Timed games through the portal, on the live server: the time control asked for, the clocks in
// the game's JSON and in its event stream, and time controls refused.

package portal_test

import (
	"net/http"
	"testing"

	"damiera.dev/client-examples/go/portal"
)

// threePlusTwo is a game of two users under a 3+2 clock.
var threePlusTwo = portal.CreateRequest{
	Variant:     "italian",
	White:       portal.SeatRequest{Name: "Anna"},
	Black:       portal.SeatRequest{Name: "Bruno"},
	TimeControl: &portal.TimeControlRequest{BaseSeconds: 180, IncrementSeconds: 2},
}

// clockOf is a state's clocks, less the deadline's time, which depends on when the test ran.
func clockOf(t *testing.T, state portal.StateView) portal.ClockView {
	t.Helper()
	if state.Clock == nil {
		t.Fatalf("state at ply %d has no clock", state.Ply)
	}
	clock := *state.Clock
	if clock.Deadline == "" {
		t.Errorf("clock %+v has no deadline", clock)
	}
	clock.Deadline = ""
	return clock
}

func TestATimedGameShowsItsClocksInTheGameAndItsEvents(t *testing.T) {
	anna := newUser(t, nil)
	created := anna.create(threePlusTwo)
	id, seats := created.Game.ID, created.Seats
	// No clock runs before each side's first move: the side to move has a window for it.
	firstMove := portal.ClockView{WhiteMS: 180_000, BlackMS: 180_000, DeadlineKind: "first_move"}
	if got := clockOf(t, created.Game.State); got != firstMove {
		t.Errorf("new game's clock = %+v, want %+v", got, firstMove)
	}
	events := anna.watch(id, "")
	var start portal.GameView
	next(t, events, &start)

	// White's first move, made before any clock ran, adds no increment; Black's first is due.
	played := anna.move(id, seats["white"], "22-18")
	if got := clockOf(t, played.State); got != firstMove {
		t.Errorf("clock after White's first move = %+v, want %+v", got, firstMove)
	}
	var update portal.UpdateView
	if next(t, events, &update); clockOf(t, update.State) != firstMove {
		t.Errorf("event after White's first move: clock %+v, want %+v", update.State.Clock, firstMove)
	}

	// Once each side has moved, White's clock runs and its flag can fall.
	played = anna.move(id, seats["black"], "12-16")
	clock := clockOf(t, played.State)
	if clock.Running != "white" || clock.DeadlineKind != "flag" || clock.BlackMS != 180_000 ||
		clock.WhiteMS > 180_000 || clock.WhiteMS < 170_000 {
		t.Errorf("clock after Black's first move = %+v, want White's running from 3:00, Black's at 3:00", clock)
	}
	if next(t, events, &update); update.State.Clock == nil || update.State.Clock.Running != "white" {
		t.Errorf("event after Black's first move: clock %+v, want White's running", update.State.Clock)
	}
}

func TestAnUntimedGameHasNoClock(t *testing.T) {
	anna := newUser(t, nil)
	if created := anna.create(humanGame); created.Game.State.Clock != nil {
		t.Errorf("untimed game's clock = %+v, want none", created.Game.State.Clock)
	}
}

func TestTimeControlsThatAreNotOneKindOrOutOfRangeAreRefused(t *testing.T) {
	anna := newUser(t, nil)
	for _, test := range []struct {
		control    portal.TimeControlRequest
		status     int
		wantReason string
	}{
		{portal.TimeControlRequest{PerMoveSeconds: 30, DaysPerMove: 3}, http.StatusBadRequest, "BAD_TIME_CONTROL"},
		{portal.TimeControlRequest{IncrementSeconds: 2}, http.StatusBadRequest, "BAD_TIME_CONTROL"},
		// Damiera's own range: a base of 1 s to 24 h.
		{portal.TimeControlRequest{BaseSeconds: 100_000}, http.StatusBadRequest, "LIMIT_EXCEEDED"},
	} {
		request := humanGame
		request.TimeControl = &test.control
		var refusal portal.ErrorView
		if code := anna.call("POST", "/games", "", request, &refusal); code != test.status ||
			refusal.Error != test.wantReason {
			t.Errorf("time control %+v answered %d %s, want %d %s",
				test.control, code, refusal.Error, test.status, test.wantReason)
		}
	}
}
