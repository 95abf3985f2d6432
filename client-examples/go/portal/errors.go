// Damiera's refusals as HTTP answers for the portal's users. The gRPC code sets the HTTP status
// (with a few reasons made more precise), the ErrorInfo reason and its facts go in the JSON body,
// and RetryInfo becomes Retry-After. A refusal of the portal's own credentials (its API key, a
// token it kept) is the portal's fault, not the user's: it answers 502 and is logged.

package portal

import (
	"cmp"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"strconv"

	"damiera.dev/client-examples/go/damiera"
	"google.golang.org/grpc/codes"
)

// ErrorView is the body of every error answer of the portal.
type ErrorView struct {
	// Error is Damiera's ErrorInfo reason ("ILLEGAL_MOVE"), or the portal's own ("NOT_YOUR_GAME").
	Error   string `json:"error"`
	Message string `json:"message"`
	// LegalMoves lists the moves the player could make instead, with ILLEGAL_MOVE.
	LegalMoves []string `json:"legal_moves,omitempty"`
	// Candidates lists the moves a short form fits, with AMBIGUOUS_MOVE.
	Candidates []string `json:"candidates,omitempty"`
}

// writeDamieraError answers a failed Damiera call, unless the user went away (closed the tab,
// say), which cancelled the call: then there is no one to answer, and nothing went wrong.
func writeDamieraError(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return
	}
	code, view, retryAfter := describeDamieraError(err)
	if retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
	}
	writeJSON(w, code, view)
}

// describeDamieraError is the HTTP status, the body and the Retry-After seconds (0: none) that
// answer a failed Damiera call.
func describeDamieraError(err error) (int, ErrorView, int) {
	refusal, ok := damiera.AsError(err)
	if !ok {
		slog.Error("damiera call failed", "err", err)
		return http.StatusBadGateway, ErrorView{Error: "UPSTREAM", Message: "the game server failed"}, 0
	}
	code := httpStatus(refusal)
	if code == http.StatusBadGateway {
		slog.Error("damiera refused the portal", "code", refusal.Code, "reason", refusal.Reason,
			"message", refusal.Message)
		return code, ErrorView{Error: "UPSTREAM", Message: "the game server refused the portal"}, 0
	}
	return code, ErrorView{
		Error:      cmp.Or(refusal.Reason, "UPSTREAM"), // no reason: a transport failure
		Message:    refusal.Message,
		LegalMoves: refusal.List("legalMoves"),
		Candidates: refusal.List("candidates"),
	}, int(math.Ceil(refusal.RetryDelay.Seconds()))
}

// httpStatus is the HTTP status that answers a refusal.
func httpStatus(refusal *damiera.Error) int {
	switch refusal.Reason {
	case damiera.ReasonIllegalMove, damiera.ReasonAmbiguousMove:
		return http.StatusUnprocessableEntity // well-formed, but not a move the rules allow here
	case damiera.ReasonRateLimited:
		return http.StatusTooManyRequests
	case damiera.ReasonRequestTooLarge:
		return http.StatusRequestEntityTooLarge // RESOURCE_EXHAUSTED, but no retry will help
	}
	switch refusal.Code {
	case codes.InvalidArgument:
		return http.StatusBadRequest
	case codes.NotFound:
		return http.StatusNotFound
	case codes.FailedPrecondition, codes.Aborted:
		return http.StatusConflict // not your turn, game over, a stale ply: read the game again
	case codes.ResourceExhausted, codes.Unavailable:
		return http.StatusServiceUnavailable
	case codes.Canceled: // with the user still there: the portal's connection closing as it stops
		return http.StatusServiceUnavailable
	case codes.DeadlineExceeded:
		return http.StatusGatewayTimeout
	default: // Unauthenticated, PermissionDenied, Internal, ...
		return http.StatusBadGateway
	}
}

// writeError answers one of the portal's own refusals.
func writeError(w http.ResponseWriter, code int, reason, message string) {
	writeJSON(w, code, ErrorView{Error: reason, Message: message})
}

// maxBodyBytes bounds a request's body: the portal's largest, a new game with two names, is far
// smaller, and a client that sends more gets 413 before the portal reads it all into memory.
const maxBodyBytes = 8 << 10

// readJSON decodes the request's JSON body into body; otherwise it answers the refusal (413 for
// a body over maxBodyBytes, 400 for one that is not the JSON asked for) and is false.
func readJSON(w http.ResponseWriter, r *http.Request, body any) bool {
	err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBodyBytes)).Decode(body)
	if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
		writeError(w, http.StatusRequestEntityTooLarge, "BODY_TOO_LARGE",
			"the body is over "+strconv.Itoa(maxBodyBytes)+" bytes")
		return false
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "BAD_JSON", err.Error())
		return false
	}
	return true
}

func writeJSON(w http.ResponseWriter, code int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	if err := json.NewEncoder(w).Encode(body); err != nil {
		slog.Warn("writing an answer", "err", err)
	}
}
