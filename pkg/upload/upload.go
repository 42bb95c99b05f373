// Package upload owns uploaded files (spec §5 "Upload files"): receiving a multipart
// upload as a stream into a Storage (local disk by default), parsing it in the worker
// (xlsx through a streaming reader of the sheet's XML, csv, txt), finding the mobile column
// (and the message column of a peer-to-peer file), normalising numbers as real
// spreadsheets hold them, and recording the valid unique rows, the row errors and the
// pre-flight report (records, valid, invalid, duplicates, blacklisted, per operator).
// It also writes the row errors as xlsx and the sample files. The sends expand from
// file_rows; this package never sends.
package upload

import (
	"context"
	"log/slog"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/ratelimit"
)

// Purposes of an upload.
const (
	PurposeSend       = "send"
	PurposePeerToPeer = "peer_to_peer"
	PurposeContacts   = "contacts"
	// PurposeKeyword names only a sample file: keyword sends upload with purpose send.
	PurposeKeyword = "keyword"
)

// Statuses of a file.
const (
	StatusParsing = "parsing"
	StatusReady   = "ready"
	StatusFailed  = "failed"
)

// Limits (spec §5 and §9).
const (
	// MaxRecords is the most data rows a file may hold.
	MaxRecords = 1_000_000
	// DefaultMaxBytes is the byte limit of an uploaded file. A million rows of a
	// mobile number and a short text is about 20 MB as xlsx and 30 MB as csv; 64 MB
	// leaves room for extra columns (keyword sends) without letting one upload
	// fill the disk.
	DefaultMaxBytes = 64 << 20
	// DefaultPerMin is how many uploads an account may start per minute.
	DefaultPerMin = 30
)

// Persian messages: file errors (the status failed), upload refusals and row errors.
const (
	MsgEmpty         = "فایل خالی است"
	MsgFormat        = "فرمت فایل نامعتبر است"
	MsgProcessing    = "خطا در پردازش فایل"
	MsgNoValid       = "هیچ شماره معتبری در فایل یافت نشد"
	MsgTooManyRows   = "تعداد رکوردهای فایل بیش از حد مجاز (۱٬۰۰۰٬۰۰۰) است"
	MsgNoMobileCol   = "ستون شماره موبایل در فایل یافت نشد"
	MsgPeerToPeer    = "فایل نظیر به نظیر باید دو ستون پیام و شماره موبایل داشته باشد"
	MsgXLS           = "فرمت فایل نامعتبر است؛ لطفا فایل را با فرمت xlsx ذخیره کنید"
	MsgExtension     = "فرمت فایل نامعتبر است؛ فرمت‌های مجاز: xlsx، csv و txt"
	MsgPeerToPeerExt = "فایل نظیر به نظیر باید اکسل (xlsx) باشد"
	MsgTooLarge      = "حجم فایل بیش از حد مجاز (۶۴ مگابایت) است"
	MsgNoFile        = "لطفا فایل را انتخاب کنید"
	MsgPurpose       = "نوع فایل معتبر نیست"
	MsgNotMultipart  = "فایل باید به صورت multipart/form-data ارسال شود"
	MsgID            = "شناسه فایل معتبر نیست"
	MsgBusy          = "فایل در حال پردازش است؛ لطفا کمی بعد دوباره تلاش کنید"
	MsgRowEmpty      = "خانه خالی است"
	MsgRowFormat     = "قالب شماره اشتباه است"
	MsgRowOther      = "خطای دیگر"
)

// FileError is a reason a file cannot be used; the file ends failed with its message.
type FileError struct{ Message string }

// Error returns the message the file ends failed with.
func (e *FileError) Error() string { return e.Message }

// The file errors.
var (
	ErrEmpty       = &FileError{MsgEmpty}
	ErrFormat      = &FileError{MsgFormat}
	ErrProcessing  = &FileError{MsgProcessing}
	ErrNoValid     = &FileError{MsgNoValid}
	ErrTooManyRows = &FileError{MsgTooManyRows}
	ErrNoMobileCol = &FileError{MsgNoMobileCol}
	ErrPeerToPeer  = &FileError{MsgPeerToPeer}
)

// Enqueuer is the asynq client.
type Enqueuer interface {
	EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error)
}

// Publisher sends a live event to an account's browsers (pkg/live.Publisher).
type Publisher interface {
	Publish(ctx context.Context, accountID int64, event string, data any) error
}

// Service receives, parses and serves uploaded files.
type Service struct {
	pool  *pgxpool.Pool
	store Storage
	queue Enqueuer
	limit *ratelimit.Limiter
	log   *slog.Logger

	// Events, when set, receives file.progress events (the worker sets it).
	Events Publisher
	// MaxBytes is the byte limit of one uploaded file.
	MaxBytes int64
	// PerMin is how many uploads an account may start per minute (0: no limit).
	PerMin int
	// ProgressEvery is the shortest time between two progress reports of a file.
	ProgressEvery time.Duration
	// BulkFrom is the size from which a file is parsed on the bulk queue.
	BulkFrom int64
	// Quota is the most bytes of stored files an account may hold (0: no quota).
	Quota int64
	// Retention is how long a parsed file is kept (0: for ever); see ExpireOld.
	Retention time.Duration

	// slots bounds the parses one process runs at once (each holds up to about
	// 100 MB for a million-row xlsx).
	slots chan struct{}
}

// ParseSlots is how many files one process parses at the same time.
const ParseSlots = 2

// New builds the service. queue and limit are needed to receive uploads, not to parse.
func New(pool *pgxpool.Pool, store Storage, queue Enqueuer, limit *ratelimit.Limiter, log *slog.Logger) *Service {
	if log == nil {
		log = slog.Default()
	}
	return &Service{pool: pool, store: store, queue: queue, limit: limit, log: log,
		MaxBytes: DefaultMaxBytes, PerMin: DefaultPerMin, ProgressEvery: 500 * time.Millisecond, BulkFrom: 8 << 20,
		Quota: DefaultQuota, Retention: DefaultRetention,
		slots: make(chan struct{}, ParseSlots)}
}

// Category is one purpose, for the panel's picker.
type Category struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

func validPurpose(p string) bool {
	return p == PurposeSend || p == PurposePeerToPeer || p == PurposeContacts
}

// errNotFound is the answer for another account's file as well as a missing one.
var errNotFound = apperr.ErrNotFound
