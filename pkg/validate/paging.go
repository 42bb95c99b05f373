package validate

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/chapar/chapar/pkg/apperr"
)

// Paging limits shared by every list of the API.
const (
	// MaxPage caps the page number of every list: a page beyond it is refused
	// rather than turned into an overflowing OFFSET.
	MaxPage = 100_000
	// MsgPage and MsgLimit refuse a page or page size that is not a positive
	// integer (or a page beyond MaxPage).
	MsgPage  = "شماره صفحه معتبر نیست"
	MsgLimit = "تعداد در هر صفحه معتبر نیست"
	// FieldPage and FieldLimit are the query parameters of paging.
	FieldPage  = "page"
	FieldLimit = "limit"
)

// Paging is one page of a list: its number (from 1) and size.
type Paging struct {
	Page  int
	Limit int
}

// Offset is the number of rows before the page.
func (p Paging) Offset() int { return (p.Page - 1) * p.Limit }

// ParsePaging reads the page and limit query parameters (Persian digits
// accepted). An empty page is 1 and an empty limit defLimit; a limit above
// maxLimit is lowered to it. Anything but a positive integer, or a page beyond
// MaxPage, is a 422 *apperr.Error on that parameter (the form every domain's
// list parser returns).
func ParsePaging(q url.Values, defLimit, maxLimit int) (Paging, error) {
	p := Paging{Page: 1, Limit: defLimit}
	if s := q.Get(FieldPage); strings.TrimSpace(s) != "" {
		n, ok := positiveInt(s)
		if !ok || n > MaxPage {
			return Paging{}, apperr.Field(FieldPage, MsgPage)
		}
		p.Page = n
	}
	if s := q.Get(FieldLimit); strings.TrimSpace(s) != "" {
		n, ok := positiveInt(s)
		if !ok {
			return Paging{}, apperr.Field(FieldLimit, MsgLimit)
		}
		p.Limit = n
	}
	p.Limit = min(p.Limit, maxLimit)
	return p, nil
}

// positiveInt reads a positive integer; an out-of-range one is not ok.
func positiveInt(s string) (int, bool) {
	n, err := strconv.Atoi(NormalizeDigits(s))
	return n, err == nil && n > 0
}
