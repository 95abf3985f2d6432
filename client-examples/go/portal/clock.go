// Time controls as the portal's users ask for them, and a game's clocks as its pages show them.

package portal

import (
	"time"

	damierav1 "damiera.dev/client-examples/go/gen/damiera/v1"
	"google.golang.org/protobuf/types/known/durationpb"
)

// TimeControlRequest is the clock a new game is played under: exactly one of a base time (with an
// increment: Fischer, such as 3+2 as base_s 180 and increment_s 2), a time per move, or days per
// move (correspondence). Damiera checks the ranges.
type TimeControlRequest struct {
	BaseSeconds      int32 `json:"base_s,omitempty"`
	IncrementSeconds int32 `json:"increment_s,omitempty"`
	PerMoveSeconds   int32 `json:"per_move_s,omitempty"`
	DaysPerMove      int32 `json:"days_per_move,omitempty"`
}

// ClockView is both clocks as Damiera read them: a page counts the running side's time down from
// the moment it received the event, not from any time of the server's.
type ClockView struct {
	WhiteMS int64 `json:"white_ms"`
	BlackMS int64 `json:"black_ms"`
	// Running is "white" or "black"; empty when no clock runs (before that side's first move, over).
	Running string `json:"running,omitempty"`
	// Deadline is when the game ends by itself if the side to move does not act (RFC 3339), and
	// DeadlineKind what happens then: "first_move" (aborted), "flag" (lost on time).
	Deadline     string `json:"deadline,omitempty"`
	DeadlineKind string `json:"deadline_kind,omitempty"`
}

// timeControlOf is the TimeControl of a request; nil (untimed) for none, false for a request that
// names no kind or more than one.
func timeControlOf(request *TimeControlRequest) (*damierav1.TimeControl, bool) {
	if request == nil {
		return nil, true
	}
	seconds := func(n int32) *durationpb.Duration { return durationpb.New(time.Duration(n) * time.Second) }
	var kinds []*damierav1.TimeControl
	if request.BaseSeconds != 0 {
		kinds = append(kinds, &damierav1.TimeControl{Kind: &damierav1.TimeControl_Fischer_{
			Fischer: &damierav1.TimeControl_Fischer{
				Base: seconds(request.BaseSeconds), Increment: seconds(request.IncrementSeconds),
			},
		}})
	}
	if request.PerMoveSeconds != 0 {
		kinds = append(kinds, &damierav1.TimeControl{Kind: &damierav1.TimeControl_PerMove{
			PerMove: seconds(request.PerMoveSeconds),
		}})
	}
	if request.DaysPerMove != 0 {
		kinds = append(kinds, &damierav1.TimeControl{Kind: &damierav1.TimeControl_DaysPerMove{
			DaysPerMove: request.DaysPerMove,
		}})
	}
	if len(kinds) != 1 || (request.IncrementSeconds != 0 && request.BaseSeconds == 0) {
		return nil, false
	}
	return kinds[0], true
}

// clockView is the clocks of a timed game; nil for an untimed one.
func clockView(clock *damierav1.Clock) *ClockView {
	if clock.GetWhiteTime() == nil {
		return nil
	}
	view := &ClockView{
		WhiteMS: clock.GetWhiteTime().AsDuration().Milliseconds(),
		BlackMS: clock.GetBlackTime().AsDuration().Milliseconds(),
		Running: colorWord(clock.GetRunning()),
	}
	if clock.GetDeadline() != nil {
		view.Deadline = clock.GetDeadline().AsTime().UTC().Format(time.RFC3339Nano)
		view.DeadlineKind = enumWord(clock.GetDeadlineKind().String(), "DEADLINE_KIND_")
	}
	return view
}
