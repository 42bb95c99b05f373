package support

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/upload"
)

// Attachment limits (spec §5 "Ticket attachment", §9 "Ticket file").
const (
	// MaxAttachment is the largest attachment, in bytes.
	MaxAttachment = 10 << 20
	// MaxAttachments is how many files one message may carry.
	MaxAttachments = 5
)

// Persian messages of attachments.
const (
	MsgFileType  = "فرمت فایل مجاز نیست؛ فرمت‌های مجاز: zip، jpg، png، pdf و rar"
	MsgFileBig   = "حجم هر فایل پیوست حداکثر ۱۰ مگابایت است"
	MsgFileEmpty = "فایل پیوست خالی است"
	MsgFileCount = "حداکثر ۵ فایل پیوست می‌توانید بفرستید"
)

// kinds maps an allowed extension to the content type its bytes must have, as
// http.DetectContentType names it.
var kinds = map[string]string{
	"zip": "application/zip", "rar": "application/x-rar-compressed", "pdf": "application/pdf",
	"jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png",
}

// File is an attachment as the form carried it.
type File struct {
	Name string
	Size int64
	Open func() (io.ReadCloser, error)
}

// Attachment is a stored attachment as the conversation shows it.
type Attachment struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	ContentType string `json:"content_type"`
	Size        int64  `json:"size"`
	key         string
}

// checkNames refuses too many files and names of a type that is not allowed, before
// anything is read.
func checkNames(files []File) error {
	if len(files) > MaxAttachments {
		return apperr.Field("attachments", MsgFileCount)
	}
	for _, f := range files {
		if _, ok := kinds[extOf(f.Name)]; !ok {
			return apperr.Field("attachments", MsgFileType)
		}
		if f.Size > MaxAttachment {
			return apperr.Field("attachments", MsgFileBig)
		}
	}
	return nil
}

func extOf(name string) string {
	return strings.ToLower(strings.TrimPrefix(filepath.Ext(name), "."))
}

// storeFiles checks each file's bytes (their type must be what the extension names,
// at most MaxAttachment) and stores them under the account. On error nothing stays
// stored; the caller deletes the stored ones when its transaction fails (drop).
func (s *Service) storeFiles(ctx context.Context, accountID int64, files []File) ([]Attachment, error) {
	if err := checkNames(files); err != nil {
		return nil, err
	}
	out := make([]Attachment, 0, len(files))
	for _, f := range files {
		a, err := s.storeOne(ctx, accountID, f)
		if err != nil {
			s.drop(ctx, out)
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

func (s *Service) storeOne(ctx context.Context, accountID int64, f File) (Attachment, error) {
	rc, err := f.Open()
	if err != nil {
		return Attachment{}, fmt.Errorf("open attachment: %w", err)
	}
	defer rc.Close()
	ext := extOf(f.Name)
	body := bufio.NewReaderSize(rc, 512)
	head, _ := body.Peek(512)
	if len(head) == 0 {
		return Attachment{}, apperr.Field("attachments", MsgFileEmpty)
	}
	ctype := http.DetectContentType(head)
	if ctype != kinds[ext] {
		return Attachment{}, apperr.Field("attachments", MsgFileType)
	}
	key := fmt.Sprintf("tickets/%d/%s.%s", accountID, upload.NewKey(), ext)
	n, err := s.store.Put(ctx, key, io.LimitReader(body, MaxAttachment+1))
	if err != nil {
		return Attachment{}, fmt.Errorf("store attachment: %w", err)
	}
	if n > MaxAttachment {
		_ = s.store.Delete(context.WithoutCancel(ctx), key)
		return Attachment{}, apperr.Field("attachments", MsgFileBig)
	}
	return Attachment{Name: cleanName(f.Name), ContentType: ctype, Size: n, key: key}, nil
}

// drop deletes stored attachments whose rows were never written.
func (s *Service) drop(ctx context.Context, as []Attachment) {
	for _, a := range as {
		_ = s.store.Delete(context.WithoutCancel(ctx), a.key)
	}
}

// saveAttachments records the stored attachments of an interaction.
func saveAttachments(ctx context.Context, tx pgx.Tx, accountID, interactionID int64, as []Attachment) error {
	for _, a := range as {
		if _, err := tx.Exec(ctx, `INSERT INTO ticket_attachments (interaction_id, account_id, name, content_type, size, storage_key)
			VALUES ($1, $2, $3, $4, $5, $6)`, interactionID, accountID, a.Name, a.ContentType, a.Size, a.key); err != nil {
			return fmt.Errorf("save attachment: %w", err)
		}
	}
	return nil
}

// OpenAttachment opens an attachment of a request: of the caller's account, or of
// any account for staff.
func (s *Service) OpenAttachment(ctx context.Context, id acl.Identity, attID int64) (Attachment, io.ReadCloser, error) {
	var a Attachment
	err := s.pool.QueryRow(ctx, `SELECT id, name, content_type, size, storage_key FROM ticket_attachments
		WHERE id = $1 AND (account_id = $2 OR $3)`, attID, id.AccountID, id.Staff).Scan(&a.ID, &a.Name, &a.ContentType, &a.Size, &a.key)
	if err := notFound(err, "find attachment"); err != nil {
		return a, nil, err
	}
	rc, err := s.store.Open(ctx, a.key)
	if errors.Is(err, upload.ErrNoObject) {
		return a, nil, apperr.ErrNotFound
	}
	return a, rc, err
}

func cleanName(name string) string {
	name = strings.ToValidUTF8(filepath.Base(strings.ReplaceAll(name, `\`, "/")), "")
	if r := []rune(name); len(r) > 120 {
		name = string(r[len(r)-120:])
	}
	return name
}

// CategoryAttachment is the file-management category of ticket and suggestion
// attachments (downloaded through OpenAttachment; kept with their request, so
// not deletable on their own).
const CategoryAttachment = "ticket_attachment"

func init() {
	upload.RegisterSource(upload.Source{Category: CategoryAttachment, Label: "پیوست تیکت و پیشنهاد",
		SQL: `SELECT a.id, a.name, a.size, 'ready', '', '', i.created_at, false, true FROM ticket_attachments a
			JOIN ticket_interactions i ON i.id = a.interaction_id WHERE a.account_id = $1`})
}
