// Package examples is Damiera's Go example client: package damiera connects and decodes errors,
// package portal is a game portal's backend built on it, cmd/portal runs that backend. This file
// only holds the code generation: `go generate` writes the gRPC code of ../../proto to gen/.
//
// buf runs from tools.mod, a module file of its own, so that its many dependencies do not choose
// the versions of the gRPC and protobuf runtimes this module builds with (buf asks for a newer,
// unreleased protobuf). The two protoc plugins run from go.mod, so they match those runtimes.
package examples

//go:generate go tool -modfile=tools.mod buf generate
