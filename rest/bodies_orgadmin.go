package rest

import (
	"encoding/json"

	"quire/internal/types"
)

// The request bodies and query parameters of organization administration:
// the organization's settings, invite links, agent instructions, members,
// teams, permissions of content and SAML providers.

// UpdateOrganizationBody patches an organization; omitted fields stay
// unchanged.
type UpdateOrganizationBody struct {
	Title          Opt[string]             `json:"title" minLength:"2" maxLength:"255" limit:"minLength=orgs.TitleMin,maxLength=orgs.TitleMax"`
	EmailDomains   Opt[[]string]           `json:"emailDomains" maxItems:"50" limit:"maxItems=orgs.MaxEmailDomains" doc:"Email domains whose verified users may join (POST /orgs/{organizationId}/join)."`
	Hostname       Opt[string]             `json:"hostname" minLength:"3" maxLength:"32" limit:"minLength=orgs.HostnameMin,maxLength=orgs.HostnameMax" nullable:"true" pattern:"^[a-z0-9]([a-z0-9-]*[a-z0-9])?$" mustBe:"lower-case letters, digits and inner hyphens" doc:"null removes it."`
	DefaultRole    Opt[types.Role]         `json:"defaultRole" nullable:"true" doc:"The role of members who join; null: guests."`
	DefaultContent Opt[DefaultContentBody] `json:"defaultContent" nullable:"true" doc:"A site of the organization; null removes it."`
	Logo           Opt[string]             `json:"logo" maxLength:"2048" limit:"maxLength=orgs.MaxLogoURL" format:"uri" nullable:"true" doc:"An http(s) URL; null removes it."`
	SSO            Opt[bool]               `json:"sso" doc:"Enforce single sign-on: members who did not sign in through it (but admins) are refused the organization's content. Needs an active SAML provider."`
	AI             Opt[bool]               `json:"ai"`
	InviteLinks    Opt[bool]               `json:"inviteLinks" doc:"Whether invite links can be used to join."`
	MergeRules     Opt[MergeRulesBody]     `json:"mergeRules" doc:"rules or none."`
}

// DefaultContentBody points at the site shown as an organization's default
// content.
type DefaultContentBody struct {
	Type string `json:"type" enum:"site"`
	Site string `json:"site"`
}

// CreateInviteLinkBody creates an invite link: to the organization (role),
// or to a space or a collection (level, with space or collection).
type CreateInviteLinkBody struct {
	Role       Opt[types.Role] `json:"role" nullable:"true" doc:"The role an invite to the organization gives; null for guests."`
	Level      Opt[types.Role] `json:"level" nullable:"true" doc:"The level an invite to a space or a collection gives."`
	Space      Opt[string]     `json:"space" doc:"Id of the space to invite to."`
	Collection Opt[string]     `json:"collection" doc:"Id of the collection to invite to."`
}

// UpdateInviteLinkBody changes what an invite link gives.
type UpdateInviteLinkBody struct {
	Role  Opt[types.Role] `json:"role" nullable:"true" doc:"For an invite to the organization; null for guests."`
	Level Opt[types.Role] `json:"level" nullable:"true" doc:"For an invite to a space or a collection."`
}

// AgentInstructionsBody replaces an organization's instructions to AI
// agents.
type AgentInstructionsBody struct {
	Instructions json.RawMessage `json:"instructions" doc:"A document ({object: document, data, nodes})."`
}

// MemberListParams are the filters of an organization's member list.
type MemberListParams struct {
	ListParams
	Order  string `query:"order" enum:"asc,desc" doc:"desc (default): the newest first."`
	Role   string `query:"role" enum:"admin,create,edit,review,comment,read,guest" doc:"Only members of this role; guest: members without one."`
	Search string `query:"search" maxLength:"256" limit:"maxLength=members.MaxSearch" doc:"Only members whose display name or email contains it (case-insensitive)."`
	Sort   string `query:"sort" enum:"joinedAt,lastSeenAt" doc:"joinedAt (default), or lastSeenAt, which lists only the members seen since they joined."`
}

// UpdateMemberBody changes a member's role.
type UpdateMemberBody struct {
	Role Opt[types.Role] `json:"role" nullable:"true" doc:"null makes the member a guest. The last admin keeps the role."`
}

// MemberSpacesParams order a member's spaces.
type MemberSpacesParams struct {
	ListParams
	Order string `query:"order" enum:"asc,desc" doc:"desc (default) or asc, of the organization's order of spaces."`
}

// TitleParams filter a list of teams by title.
type TitleParams struct {
	ListParams
	Title string `query:"title" maxLength:"256" limit:"maxLength=members.MaxSearch" doc:"Only teams whose title contains it (case-insensitive)."`
}

// TeamListParams filter an organization's teams.
type TeamListParams struct {
	ListParams
	Owner string `query:"owner" doc:"Only teams this member (a user id) may manage."`
	Title string `query:"title" maxLength:"256" limit:"maxLength=members.MaxSearch" doc:"Only teams whose title contains it (case-insensitive)."`
}

// CreateTeamBody creates a team.
type CreateTeamBody struct {
	Title   string   `json:"title" minLength:"1" maxLength:"64" limit:"minLength=nonEmpty,maxLength=members.TeamTitleMax"`
	Members []string `json:"members,omitempty" nullable:"true" maxItems:"1000" limit:"maxItems=members.MaxTeamMembers" doc:"User ids of members of the organization."`
}

// UpdateTeamBody renames a team.
type UpdateTeamBody struct {
	Title string `json:"title" minLength:"1" maxLength:"64" limit:"minLength=nonEmpty,maxLength=members.TeamTitleMax"`
}

// UpdateTeamMembersBody changes a team's members.
type UpdateTeamMembersBody struct {
	Add         []string                  `json:"add,omitempty" nullable:"true" maxItems:"1000" limit:"maxItems=members.MaxTeamMembers" doc:"User ids to add as members."`
	Remove      []string                  `json:"remove,omitempty" nullable:"true" maxItems:"1000" limit:"maxItems=members.MaxTeamMembers" doc:"User ids to remove."`
	Memberships map[string]TeamMemberBody `json:"memberships,omitempty" nullable:"true" doc:"User ids to add or change, with their role."`
}

// TeamMemberBody is a member's role in a team.
type TeamMemberBody struct {
	Role string `json:"role" enum:"owner,member"`
}

// AddTeamMemberBody adds a member to a team.
type AddTeamMemberBody struct {
	Role Opt[string] `json:"role" enum:"owner,member" doc:"member when omitted."`
}

// InvitePermissionsBody gives users and teams a level on content.
type InvitePermissionsBody struct {
	Role  *types.Role `json:"role" nullable:"true"`
	Users []string    `json:"users,omitempty" nullable:"true" maxItems:"1000" limit:"maxItems=grants.MaxInvite" doc:"User ids of members of the organization."`
	Teams []string    `json:"teams,omitempty" nullable:"true" maxItems:"1000" limit:"maxItems=grants.MaxInvite" doc:"Team ids of the organization."`
}

// UpdatePermissionBody changes a level on content.
type UpdatePermissionBody struct {
	Role Opt[types.Role] `json:"role" nullable:"true" doc:"null removes the permission."`
}

// AggregateParams filter the members who reach content.
type AggregateParams struct {
	ListParams
	Role string `query:"role" enum:"admin,create,edit,review,comment,read" doc:"Only members of this level."`
}

// CreateSAMLProviderBody creates a SAML provider.
type CreateSAMLProviderBody struct {
	Label       string          `json:"label" minLength:"1" maxLength:"30" limit:"minLength=nonEmpty,maxLength=sso.MaxLabel"`
	EntityID    Opt[string]     `json:"entityID" maxLength:"1024" limit:"maxLength=sso.MaxEntityID" doc:"The identity provider's entity ID."`
	Certificate Opt[string]     `json:"certificate" maxLength:"10000" limit:"maxLength=sso.MaxCertificate" doc:"The X.509 certificate (PEM) the identity provider signs with."`
	SSOURL      Opt[string]     `json:"ssoURL" maxLength:"2048" limit:"maxLength=sso.MaxSSOURL" format:"uri" doc:"The identity provider's single sign-on URL (HTTP-Redirect binding)."`
	DefaultTeam Opt[string]     `json:"defaultTeam" nullable:"true" doc:"Id of a team that members it provisions join."`
	DefaultRole Opt[types.Role] `json:"defaultRole" nullable:"true" doc:"The role of members it provisions; null: guests; omitted: the organization's default role."`
}

// UpdateSAMLProviderBody patches a SAML provider; omitted fields stay
// unchanged.
type UpdateSAMLProviderBody struct {
	Label       Opt[string]     `json:"label" minLength:"1" maxLength:"30" limit:"minLength=nonEmpty,maxLength=sso.MaxLabel"`
	EntityID    Opt[string]     `json:"entityID" maxLength:"1024" limit:"maxLength=sso.MaxEntityID"`
	Certificate Opt[string]     `json:"certificate" maxLength:"10000" limit:"maxLength=sso.MaxCertificate"`
	SSOURL      Opt[string]     `json:"ssoURL" maxLength:"2048" limit:"maxLength=sso.MaxSSOURL" format:"uri"`
	DefaultTeam Opt[string]     `json:"defaultTeam" nullable:"true"`
	DefaultRole Opt[types.Role] `json:"defaultRole" nullable:"true"`
}
