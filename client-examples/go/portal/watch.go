// Following a game on Damiera for as long as it lasts. WatchGame's stream ends cleanly after the
// message that shows the game over; it ends with UNAVAILABLE when the server goes away (a restart,
// a deploy: "watch again with from_ply N") or the connection drops. Then the watch starts again
// from the moves already relayed, so the follower sees every move once, in order.

package portal

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"time"

	damierav1 "damiera.dev/client-examples/go/gen/damiera/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The pauses between watches of a game whose stream was lost: doubled each time nothing came
// through, from the first to the last, so that a restarting server is not hammered.
const (
	firstRewatchPause = 100 * time.Millisecond
	lastRewatchPause  = 5 * time.Second
)

// maxFruitlessWatches bounds the watches in a row that relay no move or game: after that many
// (about 3 s of pauses) the server is taken to be down and the follower is told, instead of
// being left waiting with no answer for as long as the server stays down.
const maxFruitlessWatches = 6

// follow relays the messages of a game's watch to relay until the game is over (nil), ctx ends,
// relay fails, the server refuses the watch, or maxFruitlessWatches in a row end with UNAVAILABLE
// (the error). fromPly, when set, is the number of moves the follower has: the first message then
// holds only the moves after them.
func follow(ctx context.Context, games damierav1.GameServiceClient, name string, fromPly *int32,
	relay func(*damierav1.WatchGameResponse) error) error {
	pause, fruitless := firstRewatchPause, 0
	for {
		plies, err := watchOnce(ctx, games, name, fromPly, relay)
		if errors.Is(err, io.EOF) {
			return nil // the game is over
		}
		if status.Code(err) != codes.Unavailable || ctx.Err() != nil {
			return err
		}
		if plies != nil {
			fromPly, pause, fruitless = plies, firstRewatchPause, 0
		} else if fruitless++; fruitless == maxFruitlessWatches {
			return err
		}
		slog.Info("watch lost; watching again", "game", name, "from_ply", plyText(fromPly),
			"after", pause, "err", err)
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return ctx.Err()
		}
		pause = min(2*pause, lastRewatchPause)
	}
}

// watchOnce relays one WatchGame stream until it ends, and answers the number of moves relayed
// by then (nil when nothing came through) with the error that ended it (io.EOF: the game is over).
func watchOnce(ctx context.Context, games damierav1.GameServiceClient, name string, fromPly *int32,
	relay func(*damierav1.WatchGameResponse) error) (*int32, error) {
	ctx, cancel := context.WithCancel(ctx) // ends the stream when relay fails
	defer cancel()
	stream, err := games.WatchGame(ctx, &damierav1.WatchGameRequest{Name: name, FromPly: fromPly})
	if err != nil {
		return nil, err
	}
	var plies *int32
	for {
		message, err := stream.Recv()
		if err != nil {
			return plies, err
		}
		if err := relay(message); err != nil {
			return plies, err
		}
		switch event := message.GetEvent().(type) {
		case *damierav1.WatchGameResponse_Game:
			plies = new(event.Game.GetState().GetPly())
		case *damierav1.WatchGameResponse_Update:
			plies = new(event.Update.GetState().GetPly())
		}
	}
}

func plyText(ply *int32) any {
	if ply == nil {
		return "start"
	}
	return *ply
}
