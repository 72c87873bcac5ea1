package graph

import (
	"context"
	"errors"
	"log/slog"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/requestid"
)

func invalidNull(field string) error {
	return apierr.Invalid(field, "%s cannot be null", field)
}

func invalidPointer(field, kind string) error {
	return apierr.Invalid("position."+field, "position.%s.%s is required", field, kind)
}

func viewerFrom(ctx context.Context) *ent.User { return auth.Viewer(ctx) }

// PresentError is the GraphQL error presenter: domain errors keep their
// message and carry extensions.code; anything else is logged with the request
// id and shown as an internal error.
func PresentError(log *slog.Logger) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		var gqlErr *gqlerror.Error
		if errors.As(err, &gqlErr) && gqlErr.Err == nil {
			// Parse and validation errors from the executor.
			if gqlErr.Extensions == nil {
				gqlErr.Extensions = map[string]any{}
			}
			if _, ok := gqlErr.Extensions["code"]; !ok {
				gqlErr.Extensions["code"] = "GRAPHQL_VALIDATION_FAILED"
			}
			return gqlErr
		}
		out := graphql.DefaultErrorPresenter(ctx, err)
		if ie := apierr.Interrupted(ctx, err); ie != nil {
			// Cut short by the deadline or the client: not an internal error.
			err = ie
		}
		if e, ok := apierr.As(err); ok {
			out.Message = e.Message
			out.Extensions = map[string]any{"code": string(e.Code)}
			if e.Field != "" {
				out.Extensions["field"] = e.Field
			}
			if e.Cause != nil {
				log.WarnContext(ctx, "request failed", "request_id", requestid.From(ctx), "code", string(e.Code), "cause", e.Cause.Error())
			}
			return out
		}
		log.ErrorContext(ctx, "internal error", "request_id", requestid.From(ctx), "error", err.Error())
		out.Message = "Internal error"
		out.Extensions = map[string]any{"code": string(apierr.Internal)}
		return out
	}
}
