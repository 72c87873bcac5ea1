package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"quire/graph/gqlguard"
	"quire/internal/apierr"
)

// The /graphql endpoint speaks GraphQL over HTTP through transports of its
// own rather than gqlgen's: gqlgen's answer some malformed requests with
// HTTP 200 or a message without extensions.code, and one of them echoes the
// request body. Here every request refused before execution gets a 4xx and
// {"errors":[{"message","extensions":{"code"}}]}, with a message that never
// repeats what the client sent:
//
//	body over MaxBodyBytes (MaxUploadBytes for uploads)  413 REQUEST_TOO_LARGE
//	a body that is not one JSON object, batched operations
//	(a JSON array), a missing query, a bad multipart request  400 BAD_REQUEST
//	a content type other than application/json or
//	multipart/form-data                                  415 BAD_REQUEST
//	a method other than GET and POST, a GET with a
//	mutation                                             405 METHOD_NOT_ALLOWED
//
// Documents refused by parsing, validation or variable coercion are
// answered as GraphQL over HTTP recommends (requestErrorStatus): 200 with
// application/json, 400 and no data entry with
// application/graphql-response+json. Documents over Quire's query limits
// are 422 with application/json.

// serveGraphQL routes an authenticated /graphql request to its transport.
func (s *Server) serveGraphQL(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		switch mediaType(r) {
		case "application/json", "multipart/form-data":
			s.gql.ServeHTTP(w, r)
		default:
			writeGraphQLError(w, http.StatusUnsupportedMediaType, apierr.BadRequest,
				"Content-Type must be application/json, or multipart/form-data for a file upload")
		}
	case http.MethodGet:
		s.gql.ServeHTTP(w, r)
	default:
		w.Header().Set("Allow", "GET, POST")
		writeGraphQLError(w, http.StatusMethodNotAllowed, apierr.MethodNotAllowed,
			fmt.Sprintf("Method %s is not allowed on /graphql: use POST (or GET for queries)", r.Method))
	}
}

// mediaType is the request's Content-Type without parameters; "" when
// missing or malformed.
func mediaType(r *http.Request) string {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return mt
}

// requestError is a request refused by a transport before execution.
type requestError struct {
	status int
	code   apierr.Code
	field  string
	msg    string
}

func badRequest(field, msg string) *requestError {
	return &requestError{status: http.StatusBadRequest, code: apierr.BadRequest, field: field, msg: msg}
}

func tooLarge(limit int64) *requestError {
	return &requestError{status: http.StatusRequestEntityTooLarge, code: apierr.TooLarge, msg: fmt.Sprintf("Request body is larger than %d bytes", limit)}
}

// readError turns an error reading the body into a 413 when it went over
// the limit, and into a 400 saying msg otherwise.
func readError(err error, msg string) *requestError {
	var big *http.MaxBytesError
	if errors.As(err, &big) {
		return tooLarge(big.Limit)
	}
	return badRequest("", msg)
}

func (e *requestError) write(w http.ResponseWriter) {
	ext := map[string]any{"code": string(e.code)}
	if e.field != "" {
		ext["field"] = e.field
	}
	writeJSON(w, e.status, map[string]any{"errors": []any{map[string]any{"message": e.msg, "extensions": ext}}})
}

// postTransport serves POST requests with a JSON body.
type postTransport struct{}

func (postTransport) Supports(r *http.Request) bool {
	return r.Method == http.MethodPost && mediaType(r) == "application/json"
}

func (postTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	start := graphql.Now()
	body, err := readBody(r)
	if err != nil {
		readError(err, "Could not read the request body").write(w)
		return
	}
	params, rerr := decodeParams(body, "The request body")
	if rerr != nil {
		rerr.write(w)
		return
	}
	params.Headers = r.Header
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	// JSON arguments whose key order matters are read back from the body.
	ctx := gqlguard.WithRequestBody(r.Context(), body)
	execute(w, r.WithContext(ctx), exec, params, false)
}

// readBody reads the whole body (bounded by the MaxBytesReader ServeHTTP
// put around it) into a buffer of the announced length when there is one.
func readBody(r *http.Request) ([]byte, error) {
	if n := r.ContentLength; n >= 0 && n <= MaxBodyBytes {
		buf := make([]byte, n)
		if _, err := io.ReadFull(r.Body, buf); err != nil {
			return nil, err
		}
		return buf, nil
	}
	return io.ReadAll(r.Body)
}

// decodeParams decodes one GraphQL request, a JSON object with query,
// operationName, variables and extensions; what names the JSON in
// messages. Messages never quote the input.
func decodeParams(data []byte, what string) (*graphql.RawParams, *requestError) {
	switch trimmed := bytes.TrimLeft(data, " \t\r\n"); {
	case len(trimmed) > 0 && trimmed[0] == '[':
		return nil, badRequest("", "Batched operations are not supported: send one operation, a JSON object with a query, per request")
	case len(trimmed) == 0 || trimmed[0] != '{':
		return nil, badRequest("", what+" must be a JSON object with a query")
	}
	// json.Unmarshal reads data in place (a Decoder would copy it to its
	// buffer first: a large query would be held three times); only the
	// variables and extensions go through a Decoder, which keeps numbers
	// as json.Number as gqlgen's transports do.
	var req struct {
		Query         string          `json:"query"`
		OperationName string          `json:"operationName"`
		Variables     json.RawMessage `json:"variables"`
		Extensions    json.RawMessage `json:"extensions"`
	}
	if err := json.Unmarshal(data, &req); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && (typeErr.Field == "query" || typeErr.Field == "operationName") {
			return nil, badRequest(typeErr.Field, typeErr.Field+" must be a string")
		}
		return nil, badRequest("", what+" is not valid JSON")
	}
	params := &graphql.RawParams{Query: req.Query, OperationName: req.OperationName}
	for _, p := range []struct {
		name string
		raw  json.RawMessage
		dst  *map[string]any
	}{{"variables", req.Variables, &params.Variables}, {"extensions", req.Extensions, &params.Extensions}} {
		if len(p.raw) == 0 {
			continue
		}
		if err := decodeObject(p.raw, p.dst); err != nil {
			return nil, badRequest(p.name, p.name+" must be a JSON object")
		}
	}
	if strings.TrimSpace(params.Query) == "" {
		return nil, badRequest("query", "The request has no query")
	}
	return params, nil
}

// decodeObject decodes a JSON object (or null) into dst, numbers as
// json.Number.
func decodeObject(data []byte, dst *map[string]any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(dst); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one value")
	}
	return nil
}

// getTransport serves GET requests: query, operationName, variables and
// extensions in the URL. Only queries run; a mutation is refused with 405.
type getTransport struct{}

// Upgrade requests are the WebSocket transport's.
func (getTransport) Supports(r *http.Request) bool {
	return r.Method == http.MethodGet && r.Header.Get("Upgrade") == ""
}

func (getTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	start := graphql.Now()
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		badRequest("", "The URL's query string is malformed").write(w)
		return
	}
	params := &graphql.RawParams{Query: q.Get("query"), OperationName: q.Get("operationName"), Headers: r.Header}
	if strings.TrimSpace(params.Query) == "" {
		badRequest("query", "The request has no query").write(w)
		return
	}
	for _, p := range []struct {
		name string
		dst  *map[string]any
	}{{"variables", &params.Variables}, {"extensions", &params.Extensions}} {
		v := q.Get(p.name)
		if v == "" {
			continue
		}
		if err := decodeObject([]byte(v), p.dst); err != nil {
			badRequest(p.name, p.name+" must be a JSON object").write(w)
			return
		}
	}
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	execute(w, r, exec, params, true)
}

// execute runs one operation and writes its answer; queriesOnly refuses
// other operations (GET must not change anything).
func execute(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor, params *graphql.RawParams, queriesOnly bool) {
	ctx := r.Context()
	contentType := responseContentType(r)
	w.Header().Set("Content-Type", contentType)
	rc, errs := exec.CreateOperationContext(ctx, params)
	if errs != nil {
		resp := exec.DispatchError(graphql.WithOperationContext(ctx, rc), errs)
		if contentType == graphQLResponseJSON {
			// A request error has no data entry there.
			writeRequestErrors(w, requestErrorStatus(errs, true), resp)
			return
		}
		writeResponse(w, requestErrorStatus(errs, false), resp)
		return
	}
	if rc.Operation != nil && rc.Operation.Operation == ast.Subscription {
		writeGraphQLError(w, http.StatusBadRequest, apierr.BadRequest,
			"A subscription needs a WebSocket: open one at /graphql with the graphql-transport-ws protocol")
		return
	}
	if queriesOnly && rc.Operation != nil && rc.Operation.Operation != ast.Query {
		w.Header().Set("Allow", "POST")
		writeGraphQLError(w, http.StatusMethodNotAllowed, apierr.MethodNotAllowed,
			fmt.Sprintf("A %s cannot be sent with GET: use POST", rc.Operation.Operation))
		return
	}
	responses, ctx := exec.DispatchOperation(ctx, rc)
	writeResponse(w, http.StatusOK, responses(ctx))
}

const graphQLResponseJSON = "application/graphql-response+json"

// requestErrorStatus is the status of an operation refused before it ran.
// GraphQL over HTTP asks for 200 with application/json and a 4xx with
// application/graphql-response+json for a document that does not parse,
// does not validate or whose variables do not coerce; Quire's own query
// limits (tokens, depth, aliases, page sizes, nodes, NUL characters) are
// 422 with application/json, so that a client sees at the status alone
// that the document was too costly rather than wrong. Refusals of the user
// kind (the rate limit, whose 429 rateWriter sets) stay 200.
func requestErrorStatus(errs gqlerror.List, graphQLResponse bool) int {
	if errcode.GetErrorKind(errs) != errcode.KindProtocol {
		return http.StatusOK
	}
	if graphQLResponse {
		return http.StatusBadRequest
	}
	for _, e := range errs {
		if !specRequestError(e) {
			return http.StatusUnprocessableEntity
		}
	}
	return http.StatusOK
}

// specRequestError reports an error of GraphQL itself: parsing (but for
// the parser's token limit, one of Quire's query limits), validation and
// variable coercion, which gqlgen codes GRAPHQL_PARSE_FAILED and
// GRAPHQL_VALIDATION_FAILED.
func specRequestError(e *gqlerror.Error) bool {
	switch code, _ := e.Extensions["code"].(string); code {
	case errcode.ParseFailed:
		// gqlparser's only word for its token limit is this message
		// (TestGraphQLTokenFloodsRefused reads it).
		return !strings.HasPrefix(e.Message, "exceeded token limit")
	case errcode.ValidationFailed:
		return true
	}
	return false
}

// responseContentType chooses, as gqlgen's transports do, between
// application/json and application/graphql-response+json from the Accept
// header: application/json unless the client asks for the other first, or
// lists neither.
func responseContentType(r *http.Request) string {
	accept := r.Header.Get("Accept")
	if accept == "" {
		return "application/json"
	}
	for part := range strings.SplitSeq(accept, ",") {
		mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch mt {
		case "*/*", "application/*", "application/json":
			return "application/json"
		case graphQLResponseJSON:
			return graphQLResponseJSON
		}
	}
	return graphQLResponseJSON
}

// writeRequestErrors writes the errors of a request refused before
// execution without a data entry, as GraphQL over HTTP asks for
// application/graphql-response+json.
func writeRequestErrors(w http.ResponseWriter, status int, resp *graphql.Response) {
	out, err := json.Marshal(struct {
		Errors     gqlerror.List  `json:"errors"`
		Extensions map[string]any `json:"extensions,omitempty"`
	}{resp.Errors, resp.Extensions})
	if err != nil {
		writeGraphQLError(w, http.StatusInternalServerError, apierr.Internal, "Internal error")
		return
	}
	w.WriteHeader(status)
	_, _ = w.Write(out)
}

// writeResponse writes a GraphQL response as json.Marshal would, with
// appendResponse (see graphqljson.go).
func writeResponse(w http.ResponseWriter, status int, resp *graphql.Response) {
	if resp == nil {
		resp = &graphql.Response{Errors: gqlerror.List{gqlerror.Errorf("no response")}}
	}
	buf := responseBuffers.Get().(*[]byte)
	defer putResponseBuffer(buf)
	out, err := appendResponse((*buf)[:0], resp)
	if err != nil {
		if out, err = json.Marshal(resp); err != nil {
			writeGraphQLError(w, http.StatusInternalServerError, apierr.Internal, "Internal error")
			return
		}
	} else {
		*buf = out
	}
	w.WriteHeader(status)
	_, _ = w.Write(out)
}
