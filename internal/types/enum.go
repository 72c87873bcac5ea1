// Package types holds the enumerations and value objects shared by the
// storage schema, the GraphQL schema and the REST layer. Values are stored
// and served over REST in their documented spelling ("share-link"); GraphQL
// shows the same value as an enum name (share_link).
package types

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// gqlName turns a REST value into its GraphQL enum spelling: GraphQL names
// cannot hold "-", so "share-link" is share_link.
func gqlName(v string) string { return strings.ReplaceAll(v, "-", "_") }

// restValue turns a GraphQL enum name into the REST value.
func restValue(v string) string { return strings.ReplaceAll(v, "_", "-") }

func marshalEnum(w io.Writer, v string) { io.WriteString(w, strconv.Quote(gqlName(v))) }

func unmarshalEnum(v any, allowed []string, what string) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s must be an enum value", what)
	}
	r := restValue(s)
	for _, a := range allowed {
		if a == r {
			return r, nil
		}
	}
	return "", fmt.Errorf("%q is not a valid %s", s, what)
}

func contains(list []string, v string) bool {
	for _, a := range list {
		if a == v {
			return true
		}
	}
	return false
}

// Role is a member role: what a member may do with content.
type Role string

// Roles, from most to least powerful.
const (
	RoleAdmin   Role = "admin"
	RoleCreate  Role = "create"
	RoleReview  Role = "review"
	RoleEdit    Role = "edit"
	RoleComment Role = "comment"
	RoleRead    Role = "read"
)

// Roles lists every role value.
var Roles = []string{"admin", "create", "review", "edit", "comment", "read"}

// Rank orders roles: admin is highest, an unknown or empty role is 0.
func (r Role) Rank() int {
	switch r {
	case RoleAdmin:
		return 6
	case RoleCreate:
		return 5
	case RoleReview:
		return 4
	case RoleEdit:
		return 3
	case RoleComment:
		return 2
	case RoleRead:
		return 1
	}
	return 0
}

// AtLeast reports whether r grants at least the rights of o.
func (r Role) AtLeast(o Role) bool { return r.Rank() > 0 && r.Rank() >= o.Rank() }

// Valid reports whether r is a known role.
func (r Role) Valid() bool { return contains(Roles, string(r)) }

// MarshalGQL writes the GraphQL enum name.
func (r Role) MarshalGQL(w io.Writer) { marshalEnum(w, string(r)) }

// UnmarshalGQL reads a GraphQL enum name.
func (r *Role) UnmarshalGQL(v any) error {
	s, err := unmarshalEnum(v, Roles, "MemberRole")
	*r = Role(s)
	return err
}

// DefaultLevel is a role, or "inherit" to follow the parent. A nil
// *DefaultLevel means no default access.
type DefaultLevel string

// Inherit follows the parent collection, or the organization.
const Inherit DefaultLevel = "inherit"

// DefaultLevels lists every non-null default level value.
var DefaultLevels = append(append([]string{}, Roles...), "inherit")

// Valid reports whether d is a known level.
func (d DefaultLevel) Valid() bool { return contains(DefaultLevels, string(d)) }

// MarshalGQL writes the GraphQL enum name.
func (d DefaultLevel) MarshalGQL(w io.Writer) { marshalEnum(w, string(d)) }

// UnmarshalGQL reads a GraphQL enum name.
func (d *DefaultLevel) UnmarshalGQL(v any) error {
	s, err := unmarshalEnum(v, DefaultLevels, "DefaultLevel")
	*d = DefaultLevel(s)
	return err
}

// Visibility says who can read a space's published content.
type Visibility string

// Visibilities lists every content visibility.
var Visibilities = []string{"public", "unlisted", "share-link", "visitor-auth", "in-collection", "private"}

// Valid reports whether v is known.
func (v Visibility) Valid() bool { return contains(Visibilities, string(v)) }

// MarshalGQL writes the GraphQL enum name.
func (v Visibility) MarshalGQL(w io.Writer) { marshalEnum(w, string(v)) }

// UnmarshalGQL reads a GraphQL enum name.
func (v *Visibility) UnmarshalGQL(x any) error {
	s, err := unmarshalEnum(x, Visibilities, "ContentVisibility")
	*v = Visibility(s)
	return err
}

// EditMode says whether a space can be edited.
type EditMode string

// Edit modes.
const (
	EditModeLive   EditMode = "live"
	EditModeLocked EditMode = "locked"
)

// EditModes lists every edit mode.
var EditModes = []string{"live", "locked"}

// Valid reports whether m is known.
func (m EditMode) Valid() bool { return contains(EditModes, string(m)) }

// MarshalGQL writes the GraphQL enum name.
func (m EditMode) MarshalGQL(w io.Writer) { marshalEnum(w, string(m)) }

// UnmarshalGQL reads a GraphQL enum name.
func (m *EditMode) UnmarshalGQL(x any) error {
	s, err := unmarshalEnum(x, EditModes, "SpaceEditMode")
	*m = EditMode(s)
	return err
}

// Language is a content language code.
type Language string

// Languages lists the supported language codes.
var Languages = []string{"en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi",
	"nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk",
	"bg", "hr", "lt", "lv", "et", "sl"}

// Valid reports whether l is known.
func (l Language) Valid() bool { return contains(Languages, string(l)) }

// MarshalGQL writes the GraphQL enum name.
func (l Language) MarshalGQL(w io.Writer) { marshalEnum(w, string(l)) }

// UnmarshalGQL reads a GraphQL enum name.
func (l *Language) UnmarshalGQL(x any) error {
	s, err := unmarshalEnum(x, Languages, "Language")
	*l = Language(s)
	return err
}
