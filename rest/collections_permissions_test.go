package rest_test

import (
	"testing"

	"quire/internal/testing/testenv"
)

// TestCollectionPermissions is the permission matrix of every collection
// route: route × actor → status. Each case works on fresh collections made
// by the admin, so the cases do not disturb each other.
func TestCollectionPermissions(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		admin, org := team.Admin.Token, team.Org.ID
		// The admin administers Other too, so that a transfer can succeed.
		e.Member(team.Other, team.Admin.User, "admin")

		type fixture struct {
			col    string // the collection the route works on
			method string
			path   string
			body   any
		}
		type route struct {
			name  string
			setup func() fixture
		}
		simple := func(method, suffix string, body func(col string) any) func() fixture {
			return func() fixture {
				col := ctCol(t, e, admin, org, "Fixture", "")
				ctSpace(t, e, admin, org, "Inside", col)
				var b any
				if body != nil {
					b = body(col)
				}
				return fixture{col, method, "/v1/collections/" + col + suffix, b}
			}
		}
		routes := []route{
			{"list org collections", func() fixture {
				col := ctCol(t, e, admin, org, "Fixture", "")
				return fixture{col, "GET", "/v1/orgs/" + org + "/collections", nil}
			}},
			{"create in org", func() fixture {
				return fixture{"", "POST", "/v1/orgs/" + org + "/collections", map[string]any{"title": "New"}}
			}},
			{"create in collection", func() fixture {
				col := ctCol(t, e, admin, org, "Fixture", "")
				return fixture{col, "POST", "/v1/orgs/" + org + "/collections", map[string]any{"title": "New", "parent": col}}
			}},
			{"get", simple("GET", "", nil)},
			{"patch", simple("PATCH", "", func(string) any { return map[string]any{"title": "Changed"} })},
			{"delete", simple("DELETE", "", nil)},
			{"list spaces", simple("GET", "/spaces", nil)},
			{"move", func() fixture {
				target := ctCol(t, e, admin, org, "Target", "")
				col := ctCol(t, e, admin, org, "Fixture", "")
				return fixture{col, "POST", "/v1/collections/" + col + "/move", map[string]any{"parent": target}}
			}},
			{"move position", func() fixture {
				first := ctCol(t, e, admin, org, "First", "")
				col := ctCol(t, e, admin, org, "Fixture", "")
				return fixture{col, "POST", "/v1/collections/" + col + "/move", map[string]any{
					"position": map[string]any{"before": map[string]any{"type": "collection", "collection": first}}}}
			}},
			{"transfer", simple("POST", "/transfer", func(string) any { return map[string]any{"organization": team.Other.ID} })},
		}
		type actor struct {
			name  string
			token string
		}
		actors := []actor{
			{"admin", team.Admin.Token},
			{"editor", team.Editor.Token},
			{"reader", team.Reader.Token},
			{"outsider", team.Outsider.Token},
			{"anonymous", team.Anon.Token},
		}
		want := map[string][5]int{
			//                      admin editor reader outsider anon
			"list org collections": {200, 200, 200, 404, 401},
			"create in org":        {201, 403, 403, 404, 401},
			"create in collection": {201, 403, 403, 404, 401},
			"get":                  {200, 200, 200, 404, 401},
			"patch":                {200, 403, 403, 404, 401},
			"delete":               {205, 403, 403, 204, 401},
			"list spaces":          {200, 200, 200, 404, 401},
			"move":                 {200, 403, 403, 404, 401},
			"move position":        {200, 403, 403, 404, 401},
			"transfer":             {200, 403, 403, 404, 401},
		}
		for _, rt := range routes {
			for i, ac := range actors {
				status := want[rt.name][i]
				name := rt.name + "/" + ac.name
				f := rt.setup()
				r := e.Do(ac.token, f.method, f.path, f.body)
				switch {
				case status == 204 || status == 205:
					ctEmpty(t, r, status, name)
				case status >= 400:
					ctErr(t, r, status, "", name)
				default:
					if r.Status != status {
						t.Errorf("%s: status %d, want %d; body %s", name, r.Status, status, r.Body)
					}
				}
				if status >= 400 && f.col != "" {
					// A refusal changes nothing.
					g := ctGet(t, e, admin, "/v1/collections/"+f.col)
					if g["title"] != "Fixture" || g["organization"] != org {
						t.Errorf("%s: refused request changed the collection: %v", name, g)
					}
					if _, ok := g["parent"]; ok {
						t.Errorf("%s: refused request changed the parent: %v", name, g)
					}
				}
				if status == 204 && f.col != "" {
					// Invisible means "did not exist": still there for the admin.
					ctGet(t, e, admin, "/v1/collections/"+f.col)
				}
			}
		}

		// Lists only show what the caller may see: the outsider sees
		// nothing of Org even through their own organization.
		for _, id := range ctList(t, e, team.Outsider.Token, "/v1/orgs/"+team.Other.ID+"/collections") {
			g := ctGet(t, e, admin, "/v1/collections/"+id)
			if g["organization"] != team.Other.ID {
				t.Errorf("outsider lists %v", g)
			}
		}
	})
}

// TestCollectionDefaultLevel checks what defaultLevel gives a non-admin
// member: null hides the collection, a role applies as is, inherit follows
// the parent up to the organization role.
func TestCollectionDefaultLevel(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		admin, org := team.Admin.Token, team.Org.ID
		reader, editor := team.Reader.Token, team.Editor.Token
		perms := func(v map[string]any) map[string]any {
			p, _ := v["permissions"].(map[string]any)
			return p
		}

		// null: no default access.
		hidden := ctCol(t, e, admin, org, "Hidden", "")
		hiddenSpace := ctSpace(t, e, admin, org, "Hidden space", hidden)
		hiddenChild := ctCol(t, e, admin, org, "Hidden child", hidden)
		ctPatch(t, e, admin, hidden, map[string]any{"defaultLevel": nil})
		for _, tok := range []string{reader, editor} {
			ctErr(t, e.Do(tok, "GET", "/v1/collections/"+hidden, nil), 404, "", "member GET null collection")
			ctErr(t, e.Do(tok, "GET", "/v1/collections/"+hidden+"/spaces", nil), 404, "", "member spaces of null collection")
			ctErr(t, e.Do(tok, "GET", "/v1/collections/"+hiddenChild, nil), 404, "", "member GET inheriting child of null")
			ctErr(t, e.Do(tok, "GET", "/v1/spaces/"+hiddenSpace, nil), 404, "", "member GET space in null collection")
			ctErr(t, e.Do(tok, "PATCH", "/v1/collections/"+hidden, map[string]any{"title": "x"}), 404, "", "member PATCH null collection")
			ctErr(t, e.Do(tok, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"parent": hidden}), 400, "parent", "member create in null collection")
			ctEmpty(t, e.Do(tok, "DELETE", "/v1/collections/"+hidden, nil), 204, "member DELETE null collection")
			for _, q := range []string{"", "?nested=false"} {
				if got := ctList(t, e, tok, "/v1/orgs/"+org+"/collections"+q); ctContains(got, hidden) || ctContains(got, hiddenChild) {
					t.Errorf("member list%s shows hidden collections: %v", q, got)
				}
			}
			if got := ctList(t, e, tok, "/v1/orgs/"+org+"/spaces"); ctContains(got, hiddenSpace) {
				t.Errorf("member space list shows the hidden space: %v", got)
			}
		}
		g := ctGet(t, e, admin, "/v1/collections/"+hidden)
		if v, ok := g["defaultLevel"]; !ok || v != nil || perms(g)["admin"] != true {
			t.Errorf("admin view of null collection: %v", g)
		}
		if got := ctList(t, e, admin, "/v1/orgs/"+org+"/collections"); !ctContains(got, hidden) || !ctContains(got, hiddenChild) {
			t.Errorf("admin list lacks the hidden collections: %v", got)
		}
		ctGet(t, e, admin, "/v1/spaces/"+hiddenSpace)
		// A child with a role of its own is visible under a null parent.
		ctPatch(t, e, admin, hiddenChild, map[string]any{"defaultLevel": "read"})
		ctGet(t, e, reader, "/v1/collections/"+hiddenChild)

		// A role applies as is, above or below the org role.
		edit := ctCol(t, e, admin, org, "Editable", "")
		editSpace := ctSpace(t, e, admin, org, "Editable space", edit)
		ctPatch(t, e, admin, edit, map[string]any{"defaultLevel": "edit"})
		p := perms(ctGet(t, e, reader, "/v1/collections/"+edit))
		if p["view"] != true || p["create"] != false || p["admin"] != false || p["viewInviteLinks"] != false {
			t.Errorf("reader on edit collection: %v", p)
		}
		if sp := perms(ctGet(t, e, reader, "/v1/spaces/"+editSpace)); sp["edit"] != true || sp["admin"] != false {
			t.Errorf("reader on space in edit collection: %v", sp)
		}
		ctErr(t, e.Do(reader, "PATCH", "/v1/collections/"+edit, map[string]any{"title": "x"}), 403, "", "reader PATCH edit collection")
		ctErr(t, e.Do(reader, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"parent": edit}), 403, "", "reader create in edit collection")
		ctPatch(t, e, admin, edit, map[string]any{"defaultLevel": "read"})
		if sp := perms(ctGet(t, e, editor, "/v1/spaces/"+editSpace)); sp["edit"] != false || sp["view"] != true {
			t.Errorf("editor on space in read collection: %v", sp)
		}

		// inherit chains through parents up to the org role.
		top := ctCol(t, e, admin, org, "Top", "")
		mid := ctCol(t, e, admin, org, "Mid", top)
		leaf := ctCol(t, e, admin, org, "Leaf", mid)
		leafSpace := ctSpace(t, e, admin, org, "Leaf space", leaf)
		for _, id := range []string{top, mid, leaf} {
			if p := perms(ctGet(t, e, reader, "/v1/collections/"+id)); p["view"] != true || p["create"] != false {
				t.Errorf("reader on inheriting %s (org role read): %v", id, p)
			}
		}
		ctPatch(t, e, admin, top, map[string]any{"defaultLevel": "create"})
		for _, id := range []string{top, mid, leaf} {
			if p := perms(ctGet(t, e, reader, "/v1/collections/"+id)); p["view"] != true || p["create"] != true || p["admin"] != false {
				t.Errorf("reader on %s under a create collection: %v", id, p)
			}
		}
		if sp := perms(ctGet(t, e, reader, "/v1/spaces/"+leafSpace)); sp["edit"] != true || sp["review"] != true || sp["admin"] != false {
			t.Errorf("reader on space under a create collection: %v", sp)
		}
		r := e.Do(reader, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "By reader", "parent": leaf})
		ctWant(t, r, 201, "reader creates inside an inherited create collection")
		byReader := r.JSON()
		if byReader["defaultLevel"] != "inherit" || testenv.Path(byReader, "permissions", "create") != true {
			t.Errorf("created by reader: %v", byReader)
		}
		ctErr(t, e.Do(reader, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Root"}), 403, "", "reader creates at root")
		ctErr(t, e.Do(reader, "PATCH", "/v1/collections/"+leaf, map[string]any{"title": "x"}), 403, "", "create level is not admin")

		// The middle link decides for what lies below it.
		ctPatch(t, e, admin, mid, map[string]any{"defaultLevel": nil})
		for _, id := range []string{mid, leaf, byReader["id"].(string)} {
			ctErr(t, e.Do(reader, "GET", "/v1/collections/"+id, nil), 404, "", "below a null link")
		}
		ctErr(t, e.Do(reader, "GET", "/v1/spaces/"+leafSpace, nil), 404, "", "space below a null link")
		ctGet(t, e, reader, "/v1/collections/"+top)
		ctPatch(t, e, admin, mid, map[string]any{"defaultLevel": "comment"})
		if p := perms(ctGet(t, e, reader, "/v1/collections/"+leaf)); p["view"] != true || p["create"] != false {
			t.Errorf("leaf under a comment link: %v", p)
		}
		if sp := perms(ctGet(t, e, reader, "/v1/spaces/"+leafSpace)); sp["comment"] != true || sp["edit"] != false {
			t.Errorf("space under a comment link: %v", sp)
		}
		// Back to inherit: the top's create level flows down again.
		ctPatch(t, e, admin, mid, map[string]any{"defaultLevel": "inherit"})
		if p := perms(ctGet(t, e, reader, "/v1/collections/"+leaf)); p["create"] != true {
			t.Errorf("leaf after inherit restored: %v", p)
		}
		// Guests (members without a role) see nothing, whatever the default level.
		guest, guestTok := e.User("guest@acme.test")
		e.Member(team.Org, guest, "")
		open := ctCol(t, e, admin, org, "Open", "")
		ctPatch(t, e, admin, open, map[string]any{"defaultLevel": "admin"})
		if p := perms(ctGet(t, e, reader, "/v1/collections/"+open)); p["admin"] != true {
			t.Errorf("reader on an admin-level collection: %v", p)
		}
		for _, id := range []string{open, top, edit} {
			ctErr(t, e.Do(guestTok, "GET", "/v1/collections/"+id, nil), 404, "", "guest GET")
			ctEmpty(t, e.Do(guestTok, "DELETE", "/v1/collections/"+id, nil), 204, "guest DELETE")
		}
		if got := ctList(t, e, guestTok, "/v1/orgs/"+org+"/collections"); len(got) != 0 {
			t.Errorf("guest lists collections: %v", got)
		}
		ctErr(t, e.Do(guestTok, "POST", "/v1/orgs/"+org+"/collections", map[string]any{}), 403, "", "guest creates")
		ctGet(t, e, admin, "/v1/collections/"+open)

		// Admins stay admins whatever the default level.
		ctPatch(t, e, admin, top, map[string]any{"defaultLevel": "read"})
		if p := perms(ctGet(t, e, admin, "/v1/collections/"+leaf)); p["admin"] != true || p["create"] != true {
			t.Errorf("admin under a read collection: %v", p)
		}
	})
}
