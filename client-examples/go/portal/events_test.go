// The end of a game's event stream: `end` once the game is over, then 204 No Content for a page
// that comes back after it, so that EventSource stops reconnecting.

package portal_test

import (
	"net/http"
	"testing"

	"damiera.dev/client-examples/go/damiera"
	damierav1 "damiera.dev/client-examples/go/gen/damiera/v1"
	"damiera.dev/client-examples/go/internal/damieratest"
	"damiera.dev/client-examples/go/portal"
)

// resignedGame is a game White resigned before any move, made on Damiera directly: the portal
// has no call to resign.
func resignedGame(t *testing.T, client *damiera.Client) string {
	person := func(name string) *damierav1.Seat {
		return &damierav1.Seat{Player: &damierav1.Seat_Person{Person: &damierav1.Person{DisplayName: name}}}
	}
	created, err := client.Games.CreateGame(t.Context(), &damierav1.CreateGameRequest{
		Variant: damierav1.Variant_VARIANT_ITALIAN, White: person("Anna"), Black: person("Bruno"),
	})
	if err != nil {
		t.Fatal(err)
	}
	name := created.GetGame().GetName()
	asWhite := damiera.AsSeat(t.Context(), created.GetWhiteToken())
	if _, err := client.Games.Resign(asWhite, &damierav1.ResignRequest{Name: name}); err != nil {
		t.Fatal(err)
	}
	return name[len("games/"):]
}

// endsWith checks that the next event is `end` with id "over" and that the stream then ends.
func endsWith(t *testing.T, events <-chan event) {
	t.Helper()
	var nothing struct{}
	if got := next(t, events, &nothing); got.kind != "end" || got.id != "over" {
		t.Fatalf("event = %s %s, want end over", got.kind, got.id)
	}
	ends(t, events)
}

func TestTheStreamOfAGameOverEndsAndAPageThatSawTheEndGets204(t *testing.T) {
	client := damieratest.Connect(t)
	anna := newUser(t, client.Games)
	id := resignedGame(t, client)

	events := anna.watch(id, "")
	var whole portal.GameView
	if got := next(t, events, &whole); got.kind != "game" || whole.State.Result != "won" ||
		whole.State.Winner != "black" {
		t.Fatalf("first event = %s %+v, want the game won by Black", got.kind, whole.State)
	}
	endsWith(t, events)

	if response := anna.openEvents(id, "over"); response.StatusCode != http.StatusNoContent {
		t.Errorf("Last-Event-ID over answered %d, want 204", response.StatusCode)
	}
}

func TestAPageThatMissedTheResignationGetsItThenTheEnd(t *testing.T) {
	client := damieratest.Connect(t)
	anna := newUser(t, client.Games)
	id := resignedGame(t, client)

	events := anna.watch(id, "0") // the page saw the start, not the resignation: same ply
	var missed portal.UpdateView
	if got := next(t, events, &missed); got.kind != "update" || got.id != "0" || missed.State.Result != "won" {
		t.Fatalf("first event = %s %s %+v, want update 0 with the game won", got.kind, got.id, missed.State)
	}
	endsWith(t, events)
}
