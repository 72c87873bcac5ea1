package gqlguard

import (
	"context"
	"slices"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"quire/internal/apierr"
	"quire/internal/jsonguard"
)

// NULCheck returns a gqlgen extension that refuses, before execution, an
// operation carrying U+0000 (NUL) in a string: in its variables (values
// and keys of JSON values included, and the names of uploaded files) or in
// a string literal of its arguments. Text in Quire never holds NUL, which
// PostgreSQL cannot store; the refusal is BAD_REQUEST with
// extensions.field naming the variable path (in.title) or the argument
// path (input.title).
func NULCheck() graphql.HandlerExtension {
	registerKinds()
	return nulCheck{}
}

type nulCheck struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = nulCheck{}

func (nulCheck) ExtensionName() string { return "NULCheck" }

func (nulCheck) Validate(graphql.ExecutableSchema) error { return nil }

func (nulCheck) MutateOperationContext(_ context.Context, rc *graphql.OperationContext) *gqlerror.Error {
	if rc == nil {
		return nil
	}
	names := make([]string, 0, len(rc.Variables))
	for name := range rc.Variables {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if n, found := jsonguard.FindNUL(name, rc.Variables[name], uploadNUL); found {
			return nulError(n.Path, "Variable $"+n.Path)
		}
	}
	if rc.Doc == nil {
		return nil
	}
	for _, op := range rc.Doc.Operations {
		if path, found := nulInSelections(op.SelectionSet); found {
			return nulError(path, "Argument "+path)
		}
	}
	for _, f := range rc.Doc.Fragments {
		if path, found := nulInSelections(f.SelectionSet); found {
			return nulError(path, "Argument "+path)
		}
	}
	return nil
}

func nulError(field, what string) *gqlerror.Error {
	return &gqlerror.Error{
		Message:    jsonguard.NULMessage(what, "text"),
		Extensions: map[string]any{"code": string(apierr.BadRequest), "field": field},
	}
}

// uploadNUL looks for NUL in what the transports decode besides JSON: an
// uploaded file's name and content type.
func uploadNUL(v any) bool {
	switch v := v.(type) {
	case graphql.Upload:
		return jsonguard.HasNUL(v.Filename) || jsonguard.HasNUL(v.ContentType)
	case *graphql.Upload:
		return v != nil && (jsonguard.HasNUL(v.Filename) || jsonguard.HasNUL(v.ContentType))
	}
	return false
}

// nulInSelections looks for NUL in the string literals of the arguments
// (of fields and directives) of a selection set.
func nulInSelections(set ast.SelectionSet) (string, bool) {
	for _, sel := range set {
		var args []ast.ArgumentList
		var sub ast.SelectionSet
		switch s := sel.(type) {
		case *ast.Field:
			args = append(args, s.Arguments)
			for _, d := range s.Directives {
				args = append(args, d.Arguments)
			}
			sub = s.SelectionSet
		case *ast.InlineFragment:
			for _, d := range s.Directives {
				args = append(args, d.Arguments)
			}
			sub = s.SelectionSet
		case *ast.FragmentSpread:
			for _, d := range s.Directives {
				args = append(args, d.Arguments)
			}
		}
		for _, list := range args {
			for _, a := range list {
				if p, found := nulInLiteral(a.Name, a.Value); found {
					return p, true
				}
			}
		}
		if p, found := nulInSelections(sub); found {
			return p, true
		}
	}
	return "", false
}

func nulInLiteral(path string, v *ast.Value) (string, bool) {
	if v == nil {
		return "", false
	}
	switch v.Kind {
	case ast.StringValue, ast.BlockValue:
		return path, jsonguard.HasNUL(v.Raw)
	case ast.ListValue:
		for i, c := range v.Children {
			if p, found := nulInLiteral(path+"["+strconv.Itoa(i)+"]", c.Value); found {
				return p, true
			}
		}
	case ast.ObjectValue:
		for _, c := range v.Children {
			if p, found := nulInLiteral(path+"."+c.Name, c.Value); found {
				return p, true
			}
		}
	}
	return "", false
}
