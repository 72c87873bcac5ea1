// Package computed generates the documents of computed pages: a page
// whose content is made from its definition ({type, dependencies, props})
// rather than stored. The one source is builtin:openapi, an API reference
// made from the latest version of an OpenAPI specification of the page's
// organization, named by slug in the dependency spec:
//
//   - props.doc "operations" (the default): a heading per tag with its
//     description, and an openapi-operation block per operation carrying
//     the resolved operation (method, path, summary, description,
//     deprecation, parameters, request body, responses); props.page, when
//     given, keeps the operations of that tag (by name or slug);
//   - props.doc "models": an openapi-schemas block per component schema;
//   - props.doc "info": the title, version, description and servers.
//
// The document is computed on each read from the latest version: a
// version is immutable, so the specification read from its files is kept
// in memory by version id (a few versions, see MaxCachedVersions), which
// no replica can disagree with. What cannot be computed (an unknown
// source type, a specification the organization does not have, one with
// no version yet or whose processing failed) gives a document holding a
// hint that says so, never an error of the read.
//
// Schemas are rendered bounded: references are expanded in place down to
// MaxSchemaDepth, a reference back to a schema being expanded is cut
// (circular), and each block renders at most MaxSchemaNodes schemas.
package computed

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"sync"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/document"
	"quire/internal/types"
)

// SourceOpenAPI is the computed source type of an API reference.
const SourceOpenAPI = "builtin:openapi"

// Documents of a source, as props.doc names them.
const (
	DocOperations = "operations"
	DocModels     = "models"
	DocInfo       = "info"
)

// Limits of a computed document. They are fixed; docs/api.md lists them.
const (
	// MaxOperations bounds the operations of one document.
	MaxOperations = 200
	// MaxModels bounds the component schemas of one document.
	MaxModels = 200
	// MaxSchemaDepth bounds the nesting of a rendered schema.
	MaxSchemaDepth = 6
	// MaxSchemaNodes bounds the schemas one block renders.
	MaxSchemaNodes = 400
	// MaxProperties bounds the properties shown of one schema.
	MaxProperties = 100
	// MaxVariants bounds the oneOf/anyOf/allOf members shown.
	MaxVariants = 20
	// MaxEnum bounds the enum values shown of one schema.
	MaxEnum = 50
	// MaxParameters bounds the parameters of an operation.
	MaxParameters = 100
	// MaxResponses bounds the responses of an operation.
	MaxResponses = 50
	// MaxMediaTypes bounds the content types of a body.
	MaxMediaTypes = 10
	// MaxText bounds a description or summary, in characters.
	MaxText = 4000
	// MaxName bounds a name, path or value, in characters.
	MaxName = 500
	// MaxCachedVersions bounds the versions kept read in memory.
	MaxCachedVersions = 16
)

// Specs is what the engine needs of the specifications engine.
type Specs interface {
	// LatestOf returns a specification of the organization by slug and
	// its latest version (nil when none); NotFound when there is none.
	LatestOf(ctx context.Context, orgID, slug string) (*ent.OpenAPISpec, *ent.OpenAPISpecVersion, error)
	// Files returns the files of a version by path.
	Files(ctx context.Context, v *ent.OpenAPISpecVersion) (map[string]string, error)
}

// Service computes documents.
type Service struct {
	Specs Specs
	// Client reads the organization of a space (SpaceCompute); nil when
	// only Compute is used.
	Client *ent.Client

	mu    sync.Mutex
	cache map[string]*spec // version id → its specification, read
	order []string         // the cache's keys, least recently used first
}

// New returns a Service.
func New(specs Specs) *Service { return &Service{Specs: specs, cache: map[string]*spec{}} }

// Result is a computed document and what it was computed from.
type Result struct {
	Document *document.Document
	// Seed is the seed of the document's generated keys: the page's seed
	// (a hash of its definition) mixed with the versions read, so that it
	// changes whenever the input does.
	Seed string
	// Versions are the ids of the specification versions read, by
	// dependency name (empty when a dependency has none).
	Versions map[string]string
}

// Compute makes the document of a computed definition of a page of
// organization orgID. seed is the page's stored seed. Only that
// organization's specifications are read. It fails only when the
// database does; what cannot be computed gives a document with a hint.
func (s *Service) Compute(ctx context.Context, orgID string, def *types.PageComputed, seed string) (*Result, error) {
	if def == nil {
		return &Result{Document: (&builder{}).document(), Seed: seed, Versions: map[string]string{}}, nil
	}
	res, sp, v, err := s.resolve(ctx, orgID, def, seed)
	if err != nil {
		return nil, err
	}
	_, ref := dependency(def)
	b := &builder{seed: res.Seed}
	switch {
	case def.Type != SourceOpenAPI:
		b.hint(document.HintWarning, fmt.Sprintf("Quire cannot compute content of type %q: the computed source it knows is %s.", def.Type, SourceOpenAPI))
	case ref == "":
		b.hint(document.HintWarning, "This computed page names no OpenAPI specification: give dependencies.spec = {ref: {kind: \"openapi\", spec: SLUG}}.")
	case sp == nil:
		b.hint(document.HintWarning, fmt.Sprintf("The organization has no OpenAPI specification %q.", ref))
	case v == nil:
		b.hint(document.HintWarning, noVersion(sp))
	default:
		parsed, err := s.read(ctx, v)
		if err != nil {
			return nil, err
		}
		docRef := document.ContentRef{Kind: document.RefOpenAPI, Spec: sp.Slug}
		doc, _ := def.Props["doc"].(string)
		page, _ := def.Props["page"].(string)
		switch doc {
		case DocModels:
			buildModels(b, parsed, docRef)
		case DocInfo:
			buildInfo(b, parsed)
		case "", DocOperations:
			buildOperations(b, parsed, docRef, page)
		default:
			b.hint(document.HintWarning, fmt.Sprintf("props.doc %q is not one of %s, %s, %s.", doc, DocOperations, DocModels, DocInfo))
		}
	}
	res.Document = b.document()
	return res, nil
}

// Seed is the seed of a computed page's document (Result.Seed), without
// computing the document.
func (s *Service) Seed(ctx context.Context, orgID string, def *types.PageComputed, seed string) (string, error) {
	if def == nil {
		return seed, nil
	}
	res, _, _, err := s.resolve(ctx, orgID, def, seed)
	if err != nil {
		return "", err
	}
	return res.Seed, nil
}

// resolve reads the specification a definition depends on and its latest
// version (nil when there is none), and mixes the seed.
func (s *Service) resolve(ctx context.Context, orgID string, def *types.PageComputed, seed string) (*Result, *ent.OpenAPISpec, *ent.OpenAPISpecVersion, error) {
	res := &Result{Versions: map[string]string{}}
	name, ref := dependency(def)
	var sp *ent.OpenAPISpec
	var v *ent.OpenAPISpecVersion
	if def.Type == SourceOpenAPI && ref != "" {
		var err error
		sp, v, err = s.Specs.LatestOf(ctx, orgID, ref)
		if err != nil && apierr.CodeOf(err) != apierr.NotFound {
			return nil, nil, nil, fmt.Errorf("read OpenAPI specification %q: %w", ref, err)
		}
		if v != nil {
			res.Versions[name] = v.ID
		}
	}
	res.Seed = mixSeed(seed, res.Versions)
	return res, sp, v, nil
}

// dependency is the specification a definition reads: the dependency
// named spec, or the only one.
func dependency(def *types.PageComputed) (name, slug string) {
	if d, ok := def.Dependencies["spec"]; ok {
		return "spec", d.Ref.Spec
	}
	if len(def.Dependencies) == 1 {
		for n, d := range def.Dependencies {
			return n, d.Ref.Spec
		}
	}
	return "", ""
}

func noVersion(sp *ent.OpenAPISpec) string {
	if sp.LastProcessErrorCode != nil {
		return fmt.Sprintf("The OpenAPI specification %q has no version to show: its processing failed (%s); fix its source.", sp.Slug, *sp.LastProcessErrorCode)
	}
	return fmt.Sprintf("The OpenAPI specification %q has no version yet (its processing is %s); this page shows it once it is processed.", sp.Slug, sp.ProcessingState)
}

// mixSeed is the seed of a computed document: the page's seed and the
// versions read, hashed.
func mixSeed(seed string, versions map[string]string) string {
	h := sha256.New()
	h.Write([]byte(seed))
	for _, k := range slices.Sorted(maps.Keys(versions)) {
		h.Write([]byte{0})
		h.Write([]byte(k + "=" + versions[k]))
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// read returns the specification of a version, read once per process
// while it stays among the MaxCachedVersions used last.
func (s *Service) read(ctx context.Context, v *ent.OpenAPISpecVersion) (*spec, error) {
	s.mu.Lock()
	if sp, ok := s.cache[v.ID]; ok {
		s.touch(v.ID)
		s.mu.Unlock()
		return sp, nil
	}
	s.mu.Unlock()
	files, err := s.Specs.Files(ctx, v)
	if err != nil {
		return nil, fmt.Errorf("read the files of OpenAPI version %s: %w", v.ID, err)
	}
	sp, err := readSpec(files, v.Root)
	if err != nil {
		return nil, fmt.Errorf("read OpenAPI version %s: %w", v.ID, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cache == nil {
		s.cache = map[string]*spec{}
	}
	if _, ok := s.cache[v.ID]; !ok {
		s.cache[v.ID] = sp
		s.order = append(s.order, v.ID)
		for len(s.order) > MaxCachedVersions {
			delete(s.cache, s.order[0])
			s.order = s.order[1:]
		}
	}
	return sp, nil
}

// touch marks a cached version used last; s.mu is held.
func (s *Service) touch(id string) {
	if i := slices.Index(s.order, id); i >= 0 {
		s.order = append(append(s.order[:i:i], s.order[i+1:]...), id)
	}
}
