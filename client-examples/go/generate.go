// Package examples is Damiera's Go example client: package damiera connects and decodes errors,
// package portal is a game portal's backend built on it, cmd/portal runs that backend. This file
// holds only the code generation: `go generate` writes the gRPC code of ../../proto to gen/
// (internal/protogen says how).
package examples

//go:generate go run ./internal/protogen -proto ../../proto -out gen -import-prefix damiera.dev/client-examples/go/gen
