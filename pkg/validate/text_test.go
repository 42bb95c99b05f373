package validate

import (
	"net/url"
	"testing"

	"github.com/chapar/chapar/pkg/apperr"
)

func TestCleanText(t *testing.T) {
	for _, c := range []struct {
		in  string
		msg string
	}{
		{"سلام دنیا", ""},
		{"", ""},
		{"a\x00b", MsgBadText},
		{"bad \xff\xfe utf-8", MsgBadText},
		{"\xed\xa0\x80", MsgBadText}, // an encoded surrogate is not UTF-8
	} {
		wantErr(t, "CleanText("+url.QueryEscape(c.in)+")", CleanText("name", c.in), "name", c.msg)
	}
}

func TestCleanJSON(t *testing.T) {
	for _, c := range []struct {
		in, field, msg string
	}{
		{`{"name":"سلام","numbers":["09121234567"]}`, "", ""},
		{`{"name":"a\\u0000 is text"}`, "", ""}, // an escaped backslash, not a NUL
		{`{"name":"a\u0000b"}`, "name", MsgBadText},
		{`{"contacts":[{"number":"0912","name":"x\u0000"}]}`, "name", MsgBadText},
		{`{"a\u0000":1}`, FieldBody, MsgBadText},
		{"{\"name\":\"\xff\"}", FieldBody, MsgBadText},
		{`not json \u0000`, "", ""}, // left to the decoder
	} {
		wantErr(t, "CleanJSON("+c.in+")", CleanJSON([]byte(c.in)), c.field, c.msg)
	}
}

func TestParsePaging(t *testing.T) {
	for _, c := range []struct {
		query       string
		page, limit int
		field, msg  string
	}{
		{"", 1, 10, "", ""},
		{"page=3&limit=20", 3, 20, "", ""},
		{"page=۲&limit=۵۰۰", 2, 100, "", ""},
		{"page=100000", MaxPage, 10, "", ""},
		{"page=100001", 0, 0, FieldPage, MsgPage},
		{"page=9223372036854775807", 0, 0, FieldPage, MsgPage},
		{"page=99999999999999999999999", 0, 0, FieldPage, MsgPage},
		{"page=0", 0, 0, FieldPage, MsgPage},
		{"page=-1", 0, 0, FieldPage, MsgPage},
		{"page=x", 0, 0, FieldPage, MsgPage},
		{"limit=0", 0, 0, FieldLimit, MsgLimit},
		{"limit=9223372036854775807", 1, 100, "", ""},
	} {
		q, _ := url.ParseQuery(c.query)
		p, err := ParsePaging(q, 10, 100)
		if e, ok := apperr.As(err); (err != nil || c.msg != "") && (!ok || e.Message != c.msg || len(e.Fields[c.field]) != 1) {
			t.Errorf("ParsePaging(%s) = %v; want a 422 on %q: %q", c.query, err, c.field, c.msg)
		}
		if err == nil && (p.Page != c.page || p.Limit != c.limit) {
			t.Errorf("ParsePaging(%s) = %+v; want page %d limit %d", c.query, p, c.page, c.limit)
		}
	}
	if off := (Paging{Page: MaxPage, Limit: 100}).Offset(); off != 9_999_900 {
		t.Errorf("Offset = %d", off)
	}
}
