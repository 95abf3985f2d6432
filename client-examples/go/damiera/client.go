// Package damiera is what any Go program that talks to Damiera needs, whatever it serves to its
// own users: a connection with the API key, deadlines and retries set once (this file, with
// Damiera's service config, whose retry policy has grpc-go itself send an idempotent call again
// when it fails UNAVAILABLE; retry.go retries what a status code cannot say), the
// refusals decoded from their status details (errors.go), and a seat's token on a call
// (seat.go). The generated stubs themselves are in ../gen/damiera/v1, made by `go generate`.
package damiera

import (
	"crypto/tls"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"time"

	damierav1 "damiera.dev/client-examples/go/gen/damiera/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

// serviceConfig is Damiera's published gRPC service config, proto/service_config.json, as
// `go generate` copies it here: the default of every connection (the server sends none through
// name resolution).
//
//go:embed service_config.json
var serviceConfig string

// Config says where the server is and how every call to it is made.
type Config struct {
	// Addr is the server's gRPC address, host:port.
	Addr string
	// TLS, when set, encrypts the connection with it; nil speaks plain text, which only suits a
	// loopback or a private network (the server itself takes --tls-cert and --tls-key).
	TLS *tls.Config
	// APIKey is sent as `x-api-key` on every call when set: a server started with --api-key
	// refuses calls without it (API_KEY_REQUIRED).
	APIKey string
	// CallTimeout is the deadline of a unary call made without one, retries included; 0 means
	// 10 s. A search's deadline is part of its budget, so an engine call gets the best move found
	// so far rather than an error.
	CallTimeout time.Duration
	// Attempts bounds the tries of a call the server refused without acting on it, by the
	// refusal's reason (see retry.go); 0 means 4. UNAVAILABLE is the service config's: up to 4
	// attempts within each of these.
	Attempts int
}

// Client holds one connection and a stub per service. gRPC multiplexes every call, streams
// included, over the connection, so one Client serves a whole program.
type Client struct {
	// conn is closed by Close.
	conn *grpc.ClientConn
	// Rules answers stateless questions about positions and moves.
	Rules damierav1.RulesServiceClient
	// Engine searches positions.
	Engine damierav1.EngineServiceClient
	// Games hosts games: create, move, watch.
	Games damierav1.GameServiceClient
}

// Dial makes a Client. The connection itself is opened on the first call.
func Dial(cfg Config) (*Client, error) {
	if cfg.Addr == "" {
		return nil, errors.New("damiera: no server address")
	}
	transport := insecure.NewCredentials()
	if cfg.TLS != nil {
		transport = credentials.NewTLS(cfg.TLS)
	}
	conn, err := grpc.NewClient(cfg.Addr,
		grpc.WithTransportCredentials(transport),
		grpc.WithDefaultServiceConfig(serviceConfig),
		grpc.WithChainUnaryInterceptor(
			apiKeyUnary(cfg.APIKey),
			deadlineUnary(orDefault(cfg.CallTimeout, 10*time.Second)),
			retryUnary(orDefault(cfg.Attempts, 4)),
		),
		grpc.WithChainStreamInterceptor(apiKeyStream(cfg.APIKey)),
	)
	if err != nil {
		return nil, fmt.Errorf("damiera: connecting to %s: %w", cfg.Addr, err)
	}
	return &Client{
		conn:   conn,
		Rules:  damierav1.NewRulesServiceClient(conn),
		Engine: damierav1.NewEngineServiceClient(conn),
		Games:  damierav1.NewGameServiceClient(conn),
	}, nil
}

// Close closes the connection, ending every call and stream still open on it.
func (c *Client) Close() error {
	return c.conn.Close()
}

// AddrFromEnv is the server address in DAMIERA_ADDR, as client-examples/run-tests sets it.
func AddrFromEnv() (string, error) {
	addr := os.Getenv("DAMIERA_ADDR")
	if addr == "" {
		return "", errors.New("DAMIERA_ADDR is not set: start a server (cargo run --release -p damiera-server -- serve) and " +
			"export DAMIERA_ADDR=host:port, or run client-examples/run-tests go")
	}
	return addr, nil
}

func orDefault[T comparable](value, fallback T) T {
	var zero T
	if value == zero {
		return fallback
	}
	return value
}
