package auth

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"quire/ent"
	"quire/internal/types"
)

// lookupQuery is the user whose token has a hash, with each of the user's
// memberships (none: one row of NULL member columns).
const lookupQuery = `SELECT u.id, u.email, u.display_name, u.photo_url, u.created_at,
	m.id, m.organization_id, m.role, m.disabled, m.sso, m.joined_at, m.last_seen_at
FROM users u
JOIN api_tokens t ON t.user_id = u.id
LEFT JOIN members m ON m.user_id = u.id
WHERE t.token_hash = $1`

// LookupWithMemberships returns the user owning a secret and every
// membership of that user (in organizations, disabled ones included), in
// one statement: every request needs both, the user to know who asks and
// the memberships to decide what it may see. The user is nil when the
// secret is unknown.
func LookupWithMemberships(ctx context.Context, client *ent.Client, secret string) (*ent.User, []*ent.Member, error) {
	if secret == "" || len(secret) > 200 {
		return nil, nil, nil
	}
	rows, err := client.QueryContext(ctx, lookupQuery, Hash(secret))
	if err != nil {
		return nil, nil, fmt.Errorf("look up token: %w", err)
	}
	defer rows.Close()
	var u *ent.User
	var members []*ent.Member
	for rows.Next() {
		var (
			uid, email, name string
			photo            sql.NullString
			created          time.Time
			mid, org, role   sql.NullString
			disabled, sso    sql.NullBool
			joined, seen     sql.NullTime
		)
		if err := rows.Scan(&uid, &email, &name, &photo, &created, &mid, &org, &role, &disabled, &sso, &joined, &seen); err != nil {
			return nil, nil, fmt.Errorf("look up token: %w", err)
		}
		if u == nil {
			u = &ent.User{ID: uid, Email: email, DisplayName: name, CreatedAt: created}
			if photo.Valid {
				u.PhotoURL = &photo.String
			}
		}
		if !mid.Valid {
			continue
		}
		m := &ent.Member{ID: mid.String, OrganizationID: org.String, UserID: uid, Disabled: disabled.Bool, SSO: sso.Bool, JoinedAt: joined.Time}
		if role.Valid {
			r := types.Role(role.String)
			m.Role = &r
		}
		if seen.Valid {
			t := seen.Time
			m.LastSeenAt = &t
		}
		members = append(members, m)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("look up token: %w", err)
	}
	return u, members, nil
}
