package graph

import (
	"bytes"
	"encoding/json"

	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/types"
)

// decodeStrict decodes the JSON given for field into out, refusing fields
// that shape does not have; null leaves out unset and reports false.
func decodeStrict(field, shape string, raw types.JSON, out any) (bool, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return false, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(out); err != nil {
		return false, apierr.Invalid(field, "%s must be %s: %v", field, shape, err)
	}
	return true, nil
}

const (
	metaLinksShape = "{canonical?, alternates?[]}, each a content reference of kind page or url"
	computedShape  = `{type, dependencies?: {name: {ref: {kind: "openapi", spec}}}, props?}`
)

// metaLinksInput decodes the meta links given for a page; null gives nil.
func metaLinksInput(raw types.JSON) (*types.PageMetaLinks, error) {
	var ml types.PageMetaLinks
	ok, err := decodeStrict("metaLinks", metaLinksShape, raw, &ml)
	if !ok || err != nil {
		return nil, err
	}
	return &ml, nil
}

// computedInput decodes the computed definition given for a page; null
// gives nil.
func computedInput(raw types.JSON) (*types.PageComputed, error) {
	var c types.PageComputed
	ok, err := decodeStrict("computed", computedShape, raw, &c)
	if !ok || err != nil {
		return nil, err
	}
	return &c, nil
}

// createPageProps copies the link title, icon, indexing, meta links and
// computed definition of a createPage input into its op.
func createPageProps(op *content.CreatePage, in model.CreatePageInput) error {
	op.LinkTitle, op.Icon = str(in.LinkTitle), str(in.Icon)
	if v := in.NoIndex.Value(); v != nil {
		op.NoIndex = *v
	}
	if v := in.NoRobotsIndex.Value(); v != nil {
		op.NoRobotsIndex = *v
	}
	var err error
	if op.MetaLinks, err = metaLinksInput(in.MetaLinks.Value()); err != nil {
		return err
	}
	op.Computed, err = computedInput(in.Computed.Value())
	return err
}

// updatePageProps copies the same properties of an updatePage input: null
// leaves link title, icon and indexing unchanged, and removes meta links
// and the computed definition.
func updatePageProps(op *content.UpdatePage, in model.UpdatePageInput) error {
	op.LinkTitle, op.Icon = in.LinkTitle.Value(), in.Icon.Value()
	op.NoIndex, op.NoRobotsIndex = in.NoIndex.Value(), in.NoRobotsIndex.Value()
	if in.MetaLinks.IsSet() {
		ml, err := metaLinksInput(in.MetaLinks.Value())
		if err != nil {
			return err
		}
		op.MetaLinks = catalog.Some(ml)
	}
	if in.Computed.IsSet() {
		c, err := computedInput(in.Computed.Value())
		if err != nil {
			return err
		}
		op.Computed = catalog.Some(c)
	}
	return nil
}

// pageMetaLinks presents a page's meta links; nil when it declares none.
func pageMetaLinks(p *content.Page) *model.PageMetaLinks {
	if p.MetaLinks.Empty() {
		return nil
	}
	out := &model.PageMetaLinks{Alternates: []types.JSON{}}
	if c := p.MetaLinks.Canonical; c != nil {
		out.Canonical = toJSON(c)
	}
	for _, a := range p.MetaLinks.Alternates {
		out.Alternates = append(out.Alternates, toJSON(a))
	}
	return out
}

// pageComputed presents a page's computed definition; nil when it has none.
func pageComputed(p *content.Page) types.JSON {
	if p.Computed == nil {
		return nil
	}
	return toJSON(p.Computed)
}
