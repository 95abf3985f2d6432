// Command portal runs the example game portal's backend: its HTTP API on --listen, its games on
// the Damiera server at --damiera.
//
//	go run ./cmd/portal --damiera 127.0.0.1:50051 --listen 127.0.0.1:8080
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"damiera.dev/client-examples/go/damiera"
	"damiera.dev/client-examples/go/portal"
)

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

// run serves the portal until SIGINT or SIGTERM, then lets the calls in flight finish.
func run(listen string, config damiera.Config) error {
	client, err := damiera.Dial(config)
	if err != nil {
		return err
	}
	defer client.Close()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	httpServer := &http.Server{
		Addr:              listen,
		Handler:           portal.New(client.Games).Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		// Event streams last as long as their games; Shutdown does not end them, this does.
		BaseContext: func(net.Listener) context.Context { return ctx },
	}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = httpServer.Shutdown(shutdown)
	}()
	slog.Info("portal listening", "addr", listen, "damiera", config.Addr)
	if err := httpServer.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
