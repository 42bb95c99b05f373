package upload

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
)

// Uploaded is the answer to an upload.
type Uploaded struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Status string `json:"status"`
}

// Upload is one multipart request: its body and Content-Type, and the purpose when
// the query string names it (a form field "purpose" may also carry it, before or
// after the file).
type Upload struct {
	Body        io.Reader
	ContentType string
	Purpose     string
	IP          string
}

// errTooLarge marks a body that passed the byte limit.
var errTooLarge = errors.New("upload too large")

// form is what an upload's multipart body carried.
type form struct {
	purpose, name, ext, key string
	size                    int64
}

// Receive streams the form's file into storage (never whole in memory), records the
// file as parsing and enqueues its parse. The limits: extensions txt, csv, xlsx (xls
// is refused with a hint to save as xlsx; peer-to-peer takes xlsx only) with content
// that matches the extension, MaxBytes, the account's Quota of stored files, and
// PerMin uploads per account. A refused upload leaves nothing stored.
func (s *Service) Receive(ctx context.Context, id acl.Identity, up Upload) (Uploaded, error) {
	if err := s.allow(ctx, id.AccountID); err != nil {
		return Uploaded{}, err
	}
	fm, err := s.readForm(ctx, id.AccountID, up)
	owned := false
	defer func() {
		if fm.key != "" && !owned {
			_ = s.store.Delete(context.WithoutCancel(ctx), fm.key)
		}
	}()
	if err != nil {
		return Uploaded{}, err
	}
	if err := fm.check(); err != nil {
		return Uploaded{}, err
	}
	fileID, err := s.record(ctx, id, up.IP, fm)
	if err != nil {
		return Uploaded{}, err
	}
	owned = true // the row owns the object now
	queue := jobs.QueueDefault
	if fm.size >= s.BulkFrom {
		queue = jobs.QueueBulk
	}
	if _, err := s.queue.EnqueueContext(ctx, jobs.NewFileParse(fileID, queue)); err != nil && !errors.Is(err, asynq.ErrTaskIDConflict) {
		_ = s.fail(ctx, fileRef{id: fileID, accountID: id.AccountID}, MsgProcessing)
		return Uploaded{}, fmt.Errorf("enqueue file parse: %w", err)
	}
	return Uploaded{ID: fileID, Name: fm.name, Status: StatusParsing}, nil
}

// allow applies the per-account upload rate.
func (s *Service) allow(ctx context.Context, accountID int64) error {
	if s.limit == nil {
		return nil
	}
	ok, retry, err := s.limit.Allow(ctx, "upload:acct:"+strconv.FormatInt(accountID, 10), s.PerMin, time.Minute)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.RateLimit(int(retry.Seconds()) + 1)
	}
	return nil
}

// readForm reads the multipart body and stores its first file. fm.key names the
// stored object whenever one was stored, also with an error.
func (s *Service) readForm(ctx context.Context, accountID int64, up Upload) (fm form, err error) {
	mediaType, params, err := mime.ParseMediaType(up.ContentType)
	if err != nil || mediaType != "multipart/form-data" || params["boundary"] == "" {
		return fm, apperr.New(apperr.Invalid, MsgNotMultipart).WithCode("not-multipart")
	}
	room, err := s.room(ctx, accountID)
	if err != nil {
		return fm, err
	}
	// The whole body may exceed the file by its form fields and headers only.
	mr := multipart.NewReader(&cappedReader{r: up.Body, left: s.MaxBytes + 64<<10}, params["boundary"])
	fm.purpose = strings.TrimSpace(up.Purpose)
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return fm, nil
		}
		if errors.Is(err, errTooLarge) {
			return fm, tooLarge()
		}
		if err != nil {
			return fm, apperr.New(apperr.Invalid, MsgNotMultipart).WithCode("bad-multipart")
		}
		switch {
		case part.FormName() == "purpose":
			b, _ := io.ReadAll(io.LimitReader(part, 64))
			fm.purpose = strings.TrimSpace(string(b))
		case part.FormName() == "file" && fm.key == "": // one file per upload
			if err := s.storePart(ctx, accountID, part, room, &fm); err != nil {
				return fm, err
			}
		}
		_ = part.Close()
	}
}

// storePart checks the file's name and content and streams it into storage, at most
// room bytes (the byte limit or what is left of the quota).
func (s *Service) storePart(ctx context.Context, accountID int64, part *multipart.Part, room int64, fm *form) error {
	var err error
	fm.name = cleanName(part.FileName())
	if fm.ext, err = checkExtension(fm.name, fm.purpose); err != nil {
		return err
	}
	body := bufio.NewReaderSize(part, sniffLen)
	head, _ := body.Peek(sniffLen)
	if err := checkContent(head, fm.ext); err != nil {
		return err
	}
	key := fmt.Sprintf("%d/%s.%s", accountID, NewKey(), fm.ext)
	fm.size, err = s.store.Put(ctx, key, &cappedReader{r: body, left: room})
	switch {
	case errors.Is(err, errTooLarge) && room < s.MaxBytes:
		return quotaFull()
	case errors.Is(err, errTooLarge):
		return tooLarge()
	case err != nil:
		return fmt.Errorf("store upload: %w", err)
	}
	fm.key = key
	return nil
}

// check validates the form once it is read.
func (fm *form) check() error {
	if fm.key == "" {
		return apperr.Field("file", MsgNoFile)
	}
	if fm.purpose == "" {
		fm.purpose = PurposeSend
	}
	if !validPurpose(fm.purpose) {
		return apperr.Field("purpose", MsgPurpose)
	}
	if _, err := checkExtension(fm.name, fm.purpose); err != nil {
		return err
	}
	if fm.size == 0 {
		return apperr.Field("file", MsgEmpty)
	}
	return nil
}

// record inserts the file row, under the account's quota lock so that two uploads
// at once cannot both pass the quota.
func (s *Service) record(ctx context.Context, id acl.Identity, ip string, fm form) (int64, error) {
	var fileID int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if s.Quota > 0 {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, $2)`, quotaLockClass, int32(id.AccountID)); err != nil {
				return fmt.Errorf("quota lock: %w", err)
			}
			used, err := usage(ctx, tx, id.AccountID)
			if err != nil {
				return err
			}
			if used+fm.size > s.Quota {
				return quotaFull()
			}
		}
		err := tx.QueryRow(ctx, `INSERT INTO files (account_id, user_id, purpose, name, ext, size, storage_key, status)
			VALUES ($1, nullif($2, 0), $3, $4, $5, $6, $7, 'parsing') RETURNING id`,
			id.AccountID, id.UserID, fm.purpose, fm.name, fm.ext, fm.size, fm.key).Scan(&fileID)
		if err != nil {
			return fmt.Errorf("insert file: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, APIKeyID: id.APIKeyID,
			Action: "file.upload", Target: strconv.FormatInt(fileID, 10),
			Details: map[string]any{"name": fm.name, "size": fm.size, "purpose": fm.purpose}, IP: ip})
	})
	return fileID, err
}

func tooLarge() error { return apperr.New(apperr.TooLarge, MsgTooLarge).WithCode("file-too-large") }

// checkExtension returns the lower-case extension of an allowed file name.
func checkExtension(name, purpose string) (string, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(name), "."))
	switch {
	case ext == "xls":
		return "", apperr.Field("file", MsgXLS)
	case ext != "xlsx" && ext != "csv" && ext != "txt":
		return "", apperr.Field("file", MsgExtension)
	case purpose == PurposePeerToPeer && ext != "xlsx":
		return "", apperr.Field("file", MsgPeerToPeerExt)
	}
	return ext, nil
}

// cleanName keeps the base name of an uploaded file, valid UTF-8, at most 200 bytes.
func cleanName(n string) string {
	n = strings.ReplaceAll(n, "\\", "/")
	n = strings.ToValidUTF8(filepath.Base(n), "")
	n = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return -1
		}
		return r
	}, n)
	if n == "." || n == "/" {
		n = ""
	}
	if len(n) > 200 {
		ext := filepath.Ext(n)
		n = clip(n, 200-len(ext)-len("…")) + ext
	}
	return n
}

// NewKey is a random name for a stored file (128 bits, hex).
func NewKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// cappedReader fails with errTooLarge once more than left bytes are read.
type cappedReader struct {
	r    io.Reader
	left int64
}

// Read reads from the underlying reader and fails with errTooLarge once more than left bytes are read.
func (c *cappedReader) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, errTooLarge
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return n, errTooLarge
	}
	return n, err
}
