// The portal's JSON: its own view of Damiera's games, in the words its web pages use, so that a
// change of the gRPC API changes this file and not the pages.

package portal

import (
	"strings"

	damierav1 "damiera.dev/client-examples/go/gen/damiera/v1"
)

// GameView is a game as the portal shows it.
type GameView struct {
	ID      string     `json:"id"`
	Variant string     `json:"variant"`
	White   PlayerView `json:"white"`
	Black   PlayerView `json:"black"`
	Moves   []MoveView `json:"moves"`
	State   StateView  `json:"state"`
}

// PlayerView is who sits at a seat.
type PlayerView struct {
	Name string `json:"name,omitempty"`
	// EngineLevel is the engine's level, 1 to 20, at an engine's seat; absent at a person's.
	EngineLevel int32 `json:"engine_level,omitempty"`
}

// MoveView is one move of a game.
type MoveView struct {
	Ply      int32    `json:"ply"`
	Color    string   `json:"color"`
	Notation string   `json:"notation"`
	Captures []string `json:"captures,omitempty"`
	Promotes bool     `json:"promotes,omitempty"`
}

// StateView is how a game stands.
type StateView struct {
	Ply        int32  `json:"ply"`
	FEN        string `json:"fen"`
	SideToMove string `json:"side_to_move"`
	// Result is "ongoing", "won", "drawn" or "aborted"; Winner and Reason say more once it is not
	// ongoing (a win on "time" or by "abandonment"; aborted by a "seat" or for "no_first_move").
	Result    string `json:"result"`
	Winner    string `json:"winner,omitempty"`
	Reason    string `json:"reason,omitempty"`
	DrawOffer string `json:"draw_offer,omitempty"`
	// Clock is the clocks of a timed game; absent in an untimed one.
	Clock *ClockView `json:"clock,omitempty"`
}

// UpdateView is a change to a game: the moves since the last event and the state after them.
type UpdateView struct {
	Moves []MoveView `json:"moves"`
	State StateView  `json:"state"`
}

func gameView(game *damierav1.Game) GameView {
	return GameView{
		ID:      strings.TrimPrefix(game.GetName(), "games/"),
		Variant: enumWord(game.GetVariant().String(), "VARIANT_"),
		White:   playerView(game.GetWhite()),
		Black:   playerView(game.GetBlack()),
		Moves:   moveViews(game.GetMoves()),
		State:   stateView(game.GetState()),
	}
}

func updateView(update *damierav1.GameUpdate) UpdateView {
	return UpdateView{Moves: moveViews(update.GetMoves()), State: stateView(update.GetState())}
}

func playerView(seat *damierav1.Seat) PlayerView {
	if engine := seat.GetEngine(); engine != nil {
		return PlayerView{Name: "Damiera", EngineLevel: engineLevel(engine.GetLevel())}
	}
	return PlayerView{Name: seat.GetPerson().GetDisplayName()}
}

// engineLevel is the level an engine seat plays at: Damiera's level 0 is its strongest, 20.
func engineLevel(level int32) int32 {
	if level == 0 {
		return 20
	}
	return level
}

func moveViews(moves []*damierav1.GameMove) []MoveView {
	views := make([]MoveView, 0, len(moves))
	for _, move := range moves {
		views = append(views, moveView(move))
	}
	return views
}

func moveView(move *damierav1.GameMove) MoveView {
	return MoveView{
		Ply:      move.GetPly(),
		Color:    colorWord(move.GetColor()),
		Notation: move.GetNotation(),
		Captures: move.GetStructured().GetCaptures(),
		Promotes: move.GetStructured().GetPromotes(),
	}
}

func stateView(state *damierav1.GameState) StateView {
	status := state.GetStatus()
	view := StateView{
		Ply:        state.GetPly(),
		FEN:        state.GetPosition().GetFen(),
		SideToMove: colorWord(state.GetPosition().GetSideToMove()),
		Result:     enumWord(status.GetState().String(), "STATE_"),
		DrawOffer:  colorWord(state.GetDrawOffer()),
		Clock:      clockView(state.GetClock()),
	}
	switch status.GetState() {
	case damierav1.PositionStatus_STATE_WON:
		view.Winner = colorWord(status.GetWinner())
		view.Reason = enumWord(status.GetWinReason().String(), "WIN_REASON_")
	case damierav1.PositionStatus_STATE_DRAWN:
		view.Reason = enumWord(status.GetDrawReason().String(), "DRAW_REASON_")
	case damierav1.PositionStatus_STATE_ABORTED:
		view.Reason = enumWord(state.GetAbortReason().String(), "ABORT_REASON_")
	}
	return view
}

// colorWord is "white" or "black"; empty for COLOR_UNSPECIFIED.
func colorWord(color damierav1.Color) string {
	if color == damierav1.Color_COLOR_UNSPECIFIED {
		return ""
	}
	return enumWord(color.String(), "COLOR_")
}

// enumWord turns a proto enum name into the portal's word: VARIANT_ITALIAN is "italian".
func enumWord(name, prefix string) string {
	return strings.ToLower(strings.TrimPrefix(name, prefix))
}

// parseVariant reads the portal's word for a variant ("italian"); false for an unknown one.
func parseVariant(word string) (damierav1.Variant, bool) {
	value, ok := damierav1.Variant_value["VARIANT_"+strings.ToUpper(word)]
	if !ok || value == int32(damierav1.Variant_VARIANT_UNSPECIFIED) {
		return damierav1.Variant_VARIANT_UNSPECIFIED, false
	}
	return damierav1.Variant(value), true
}
