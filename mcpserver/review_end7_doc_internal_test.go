package mcpserver

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestReview_ResetLineKeepsItsDocComment (rev-end7, P2): bee1a59 put
// maxKeptLineMsgs between resetLine's doc comment and resetLine, so the
// const carries resetLine's doc ("resetLine empties the line kept ...")
// and resetLine has none (go doc -u ./mcpserver maxKeptLineMsgs shows it).
func TestReview_ResetLineKeepsItsDocComment(t *testing.T) {
	t.Parallel()
	f, err := parser.ParseFile(token.NewFileSet(), "stdiofast.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			// resetLine is gone since stdio-parts (partFramer.reset): every
			// function of the file is held to the rule.
			if name := d.Name.Name; d.Doc == nil || !strings.HasPrefix(d.Doc.Text(), name+" ") {
				t.Errorf("%s has no doc comment of its own", name)
			}
		case *ast.GenDecl:
			if d.Doc != nil && strings.Contains(d.Doc.Text(), "reset empties") {
				t.Errorf("a %s declaration carries partFramer.reset's doc: %q", d.Tok, d.Doc.Text())
			}
		}
	}
}
