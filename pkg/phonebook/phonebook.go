// Package phonebook owns an account's contacts (spec §3 Phonebook, Contact, Feature;
// §7 Phonebook): phonebooks (the panel's «گروه») with an exact member count, their
// contacts (a number is unique per phonebook), per-account tags and custom features
// whose values are validated by type, the send and receive blacklists and the
// cancel-11 list, imports of parsed upload files at COPY speed, and streamed Excel
// exports.
//
// Every query names the account, so another account's ids are simply not found (404,
// never 403). Numbers are stored normalised (98XXXXXXXXXX); dates in the API are
// Gregorian YYYY-MM-DD.
package phonebook

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/persian"
	"github.com/chapar/chapar/pkg/validate"
)

// Limits of the contacts domain.
const (
	DefaultLimit = 10
	MaxLimit     = 100
	// MaxAddContacts bounds one add-list-new call.
	MaxAddContacts = 1000
	// MaxListNumbers bounds one blacklist add or delete call.
	MaxListNumbers = 10_000
	// MaxIDs bounds one delete-list call.
	MaxIDs = 10_000
	// CountCap caps the total of a filtered contact list: counting every match of a
	// broad search over a million contacts costs more than the page itself.
	CountCap = 10_000
	// MaxOptions bounds the select options of phonebooks.
	MaxOptions = 1000
	// Field lengths, in characters.
	maxPhonebookName = 100
	maxCode          = 50
	maxContactName   = 150
	maxTagName       = 50
	maxFeatureTitle  = 100
	maxFeatureText   = 500
)

// Persian messages of the contacts domain.
const (
	MsgPhonebookNameLong  = "نام گروه حداکثر ۱۰۰ کاراکتر است"
	MsgPhonebookNameTaken = "گروهی با این نام وجود دارد"
	MsgPhonebookCodeTaken = "گروهی با این کد وجود دارد"
	MsgPhonebookCode      = "کد گروه حداکثر ۵۰ کاراکتر از حروف لاتین، عدد، خط تیره و زیرخط است"
	MsgPhonebookRequired  = "لطفا گروه را انتخاب کنید"
	MsgNumberTaken        = "این شماره در این گروه وجود دارد"
	MsgContactName        = "نام حداکثر ۱۵۰ کاراکتر است"
	MsgGender             = "جنسیت معتبر نیست"
	MsgBirthDate          = "تاریخ تولد معتبر نیست"
	MsgContactsRequired   = "حداقل یک مخاطب وارد کنید"
	MsgTooManyContacts    = "حداکثر ۱۰۰۰ مخاطب در هر درخواست مجاز است"
	MsgID                 = "شناسه معتبر نیست"
	MsgIDs                = "فهرست شناسه‌ها معتبر نیست"
	MsgTooManyIDs         = "حداکثر ۱۰٬۰۰۰ شناسه در هر درخواست مجاز است"
	MsgTagName            = "نام برچسب الزامی است و حداکثر ۵۰ کاراکتر دارد"
	MsgTagTaken           = "برچسبی با این نام وجود دارد"
	MsgFeatureTitleFa     = "عنوان فارسی الزامی است و حداکثر ۱۰۰ کاراکتر دارد"
	MsgFeatureTitleEn     = "عنوان لاتین فقط می‌تواند شامل حروف لاتین، عدد و خط تیره باشد"
	MsgFeatureTitleTaken  = "ویژگی با این عنوان لاتین وجود دارد"
	MsgFeatureType        = "نوع ویژگی معتبر نیست"
	MsgFeatureTypeLocked  = "نوع ویژگی پس از ثبت مقدار برای مخاطبین قابل تغییر نیست"
	MsgFeatureFlows       = "کاربرد ویژگی معتبر نیست"
	MsgFeatureUnknown     = "این ویژگی تعریف نشده است"
	MsgFeatureDisabled    = "این ویژگی غیرفعال است"
	MsgFeatureInteger     = "مقدار این ویژگی باید عدد صحیح باشد"
	MsgFeatureDate        = "مقدار این ویژگی باید تاریخ معتبر (سال-ماه-روز) باشد"
	MsgFeatureText        = "مقدار این ویژگی حداکثر ۵۰۰ کاراکتر است"
	MsgListKind           = "نوع لیست معتبر نیست"
	MsgNumbersRequired    = "حداقل یک شماره وارد کنید"
	MsgTooManyNumbers     = "حداکثر ۱۰٬۰۰۰ شماره در هر درخواست مجاز است"
	MsgPage               = validate.MsgPage
	MsgLimit              = validate.MsgLimit
	MsgDate               = "تاریخ معتبر نیست"
	MsgDateRange          = "تاریخ شروع باید پیش از تاریخ پایان باشد"
)

// Enqueuer is the asynq client.
type Enqueuer interface {
	EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error)
}

// Publisher sends a live event to an account's browsers.
type Publisher interface {
	Publish(ctx context.Context, accountID int64, event string, data any) error
}

// Service is the contacts domain.
type Service struct {
	pool  *pgxpool.Pool
	queue Enqueuer
	pub   Publisher
	now   func() time.Time
	// chunkRows is how many file rows one import transaction takes.
	chunkRows int
	// pipeLockWait bounds a piped import chunk's wait for the import's and the
	// phonebook's locks (storeBeside). A piped chunk holds its copied rows while
	// it waits for the chunk before it, so a writer blocked on one of those rows
	// while holding the phonebook would wait for ever; the time-out breaks that,
	// and both chunks are stored again one at a time.
	pipeLockWait string
	// indexBatch is how many of an import's contacts one transaction of
	// IndexImport adds to contact_search.
	indexBatch int
}

// New builds the service. queue is needed to start imports (the API); pub, which may
// be nil, carries the import progress events (the worker).
func New(pool *pgxpool.Pool, queue Enqueuer, pub Publisher) *Service {
	return &Service{pool: pool, queue: queue, pub: pub, now: time.Now, chunkRows: 20_000, pipeLockWait: "10s", indexBatch: 50_000}
}

// Actor is who makes a change, for the audit log.
type Actor struct {
	acl.Identity
	IP string
}

// audit records a change inside its transaction.
func (a Actor) audit(ctx context.Context, tx pgx.Tx, action, target string, details map[string]any) error {
	return audit.Record(ctx, tx, audit.Entry{AccountID: a.AccountID, UserID: a.UserID, APIKeyID: a.APIKeyID,
		Action: action, Target: target, Details: details, IP: a.IP})
}

// conflict is a 409 with the message on one field.
func conflict(field, msg string) *apperr.Error {
	return &apperr.Error{Kind: apperr.Conflict, Message: msg, Fields: map[string][]string{field: {msg}}}
}

// uniqueViolation returns the violated constraint's name when err is one.
func uniqueViolation(err error) (string, bool) {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" {
		return pe.ConstraintName, true
	}
	return "", false
}

// Page is one page of a list (the API's shared paging).
type Page = validate.Paging

// ParsePage reads page and limit (defaults 1 and DefaultLimit, limit at most
// MaxLimit, page at most validate.MaxPage).
// A bad one is a 422 *apperr.Error on its field.
func ParsePage(q url.Values) (Page, error) {
	return validate.ParsePaging(q, DefaultLimit, MaxLimit)
}

// ParseID reads an optional id of a query string (Persian digits accepted); empty is
// 0 and anything but a positive integer a 422 on field.
func ParseID(field, s string) (int64, error) {
	s = validate.NormalizeDigits(s)
	if s == "" {
		return 0, nil
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, apperr.Field(field, MsgID)
	}
	return id, nil
}

// ParseIDList reads a comma-separated list of ids; 0 stands for "all".
func ParseIDList(field, s string) ([]int64, error) {
	s = strings.ReplaceAll(validate.NormalizeDigits(s), "،", ",")
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	out := make([]int64, 0, len(parts))
	for _, p := range parts {
		id, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if err != nil || id < 0 {
			return nil, apperr.Field(field, MsgIDs)
		}
		out = append(out, id)
	}
	return uniqueIDs(out), nil
}

// checkIDs validates the ids of a delete-list call and drops repeats.
func checkIDs(ids []int64) ([]int64, error) {
	if len(ids) == 0 {
		return nil, apperr.Field("ids", MsgIDs)
	}
	if len(ids) > MaxIDs {
		return nil, apperr.Field("ids", MsgTooManyIDs)
	}
	for _, id := range ids {
		if id <= 0 {
			return nil, apperr.Field("ids", MsgIDs)
		}
	}
	return uniqueIDs(ids), nil
}

// uniqueIDs drops repeated ids, keeping the order.
func uniqueIDs(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := ids[:0:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// deleteList deletes the account's rows of table by id, runs then (what goes with
// them) and audits action, in one transaction. Any id that is not the account's is
// a 404 and nothing is deleted.
func (s *Service) deleteList(ctx context.Context, a Actor, table, action string, ids []int64,
	then func(tx pgx.Tx, ids []int64) error) (int, error) {
	ids, err := checkIDs(ids)
	if err != nil {
		return 0, err
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE account_id = $1 AND id = ANY($2)`, a.AccountID, ids)
		if err != nil {
			return fmt.Errorf("delete %s: %w", table, err)
		}
		if int(tag.RowsAffected()) != len(ids) {
			return apperr.ErrNotFound
		}
		if then != nil {
			if err := then(tx, ids); err != nil {
				return err
			}
		}
		return a.audit(ctx, tx, action, "", map[string]any{"count": len(ids), "ids": ids[:min(len(ids), 20)]})
	})
	if err != nil {
		return 0, err
	}
	return len(ids), nil
}

// normalizeText trims a free text and writes the Arabic yeh and kaf as the Persian
// letters, so searches match however the text was typed.
func normalizeText(s string) string {
	if hasArabicLetters(s) {
		s = arabicLetters.Replace(s)
	}
	return strings.TrimSpace(s)
}

// hasArabicLetters is strings.ContainsAny(s, "يكى") at a byte's cost: the three
// letters are U+064A, U+0643 and U+0649, D9 8A, D9 83 and D9 89 in UTF-8 (an import
// reads every name, gender and tag through normalizeText).
func hasArabicLetters(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == 0xD9 {
			switch s[i+1] {
			case 0x8A, 0x83, 0x89:
				return true
			}
		}
	}
	return false
}

var arabicLetters = strings.NewReplacer("ي", "ی", "ك", "ک", "ى", "ی")

// tehran is the wall clock of dates without a zone.
var tehran = persian.Tehran

// runeLen is the length of s in characters.
func runeLen(s string) int { return utf8.RuneCountInString(s) }
