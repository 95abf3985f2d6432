// The interceptors that put the API key and a default deadline on calls. Retries are in retry.go.

package damiera

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// apiKeyUnary sends the API key, when there is one, on every unary call.
func apiKeyUnary(key string) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn,
		invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		return invoker(withAPIKey(ctx, key), method, req, reply, cc, opts...)
	}
}

// apiKeyStream sends the API key, when there is one, on every stream (WatchGame, Analyze).
func apiKeyStream(key string) grpc.StreamClientInterceptor {
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string,
		streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		return streamer(withAPIKey(ctx, key), desc, cc, method, opts...)
	}
}

func withAPIKey(ctx context.Context, key string) context.Context {
	if key == "" {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, "x-api-key", key)
}

// deadlineUnary gives a unary call without a deadline the default one, so that no call waits
// forever on a server that went away. Streams keep none: a watch lasts as long as its game.
func deadlineUnary(timeout time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn,
		invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, set := ctx.Deadline(); !set {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, timeout)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}
