// Command check validates Envoy bootstrap files (deploy/envoy/envoy.yaml) against Envoy's own API
// without an Envoy binary: every field name and type (typed_config contents too, for the extension
// types imported below: import any other the config uses), and the API's validation rules on the
// bootstrap's own messages. .ci/deploy-tools builds it into .ci/tools/bin/envoy-check; deploy/check
// runs it.
package main

import (
	"fmt"
	"os"

	bootstrap "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	_ "github.com/envoyproxy/go-control-plane/envoy/extensions/access_loggers/stream/v3"
	_ "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/router/v3"
	_ "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	_ "github.com/envoyproxy/go-control-plane/envoy/extensions/upstreams/http/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"sigs.k8s.io/yaml"
)

func main() {
	for _, path := range os.Args[1:] {
		text, err := os.ReadFile(path)
		if err == nil {
			var json []byte
			if json, err = yaml.YAMLToJSON(text); err == nil {
				var config bootstrap.Bootstrap
				if err = protojson.Unmarshal(json, &config); err == nil {
					err = config.ValidateAll()
				}
			}
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", path, err)
			os.Exit(1)
		}
		fmt.Printf("%s: a valid Envoy bootstrap\n", path)
	}
}
