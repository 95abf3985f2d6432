// Running one protoc plugin: the CodeGeneratorRequest on its standard input, the
// CodeGeneratorResponse from its standard output, and the files it answers written out.
package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"
)

// runPlugin runs `go tool <plugin>` (a tool of this module's go.mod, so the plugin is the very
// version of the runtime the generated code builds with) and writes its files under outDir.
func runPlugin(plugin string, request *pluginpb.CodeGeneratorRequest, outDir string) error {
	input, err := proto.Marshal(request)
	if err != nil {
		return err
	}
	var output bytes.Buffer
	command := exec.Command("go", "tool", plugin)
	command.Stdin, command.Stdout, command.Stderr = bytes.NewReader(input), &output, os.Stderr
	if err := command.Run(); err != nil {
		return err
	}
	var response pluginpb.CodeGeneratorResponse
	if err := proto.Unmarshal(output.Bytes(), &response); err != nil {
		return err
	}
	if response.Error != nil {
		return errors.New(response.GetError())
	}
	for _, file := range response.GetFile() {
		target := filepath.Join(outDir, filepath.FromSlash(file.GetName()))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, []byte(file.GetContent()), 0o644); err != nil {
			return err
		}
	}
	return nil
}
