package soak

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// watcher keeps one GraphQL subscription to a space's events open over a
// WebSocket (graphql-transport-ws) for the whole soak and counts the events
// it receives by kind. A subscription that ends, or a socket that drops, is
// a failure of the soak: live updates must survive a steady load.
type watcher struct {
	space string
	conn  *websocket.Conn

	mu     sync.Mutex
	counts map[string]int
	ended  string // why the subscription ended, when it has
	done   chan struct{}
}

// watchKinds are the events the soak can count: one per acknowledged merge
// and per comment posted.
var watchKinds = []string{"change_request_merged", "comment_created"}

func watch(ctx context.Context, base, token, space string) (*watcher, error) {
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second, Subprotocols: []string{"graphql-transport-ws"}}
	url := "ws" + strings.TrimPrefix(base, "http") + "/graphql"
	conn, _, err := d.DialContext(ctx, url, http.Header{"Authorization": {"Bearer " + token}})
	if err != nil {
		return nil, fmt.Errorf("websocket %s: %v", url, err)
	}
	w := &watcher{space: space, conn: conn, counts: map[string]int{}, done: make(chan struct{})}
	fail := func(err error) (*watcher, error) { conn.Close(); return nil, err }
	conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if err := conn.WriteJSON(map[string]any{"type": "connection_init"}); err != nil {
		return fail(err)
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	var ack struct{ Type string }
	if err := conn.ReadJSON(&ack); err != nil || ack.Type != "connection_ack" {
		return fail(fmt.Errorf("websocket: no connection_ack (%q, %v)", ack.Type, err))
	}
	conn.SetReadDeadline(time.Time{})
	if err := conn.WriteJSON(map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{
		"query":     `subscription Soak($s: ID!, $k: [EventKind!]) { spaceEvents(space: $s, kinds: $k) { kind objectId } }`,
		"variables": map[string]any{"s": space, "k": watchKinds},
	}}); err != nil {
		return fail(err)
	}
	go w.read()
	return w, nil
}

func (w *watcher) read() {
	defer close(w.done)
	for {
		var m struct {
			Type    string
			Payload json.RawMessage
		}
		if err := w.conn.ReadJSON(&m); err != nil {
			w.end(fmt.Sprintf("socket: %v", err))
			return
		}
		switch m.Type {
		case "ping":
			w.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if err := w.conn.WriteJSON(map[string]any{"type": "pong"}); err != nil {
				w.end(fmt.Sprintf("pong: %v", err))
				return
			}
		case "pong":
		case "next":
			var v struct {
				Data struct {
					SpaceEvents struct{ Kind string } `json:"spaceEvents"`
				} `json:"data"`
				Errors json.RawMessage `json:"errors"`
			}
			if json.Unmarshal(m.Payload, &v) != nil || len(v.Errors) > 0 {
				w.end("next with errors: " + clip(m.Payload))
				return
			}
			w.mu.Lock()
			w.counts[v.Data.SpaceEvents.Kind]++
			w.mu.Unlock()
		default: // error, complete: the subscription is over
			w.end(m.Type + ": " + clip(m.Payload))
			return
		}
	}
}

func (w *watcher) end(why string) {
	w.mu.Lock()
	if w.ended == "" {
		w.ended = why
	}
	w.mu.Unlock()
}

// state returns the counts so far and why the subscription ended ("" while
// it runs).
func (w *watcher) state() (map[string]int, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	c := make(map[string]int, len(w.counts))
	for k, v := range w.counts {
		c[k] = v
	}
	return c, w.ended
}

// close ends the socket (the server sees a normal closure) and waits for
// the reader.
func (w *watcher) close() {
	w.mu.Lock()
	if w.ended == "" {
		w.ended = "closed by the soak"
	}
	w.mu.Unlock()
	w.conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
	w.conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
	select {
	case <-w.done:
	case <-time.After(5 * time.Second):
	}
	w.conn.Close()
	<-w.done
}
