package orgs

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"quire/ent"
	"quire/internal/apierr"
)

// What an operator sets on an organization from the command line (quire
// admin org): its use case and community type, which the documented API
// lets no caller change, and blocking it.

// Enumerations of the documented API.
var (
	UseCases       = []string{"internalDocs", "docsSite", "audienceControlledSite", "productDocs", "teamKnowledgeBase", "designSystem", "openSourceDocs", "notes", "other"}
	CommunityTypes = []string{"nonProfit", "openSource", "education"}
)

// BlockSourceOperator is the source of a block set by an operator: the
// documented "backoffice", the staff's side of the service.
const BlockSourceOperator = "backoffice"

// BlockReasonMax bounds a block's reason, in characters.
const BlockReasonMax = 255

// CheckBlockReason applies the documented limits of a block's reason.
func CheckBlockReason(reason string) error {
	n := utf8.RuneCountInString(reason)
	if strings.TrimSpace(reason) == "" || n > BlockReasonMax {
		return apierr.Invalid("reason", "A block's reason holds 1 to %d characters, not %d", BlockReasonMax, n)
	}
	return nil
}

// Profile is what an operator changes of an organization's profile; nil
// keeps a value, "" clears it.
type Profile struct {
	UseCase       *string
	CommunityType *string
}

func (p Profile) validate() error {
	if p.UseCase != nil && *p.UseCase != "" && !slices.Contains(UseCases, *p.UseCase) {
		return apierr.Invalid("useCase", "useCase %q is not one of %s", *p.UseCase, strings.Join(UseCases, ", "))
	}
	if p.CommunityType != nil && *p.CommunityType != "" && !slices.Contains(CommunityTypes, *p.CommunityType) {
		return apierr.Invalid("communityType", "communityType %q is not one of %s", *p.CommunityType, strings.Join(CommunityTypes, ", "))
	}
	return nil
}

// SetProfile changes an organization's use case and community type.
// Errors: NotFound, BadRequest.
func SetProfile(ctx context.Context, client *ent.Client, orgID string, p Profile) (*ent.Organization, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	upd := client.Organization.UpdateOneID(orgID)
	if p.UseCase != nil {
		if *p.UseCase == "" {
			upd.ClearUseCase()
		} else {
			upd.SetUseCase(*p.UseCase)
		}
	}
	if p.CommunityType != nil {
		if *p.CommunityType == "" {
			upd.ClearCommunityType()
		} else {
			upd.SetCommunityType(*p.CommunityType)
		}
	}
	return saveOrg(ctx, upd, orgID)
}

// Block blocks an organization: from then on every call of either door on
// what is in it is refused (Forbidden, with the reason), on every process
// sharing the database; the organization itself stays readable by its
// members, with its block. Blocking a blocked organization replaces the
// reason. Errors: NotFound, BadRequest.
func Block(ctx context.Context, client *ent.Client, orgID, reason string) (*ent.Organization, error) {
	reason = strings.TrimSpace(reason)
	if err := CheckBlockReason(reason); err != nil {
		return nil, err
	}
	return saveOrg(ctx, client.Organization.UpdateOneID(orgID).SetBlockedSource(BlockSourceOperator).SetBlockedReason(reason), orgID)
}

// Unblock lifts an organization's block; unblocking an organization that
// is not blocked changes nothing. Errors: NotFound.
func Unblock(ctx context.Context, client *ent.Client, orgID string) (*ent.Organization, error) {
	return saveOrg(ctx, client.Organization.UpdateOneID(orgID).ClearBlockedSource().ClearBlockedReason(), orgID)
}

func saveOrg(ctx context.Context, upd *ent.OrganizationUpdateOne, orgID string) (*ent.Organization, error) {
	o, err := upd.Save(ctx)
	if ent.IsNotFound(err) {
		return nil, notFoundOrg(orgID)
	}
	if err != nil {
		return nil, fmt.Errorf("update organization %s: %w", orgID, err)
	}
	return o, nil
}
