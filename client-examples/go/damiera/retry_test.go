// The client's interceptors and service config against a stand-in RulesService on loopback that
// refuses as Damiera does: which refusals are tried again, how often, after how long, and with
// the API key.

package damiera_test

import (
	"context"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"damiera.dev/client-examples/go/damiera"
	damierav1 "damiera.dev/client-examples/go/gen/damiera/v1"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"
	"google.golang.org/protobuf/types/known/durationpb"
)

// refusingRules answers ListVariants with `refusal` for its first `refusals` calls, then
// with an empty list, and records the API key of every call.
type refusingRules struct {
	damierav1.UnimplementedRulesServiceServer
	refusal  *status.Status
	refusals int
	// mu guards apiKeys.
	mu sync.Mutex
	// apiKeys holds the x-api-key of each call, in order.
	apiKeys []string
}

func (r *refusingRules) ListVariants(ctx context.Context, _ *damierav1.ListVariantsRequest) (*damierav1.ListVariantsResponse, error) {
	incoming, _ := metadata.FromIncomingContext(ctx)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.apiKeys = append(r.apiKeys, incoming.Get("x-api-key")...)
	if len(r.apiKeys) <= r.refusals {
		return nil, r.refusal.Err()
	}
	return &damierav1.ListVariantsResponse{}, nil
}

// seen is the x-api-key of each call so far.
func (r *refusingRules) seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.apiKeys)
}

// refusal is a status as Damiera builds them: an ErrorInfo, and a RetryInfo when retryAfter > 0.
func refusal(t *testing.T, code codes.Code, reason string, retryAfter time.Duration) *status.Status {
	details := []protoadapt.MessageV1{&errdetails.ErrorInfo{Reason: reason, Domain: "damiera.dev"}}
	if retryAfter > 0 {
		details = append(details, &errdetails.RetryInfo{RetryDelay: durationpb.New(retryAfter)})
	}
	withDetails, err := status.New(code, reason).WithDetails(details...)
	if err != nil {
		t.Fatal(err)
	}
	return withDetails
}

// serve starts the stand-in on a free loopback port and connects a Client to it with an API key.
func serve(t *testing.T, rules *refusingRules) *damiera.Client {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	server := grpc.NewServer()
	damierav1.RegisterRulesServiceServer(server, rules)
	go func() { _ = server.Serve(listener) }()
	t.Cleanup(server.Stop)
	client, err := damiera.Dial(damiera.Config{Addr: listener.Addr().String(), APIKey: "portal-key"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Close() })
	return client
}

func TestOverloadedIsTriedAgainAfterItsRetryInfo(t *testing.T) {
	rules := &refusingRules{
		refusal:  refusal(t, codes.ResourceExhausted, damiera.ReasonOverloaded, 50*time.Millisecond),
		refusals: 2,
	}
	client := serve(t, rules)
	began := time.Now()
	if _, err := client.Rules.ListVariants(context.Background(), &damierav1.ListVariantsRequest{}); err != nil {
		t.Fatalf("after two OVERLOADED the call failed: %v", err)
	}
	if waited := time.Since(began); waited < 100*time.Millisecond {
		t.Errorf("answered after %v, want at least the two RetryInfo delays of 50 ms", waited)
	}
	if got := rules.seen(); !slices.Equal(got, []string{"portal-key", "portal-key", "portal-key"}) {
		t.Errorf("x-api-key of the calls = %v, want portal-key three times", got)
	}
}

func TestStaleStateIsNotTriedAgain(t *testing.T) {
	rules := &refusingRules{refusal: refusal(t, codes.Aborted, damiera.ReasonStaleState, 0), refusals: 1}
	client := serve(t, rules)
	_, err := client.Rules.ListVariants(context.Background(), &damierav1.ListVariantsRequest{})
	if reason := damiera.ReasonOf(err); reason != damiera.ReasonStaleState || len(rules.seen()) != 1 {
		t.Errorf("answered %q after %d calls, want STALE_STATE after 1", reason, len(rules.seen()))
	}
}

func TestContendedIsTriedFourTimesAtMost(t *testing.T) {
	rules := &refusingRules{refusal: refusal(t, codes.Aborted, damiera.ReasonContended, 0), refusals: 10}
	client := serve(t, rules)
	_, err := client.Rules.ListVariants(context.Background(), &damierav1.ListVariantsRequest{})
	if reason := damiera.ReasonOf(err); reason != damiera.ReasonContended || len(rules.seen()) != 4 {
		t.Errorf("answered %q after %d calls, want CONTENDED after 4", reason, len(rules.seen()))
	}
}

func TestUnavailableIsTriedAgainByTheServiceConfig(t *testing.T) {
	rules := &refusingRules{
		refusal:  refusal(t, codes.Unavailable, damiera.ReasonStoreUnavailable, time.Second),
		refusals: 2,
	}
	client := serve(t, rules)
	if _, err := client.Rules.ListVariants(context.Background(), &damierav1.ListVariantsRequest{}); err != nil {
		t.Fatalf("after two UNAVAILABLE the call failed: %v", err)
	}
	if calls := len(rules.seen()); calls != 3 {
		t.Errorf("%d calls, want 3: two refused, one answered", calls)
	}
}

func TestTheServiceConfigGivesUpAfterFourAttempts(t *testing.T) {
	rules := &refusingRules{refusal: refusal(t, codes.Unavailable, damiera.ReasonStoreUnavailable, 0), refusals: 10}
	client := serve(t, rules)
	_, err := client.Rules.ListVariants(context.Background(), &damierav1.ListVariantsRequest{})
	if reason := damiera.ReasonOf(err); reason != damiera.ReasonStoreUnavailable || len(rules.seen()) != 4 {
		t.Errorf("answered %q after %d calls, want STORE_UNAVAILABLE after 4", reason, len(rules.seen()))
	}
}
