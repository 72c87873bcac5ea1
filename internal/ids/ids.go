// Package ids mints the opaque identifiers shared by every Quire object.
//
// An id is 20 base-62 characters. The first character names the kind of
// object, so that node(id:) can find the right table with a single lookup;
// the other 19 are random (about 113 bits), which keeps ids unique across
// every type and unguessable.
package ids

import (
	"crypto/rand"
	"math/big"
)

// Kind is the type tag carried in the first character of an id.
type Kind byte

// The kinds of objects that carry ids.
const (
	Organization Kind = 'O'
	User         Kind = 'U'
	Member       Kind = 'M'
	Token        Kind = 'T'
	Collection   Kind = 'C'
	Space        Kind = 'S'
	Revision     Kind = 'R'
	Site         Kind = 'W'
	SiteSection  Kind = 'X'
	SectionGroup Kind = 'G'
	SiteSpace    Kind = 'V'
	ShareLink    Kind = 'L'
	// Content of spaces (internal/content).
	Page        Kind = 'P'
	PageVersion Kind = 'E'
	File        Kind = 'F'
	FileVersion Kind = 'Y'
	// Reusable contents and their versions.
	ReusableContent        Kind = 'r'
	ReusableContentVersion Kind = 'u'
	ChangeRequest          Kind = 'Q'
	// Background jobs (internal/jobs).
	Job Kind = 'J'
	// Translations of spaces (internal/translate).
	Translation Kind = 'H'
	// Support conversations and what their analysis finds
	// (internal/conversations).
	Conversation      Kind = 'c'
	ConversationIssue Kind = 'h'
	IssuesCluster     Kind = 'e'
	// Discussions (internal/comments) and reviews (internal/reviews).
	Comment      Kind = 'K'
	CommentReply Kind = 'k'
	Review       Kind = 'N'
	// Organization administration (internal/members, internal/sso).
	Team         Kind = 'D'
	InviteLink   Kind = 'I'
	SAMLProvider Kind = 'Z'
	// OpenAPI specifications and their versions (internal/openapispec).
	OpenAPISpec        Kind = 'A'
	OpenAPISpecVersion Kind = 'B'
)

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// Length is the length of every id.
const Length = 20

var max = big.NewInt(int64(len(alphabet)))

// New returns a fresh id of the given kind.
func New(k Kind) string {
	b := make([]byte, Length)
	b[0] = byte(k)
	for i := 1; i < Length; i++ {
		n, err := rand.Int(rand.Reader, max)
		if err != nil {
			panic("ids: system randomness unavailable: " + err.Error())
		}
		b[i] = alphabet[n.Int64()]
	}
	return string(b)
}

// KindOf reports the kind of an id, and false when the string is not an id.
func KindOf(id string) (Kind, bool) {
	if len(id) != Length {
		return 0, false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
			return 0, false
		}
	}
	switch k := Kind(id[0]); k {
	case Organization, User, Member, Token, Collection, Space, Revision, Site, SiteSection, SectionGroup, SiteSpace, ShareLink,
		Page, PageVersion, File, FileVersion, ReusableContent, ReusableContentVersion, ChangeRequest, Job,
		Translation, Conversation, ConversationIssue, IssuesCluster, Comment, CommentReply, Review,
		Team, InviteLink, SAMLProvider, OpenAPISpec, OpenAPISpecVersion:
		return k, true
	}
	return 0, false
}

// Generator returns a function minting ids of kind k, for schema defaults.
func Generator(k Kind) func() string { return func() string { return New(k) } }
