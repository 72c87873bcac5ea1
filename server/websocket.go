package server

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/gorilla/websocket"

	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/events"
	"quire/internal/ratelimit"
)

// GraphQL subscriptions run over a WebSocket at /graphql, with gqlgen's
// transport (graphql-transport-ws, and the older graphql-ws). The upgrade
// request skips the request deadline (a connection lasts as long as its
// subscriptions) and is authenticated by its Authorization header, or by
// the token in connection_init's payload ({"Authorization": "Bearer …"}).
// Limits:
const (
	// MaxSubscriptionsPerConnection bounds the subscriptions one connection
	// runs at once; one more is refused with RATE_LIMITED.
	MaxSubscriptionsPerConnection = 20
	// MaxConnectionsPerUser bounds the WebSocket connections one user has
	// open with one process; one more is refused (HTTP 429 when the token
	// came with the upgrade, else a close with code 4429).
	MaxConnectionsPerUser = 10
	// MaxMessageBytes bounds a message a client sends; a larger one closes
	// the connection.
	MaxMessageBytes = MaxBodyBytes
	// wsWriteTimeout is how long a write to a client may take: a client
	// that stops reading is disconnected, instead of holding anything up.
	wsWriteTimeout = 10 * time.Second
	// wsInitTimeout is how long a client has to send connection_init.
	wsInitTimeout = 10 * time.Second
	// wsPingInterval is how often the server pings (graphql-transport-ws);
	// a client that answers no ping within twice that is disconnected.
	wsPingInterval = 30 * time.Second
	// eventBus close codes (graphql-transport-ws uses 4400-4499 for its
	// own refusals).
	closeUnauthorized = 4401
	closeForbidden    = 4403
	closeTooMany      = 4429
)

// websocketTransport is gqlgen's WebSocket transport as Quire runs it.
func (s *Server) websocketTransport() transport.Websocket {
	return transport.Websocket{
		Upgrader: websocket.Upgrader{
			// Buffers of their own make the connection read and write
			// through wsConn (see hijack), not through net/http's buffers.
			ReadBufferSize:  4096,
			WriteBufferSize: 4096,
			// Any origin: a connection is authorized by its token, never
			// by cookies, so another site cannot borrow a browser's rights.
			CheckOrigin: func(*http.Request) bool { return true },
		},
		InitFunc:              s.wsInit,
		InitTimeout:           wsInitTimeout,
		PingPongInterval:      wsPingInterval,
		KeepAlivePingInterval: wsPingInterval,
		ErrorFunc: func(ctx context.Context, err error) {
			if c := wsConnOf(ctx); c != nil {
				c.failed(err)
			}
		},
		CloseFunc: func(ctx context.Context, code int) {
			if c := wsConnOf(ctx); c != nil {
				c.closed()
			}
		},
	}
}

// isWebSocket reports a request to open a GraphQL WebSocket.
func isWebSocket(r *http.Request) bool {
	return r.URL.Path == "/graphql" && websocket.IsWebSocketUpgrade(r)
}

type wsConnKey struct{}

func wsConnOf(ctx context.Context) *wsConn {
	c, _ := ctx.Value(wsConnKey{}).(*wsConn)
	return c
}

// wsConn is one WebSocket connection.
type wsConn struct {
	s      *Server
	addr   string   // the client's address (RemoteAddr), for the anonymous budget
	raw    net.Conn // once hijacked
	mu     sync.Mutex
	user   string // once authenticated
	held   bool   // holds a place among the user's connections
	cancel context.CancelFunc
	log    func(msg string, args ...any)
}

// serveWebSocket serves an upgrade request on /graphql: without the
// request deadline, authenticated by its header when it has one (else by
// connection_init), through the GraphQL handler's WebSocket transport.
func (s *Server) serveWebSocket(w *statusWriter, r *http.Request) {
	ctx := r.Context()
	c := &wsConn{s: s, addr: r.RemoteAddr}
	c.log = func(msg string, args ...any) {
		s.cfg.Log.InfoContext(ctx, msg, append([]any{"user", c.user}, args...)...)
	}
	if secret := auth.BearerToken(r.Header.Get("Authorization")); secret != "" {
		caller, err := auth.LookupCaller(ctx, s.cfg.DB.Client, secret)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if caller == nil {
			graphQLAuthError(w, r, "Invalid API token")
			return
		}
		if err := c.hold(caller.User.ID); err != nil {
			writeGraphQLError(w, http.StatusTooManyRequests, apierr.RateLimited, err.Error())
			return
		}
		ctx = auth.WithToken(auth.WithViewer(ctx, caller.User), secret)
		if h, ok := ctx.Value(callerKey{}).(*callerHolder); ok {
			h.id = caller.User.ID
		}
	}
	defer c.closed()
	ctx = context.WithValue(ctx, wsConnKey{}, c)
	s.gql.ServeHTTP(&hijacker{statusWriter: w, c: c}, r.WithContext(ctx))
}

// wsInit authenticates a connection (unless its upgrade did) and readies
// its context: the caller, a place among the user's connections, a bound
// on its subscriptions, the rate limiter's place for each operation, and
// a way to end it.
func (s *Server) wsInit(ctx context.Context, payload transport.InitPayload) (context.Context, *transport.InitPayload, error) {
	c := wsConnOf(ctx)
	if c == nil {
		return nil, nil, errors.New("not a connection of this server")
	}
	if auth.Viewer(ctx) == nil {
		secret := auth.BearerToken(payload.Authorization())
		if secret == "" {
			secret = payload.GetString("token")
		}
		if secret == "" {
			if err := c.chargeAnonymous(ctx); err != nil {
				return nil, nil, err
			}
			return nil, nil, c.refuse(closeUnauthorized, "Authentication required: send Authorization: Bearer <token> in the connection_init payload")
		}
		caller, err := auth.LookupCaller(ctx, s.cfg.DB.Client, secret)
		if err != nil {
			s.cfg.Log.ErrorContext(ctx, "look up a WebSocket's token", "error", err.Error())
			return nil, nil, c.refuse(closeForbidden, "The token could not be checked; try again later")
		}
		if caller == nil {
			if err := c.chargeAnonymous(ctx); err != nil {
				return nil, nil, err
			}
			return nil, nil, c.refuse(closeForbidden, "Invalid API token")
		}
		if err := c.hold(caller.User.ID); err != nil {
			return nil, nil, c.refuse(closeTooMany, err.Error())
		}
		ctx = auth.WithToken(auth.WithViewer(ctx, caller.User), secret)
	}
	ctx = events.WithSession(ctx, &events.Session{Max: MaxSubscriptionsPerConnection})
	if s.limiter != nil {
		// Each subscribe operation is charged like a request.
		ctx = context.WithValue(ctx, rateKey{}, &rateVerdict{})
	}
	ctx, c.cancel = context.WithCancel(ctx)
	c.log("websocket opened")
	return ctx, nil, nil
}

// chargeAnonymous charges a connection_init without a valid token to the
// client's address, as a request without one is charged: over the budget,
// the connection closes with 4429 instead of 4401 or 4403.
func (c *wsConn) chargeAnonymous(ctx context.Context) error {
	if c.s.limiter == nil {
		return nil
	}
	d, err := c.s.limiter.TakeAnonymous(ctx, ratelimit.Address(c.addr))
	if err != nil {
		c.s.cfg.Log.ErrorContext(ctx, "charge a WebSocket's address", "error", err.Error())
		return c.refuse(closeForbidden, "The token could not be checked; try again later")
	}
	if !d.Allowed {
		return c.refuse(closeTooMany, c.s.limiter.Message(d))
	}
	return nil
}

// hold takes a place among the user's connections.
func (c *wsConn) hold(userID string) error {
	s := c.s
	s.wsMu.Lock()
	defer s.wsMu.Unlock()
	if s.wsUsers[userID] >= MaxConnectionsPerUser {
		return fmt.Errorf("a user may keep at most %d WebSocket connections open with one server; close one first", MaxConnectionsPerUser)
	}
	s.wsUsers[userID]++
	s.wsConns[c] = true
	c.mu.Lock()
	c.user, c.held = userID, true
	c.mu.Unlock()
	return nil
}

// closed gives back the connection's place; it may be called more than
// once.
func (c *wsConn) closed() {
	c.mu.Lock()
	held, user := c.held, c.user
	c.held = false
	c.mu.Unlock()
	if !held {
		return
	}
	s := c.s
	s.wsMu.Lock()
	if s.wsUsers[user]--; s.wsUsers[user] <= 0 {
		delete(s.wsUsers, user)
	}
	delete(s.wsConns, c)
	s.wsMu.Unlock()
	c.log("websocket closed")
}

// failed ends the connection after an error writing to it (a client that
// stopped reading, past wsWriteTimeout) or reading from it.
func (c *wsConn) failed(err error) {
	var we transport.WebsocketError
	if errors.As(err, &we) && !we.IsReadError {
		c.log("websocket write failed; closing it", "error", err.Error())
		c.end()
	}
}

// end closes the connection (gqlgen's transport writes the close frame
// when its context ends).
func (c *wsConn) end() {
	c.mu.Lock()
	cancel, raw := c.cancel, c.raw
	c.mu.Unlock()
	switch {
	case cancel != nil:
		cancel()
	case raw != nil:
		raw.Close()
	}
}

// refuse answers a refused connection_init with a close frame of its own
// code and reason, which the client reads before the transport's; nothing
// else is written to the connection before the acknowledgement, so the
// frame cannot interleave with another. It returns the reason as an error
// for the transport, which then closes the connection.
func (c *wsConn) refuse(code int, reason string) error {
	c.mu.Lock()
	raw := c.raw
	c.mu.Unlock()
	if raw != nil {
		msg := websocket.FormatCloseMessage(code, truncateReason(reason))
		frame := append([]byte{0x88, byte(len(msg))}, msg...)
		_ = raw.SetWriteDeadline(time.Now().Add(wsWriteTimeout))
		_, _ = raw.Write(frame)
	}
	return errors.New(reason)
}

// truncateReason keeps a close reason within a control frame (123 bytes).
func truncateReason(s string) string {
	if len(s) > 123 {
		s = s[:123]
	}
	return s
}

// CloseWebSockets ends every WebSocket connection (on shutdown: clients
// reconnect to another process).
func (s *Server) CloseWebSockets() {
	s.wsMu.Lock()
	conns := make([]*wsConn, 0, len(s.wsConns))
	for c := range s.wsConns {
		conns = append(conns, c)
	}
	s.wsMu.Unlock()
	for _, c := range conns {
		c.end()
	}
}

// hijacker gives the upgrade a connection that bounds writes and incoming
// messages (wsStream).
type hijacker struct {
	*statusWriter
	c *wsConn
}

func (h *hijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	hj, ok := h.statusWriter.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("the connection cannot be taken over")
	}
	conn, brw, err := hj.Hijack()
	if err != nil {
		return nil, nil, err
	}
	// The server's read and write timeouts are for requests, not for a
	// connection that lasts: the stream sets its own.
	_ = conn.SetDeadline(time.Time{})
	h.statusWriter.status = http.StatusSwitchingProtocols
	stream := &wsStream{Conn: conn, limit: frameLimit{max: MaxMessageBytes}}
	h.c.mu.Lock()
	h.c.raw = stream
	h.c.mu.Unlock()
	return stream, brw, nil
}

// wsStream is a hijacked connection whose every write must finish within
// wsWriteTimeout, and whose incoming messages are bounded.
type wsStream struct {
	net.Conn
	mu    sync.Mutex
	limit frameLimit
}

func (s *wsStream) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = s.Conn.SetWriteDeadline(time.Now().Add(wsWriteTimeout))
	return s.Conn.Write(b)
}

func (s *wsStream) Read(b []byte) (int, error) {
	n, err := s.Conn.Read(b)
	if n > 0 {
		if lerr := s.limit.feed(b[:n]); lerr != nil {
			s.Conn.Close()
			return 0, lerr
		}
	}
	return n, err
}

// errMessageTooBig ends a connection whose client sent a message over
// MaxMessageBytes.
var errMessageTooBig = fmt.Errorf("a WebSocket message is larger than %d bytes", MaxMessageBytes)

// frameLimit follows the frames of a client's byte stream (RFC 6455 §5.2)
// and refuses a message (a data frame and its continuations) larger than
// max, before it is read.
type frameLimit struct {
	max     int64
	hdr     [14]byte
	have    int   // header bytes read
	need    int   // header size, once its first two bytes are read
	remain  int64 // payload bytes of the current frame still to come
	message int64 // payload bytes of the current message so far
}

func (f *frameLimit) feed(b []byte) error {
	for len(b) > 0 {
		if f.remain > 0 {
			n := min(int64(len(b)), f.remain)
			f.remain -= n
			b = b[n:]
			continue
		}
		f.hdr[f.have] = b[0]
		f.have++
		b = b[1:]
		if f.have == 2 {
			f.need = 2
			switch f.hdr[1] & 0x7f {
			case 126:
				f.need += 2
			case 127:
				f.need += 8
			}
			if f.hdr[1]&0x80 != 0 {
				f.need += 4 // the mask
			}
		}
		if f.have < 2 || f.have < f.need {
			continue
		}
		var n int64
		switch l := f.hdr[1] & 0x7f; l {
		case 126:
			n = int64(binary.BigEndian.Uint16(f.hdr[2:4]))
		case 127:
			u := binary.BigEndian.Uint64(f.hdr[2:10])
			if u > uint64(f.max) {
				return errMessageTooBig
			}
			n = int64(u)
		default:
			n = int64(l)
		}
		if opcode := f.hdr[0] & 0x0f; opcode < 8 { // data frames; control frames are small
			if opcode != 0 {
				f.message = 0
			}
			f.message += n
			if f.message > f.max {
				return errMessageTooBig
			}
		}
		f.remain, f.have, f.need = n, 0, 0
	}
	return nil
}
