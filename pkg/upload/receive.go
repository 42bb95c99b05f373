package upload

import (
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

// Receive streams the form's file into storage (never whole in memory), records the
// file as parsing and enqueues its parse. The limits: extensions txt, csv, xlsx (xls
// is refused with a hint to save as xlsx; peer-to-peer takes xlsx only), MaxBytes,
// and PerMin uploads per account.
func (s *Service) Receive(ctx context.Context, id acl.Identity, up Upload) (Uploaded, error) {
	if s.limit != nil {
		ok, retry, err := s.limit.Allow(ctx, "upload:acct:"+strconv.FormatInt(id.AccountID, 10), s.PerMin, time.Minute)
		if err != nil {
			return Uploaded{}, err
		}
		if !ok {
			return Uploaded{}, apperr.RateLimit(int(retry.Seconds()) + 1)
		}
	}
	mediaType, params, err := mime.ParseMediaType(up.ContentType)
	if err != nil || mediaType != "multipart/form-data" || params["boundary"] == "" {
		return Uploaded{}, apperr.New(apperr.Invalid, MsgNotMultipart).WithCode("not-multipart")
	}
	// The whole body may exceed the file by its form fields and headers only.
	body := &cappedReader{r: up.Body, left: s.MaxBytes + 64<<10}
	mr := multipart.NewReader(body, params["boundary"])
	purpose := strings.TrimSpace(up.Purpose)
	var name, ext, key string
	var size int64
	stored := false
	defer func() {
		if stored && key != "" {
			_ = s.store.Delete(context.WithoutCancel(ctx), key)
		}
	}()
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			if errors.Is(err, errTooLarge) {
				return Uploaded{}, tooLarge()
			}
			return Uploaded{}, apperr.New(apperr.Invalid, MsgNotMultipart).WithCode("bad-multipart")
		}
		switch part.FormName() {
		case "purpose":
			b, _ := io.ReadAll(io.LimitReader(part, 64))
			purpose = strings.TrimSpace(string(b))
		case "file":
			if key != "" {
				_ = part.Close()
				continue // one file per upload
			}
			name = cleanName(part.FileName())
			if ext, err = checkExtension(name, purpose); err != nil {
				return Uploaded{}, err
			}
			key = fmt.Sprintf("%d/%s.%s", id.AccountID, randomKey(), ext)
			lim := &cappedReader{r: part, left: s.MaxBytes}
			size, err = s.store.Put(ctx, key, lim)
			if err != nil {
				if errors.Is(err, errTooLarge) {
					key = ""
					return Uploaded{}, tooLarge()
				}
				key = ""
				return Uploaded{}, fmt.Errorf("store upload: %w", err)
			}
			stored = true
		}
		_ = part.Close()
	}
	if key == "" {
		return Uploaded{}, apperr.Field("file", MsgNoFile)
	}
	if purpose == "" {
		purpose = PurposeSend
	}
	if !validPurpose(purpose) {
		return Uploaded{}, apperr.Field("purpose", MsgPurpose)
	}
	if _, err := checkExtension(name, purpose); err != nil {
		return Uploaded{}, err
	}
	if size == 0 {
		return Uploaded{}, apperr.Field("file", MsgEmpty)
	}
	var fileID int64
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO files (account_id, user_id, purpose, name, ext, size, storage_key, status)
			VALUES ($1, nullif($2, 0), $3, $4, $5, $6, $7, 'parsing') RETURNING id`,
			id.AccountID, id.UserID, purpose, name, ext, size, key).Scan(&fileID)
		if err != nil {
			return fmt.Errorf("insert file: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, APIKeyID: id.APIKeyID,
			Action: "file.upload", Target: strconv.FormatInt(fileID, 10),
			Details: map[string]any{"name": name, "size": size, "purpose": purpose}, IP: up.IP})
	})
	if err != nil {
		return Uploaded{}, err
	}
	stored = false // the row owns the object now
	queue := jobs.QueueDefault
	if size >= s.BulkFrom {
		queue = jobs.QueueBulk
	}
	if _, err := s.queue.EnqueueContext(ctx, jobs.NewFileParse(fileID, queue)); err != nil && !errors.Is(err, asynq.ErrTaskIDConflict) {
		_ = s.fail(ctx, fileRef{id: fileID, accountID: id.AccountID}, MsgProcessing)
		return Uploaded{}, fmt.Errorf("enqueue file parse: %w", err)
	}
	return Uploaded{ID: fileID, Name: name, Status: StatusParsing}, nil
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

func randomKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// cappedReader fails with errTooLarge once more than left bytes are read.
type cappedReader struct {
	r    io.Reader
	left int64
}

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
