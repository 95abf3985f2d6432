// The portal as its users' browsers see it, for the tests: JSON calls with a seat handle, and an
// EventSource-like reader of the event stream.

package portal_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"damiera.dev/client-examples/go/portal"
)

// user calls the portal under test from a browser of their own, which keeps the portal's cookies.
type user struct {
	t      *testing.T
	portal *httptest.Server
	// browser holds the user's cookies: their session.
	browser *http.Client
}

// visitor is a new user of the portal, with no cookies yet.
func visitor(t *testing.T, server *httptest.Server) user {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return user{t: t, portal: server, browser: &http.Client{Jar: jar, Transport: server.Client().Transport}}
}

// call sends a request with a JSON body (none when body is nil) and the seat handle (none when
// empty), decodes the JSON answer into answer, and returns the HTTP status.
func (u user) call(method, path, handle string, body, answer any) int {
	u.t.Helper()
	header := http.Header{}
	if handle != "" {
		header.Set("Authorization", "Bearer "+handle)
	}
	return u.callWith(header, method, path, body, answer)
}

// callWith is call with the given headers.
func (u user) callWith(header http.Header, method, path string, body, answer any) int {
	u.t.Helper()
	var payload bytes.Buffer
	if body != nil {
		if err := json.NewEncoder(&payload).Encode(body); err != nil {
			u.t.Fatal(err)
		}
	}
	request, err := http.NewRequest(method, u.portal.URL+path, &payload)
	if err != nil {
		u.t.Fatal(err)
	}
	request.Header = header
	response, err := u.browser.Do(request)
	if err != nil {
		u.t.Fatal(err)
	}
	defer response.Body.Close()
	if err := json.NewDecoder(response.Body).Decode(answer); err != nil {
		u.t.Fatalf("%s %s answered %d with no JSON: %v", method, path, response.StatusCode, err)
	}
	return response.StatusCode
}

// create makes a game and fails the test unless it is created.
func (u user) create(request portal.CreateRequest) portal.CreateResponse {
	u.t.Helper()
	var created portal.CreateResponse
	if code := u.call("POST", "/games", "", request, &created); code != http.StatusCreated {
		u.t.Fatalf("POST /games answered %d %+v", code, created)
	}
	return created
}

// move plays a move and fails the test unless it is played.
func (u user) move(gameID, handle, notation string) portal.MoveResponse {
	u.t.Helper()
	var played portal.MoveResponse
	code := u.call("POST", "/games/"+gameID+"/moves", handle, portal.MoveRequest{Move: notation}, &played)
	if code != http.StatusOK {
		u.t.Fatalf("move %s answered %d", notation, code)
	}
	return played
}

// event is one Server-Sent Event.
type event struct {
	id, kind, data string
}

// openEvents asks for the game's event stream (with Last-Event-ID when lastID is not empty); the
// answer's body is closed when the test ends.
func (u user) openEvents(gameID, lastID string) *http.Response {
	u.t.Helper()
	request, err := http.NewRequest("GET", u.portal.URL+"/games/"+gameID+"/events", nil)
	if err != nil {
		u.t.Fatal(err)
	}
	if lastID != "" {
		request.Header.Set("Last-Event-ID", lastID)
	}
	response, err := u.browser.Do(request)
	if err != nil {
		u.t.Fatal(err)
	}
	u.t.Cleanup(func() { _ = response.Body.Close() })
	return response
}

// watch opens the game's event stream (with Last-Event-ID when lastID is not empty) and answers
// its events as they come; the stream is closed when the test ends.
func (u user) watch(gameID, lastID string) <-chan event {
	u.t.Helper()
	response := u.openEvents(gameID, lastID)
	if response.StatusCode != http.StatusOK {
		u.t.Fatalf("GET events answered %d", response.StatusCode)
	}
	events := make(chan event, 16)
	go func() {
		defer close(events)
		lines := bufio.NewScanner(response.Body)
		var current event
		for lines.Scan() {
			field, value, _ := strings.Cut(lines.Text(), ": ")
			switch field {
			case "id":
				current.id = value
			case "event":
				current.kind = value
			case "data":
				current.data = value
			case "": // a blank line ends an event; a comment (keep-alive) has no field name
				if current.kind != "" {
					events <- current
				}
				current = event{}
			}
		}
	}()
	return events
}

// next is the next event of a stream, decoded into data; it fails the test after 10 s.
func next(t *testing.T, events <-chan event, data any) event {
	t.Helper()
	select {
	case got, open := <-events:
		if !open {
			t.Fatal("the event stream ended")
		}
		if err := json.Unmarshal([]byte(got.data), data); err != nil {
			t.Fatalf("event %s: %v", got.kind, err)
		}
		return got
	case <-time.After(10 * time.Second):
		t.Fatal("no event for 10 s")
		return event{}
	}
}

// ends fails the test unless the stream ends with no more events; it waits 30 s at most.
func ends(t *testing.T, events <-chan event) {
	t.Helper()
	select {
	case got, open := <-events:
		if open {
			t.Errorf("came %s %s, want the stream to end", got.kind, got.id)
		}
	case <-time.After(30 * time.Second):
		t.Error("the stream is still open after 30 s")
	}
}
