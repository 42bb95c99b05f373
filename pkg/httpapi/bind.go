package httpapi

import (
	"context"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/gin-gonic/gin/binding"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/validate"
)

// The request side every domain shares: reading the body, the paging, ids and
// forms, and the generic adapters a route table may name over a service method
// value (byForm(s.Support.SaveFAQ, false)); what they answer goes through respond.go.

// flexID accepts an id as a JSON number or a numeric string.
type flexID int64

// UnmarshalJSON reads an id from a JSON number or a quoted numeric string.
func (j *flexID) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(s) >= 2 && s[0] == '"' {
		s = s[1 : len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return apperr.Field("id", "شناسه معتبر نیست")
	}
	*j = flexID(n)
	return nil
}

// flexIDs is a JSON list of ids, each a number or a numeric string.
type flexIDs []flexID

func (l flexIDs) ints() []int64 {
	out := make([]int64, len(l))
	for i, id := range l {
		out[i] = int64(id)
	}
	return out
}

// idBody is a request body naming one record.
type idBody struct {
	ID int64 `json:"id"`
}

// bind decodes the JSON body into dst, answering itself when it cannot: 413 for a
// body past the route's limit (limitBody), 422 for text that is not UTF-8 or holds
// a NUL, and 422 for anything that is not the expected JSON.
func bind(c *gin.Context, dst any) bool {
	err := decodeBody(c, dst)
	if err != nil {
		Fail(c, err)
	}
	return err == nil
}

func decodeBody(c *gin.Context, dst any) error {
	raw, err := io.ReadAll(c.Request.Body)
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		c.Header("Connection", "close")
		return apperr.ErrTooLarge
	}
	if err == nil {
		if err = validate.CleanJSON(raw); err != nil {
			return err
		}
		err = binding.JSON.BindBody(raw, dst)
	}
	if err != nil {
		return apperr.New(apperr.Invalid, "اطلاعات ارسال شده معتبر نیست").WithCode("invalid-json")
	}
	return nil
}

// pageOf reads the page and limit query parameters (defaults 1 and 10, limit at
// most 100, page at most validate.MaxPage), answering 422 itself when they are bad.
func pageOf(c *gin.Context) (page, limit int, ok bool) {
	p, err := validate.ParsePaging(c.Request.URL.Query(), 10, 100)
	if err != nil {
		Fail(c, err)
		return 0, 0, false
	}
	return p.Page, p.Limit, true
}

// pathID reads the :id path parameter (404 when it is not an id).
func pathID(c *gin.Context) (int64, error) {
	id, err := strconv.ParseInt(validate.ToLatinDigits(c.Param("id")), 10, 64)
	if err != nil || id <= 0 {
		return 0, apperr.ErrNotFound
	}
	return id, nil
}

// queryInt reads a positive integer query parameter (0 when missing or bad).
func queryInt(c *gin.Context, name string) int64 {
	n, err := strconv.ParseInt(validate.ToLatinDigits(strings.TrimSpace(c.Query(name))), 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// queryNum reads a non-negative integer query parameter (0 when absent or bad).
func queryNum(c *gin.Context, name string) int {
	n, err := strconv.Atoi(c.Query(name))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// firstFile is the first file of a multipart form's field (nil when absent).
func firstFile(f *multipart.Form, name string) *multipart.FileHeader {
	if fs := f.File[name]; len(fs) > 0 {
		return fs[0]
	}
	return nil
}

// badForm is the error of a body that is not a readable multipart form.
func badForm(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return apperr.ErrTooLarge
	}
	return apperr.New(apperr.Invalid, "فرم ارسال شده معتبر نیست").WithCode("bad-multipart")
}

// byCaller answers a service's view of the caller (their settings, sessions …).
func byCaller[Out any](get func(ctx context.Context, id acl.Identity) (Out, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		v, err := get(c.Request.Context(), who(c))
		reply(c, v, err)
	}
}

// byAccount answers a service's view of the caller's account.
func byAccount[Out any](get func(ctx context.Context, accountID int64) (Out, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		v, err := get(c.Request.Context(), who(c).AccountID)
		reply(c, v, err)
	}
}

// getByID is a GET /…/{id} route of one of the account's things.
func getByID[T any](get func(ctx context.Context, accountID, id int64) (T, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		id, err := pathID(c)
		if err != nil {
			Fail(c, err)
			return
		}
		v, err := get(c.Request.Context(), who(c).AccountID, id)
		reply(c, v, err)
	}
}

// byPathID calls a service with the :id path parameter and answers its result.
func byPathID[Out any](show func(ctx context.Context, id acl.Identity, target int64) (Out, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		id, err := pathID(c)
		if err != nil {
			Fail(c, err)
			return
		}
		v, err := show(c.Request.Context(), who(c), id)
		reply(c, v, err)
	}
}

// byPathAct calls an action on the :id path parameter and answers null.
func byPathAct(act func(ctx context.Context, by acl.Identity, id int64) error) gin.HandlerFunc {
	return func(c *gin.Context) {
		id, err := pathID(c)
		if err == nil {
			err = act(c.Request.Context(), who(c), id)
		}
		reply(c, nil, err)
	}
}

// byForm binds the JSON form, calls the service and answers 201 (created) or 200.
func byForm[In, Out any](act func(ctx context.Context, id acl.Identity, in In) (Out, error), created bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in In
		if !bind(c, &in) {
			return
		}
		v, err := act(c.Request.Context(), who(c), in)
		if created {
			replyCreated(c, v, err)
			return
		}
		reply(c, v, err)
	}
}

// byBodyID answers a POST {"id"} that acts on one record of the caller's account.
func byBodyID(act func(ctx context.Context, id acl.Identity, target int64, ip string) error) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in idBody
		if !bind(c, &in) {
			return
		}
		reply(c, nil, act(c.Request.Context(), who(c), in.ID, c.ClientIP()))
	}
}

// byBodyIDs answers a POST {"ids": […]} that deletes records of the caller's
// account → {"deleted": n}.
func byBodyIDs(del func(ctx context.Context, id acl.Identity, ids []int64, ip string) (int, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in struct {
			IDs flexIDs `json:"ids"`
		}
		if !bind(c, &in) {
			return
		}
		n, err := del(c.Request.Context(), who(c), in.IDs.ints(), c.ClientIP())
		deletedCount(c, n, err)
	}
}

// withID runs f with the path's id.
func withID(c *gin.Context, f func(id int64) (any, error)) {
	id, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	v, err := f(id)
	reply(c, v, err)
}

// withPathID binds the JSON body and calls act with the :id path parameter.
func withPathID[In, Out any](c *gin.Context, act func(ctx context.Context, id acl.Identity, target int64, in In) (Out, error)) {
	target, err := pathID(c)
	if err != nil {
		Fail(c, err)
		return
	}
	var in In
	if !bind(c, &in) {
		return
	}
	v, err := act(c.Request.Context(), who(c), target, in)
	reply(c, v, err)
}

// pagedList reads the paging and answers one page of a service's list.
func pagedList[T any](c *gin.Context, list func(p validate.Paging) ([]T, int64, error)) {
	page, limit, ok := pageOf(c)
	if !ok {
		return
	}
	rows, total, err := list(validate.Paging{Page: page, Limit: limit})
	pagedReply(c, rows, total, validate.Paging{Page: page, Limit: limit}, err)
}

// filteredList answers GET list?filters&page&limit of the caller's account: parse
// reads the query (422 on a bad filter), list reads the page.
func filteredList[F any, R any](parse func(url.Values) (F, error), pg func(F) (int, int),
	list func(ctx context.Context, accountID int64, f F) ([]R, int64, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		f, err := parse(c.Request.URL.Query())
		if err != nil {
			Fail(c, err)
			return
		}
		rows, total, err := list(c.Request.Context(), who(c).AccountID, f)
		page, limit := pg(f)
		pagedReply(c, rows, total, validate.Paging{Page: page, Limit: limit}, err)
	}
}

// filteredExport answers GET export?filters with the list's rows as the Excel file name.
func filteredExport[F any](parse func(url.Values) (F, error), name string,
	write func(ctx context.Context, accountID int64, f F, w io.Writer) error) gin.HandlerFunc {
	return func(c *gin.Context) {
		f, err := parse(c.Request.URL.Query())
		if err != nil {
			Fail(c, err)
			return
		}
		xlsxDownload(c, name, func(w io.Writer) error {
			return write(c.Request.Context(), who(c).AccountID, f, w)
		})
	}
}
