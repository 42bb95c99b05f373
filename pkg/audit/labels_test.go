package audit_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chapar/chapar/pkg/audit"
)

// actionCode is the shape of an action code: "domain.verb".
var actionCode = regexp.MustCompile(`^(auth|account|send|campaign|phonebook|contact|contact_tag|contact_feature|blacklist|file|line|pattern|role|colleague|predefined|draft|inbox|reader|staff|review|profile|payment|partner|link|apikey|webhook|support)\.[a-z_]*$`)

// dynamicCodes are the codes built from a prefix and a value ("staff.account_" + status).
var dynamicCodes = map[string][]string{
	"send.":          {audit.SendStop, audit.SendPause, audit.SendResume, audit.SendReschedule},
	"review.":        {"review.approved", "review.rejected"},
	"staff.account_": {"staff.account_active", "staff.account_suspended"},
	"staff.user_":    {"staff.user_active", "staff.user_disabled"},
}

// notActions are strings of the action shape in audited files that are not
// action codes (webhook event names).
var notActions = map[string]bool{"send.status": true, "inbox.received": true}

// Every action code the Go code can write to the log has a Persian label: the
// string literals of that shape in every file that records audit entries, with
// the codes built from a prefix expanded.
func TestEveryEmittedActionHasALabel(t *testing.T) {
	codes := map[string]string{}
	root := filepath.Join("..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		if !importsAudit(f) && f.Name.Name != "audit" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && actionCode.MatchString(s) && !notActions[s] {
					codes[s] = path
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(codes) < 50 {
		t.Fatalf("found only %d action codes: the scan is broken", len(codes))
	}
	for code, path := range codes {
		expanded := []string{code}
		if strings.HasSuffix(code, ".") || strings.HasSuffix(code, "_") {
			if expanded = dynamicCodes[code]; expanded == nil {
				t.Errorf("%s builds action codes from %q: list them in dynamicCodes", path, code)
			}
		}
		for _, c := range expanded {
			if audit.Title(c) == c {
				t.Errorf("action %q (%s) has no Persian label in audit.Labels", c, path)
			}
		}
	}
}

func importsAudit(f *ast.File) bool {
	for _, imp := range f.Imports {
		if imp.Path.Value == `"github.com/chapar/chapar/pkg/audit"` {
			return true
		}
	}
	return false
}
