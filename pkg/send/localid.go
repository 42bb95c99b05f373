package send

import (
	"context"
	"errors"
	"fmt"
	"unicode"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/chapar/chapar/pkg/apperr"
)

// Persian messages of the client's own send id (local_id, docs/developers.md).
const (
	MsgLocalIDLong  = "شناسه محلی (local_id) حداکثر ۶۴ نویسه است"
	MsgLocalIDChars = "شناسه محلی (local_id) فقط می‌تواند حروف و ارقام لاتین، خط تیره، زیرخط، نقطه و دونقطه داشته باشد"
	MsgLocalIDTaken = "این شناسه محلی (local_id) پیش‌تر برای ارسال دیگری از این حساب به کار رفته است"
	MsgStatusWhich  = "شناسه ارسال (id) یا شناسه محلی (local_id) را وارد کنید"
)

// CodeLocalIDTaken is the message_code of MsgLocalIDTaken (409).
const CodeLocalIDTaken = "local-id-taken"

// MaxLocalID is the longest local_id.
const MaxLocalID = 64

// checkLocalID returns why a local_id is refused, or "" (empty means none).
func checkLocalID(id string) string {
	if len(id) > MaxLocalID {
		return MsgLocalIDLong
	}
	for _, r := range id {
		if r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.' || r == ':') {
			return MsgLocalIDChars
		}
	}
	return ""
}

// localIDTaken reports the unique violation of sends_local_id.
func localIDTaken(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505" && pe.ConstraintName == "sends_local_id"
}

// Lookup names one send of an account by our id or the client's local_id.
type Lookup struct {
	ID      int64
	LocalID string
}

// Resolve returns the id and local_id of the account's send named by l; another
// account's send, or none, is not found.
func (s *Service) Resolve(ctx context.Context, accountID int64, l Lookup) (int64, string, error) {
	if l.ID <= 0 && l.LocalID == "" {
		return 0, "", apperr.Field("id", MsgStatusWhich)
	}
	var id int64
	var local *string
	err := s.pool.QueryRow(ctx, `SELECT id, local_id FROM sends WHERE account_id = $1
		AND (($2 > 0 AND id = $2) OR ($2 = 0 AND local_id = $3))`, accountID, l.ID, l.LocalID).Scan(&id, &local)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, "", apperr.ErrNotFound
	}
	if err != nil {
		return 0, "", fmt.Errorf("resolve send: %w", err)
	}
	if local == nil {
		return id, "", nil
	}
	return id, *local, nil
}
