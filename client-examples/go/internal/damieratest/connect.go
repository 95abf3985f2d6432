// Package damieratest connects tests to the live server that DAMIERA_ADDR names, as
// client-examples/run-tests sets it; by hand: DAMIERA_ADDR=127.0.0.1:50051 go test -v ./...
package damieratest

import (
	"os"
	"testing"

	"damiera.dev/client-examples/go/damiera"
)

// Connect dials the server of DAMIERA_ADDR (and DAMIERA_API_KEY, when set) for one test, and
// closes the connection when the test ends. Without DAMIERA_ADDR the test fails, saying so.
func Connect(t testing.TB) *damiera.Client {
	t.Helper()
	addr, err := damiera.AddrFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	client, err := damiera.Dial(damiera.Config{Addr: addr, APIKey: os.Getenv("DAMIERA_API_KEY")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Close() })
	return client
}
