// A game as Server-Sent Events, for the portal's web pages (EventSource). Each event carries the
// game's ply as its id, so a page that lost its connection and comes back with Last-Event-ID
// resumes where it was, just as the portal itself resumes WatchGame with from_ply.
//
//	event: game     the whole game (GameView): the first event, unless resuming
//	event: update   moves and the state after them (UpdateView)
//	event: end      the game is over (data {}); the stream then ends, and the page closes it
//	event: error    the watch failed (ErrorView); the stream then ends
//	: keep-alive    a comment when nothing happened for a while
//
// EventSource reconnects whenever a stream ends, so `end` has an id of its own, "over": a page
// that does not close on it comes back with `Last-Event-ID: over` and is answered 204 No Content,
// which stops EventSource for good. A page that lost the stream before `end` resumes with the
// ply it has and gets what it missed (a resignation changes no ply) and then `end`.

package portal

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"

	damierav1 "damiera.dev/client-examples/go/gen/damiera/v1"
)

// overID is the id of the `end` event.
const overID = "over"

func (p *Portal) streamEvents(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Last-Event-ID") == overID {
		w.WriteHeader(http.StatusNoContent) // the page saw the end: nothing more will come
		return
	}
	fromPly, ok := resumePly(r)
	if !ok {
		writeError(w, http.StatusBadRequest, "BAD_LAST_EVENT_ID", "Last-Event-ID: a number of moves or \"over\"")
		return
	}
	ctx, cancel := context.WithCancel(r.Context()) // ends when the user goes or the portal stops
	defer cancel()
	defer context.AfterFunc(p.streams, cancel)()
	events := &eventStream{w: w, flusher: http.NewResponseController(w)}
	err := follow(ctx, p.games, gameName(r), fromPly, events.relay)
	switch {
	case r.Context().Err() != nil:
		return // the user went away
	case err == nil:
		err = events.send("end", overID, struct{}{})
	case p.streams.Err() != nil:
		// A 200 stream that ends is what makes EventSource reconnect (an error status stops it).
		err = events.write(": the portal is stopping; reconnect\n\n")
	case !events.started:
		writeDamieraError(w, r, err)
		return
	default:
		_, view, _ := describeDamieraError(err)
		err = events.send("error", "", view)
	}
	if err != nil {
		slog.Warn("ending a watcher's stream", "err", err)
	}
}

// resumePly is the number of moves a returning page has (its Last-Event-ID); nil for a new one.
func resumePly(r *http.Request) (*int32, bool) {
	lastID := r.Header.Get("Last-Event-ID")
	if lastID == "" {
		return nil, true
	}
	ply, err := strconv.ParseInt(lastID, 10, 32)
	if err != nil || ply < 0 {
		return nil, false
	}
	return new(int32(ply)), true
}

// eventStream writes Server-Sent Events to one page.
type eventStream struct {
	// w is the page's response.
	w http.ResponseWriter
	// flusher pushes each event out at once instead of when a buffer fills.
	flusher *http.ResponseController
	// started is set once the headers are out; an error before that is an ordinary HTTP answer.
	started bool
}

// relay sends one WatchGame message on to the page.
func (s *eventStream) relay(message *damierav1.WatchGameResponse) error {
	switch event := message.GetEvent().(type) {
	case *damierav1.WatchGameResponse_Game:
		return s.send("game", plyID(event.Game.GetState()), gameView(event.Game))
	case *damierav1.WatchGameResponse_Update:
		return s.send("update", plyID(event.Update.GetState()), updateView(event.Update))
	case *damierav1.WatchGameResponse_KeepAlive:
		// Proxies close connections that stay silent; a comment keeps this one open.
		return s.write(": keep-alive\n\n")
	default:
		return nil // a kind of message newer than this portal: nothing to show
	}
}

// send writes one event; id is empty for an event that is not a point to resume from.
func (s *eventStream) send(kind, id string, data any) error {
	payload, err := json.Marshal(data)
	if err != nil {
		return err
	}
	if id != "" {
		id = "id: " + id + "\n"
	}
	return s.write(fmt.Sprintf("%sevent: %s\ndata: %s\n\n", id, kind, payload))
}

func (s *eventStream) write(text string) error {
	if !s.started {
		s.w.Header().Set("Content-Type", "text/event-stream")
		s.w.Header().Set("Cache-Control", "no-store")
		s.w.WriteHeader(http.StatusOK)
		s.started = true
	}
	if _, err := fmt.Fprint(s.w, text); err != nil {
		return err
	}
	return s.flusher.Flush()
}

func plyID(state *damierav1.GameState) string {
	return strconv.FormatInt(int64(state.GetPly()), 10)
}
