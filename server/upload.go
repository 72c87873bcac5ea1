package server

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
)

// uploadTransport serves GraphQL multipart requests
// (https://github.com/jaydenseric/graphql-multipart-request-spec): a part
// "operations" holding the request as JSON, a part "map" naming, for each
// file part, the variables it fills, then the files. It is gqlgen's
// MultipartForm transport with Quire's error answers (see graphqlhttp.go):
// gqlgen's answers a body over the limit with HTTP 200 and no code, and
// panics (HTTP 500) on a map path through a value of the wrong kind.
type uploadTransport struct {
	// maxBytes bounds the whole request.
	maxBytes int64
	// maxMemory: files of requests up to this size are kept in memory,
	// those of larger ones in temporary files.
	maxMemory int64
}

func (uploadTransport) Supports(r *http.Request) bool {
	return r.Method == http.MethodPost && mediaType(r) == "multipart/form-data"
}

func (t uploadTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	start := graphql.Now()
	if r.ContentLength > t.maxBytes {
		tooLarge(t.maxBytes).write(w)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, t.maxBytes)
	defer r.Body.Close()
	var cleanup []func()
	defer func() {
		for _, f := range cleanup {
			f()
		}
	}()
	params, rerr := t.read(r, &cleanup)
	if rerr != nil {
		rerr.write(w)
		return
	}
	params.Headers = r.Header
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	execute(w, r, exec, params, false)
}

const (
	multipartShape = "A multipart request must hold the parts operations, then map, then the files"
	mapShape       = "map must be a JSON object giving, for each file part, a list of variables (\"variables.…\")"
)

// read decodes the request; cleanup gets the removal of temporary files.
func (t uploadTransport) read(r *http.Request, cleanup *[]func()) (*graphql.RawParams, *requestError) {
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, badRequest("", multipartShape)
	}
	part, err := mr.NextPart()
	if err != nil || part.FormName() != "operations" {
		return nil, readError(err, multipartShape)
	}
	ops, err := io.ReadAll(part)
	if err != nil {
		return nil, readError(err, multipartShape)
	}
	params, rerr := decodeParams(ops, "operations")
	if rerr != nil {
		return nil, rerr
	}
	part, err = mr.NextPart()
	if err != nil || part.FormName() != "map" {
		return nil, readError(err, multipartShape)
	}
	var files map[string][]string
	if err := json.NewDecoder(part).Decode(&files); err != nil {
		return nil, readError(err, mapShape)
	}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, readError(err, multipartShape)
		}
		key := part.FormName()
		paths := files[key]
		if len(paths) == 0 {
			return nil, badRequest("", "A file part is not listed in map")
		}
		delete(files, key)
		upload, open, err := t.file(r, part, cleanup)
		if err != nil {
			return nil, readError(err, "Could not read a file part")
		}
		for _, path := range paths {
			// Every variable gets a reader of its own.
			if upload.File, err = open(); err != nil {
				return nil, readError(err, "Could not read a file part")
			}
			if !setUpload(params.Variables, path, upload) {
				return nil, badRequest("", mapShape+": a path names no variable that can hold a file")
			}
		}
	}
	if len(files) > 0 {
		return nil, badRequest("", "A file listed in map is missing from the request")
	}
	return params, nil
}

// file reads one file part, into memory or a temporary file; open
// returns a new reader of its content.
func (t uploadTransport) file(r *http.Request, part *multipart.Part, cleanup *[]func()) (up graphql.Upload, open func() (io.ReadSeeker, error), err error) {
	up = graphql.Upload{Filename: part.FileName(), ContentType: part.Header.Get("Content-Type")}
	if r.ContentLength >= 0 && r.ContentLength < t.maxMemory {
		b, err := io.ReadAll(part)
		if err != nil {
			return up, nil, err
		}
		up.Size = int64(len(b))
		return up, func() (io.ReadSeeker, error) { return bytes.NewReader(b), nil }, nil
	}
	f, err := os.CreateTemp("", "quire-upload-")
	if err != nil {
		return up, nil, err
	}
	name := f.Name()
	*cleanup = append(*cleanup, func() { os.Remove(name) })
	up.Size, err = io.Copy(f, part)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return up, nil, err
	}
	return up, func() (io.ReadSeeker, error) {
		f, err := os.Open(name)
		if err == nil {
			*cleanup = append(*cleanup, func() { f.Close() })
		}
		return f, err
	}, nil
}

// setUpload puts up where path ("variables.in.file", "variables.files.0")
// says, in variables; it reports false when the path leads nowhere: not
// under variables, through a missing value, a value of the wrong kind or
// an index out of range.
func setUpload(variables map[string]any, path string, up graphql.Upload) bool {
	rest, ok := strings.CutPrefix(path, "variables.")
	if !ok || rest == "" {
		return false
	}
	parts := strings.Split(rest, ".")
	var cur any = variables
	for i, p := range parts {
		last := i == len(parts)-1
		switch c := cur.(type) {
		case map[string]any:
			if c == nil {
				return false
			}
			if last {
				c[p] = up
				return true
			}
			cur = c[p]
		case []any:
			idx, err := strconv.Atoi(p)
			if err != nil || idx < 0 || idx >= len(c) {
				return false
			}
			if last {
				c[idx] = up
				return true
			}
			cur = c[idx]
		default:
			return false
		}
	}
	return false
}
