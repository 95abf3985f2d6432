// Command protogen does for `go generate` what protoc would do: it compiles the .proto files
// under -proto with protocompile (a protobuf compiler written in Go), hands them to the protoc
// plugins protoc-gen-go and protoc-gen-go-grpc run with `go tool`, and writes what they answer
// under -out. So generating needs Go and nothing else: no protoc, and no buf, whose build from
// source took minutes on a fresh machine where this takes seconds.
//
//	go run ./internal/protogen -proto ../../proto -out gen -import-prefix damiera.dev/client-examples/go/gen
package main

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"
)

// plugins are the protoc plugins run, each as `go tool <plugin>`, in this order.
var plugins = []string{"protoc-gen-go", "protoc-gen-go-grpc"}

func main() {
	protoDir := flag.String("proto", "../../proto", "the folder the .proto files' imports start from")
	outDir := flag.String("out", "gen", "the folder to write the Go files to; emptied first")
	importPrefix := flag.String("import-prefix", "", "the Go import path of -out")
	flag.Parse()
	if err := generate(*protoDir, *outDir, *importPrefix); err != nil {
		fmt.Fprintln(os.Stderr, "protogen:", err)
		os.Exit(1)
	}
}

func generate(protoDir, outDir, importPrefix string) error {
	names, err := protoFiles(protoDir)
	if err != nil {
		return err
	}
	compiler := protocompile.Compiler{
		Resolver: protocompile.WithStandardImports(&protocompile.SourceResolver{
			ImportPaths: []string{protoDir},
		}),
		// The comments of the .proto files become the generated code's doc comments.
		SourceInfoMode: protocompile.SourceInfoStandard,
	}
	compiled, err := compiler.Compile(context.Background(), names...)
	if err != nil {
		return err
	}
	var files []protoreflect.FileDescriptor
	for _, file := range compiled {
		files = append(files, file)
	}
	request := &pluginpb.CodeGeneratorRequest{
		FileToGenerate: names,
		Parameter:      new(pluginParameter(names, importPrefix)),
		ProtoFile:      withImportsFirst(files),
	}
	if err := os.RemoveAll(outDir); err != nil {
		return err
	}
	for _, plugin := range plugins {
		if err := runPlugin(plugin, request, outDir); err != nil {
			return fmt.Errorf("%s: %w", plugin, err)
		}
	}
	return nil
}

// protoFiles lists the .proto files under dir, as their imports name them ("damiera/v1/types.proto").
func protoFiles(dir string) ([]string, error) {
	var names []string
	err := filepath.WalkDir(dir, func(file string, entry fs.DirEntry, err error) error {
		if err != nil || entry.IsDir() || filepath.Ext(file) != ".proto" {
			return err
		}
		name, err := filepath.Rel(dir, file)
		names = append(names, filepath.ToSlash(name))
		return err
	})
	slices.Sort(names)
	if err == nil && len(names) == 0 {
		err = fmt.Errorf("no .proto file under %s", dir)
	}
	return names, err
}

// pluginParameter writes the Go files next to the .proto paths (source_relative) and gives each
// .proto file, which names no go_package, the package of its folder: "damiera/v1/types.proto" is
// import path <prefix>/damiera/v1, package damierav1.
func pluginParameter(names []string, importPrefix string) string {
	options := []string{"paths=source_relative"}
	for _, name := range names {
		folder := path.Dir(name)
		pkg := strings.ReplaceAll(folder, "/", "")
		options = append(options, fmt.Sprintf("M%s=%s/%s;%s", name, importPrefix, folder, pkg))
	}
	return strings.Join(options, ",")
}

// withImportsFirst is every file with the files it imports, each once and after its imports, as
// a plugin expects them.
func withImportsFirst(files []protoreflect.FileDescriptor) []*descriptorpb.FileDescriptorProto {
	var ordered []*descriptorpb.FileDescriptorProto
	seen := make(map[string]bool)
	var visit func(protoreflect.FileDescriptor)
	visit = func(file protoreflect.FileDescriptor) {
		if seen[file.Path()] {
			return
		}
		seen[file.Path()] = true
		imports := file.Imports()
		for i := range imports.Len() {
			visit(imports.Get(i).FileDescriptor)
		}
		ordered = append(ordered, protodesc.ToFileDescriptorProto(file))
	}
	for _, file := range files {
		visit(file)
	}
	return ordered
}
