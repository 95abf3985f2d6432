// Retries of the refusals that the server answers without having acted, by their reason: the
// call was not applied, so sending it again is safe even without a request_id, and it may
// succeed later. These are what the service config (client.go) cannot say, since it retries by
// status code alone: RESOURCE_EXHAUSTED is OVERLOADED but also a message over a size limit, and
// ABORTED is CONTENDED but also STALE_STATE. UNAVAILABLE (STORE_UNAVAILABLE, a lost connection) is
// the service config's.

package damiera

import (
	"context"
	"time"

	"google.golang.org/grpc"
)

// retriedReasons are the refusals worth sending again. STALE_STATE (ABORTED too) is not among
// them: it says the caller's view of the game is out of date, and only the caller can decide
// what to do with the game as it now stands.
var retriedReasons = map[string]bool{
	ReasonContended:   true, // ABORTED: the game changed under the call too often
	ReasonOverloaded:  true, // RESOURCE_EXHAUSTED: every search slot busy
	ReasonRateLimited: true, // RESOURCE_EXHAUSTED: this client is over --rate-limit
}

// pauseWithoutAdvice is the wait before another try when the server sent no RetryInfo.
const pauseWithoutAdvice = 100 * time.Millisecond

// retryUnary tries a unary call up to `attempts` times while the server answers one of
// retriedReasons, waiting as its RetryInfo advises, and never past the call's deadline.
func retryUnary(attempts int) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn,
		invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		for attempt := 1; ; attempt++ {
			err := invoker(ctx, method, req, reply, cc, opts...)
			refusal, decoded := AsError(err)
			if !decoded || !retriedReasons[refusal.Reason] || attempt == attempts {
				return err
			}
			pause := refusal.RetryDelay
			if pause == 0 {
				pause = pauseWithoutAdvice
			}
			select {
			case <-time.After(pause):
			case <-ctx.Done():
				return err
			}
		}
	}
}
