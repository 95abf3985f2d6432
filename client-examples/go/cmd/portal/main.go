// Command portal runs the example game portal's backend: its HTTP API on --listen, its games on
// the Damiera server at --damiera.
//
//	go run ./cmd/portal --damiera 127.0.0.1:50051 --listen 127.0.0.1:8080
package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"damiera.dev/client-examples/go/damiera"
	"damiera.dev/client-examples/go/portal"
)

// shutdownGrace is how long the calls in flight have to finish once the portal is told to stop.
const shutdownGrace = 10 * time.Second

func main() {
	listen := flag.String("listen", "127.0.0.1:8080", "the portal's HTTP address")
	server := flag.String("damiera", os.Getenv("DAMIERA_ADDR"), "Damiera's gRPC address, host:port")
	useTLS := flag.Bool("tls", false, "reach Damiera over TLS, trusting the system's certificates")
	flag.Parse()

	config := damiera.Config{Addr: *server, APIKey: os.Getenv("DAMIERA_API_KEY")}
	if *useTLS {
		config.TLS = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	if err := run(*listen, config); err != nil {
		slog.Error("portal stopped", "err", err)
		os.Exit(1)
	}
}

// run serves the portal until SIGINT or SIGTERM, then ends the event streams, lets the other
// calls in flight finish (their Damiera calls too: the connection is closed after them), and
// returns once they have. A second signal stops the portal at once.
func run(listen string, config damiera.Config) error {
	client, err := damiera.Dial(config)
	if err != nil {
		return err
	}
	defer client.Close()

	app := portal.New(client.Games)
	httpServer := &http.Server{
		Addr:              listen,
		Handler:           app.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
	}
	// Shutdown waits for every handler to return, and an event stream lasts as long as its game.
	httpServer.RegisterOnShutdown(app.EndStreams)

	signalled, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- httpServer.ListenAndServe() }()
	slog.Info("portal listening", "addr", listen, "damiera", config.Addr)
	select {
	case err := <-served:
		return err // it could not listen
	case <-signalled.Done():
	}
	stop()
	slog.Info("portal stopping: finishing the calls in flight", "grace", shutdownGrace)
	ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := httpServer.Shutdown(ctx); err != nil {
		return fmt.Errorf("calls still in flight after %v: %w", shutdownGrace, err)
	}
	return nil
}
