package changes_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/internal/memstore"
)

// memberDoc returns the doc comment, on one line, of the member name
// (a struct's field or an interface's method) of the type typeName
// declared in file of this package.
func memberDoc(t *testing.T, file, typeName, name string) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var doc string
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != typeName {
			return true
		}
		var list *ast.FieldList
		switch tt := ts.Type.(type) {
		case *ast.StructType:
			list = tt.Fields
		case *ast.InterfaceType:
			list = tt.Methods
		}
		for _, m := range list.List {
			if len(m.Names) == 1 && m.Names[0].Name == name {
				doc = oneLine(m.Doc.Text())
			}
		}
		return false
	})
	if doc == "" {
		t.Fatalf("no doc of %s.%s in %s", typeName, name, file)
	}
	return doc
}

// TestReview_Rotate13WatchSecretDocSaysCreateWatchSecret: Store.WatchSecret's
// doc (the contract users implement) still says it returns "the secret
// given to CreateWatch" and that "a test event is signed with it". After
// a rotation a SecretRotator store returns the rotated key (storetest's
// RotateSecret case requires it: "WatchSecret after a rotation ... want
// the new key"), and a test event of such a store is signed with
// WatchKeys, not WatchSecret. Suggested fix: "the current signing key
// (CreateWatch's secret, or the last rotation's, see SecretRotator); a
// test event of a store without SecretRotator is signed with it".
func TestReview_Rotate13WatchSecretDocSaysCreateWatchSecret(t *testing.T) {
	doc := memberDoc(t, "store.go", "Store", "WatchSecret")
	ctx := context.Background()
	s := memstore.New(time.Now)
	w := changes.Watch{ID: "wch_1", Owner: "alice", Country: "NO", IDs: []string{"923609016"}, URL: "https://h.example/",
		CreatedAt: time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)}
	if err := s.CreateWatch(ctx, w, []byte("created-key"), nil); err != nil {
		t.Fatal(err)
	}
	if err := s.RotateSecret(ctx, "alice", "wch_1", []byte("rotated-key"), w.CreatedAt, w.CreatedAt.Add(24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	got, err := s.WatchSecret(ctx, "alice", "wch_1")
	if err != nil {
		t.Fatal(err)
	}
	// What the doc promises, and what holds, after a rotation.
	type claim struct {
		ReturnsCreateWatchSecret   bool
		TestEventsSignedWithItOnly bool
	}
	says := claim{
		ReturnsCreateWatchSecret:   strings.Contains(doc, "the secret given to CreateWatch"),
		TestEventsSignedWithItOnly: strings.Contains(doc, "a test event is signed with it") && !strings.Contains(doc, "SecretRotator"),
	}
	holds := claim{
		ReturnsCreateWatchSecret:   string(got) == "created-key",
		TestEventsSignedWithItOnly: false, // Service.TestWatch signs with SecretRotator.WatchKeys
	}
	if diff := cmp.Diff(holds, says); diff != "" {
		t.Errorf("Store.WatchSecret's doc %q against a rotating store (-holds +doc says):\n%s", doc, diff)
	}
}

// TestReview_Rotate13SecurityDocKnowsNoRotation: SECURITY.md's paragraph on
// change monitoring still says each webhook is signed "with the watch's
// secret, which the creation answers once", and names no test of the
// rotation: since rotate13 a rotation answers a secret too, a webhook may
// carry the replaced secret's signature for 24 hours, and the replaced
// secret stays in the store after its end until the next rotation (a
// leaked secret is not erased by rotating once). Suggested fix: one
// sentence there on POST /v1/watches/{id}/secret, the overlap and what
// the store keeps, with TestRotateWatchSecretOverHTTP among its tests.
func TestReview_Rotate13SecurityDocKnowsNoRotation(t *testing.T) {
	b, err := os.ReadFile("../SECURITY.md")
	if err != nil {
		t.Fatal(err)
	}
	var para string
	for p := range strings.SplitSeq(string(b), "\n\n") {
		if strings.Contains(p, "**Change monitoring: tokens, webhooks, the store.**") {
			para = strings.Join(strings.Fields(p), " ")
		}
	}
	if para == "" {
		t.Fatal("SECURITY.md has no paragraph on change monitoring")
	}
	got := map[string]bool{
		"names the rotation route":               strings.Contains(para, "/secret"),
		"names a rotation test":                  strings.Contains(para, "TestRotateWatchSecretOverHTTP"),
		"says a creation alone answers a secret": strings.Contains(para, "which the creation answers once"),
	}
	want := map[string]bool{"names the rotation route": true, "names a rotation test": true, "says a creation alone answers a secret": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SECURITY.md's change monitoring paragraph (-want +got):\n%s", diff)
	}
}
