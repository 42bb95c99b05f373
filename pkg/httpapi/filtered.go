package httpapi

import (
	"context"
	"io"
	"net/url"

	"github.com/gin-gonic/gin"
)

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
		if err != nil {
			Fail(c, err)
			return
		}
		page, limit := pg(f)
		Paged(c, rows, Page{Page: page, Limit: limit, Total: total})
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
