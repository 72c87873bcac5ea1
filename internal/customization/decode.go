package customization

import (
	"encoding/json"
)

// Decode reads the body of a PUT of a site's settings.
//
// The body is merged over [Defaults]: a key the body leaves out, or sends
// as null, keeps its default value, so a client may send only what it
// changes and still gets a complete, valid [Settings]. Objects merge key by
// key; arrays, fonts, favicons and content references are taken whole.
// Unknown keys are refused everywhere, so that nothing a client sends is
// silently dropped.
//
// Errors are [apierr.Invalid] with the JSON path of the first offending
// field, or "body" when the body is not a JSON object.
func Decode(raw []byte) (Settings, error) {
	return MergePatch(Defaults(), raw)
}

// MergePatch applies a JSON merge patch (RFC 7396) to base: objects in the
// patch merge into base, other values replace, and null resets a key to
// its default (or removes it when it has none, e.g. title, announcement,
// header.logo). Arrays, fonts, favicons and content references are
// replaced whole. The result is validated as [Decode] does.
func MergePatch(base Settings, raw []byte) (Settings, error) {
	patch, err := parse(raw)
	if err != nil {
		return Settings{}, err
	}
	bt, err := tree(base)
	if err != nil {
		return Settings{}, err
	}
	dt, err := tree(Defaults())
	if err != nil {
		return Settings{}, err
	}
	merged := merge(bt, patch, dt, siteRules).(map[string]any)
	if err := siteRules.check("", merged); err != nil {
		return Settings{}, err
	}
	var s Settings
	if err := fromTree(merged, &s); err != nil {
		return Settings{}, err
	}
	normalize(&s)
	return s, nil
}

// Validate checks settings built in code against the rules Decode
// enforces; the error names the JSON path of the first bad field.
func Validate(s Settings) error {
	t, err := tree(s)
	if err != nil {
		return err
	}
	return siteRules.check("", t)
}

// Marshal returns the JSON of s, the documented response shape.
func Marshal(s Settings) ([]byte, error) { return json.Marshal(s) }

// PatchSpace applies the body of a PATCH of a site space's customization
// to the stored override base. Keys the body leaves out keep their
// override; keys set to null lose it, so the site's value shows again;
// other values become the override (objects merge key by key, arrays,
// favicons, fonts and content references are replaced whole). Groups left
// empty are dropped, so resetting everything yields the zero
// [SpaceSettings].
func PatchSpace(base SpaceSettings, raw []byte) (SpaceSettings, error) {
	patch, err := parse(raw)
	if err != nil {
		return SpaceSettings{}, err
	}
	bt, err := tree(base)
	if err != nil {
		return SpaceSettings{}, err
	}
	merged := prune(merge(bt, patch, nil, spaceRules), spaceRules).(map[string]any)
	if err := spaceRules.check("", merged); err != nil {
		return SpaceSettings{}, err
	}
	var s SpaceSettings
	if err := fromTree(merged, &s); err != nil {
		return SpaceSettings{}, err
	}
	return s, nil
}

// DecodeSpace reads an override document, such as one stored earlier or
// the body of a first PATCH. A null key means "not overridden", like an
// absent one.
func DecodeSpace(raw []byte) (SpaceSettings, error) {
	return PatchSpace(SpaceSettings{}, raw)
}

// ValidateSpace checks an override built in code against the rules
// PatchSpace enforces.
func ValidateSpace(s SpaceSettings) error {
	t, err := tree(s)
	if err != nil {
		return err
	}
	return spaceRules.check("", t)
}

// normalize makes values that marshal alike compare alike: an empty
// suggestions list is omitted from JSON, so it is stored as nil.
func normalize(s *Settings) {
	if len(s.AI.Suggestions) == 0 {
		s.AI.Suggestions = nil
	}
}
