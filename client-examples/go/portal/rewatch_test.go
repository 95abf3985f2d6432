// The portal's watch survives a lost stream: a GameService whose first WatchGame stream is cut
// with UNAVAILABLE, as a server shutting down cuts it, stands between the portal and Damiera. And
// it gives up on a server that stays down rather than leave a page waiting without an answer.

package portal_test

import (
	"context"
	"net/http"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	damierav1 "damiera.dev/client-examples/go/gen/damiera/v1"
	"damiera.dev/client-examples/go/internal/damieratest"
	"damiera.dev/client-examples/go/portal"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// cutFirstWatch is the live GameService, but its first WatchGame stream ends with UNAVAILABLE
// after one message. It records the from_ply of every watch.
type cutFirstWatch struct {
	damierav1.GameServiceClient
	// mu guards fromPlies.
	mu sync.Mutex
	// fromPlies holds each watch's from_ply, -1 for none.
	fromPlies []int
}

func (c *cutFirstWatch) WatchGame(ctx context.Context, request *damierav1.WatchGameRequest,
	opts ...grpc.CallOption) (grpc.ServerStreamingClient[damierav1.WatchGameResponse], error) {
	c.mu.Lock()
	first := len(c.fromPlies) == 0
	fromPly := -1
	if request.FromPly != nil {
		fromPly = int(request.GetFromPly())
	}
	c.fromPlies = append(c.fromPlies, fromPly)
	c.mu.Unlock()
	if !first {
		return c.GameServiceClient.WatchGame(ctx, request, opts...)
	}
	ctx, cancel := context.WithCancel(ctx)
	stream, err := c.GameServiceClient.WatchGame(ctx, request, opts...)
	return &cutStream{ServerStreamingClient: stream, cancel: cancel}, err
}

func (c *cutFirstWatch) watches() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.fromPlies)
}

// cutStream passes one message on, then ends as a server that shuts down ends a watch.
type cutStream struct {
	grpc.ServerStreamingClient[damierav1.WatchGameResponse]
	// cancel ends the real stream under it.
	cancel context.CancelFunc
	// passed is set once the one message went through.
	passed bool
}

func (s *cutStream) Recv() (*damierav1.WatchGameResponse, error) {
	if s.passed {
		s.cancel()
		return nil, status.Error(codes.Unavailable, "the server is shutting down: watch again with from_ply")
	}
	s.passed = true
	return s.ServerStreamingClient.Recv()
}

func TestTheWatchResumesFromTheMovesItHasAfterUnavailable(t *testing.T) {
	games := &cutFirstWatch{GameServiceClient: damieratest.Connect(t).Games}
	anna := newUser(t, games)
	created := anna.create(humanGame)
	id := created.Game.ID
	anna.move(id, created.Seats["white"], "22-18")

	events := anna.watch(id, "")
	var whole portal.GameView
	if got := next(t, events, &whole); got.kind != "game" || got.id != "1" || len(whole.Moves) != 1 {
		t.Fatalf("first event = %s %s with %d moves, want the game at ply 1", got.kind, got.id, len(whole.Moves))
	}
	// The cut: the portal watches again from ply 1 and gets the state with no move in between.
	var resumed portal.UpdateView
	if got := next(t, events, &resumed); got.kind != "update" || got.id != "1" || len(resumed.Moves) != 0 {
		t.Fatalf("event after the cut = %s %s %+v, want update 1 with no moves", got.kind, got.id, resumed.Moves)
	}
	anna.move(id, created.Seats["black"], "12-16")
	var update portal.UpdateView
	want := []portal.MoveView{{Ply: 1, Color: "black", Notation: "12-16"}}
	if got := next(t, events, &update); got.id != "2" || !reflect.DeepEqual(update.Moves, want) {
		t.Errorf("event after 12-16 = %s %s %+v, want update 2 with %+v", got.kind, got.id, update.Moves, want)
	}
	if got := games.watches(); !slices.Equal(got, []int{-1, 1}) {
		t.Errorf("watches from ply %v, want [-1 1]: the whole game, then from ply 1", got)
	}
}

func TestAPageResumesWithLastEventID(t *testing.T) {
	anna := newUser(t, nil)
	created := anna.create(humanGame)
	id := created.Game.ID
	anna.move(id, created.Seats["white"], "22-18")
	anna.move(id, created.Seats["black"], "12-16")

	events := anna.watch(id, "1") // the page had seen one move
	var missed portal.UpdateView
	want := []portal.MoveView{{Ply: 1, Color: "black", Notation: "12-16"}}
	if got := next(t, events, &missed); got.kind != "update" || got.id != "2" || !reflect.DeepEqual(missed.Moves, want) {
		t.Errorf("first event = %s %s %+v, want update 2 with %+v", got.kind, got.id, missed.Moves, want)
	}
	if response := anna.openEvents(id, "not-a-ply"); response.StatusCode != http.StatusBadRequest {
		t.Errorf("Last-Event-ID not-a-ply answered %d, want 400", response.StatusCode)
	}
}

// downGames is a GameService whose server is down: every WatchGame fails with UNAVAILABLE.
type downGames struct {
	damierav1.GameServiceClient
	// watches counts the WatchGame calls.
	watches atomic.Int32
}

func (d *downGames) WatchGame(context.Context, *damierav1.WatchGameRequest,
	...grpc.CallOption) (grpc.ServerStreamingClient[damierav1.WatchGameResponse], error) {
	d.watches.Add(1)
	return nil, status.Error(codes.Unavailable, "connection refused")
}

func TestEventsAnswer503WhenTheServerStaysDown(t *testing.T) {
	games := &downGames{}
	anna := newUser(t, games)
	response := anna.openEvents("g1", "")
	if response.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("GET events answered %d, want 503", response.StatusCode)
	}
	if got := games.watches.Load(); got != 6 {
		t.Errorf("watched %d times, want 6 before giving up", got)
	}
}
