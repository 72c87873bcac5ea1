package testenv

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// WS is a GraphQL WebSocket client speaking graphql-transport-ws, as
// graphql-ws (GraphiQL's client) does: it answers the server's pings, and
// sorts what it receives by subscription.
type WS struct {
	t interface {
		Helper()
		Fatalf(string, ...any)
	}
	conn *websocket.Conn

	mu     sync.Mutex
	subs   map[string]chan WSMessage
	closed chan struct{}
	// Close is the close frame the server sent, once it has.
	closeCode int
	closeText string
	next      int
	// paused: the client stops reading (a slow subscriber).
	paused chan struct{}
}

// WSMessage is a message of the server about one subscription: next
// (Payload is a GraphQL response), error (Errors), or complete.
type WSMessage struct {
	Type    string
	Payload json.RawMessage
}

// Data decodes a next message's data.
func (m WSMessage) Data() map[string]any {
	var v struct {
		Data   map[string]any `json:"data"`
		Errors []GQLError     `json:"errors"`
	}
	_ = json.Unmarshal(m.Payload, &v)
	return v.Data
}

// Errors decodes the errors of a next or error message.
func (m WSMessage) Errors() []GQLError {
	if m.Type == "error" {
		var list []GQLError
		_ = json.Unmarshal(m.Payload, &list)
		return list
	}
	var v struct {
		Errors []GQLError `json:"errors"`
	}
	_ = json.Unmarshal(m.Payload, &v)
	return v.Errors
}

// Code is the first error's extensions.code, or "".
func (m WSMessage) Code() string {
	if errs := m.Errors(); len(errs) > 0 {
		c, _ := errs[0].Extensions["code"].(string)
		return c
	}
	return ""
}

// DialWS opens a WebSocket on /graphql with the graphql-transport-ws
// protocol. header is sent with the upgrade (nil: none). It does not send
// connection_init: see Init.
func (e *Env) DialWS(header http.Header) (*WS, *http.Response, error) {
	d := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: 10 * time.Second}
	conn, resp, err := d.Dial("ws"+strings.TrimPrefix(e.URL, "http")+"/graphql", header)
	if err != nil {
		return nil, resp, err
	}
	w := &WS{t: e.T, conn: conn, subs: map[string]chan WSMessage{}, closed: make(chan struct{}), paused: make(chan struct{})}
	close(w.paused)
	go w.read()
	e.T.Cleanup(w.Close)
	return w, resp, nil
}

// OpenWS opens a WebSocket and authenticates it with token in the
// connection_init payload; the test fails when it is not acknowledged.
func (e *Env) OpenWS(token string) *WS {
	e.T.Helper()
	w, _, err := e.DialWS(nil)
	if err != nil {
		e.T.Fatalf("dial: %v", err)
	}
	if code, text := w.Init(map[string]any{"Authorization": "Bearer " + token}); code != 0 {
		e.T.Fatalf("connection_init refused: %d %s", code, text)
	}
	return w
}

// ack is the acknowledgement's channel key.
const ack = "\x00ack"

// Init sends connection_init with payload and waits for the
// acknowledgement; without one it returns the close code and reason.
func (w *WS) Init(payload any) (int, string) {
	ch := w.channel(ack)
	w.send(map[string]any{"type": "connection_init", "payload": payload})
	select {
	case <-ch:
		return 0, ""
	case <-w.closed:
		return w.closeCode, w.closeText
	case <-time.After(30 * time.Second):
		w.t.Fatalf("no connection_ack within 30 s")
		return 0, ""
	}
}

// Subscribe starts a subscription and returns its id.
func (w *WS) Subscribe(query string, vars map[string]any) string {
	w.mu.Lock()
	w.next++
	id := fmt.Sprint(w.next)
	w.mu.Unlock()
	w.channel(id)
	w.send(map[string]any{"id": id, "type": "subscribe", "payload": map[string]any{"query": query, "variables": vars}})
	return id
}

// Complete ends a subscription from the client's side.
func (w *WS) Complete(id string) {
	w.send(map[string]any{"id": id, "type": "complete"})
}

// Next waits for the subscription's next message; the test fails when
// none comes within 30 s.
func (w *WS) Next(id string) WSMessage {
	w.t.Helper()
	ch := w.channel(id)
	select {
	case m := <-ch:
		return m
	case <-time.After(30 * time.Second):
		w.t.Fatalf("subscription %s: no message within 30 s", id)
		return WSMessage{}
	}
}

// Pending reports whether a message of the subscription waits.
func (w *WS) Pending(id string) bool { return len(w.channel(id)) > 0 }

// Pause stops reading from the connection, as a client too busy to
// read; Resume reads again.
func (w *WS) Pause() {
	w.mu.Lock()
	w.paused = make(chan struct{})
	w.mu.Unlock()
}

// Resume reads again after Pause.
func (w *WS) Resume() {
	w.mu.Lock()
	close(w.paused)
	w.mu.Unlock()
}

// Closed waits for the server to close the connection and returns its
// close code and reason.
func (w *WS) Closed() (int, string) {
	select {
	case <-w.closed:
		return w.closeCode, w.closeText
	case <-time.After(30 * time.Second):
		w.t.Fatalf("the connection was not closed within 30 s")
		return 0, ""
	}
}

// Close closes the connection.
func (w *WS) Close() { _ = w.conn.Close() }

func (w *WS) channel(id string) chan WSMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	ch := w.subs[id]
	if ch == nil {
		ch = make(chan WSMessage, 10000)
		w.subs[id] = ch
	}
	return ch
}

var errWS = errors.New("websocket send")

func (w *WS) send(v any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.conn.WriteJSON(v); err != nil {
		w.t.Fatalf("%v: %v", errWS, err)
	}
}

func (w *WS) read() {
	defer close(w.closed)
	for {
		w.mu.Lock()
		paused := w.paused
		w.mu.Unlock()
		<-paused
		var m struct {
			ID      string          `json:"id"`
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := w.conn.ReadJSON(&m); err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				w.closeCode, w.closeText = ce.Code, ce.Text
			}
			return
		}
		switch m.Type {
		case "connection_ack":
			w.channel(ack) <- WSMessage{Type: m.Type}
		case "ping":
			w.send(map[string]any{"type": "pong"})
		case "next", "error", "complete":
			w.channel(m.ID) <- WSMessage{Type: m.Type, Payload: m.Payload}
		}
	}
}

// WaitSubscribers waits until the server's event bus has n subscriptions
// (a subscription starts once the server has read its subscribe message,
// after Subscribe returns); the test fails after 30 s.
func (e *Env) WaitSubscribers(n int) {
	e.T.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if e.Server.Resolver().Events.Subscribers() == n {
			return
		}
	}
	e.T.Fatalf("the server has %d subscriptions, want %d", e.Server.Resolver().Events.Subscribers(), n)
}
