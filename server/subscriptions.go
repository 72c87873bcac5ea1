package server

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/events"
	"quire/internal/loaders"
)

// subscriptionScope keeps what a subscription reads from outliving the
// moment it was read: a subscription starts acting for its caller as they
// are when it starts (their token looked up again, so a token revoked
// since the connection opened is refused), and each of its responses gets
// fresh loaders (so that the memberships and objects read for one event
// are read again for the next). Queries and mutations are left as they
// are: their request's loaders are fresh already.
type subscriptionScope struct{ client *ent.Client }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationInterceptor
	graphql.ResponseInterceptor
} = subscriptionScope{}

func (subscriptionScope) ExtensionName() string { return "SubscriptionScope" }

func (subscriptionScope) Validate(graphql.ExecutableSchema) error { return nil }

func isSubscription(ctx context.Context) bool {
	if !graphql.HasOperationContext(ctx) {
		return false
	}
	oc := graphql.GetOperationContext(ctx)
	return oc.Operation != nil && oc.Operation.Operation == ast.Subscription
}

func (x subscriptionScope) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	if !isSubscription(ctx) {
		return next(ctx)
	}
	fresh, err := events.Recheck(ctx, x.client)
	if err != nil {
		code, msg := apierr.Internal, "Internal error"
		if e, ok := apierr.As(err); ok {
			code, msg = e.Code, e.Message
		}
		return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{{Message: msg, Extensions: map[string]any{"code": string(code)}}}})
	}
	return next(fresh)
}

func (x subscriptionScope) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	if isSubscription(ctx) {
		ctx = loaders.With(ctx, loaders.New(x.client))
	}
	return next(ctx)
}
