// A seat's token never shows when a seat or the store is printed or logged.

package portal_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	damierav1 "damiera.dev/client-examples/go/gen/damiera/v1"
	"damiera.dev/client-examples/go/portal"
)

func TestASeatsTokenIsNeverPrintedOrLogged(t *testing.T) {
	const token = "the-seat-token"
	store := portal.NewSeatStore()
	handle := store.Issue("games/g1", damierav1.Color_COLOR_WHITE, token)
	seat, _ := store.Lookup(handle)

	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("seat", "seat", seat)
	shown := map[string]string{
		"%v":    fmt.Sprintf("%v", seat),
		"%+v":   fmt.Sprintf("%+v", seat),
		"%#v":   fmt.Sprintf("%#v", seat),
		"&%+v":  fmt.Sprintf("%+v", &seat),
		"store": fmt.Sprintf("%+v %#v", store, store),
		"slog":  logged.String(),
	}
	for how, text := range shown {
		if strings.Contains(text, token) || strings.Contains(text, handle) {
			t.Errorf("%s shows a token or handle: %s", how, text)
		}
	}
	if !strings.Contains(shown["%+v"], "games/g1") || !strings.Contains(shown["slog"], `"game":"games/g1"`) {
		t.Errorf("the seat's game is not shown: %s, %s", shown["%+v"], shown["slog"])
	}
}
