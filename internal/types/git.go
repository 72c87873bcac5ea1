package types

import "time"

// GitBlob is where a page or file of a revision came from in a Git
// repository (or was last written to): the blob's object id and its path
// in the repository.
type GitBlob struct {
	OID  string `json:"oid"`
	Path string `json:"path"`
}

// GitCommit is the Git commit a revision was imported from.
type GitCommit struct {
	// OID is the commit's object id.
	OID string `json:"oid"`
	// Message is the commit message.
	Message string `json:"message"`
	// CreatedByService is true when the commit was written by an export
	// of Quire's own.
	CreatedByService bool `json:"createdByService"`
	// URL is the commit's URL at the Git provider, when known.
	URL string `json:"url,omitempty"`
	// Ref is the ref the commit was read from (refs/heads/<branch>).
	Ref string `json:"ref,omitempty"`
}

// GitSync is what a space keeps of its synchronisation with a Git
// repository.
type GitSync struct {
	// Installed is set while a Git provider is set up on the space: an
	// import or export has completed, and the installation has not been
	// removed since. Only then do RepoName, InstallationProvider,
	// Integration, URL and UpdatedAt mean anything to readers.
	Installed bool `json:"installed,omitempty"`
	// RepoName is the repository's name (owner/name on the usual hosts).
	RepoName string `json:"repoName,omitempty"`
	// InstallationProvider is github, gitlab or github-legacy; empty when
	// the host is neither.
	InstallationProvider string `json:"installationProvider,omitempty"`
	// Integration names what provides the synchronisation.
	Integration string `json:"integration,omitempty"`
	// URL is the repository's tree URL, used to render public content.
	URL string `json:"url,omitempty"`
	// UpdatedAt is when the provider details last changed.
	UpdatedAt *time.Time `json:"updatedAt,omitempty"`
	// Remote is the repository URL of the last operation, without
	// credentials; Ref its ref.
	Remote string `json:"remote,omitempty"`
	Ref    string `json:"ref,omitempty"`
	// Commit is the commit last imported or exported.
	Commit string `json:"commit,omitempty"`
	// Timestamp is the latest timestamp of an import or export applied to
	// the space: an operation with an older one is skipped unless forced.
	Timestamp *time.Time `json:"timestamp,omitempty"`
}
