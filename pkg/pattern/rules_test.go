package pattern

import (
	"slices"
	"strings"
	"testing"

	"github.com/chapar/chapar/pkg/moderation"
)

func TestCheckRules(t *testing.T) {
	code := []Variable{{Name: "code", Type: TypeInteger, Length: 6}}
	cases := []struct {
		name  string
		d     Draft
		field string // "" = valid
		msg   string
	}{
		{"valid", Draft{Title: "ورود", Text: "نانوایی برکت: کد %code%", Variables: code}, "", ""},
		{"brand missing", Draft{Title: "ورود", Text: "کد %code%", Variables: code}, "text", "نام برند"},
		{"brand in other letter forms", Draft{Title: "ورود", Text: "نانوايي بركت کد %code%", Variables: code}, "", ""},
		{"http link", Draft{Title: "a", Text: "نانوایی برکت %code% http://x.ir/a", Variables: code}, "text", MsgLinkHTTPS},
		{"bare www link", Draft{Title: "a", Text: "نانوایی برکت %code% www.x.ir", Variables: code}, "text", MsgLinkHTTPS},
		{"https link", Draft{Title: "a", Text: "نانوایی برکت %code% https://x.ir/a", Variables: code}, "", ""},
		{"variable in link", Draft{Title: "a", Text: "نانوایی برکت https://x.ir/%code%", Variables: code}, "text", MsgLinkVariable},
		{"undeclared", Draft{Title: "a", Text: "نانوایی برکت %code% %name%", Variables: code}, "text", "«name» در متن آمده"},
		{"unused", Draft{Title: "a", Text: "نانوایی برکت %code%", Variables: append(slices.Clone(code), Variable{Name: "x", Type: TypeString, Length: 5})}, "variables", "«x» تعریف شده"},
		{"bad name", Draft{Title: "a", Text: "نانوایی برکت %کد%", Variables: []Variable{{Name: "کد", Type: TypeString, Length: 5}}}, "variables", "معتبر نیست"},
		{"name with space", Draft{Title: "a", Text: "نانوایی برکت %a b%", Variables: []Variable{{Name: "a b", Type: TypeString, Length: 5}}}, "variables", "معتبر نیست"},
		{"digit first", Draft{Title: "a", Text: "نانوایی برکت %1a%", Variables: []Variable{{Name: "1a", Type: TypeString, Length: 5}}}, "variables", "معتبر نیست"},
		{"bad type", Draft{Title: "a", Text: "نانوایی برکت %a%", Variables: []Variable{{Name: "a", Type: "date", Length: 5}}}, "variables", "نوع متغیر"},
		{"no variable", Draft{Title: "a", Text: "نانوایی برکت سلام"}, "variables", MsgVarNone},
		{"no title", Draft{Text: "نانوایی برکت %code%", Variables: code}, "title", MsgTitleRequired},
		{"no text", Draft{Title: "a"}, "text", "متن الگو را وارد کنید"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.d.normalize()
			f := Check(c.d, "نانوایی برکت")
			if c.field == "" {
				if len(f) != 0 {
					t.Fatalf("refused: %v", f)
				}
				return
			}
			if !slices.ContainsFunc(f[c.field], func(m string) bool { return strings.Contains(m, c.msg) }) {
				t.Fatalf("want %s: %q, got %v", c.field, c.msg, f)
			}
		})
	}
}

func TestDefaultsAndRender(t *testing.T) {
	d := Draft{Title: " t ", Text: "x %a%", Variables: []Variable{{Name: "a"}}}
	d.normalize()
	if v := d.Variables[0]; v.Type != TypeString || v.Length != DefaultLength {
		t.Fatalf("defaults %+v", v)
	}
	if got := Render("کد %code% برای %name%، %code%", Values{"code": "12", "name": "علی"}); got != "کد 12 برای علی، 12" {
		t.Fatal(got)
	}
}

func TestCheckValues(t *testing.T) {
	vars := []Variable{{Name: "code", Type: TypeInteger, Length: 6}, {Name: "name", Type: TypeString, Length: 60}}
	rules := moderation.Rules{Words: []string{"کازینو"}}
	out, errs, held := CheckValues(vars, Values{"code": "۱۲۳۴", "name": "علی"}, rules)
	if len(errs) != 0 || len(held) != 0 || out["code"] != "1234" {
		t.Fatalf("good values: %v %v %v", out, errs, held)
	}
	refusals := []Values{
		{"code": "12a4", "name": "x"},    // not an integer
		{"code": "1234567", "name": "x"}, // longer than 6
		{"code": "", "name": "x"},        // missing
		{"code": "1", "name": "x", "z": "1"},
	}
	for _, v := range refusals {
		if _, errs, _ := CheckValues(vars, v, rules); len(errs) == 0 {
			t.Errorf("%v accepted", v)
		}
	}
	holds := map[string]string{
		"https://evil.example.com": ReasonValueLink,
		"evil.ir/x":                ReasonValueLink,
		"برو کازینو":               ReasonValueWord,
		strings.Repeat("ب", 31):    ReasonValueLong,
	}
	for val, reason := range holds {
		_, errs, held := CheckValues(vars, Values{"code": "1", "name": val}, rules)
		if len(errs) != 0 || !slices.ContainsFunc(held, func(h string) bool { return strings.HasPrefix(h, reason) }) {
			t.Errorf("%q: errs %v held %v", val, errs, held)
		}
	}
}
