// A portal that stops as cmd/portal stops it (http.Server.Shutdown with EndStreams registered):
// its event streams end, while a move in flight is played and answered.

package portal_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	damierav1 "damiera.dev/client-examples/go/gen/damiera/v1"
	"damiera.dev/client-examples/go/internal/damieratest"
	"damiera.dev/client-examples/go/portal"
	"google.golang.org/grpc"
)

// heldMoves is the live GameService, but each MakeMove waits for a word on release once it has
// said so on arrived.
type heldMoves struct {
	damierav1.GameServiceClient
	arrived, release chan struct{}
}

func (h *heldMoves) MakeMove(ctx context.Context, request *damierav1.MakeMoveRequest,
	opts ...grpc.CallOption) (*damierav1.MakeMoveResponse, error) {
	h.arrived <- struct{}{}
	<-h.release
	return h.GameServiceClient.MakeMove(ctx, request, opts...)
}

func TestStoppingEndsTheStreamsAndLetsAMoveInFlightFinish(t *testing.T) {
	games := &heldMoves{
		GameServiceClient: damieratest.Connect(t).Games,
		arrived:           make(chan struct{}),
		release:           make(chan struct{}),
	}
	app := portal.New(games)
	server := httptest.NewUnstartedServer(app.Handler())
	server.Config.RegisterOnShutdown(app.EndStreams)
	server.Start()
	t.Cleanup(server.Close)
	anna := visitor(t, server)
	created := anna.create(humanGame)
	events := anna.watch(created.Game.ID, "")
	var start portal.GameView
	next(t, events, &start)

	answered := make(chan int, 1)
	go func() {
		request, _ := http.NewRequest("POST", server.URL+"/games/"+created.Game.ID+"/moves",
			strings.NewReader(`{"move":"22-18"}`))
		request.Header.Set("Authorization", "Bearer "+created.Seats["white"])
		response, err := anna.browser.Do(request)
		if err != nil {
			answered <- 0
			return
		}
		_ = response.Body.Close()
		answered <- response.StatusCode
	}()
	<-games.arrived // the move is in flight

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stopped := make(chan error, 1)
	go func() { stopped <- server.Config.Shutdown(ctx) }()
	ends(t, events)
	close(games.release)
	if code := <-answered; code != http.StatusOK {
		t.Errorf("the move in flight answered %d, want 200", code)
	}
	if err := <-stopped; err != nil {
		t.Errorf("Shutdown: %v", err)
	}
}
