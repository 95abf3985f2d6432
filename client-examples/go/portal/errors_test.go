// A cancelled Damiera call: answered nothing when its user went away, 503 when the portal's own
// connection closed, and never logged as Damiera refusing the portal.

package portal_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	damierav1 "damiera.dev/client-examples/go/gen/damiera/v1"
	"damiera.dev/client-examples/go/portal"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// cancellingGames is a GameService whose GetGame is always cancelled: by the caller's context
// when it has ended, otherwise as a closing connection cancels it.
type cancellingGames struct {
	damierav1.GameServiceClient
}

func (cancellingGames) GetGame(ctx context.Context, _ *damierav1.GetGameRequest,
	_ ...grpc.CallOption) (*damierav1.GetGameResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, status.FromContextError(err).Err()
	}
	return nil, status.Error(codes.Canceled, "grpc: the client connection is closing")
}

// captureLogs sends the default logger's records to the returned buffer until the test ends.
func captureLogs(t *testing.T) *bytes.Buffer {
	var logged bytes.Buffer
	previous := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logged, nil)))
	t.Cleanup(func() { slog.SetDefault(previous) })
	return &logged
}

func TestAUserWhoWentAwayIsAnsweredNothingAndNotLogged(t *testing.T) {
	logged := captureLogs(t)
	handler := portal.New(cancellingGames{}).Handler()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	answer := httptest.NewRecorder()
	handler.ServeHTTP(answer, httptest.NewRequestWithContext(ctx, "GET", "/games/g1", nil))
	if answer.Body.Len() != 0 || logged.Len() != 0 {
		t.Errorf("answered %q and logged %q, want nothing", answer.Body, logged)
	}
}

func TestACallCancelledByTheClosingConnectionIs503AndNotLogged(t *testing.T) {
	logged := captureLogs(t)
	handler := portal.New(cancellingGames{}).Handler()
	answer := httptest.NewRecorder()
	handler.ServeHTTP(answer, httptest.NewRequest("GET", "/games/g1", nil))
	if answer.Code != http.StatusServiceUnavailable || logged.Len() != 0 {
		t.Errorf("answered %d and logged %q, want 503 and nothing logged", answer.Code, logged)
	}
}
