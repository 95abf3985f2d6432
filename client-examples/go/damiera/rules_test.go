// Rules and engine answers of the live server, with every number exact, and its refusals decoded.

package damiera_test

import (
	"context"
	"slices"
	"testing"

	"damiera.dev/client-examples/go/damiera"
	damierav1 "damiera.dev/client-examples/go/gen/damiera/v1"
	"damiera.dev/client-examples/go/internal/damieratest"
	"google.golang.org/grpc/codes"
)

// italianOpenings are White's legal moves from the Italian start, in the server's order.
var italianOpenings = []string{"21-17", "22-18", "23-19", "24-20", "21-18", "22-19", "23-20"}

func TestItalianStartHasSevenLegalMoves(t *testing.T) {
	client := damieratest.Connect(t)
	answer, err := client.Rules.ListLegalMoves(context.Background(), &damierav1.ListLegalMovesRequest{
		Variant: damierav1.Variant_VARIANT_ITALIAN,
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := notations(answer.GetMoves()); !slices.Equal(got, italianOpenings) {
		t.Errorf("legal moves = %v, want %v", got, italianOpenings)
	}
	if answer.GetMustCapture() {
		t.Error("must_capture is set at the start")
	}
}

func TestPerftFromEachStartPosition(t *testing.T) {
	client := damieratest.Connect(t)
	for _, want := range []struct {
		variant damierav1.Variant
		depth   int32
		nodes   int64
	}{
		{damierav1.Variant_VARIANT_ITALIAN, 5, 7361},
		{damierav1.Variant_VARIANT_TRIESTINA, 4, 4265},
		{damierav1.Variant_VARIANT_TURKISH, 4, 7538},
	} {
		t.Run(want.variant.String(), func(t *testing.T) {
			answer, err := client.Rules.Perft(context.Background(), &damierav1.PerftRequest{
				Variant: want.variant, Depth: want.depth,
			})
			if err != nil {
				t.Fatal(err)
			}
			if answer.GetNodes() != want.nodes {
				t.Errorf("perft %d = %d, want %d", want.depth, answer.GetNodes(), want.nodes)
			}
		})
	}
}

func TestCaptureIsMandatoryAndWrittenInFull(t *testing.T) {
	client := damieratest.Connect(t)
	answer, err := client.Rules.ListLegalMoves(context.Background(), &damierav1.ListLegalMovesRequest{
		Variant: damierav1.Variant_VARIANT_ITALIAN,
		Fen:     "W:W22,23,K31:B18,19,11,10",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"22x13x6", "22x15x6", "23x14x5", "23x14x7"}
	if got := notations(answer.GetMoves()); !slices.Equal(got, want) {
		t.Errorf("legal moves = %v, want %v", got, want)
	}
	if !answer.GetMustCapture() {
		t.Error("must_capture is not set")
	}
}

func TestIllegalMoveIsDecodedWithTheLegalMoves(t *testing.T) {
	client := damieratest.Connect(t)
	_, err := client.Rules.ApplyMove(context.Background(), &damierav1.ApplyMoveRequest{
		Variant: damierav1.Variant_VARIANT_ITALIAN, Notation: "22-17",
	})
	refusal, ok := damiera.AsError(err)
	if !ok {
		t.Fatalf("ApplyMove 22-17 answered %v, want a refusal", err)
	}
	if refusal.Code != codes.InvalidArgument || refusal.Reason != damiera.ReasonIllegalMove {
		t.Errorf("refusal = %s %s, want InvalidArgument ILLEGAL_MOVE", refusal.Code, refusal.Reason)
	}
	if got := refusal.List("legalMoves"); !slices.Equal(got, italianOpenings) {
		t.Errorf("legalMoves = %v, want %v", got, italianOpenings)
	}
	if _, named := refusal.Fields["notation"]; !named {
		t.Errorf("BadRequest fields = %v, want the field notation", refusal.Fields)
	}
}

func TestMoveTextThatIsNoMoveIsDecoded(t *testing.T) {
	client := damieratest.Connect(t)
	_, err := client.Rules.ApplyMove(context.Background(), &damierav1.ApplyMoveRequest{
		Variant: damierav1.Variant_VARIANT_ITALIAN, Notation: "zz",
	})
	if reason := damiera.ReasonOf(err); reason != damiera.ReasonInvalidMoveText {
		t.Errorf("reason = %q (%v), want %s", reason, err, damiera.ReasonInvalidMoveText)
	}
}

func TestBestMoveAtFixedDepthIsRepeatable(t *testing.T) {
	client := damieratest.Connect(t)
	search := &damierav1.SearchRequest{
		Variant: damierav1.Variant_VARIANT_ITALIAN,
		Limits:  &damierav1.SearchLimits{Depth: 4},
		Threads: 1,
	}
	var first *damierav1.SearchResult
	for range 2 {
		answer, err := client.Engine.BestMove(context.Background(), &damierav1.BestMoveRequest{Search: search})
		if err != nil {
			t.Fatal(err)
		}
		result := answer.GetResult()
		if result.GetDepth() != 4 || result.GetStopReason() != damierav1.StopReason_STOP_REASON_LIMIT {
			t.Errorf("depth %d, stop %s; want 4, STOP_REASON_LIMIT", result.GetDepth(), result.GetStopReason())
		}
		if !slices.Contains(italianOpenings, result.GetBestMove().GetNotation()) {
			t.Errorf("best move %q is not a legal opening", result.GetBestMove().GetNotation())
		}
		if first == nil {
			first = result
			continue
		}
		// One thread and a depth limit: the same move and node count every time (docs/api.md).
		if result.GetBestMove().GetNotation() != first.GetBestMove().GetNotation() ||
			result.GetNodes() != first.GetNodes() {
			t.Errorf("second search: %s in %d nodes, first: %s in %d nodes",
				result.GetBestMove().GetNotation(), result.GetNodes(),
				first.GetBestMove().GetNotation(), first.GetNodes())
		}
	}
}

func notations(moves []*damierav1.Move) []string {
	var texts []string
	for _, move := range moves {
		texts = append(texts, move.GetNotation())
	}
	return texts
}
