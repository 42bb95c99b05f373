package httpapi

import (
	"context"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/validate"
)

// The small pieces the handlers of every domain share.

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

// deletedCount answers a delete-list call.
func deletedCount(c *gin.Context, n int, err error) { reply(c, gin.H{"deleted": n}, err) }

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

// pagedReply answers a page of a list, or the error.
func pagedReply(c *gin.Context, rows any, total int64, pg validate.Paging, err error) {
	if err != nil {
		Fail(c, err)
		return
	}
	Paged(c, rows, Page{Page: pg.Page, Limit: pg.Limit, Total: total})
}
