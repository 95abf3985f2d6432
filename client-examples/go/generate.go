// Package examples is Damiera's Go example client: package damiera connects and decodes errors,
// package portal is a game portal's backend built on it, cmd/portal runs that backend. This file
// holds only the code generation: `go generate` runs buf (buf.gen.yaml) to write the gRPC code of
// ../../proto to gen/, with the protoc plugins of go.mod's `tool` lines. buf is the prebuilt
// binary of the npm package @bufbuild/buf, installed into buf/node_modules by `npm ci`, which
// checks it against the integrity hashes of buf/package-lock.json as go checks modules against
// go.sum. Its install script is not run: the package's bin/buf finds its platform's binary
// without it. Damiera's published service config (../../proto/service_config.json) is copied
// into package damiera, which embeds it.
package examples

//go:generate npm ci --prefix buf --ignore-scripts --no-audit --no-fund --silent
//go:generate buf/node_modules/.bin/buf generate
//go:generate cp ../../proto/service_config.json damiera/service_config.json
