// Damiera's refusals, decoded. Every error the server answers follows Google AIP-193: a status
// code, a message for people, and in the status details a google.rpc.ErrorInfo whose reason a
// program switches on (with facts such as the legal moves in its metadata), a BadRequest naming
// the request field at fault, and a RetryInfo when trying again later may succeed.

package damiera

import (
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The ErrorInfo reasons this example acts on or tests; docs/api.md lists them all.
const (
	ReasonIllegalMove      = "ILLEGAL_MOVE"
	ReasonAmbiguousMove    = "AMBIGUOUS_MOVE"
	ReasonInvalidMoveText  = "INVALID_MOVE_TEXT"
	ReasonGameNotFound     = "GAME_NOT_FOUND"
	ReasonNotYourTurn      = "NOT_YOUR_TURN"
	ReasonStaleState       = "STALE_STATE"
	ReasonContended        = "CONTENDED"
	ReasonOverloaded       = "OVERLOADED"
	ReasonRateLimited      = "RATE_LIMITED"
	ReasonRequestTooLarge  = "REQUEST_TOO_LARGE"
	ReasonStoreUnavailable = "STORE_UNAVAILABLE"
)

// Error is one refusal of the server, with its details decoded.
type Error struct {
	// Code is the gRPC status code.
	Code codes.Code
	// Message is the server's explanation, for people.
	Message string
	// Reason is ErrorInfo's machine-readable reason ("ILLEGAL_MOVE"); empty when the status has
	// no ErrorInfo (a transport failure, a deadline passed on the client's side).
	Reason string
	// Metadata is ErrorInfo's facts, such as "legalMoves" for ILLEGAL_MOVE.
	Metadata map[string]string
	// Fields maps each request field at fault (BadRequest) to what is wrong with it.
	Fields map[string]string
	// RetryDelay is RetryInfo's advice: try again after this long; 0 when there is none.
	RetryDelay time.Duration
}

func (e *Error) Error() string {
	if e.Reason == "" {
		return "damiera: " + e.Code.String() + ": " + e.Message
	}
	return "damiera: " + e.Reason + ": " + e.Message
}

// List is a space-separated list in the metadata, such as ILLEGAL_MOVE's "legalMoves" or
// AMBIGUOUS_MOVE's "candidates"; nil when the key is absent.
func (e *Error) List(key string) []string {
	return strings.Fields(e.Metadata[key])
}

// AsError decodes a call's error. It is false for an error that carries no gRPC status.
func AsError(err error) (*Error, bool) {
	if err == nil {
		return nil, false
	}
	st, ok := status.FromError(err)
	if !ok {
		return nil, false
	}
	decoded := &Error{Code: st.Code(), Message: st.Message()}
	for _, detail := range st.Details() {
		switch detail := detail.(type) {
		case *errdetails.ErrorInfo:
			decoded.Reason = detail.GetReason()
			decoded.Metadata = detail.GetMetadata()
		case *errdetails.BadRequest:
			decoded.Fields = make(map[string]string)
			for _, violation := range detail.GetFieldViolations() {
				decoded.Fields[violation.GetField()] = violation.GetDescription()
			}
		case *errdetails.RetryInfo:
			decoded.RetryDelay = detail.GetRetryDelay().AsDuration()
		}
	}
	return decoded, true
}

// ReasonOf is the ErrorInfo reason of a call's error; empty when it has none.
func ReasonOf(err error) string {
	if decoded, ok := AsError(err); ok {
		return decoded.Reason
	}
	return ""
}
