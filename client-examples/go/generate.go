// Package examples is Damiera's Go example client: package damiera connects and decodes errors,
// package portal is a game portal's backend built on it, cmd/portal runs that backend. This file
// holds only the code generation: `go generate` runs buf (buf.gen.yaml) to write the gRPC code of
// ../../proto to gen/, with the protoc plugins of go.mod's `tool` lines. buf is the prebuilt
// binary of the npm package @bufbuild/buf, pinned here and fetched by npx on first use.
package examples

//go:generate npx --yes @bufbuild/buf@1.75.0 generate
