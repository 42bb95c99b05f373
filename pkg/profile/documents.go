package profile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/review"
	"github.com/chapar/chapar/pkg/upload"
)

// DocumentKind is the review queue of documents.
const DocumentKind = "document"

// MaxDocument is the largest document, in bytes.
const MaxDocument = 5 << 20

// Persian messages of the documents.
const (
	MsgDocMissing   = "فایل مدرک را انتخاب کنید"
	MsgDocBig       = "حجم فایل مدرک باید حداکثر ۵ مگابایت باشد"
	MsgDocType      = "مدرک باید تصویر JPG یا PNG یا فایل PDF باشد"
	MsgDocKind      = "نوع مدرک را انتخاب کنید"
	MsgDocApproved  = "مدرک تاییدشده حذف نمی‌شود"
	MsgDocDecided   = "این مدرک قبلا بررسی شده است"
	MsgDocDuplicate = "مدرکی از این نوع در انتظار بررسی است؛ تا بررسی آن صبر کنید یا آن را حذف کنید"
)

// DocumentKinds are the documents an account may upload, with their Persian titles.
var DocumentKinds = map[string]string{
	"national_card":     "کارت ملی",
	"birth_certificate": "شناسنامه",
	"official_gazette":  "روزنامه رسمی (آخرین تغییرات)",
	"company_license":   "مجوز فعالیت یا پروانه کسب",
	"introduction":      "معرفی‌نامه",
	"other":             "سایر",
}

// personalDocuments are the owner's own identity papers: only the owner (and staff)
// open them.
var personalDocuments = map[string]bool{"national_card": true, "birth_certificate": true}

// MayOpen refuses a colleague the owner's identity papers (a national card, a birth
// certificate); other documents follow the route's permission.
func MayOpen(id acl.Identity, d Document) error {
	if personalDocuments[d.Kind] && !id.IsOwner {
		return apperr.New(apperr.Forbidden, MsgPersonalOwnerOnly).WithCode(CodePersonalOwnerOnly)
	}
	return nil
}

// documentTypes are the contents accepted, as http.DetectContentType names them.
var documentTypes = map[string]string{"image/jpeg": "jpg", "image/png": "png", "application/pdf": "pdf"}

// Document is one uploaded document and its review status.
type Document struct {
	ID        int64      `json:"id"`
	Kind      string     `json:"kind"`
	KindTitle string     `json:"kind_title"`
	FileName  string     `json:"file_name"`
	FileType  string     `json:"file_type"`
	FileSize  int64      `json:"file_size"`
	Status    string     `json:"status"`
	Reason    string     `json:"reason"`
	CreatedAt time.Time  `json:"created_at"`
	DecidedAt *time.Time `json:"decided_at"`
	key       string
}

// DocumentUpload is an uploaded document as the form sends it.
type DocumentUpload struct {
	Kind string
	File io.Reader
	Name string
	IP   string
}

// Documents lists the account's documents, newest first.
func (s *Service) Documents(ctx context.Context, accountID int64) ([]Document, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+docColumns+` FROM account_documents WHERE account_id = $1 ORDER BY id DESC LIMIT 200`,
		accountID)
	if err != nil {
		return nil, fmt.Errorf("documents: %w", err)
	}
	docs, err := pgx.CollectRows(rows, scanDocument)
	if err != nil {
		return nil, fmt.Errorf("documents: %w", err)
	}
	return docs, nil
}

const docColumns = `id, kind, file_name, file_type, file_size, status, reason, created_at, decided_at, file_key`

func scanDocument(r pgx.CollectableRow) (Document, error) {
	var d Document
	err := r.Scan(&d.ID, &d.Kind, &d.FileName, &d.FileType, &d.FileSize, &d.Status, &d.Reason, &d.CreatedAt, &d.DecidedAt, &d.key)
	d.KindTitle = DocumentKinds[d.Kind]
	return d, err
}

// UploadDocument checks a document by its content (JPG, PNG or PDF, at most 5 MB),
// stores it and puts it in staff review, audited.
func (s *Service) UploadDocument(ctx context.Context, id acl.Identity, u DocumentUpload) (Document, error) {
	if _, ok := DocumentKinds[u.Kind]; !ok {
		return Document{}, apperr.Field("kind", MsgDocKind)
	}
	data, err := readLimited(u.File, MaxDocument, "file", MsgDocMissing, MsgDocBig)
	if err != nil {
		return Document{}, err
	}
	ctype := http.DetectContentType(data)
	ext, ok := documentTypes[ctype]
	if !ok {
		return Document{}, apperr.Field("file", MsgDocType)
	}
	d := Document{Kind: u.Kind, KindTitle: DocumentKinds[u.Kind], FileName: clip(u.Name, 200), FileType: ctype,
		FileSize: int64(len(data)), key: fmt.Sprintf("documents/%d/%s.%s", id.AccountID, upload.NewKey(), ext)}
	if _, err := s.store.Put(ctx, d.key, bytes.NewReader(data)); err != nil {
		return d, fmt.Errorf("store document: %w", err)
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return insertDocument(ctx, tx, id, &d, u.IP) })
	if err != nil {
		_ = s.store.Delete(context.WithoutCancel(ctx), d.key)
		return d, err
	}
	return d, nil
}

func insertDocument(ctx context.Context, tx pgx.Tx, id acl.Identity, d *Document, ip string) error {
	var dup bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM account_documents WHERE account_id = $1 AND kind = $2
		AND status = 'pending')`, id.AccountID, d.Kind).Scan(&dup); err != nil {
		return fmt.Errorf("pending document: %w", err)
	}
	if dup {
		return apperr.Field("kind", MsgDocDuplicate)
	}
	err := tx.QueryRow(ctx, `INSERT INTO account_documents (account_id, user_id, kind, file_key, file_type, file_name, file_size)
		VALUES ($1, nullif($2, 0), $3, $4, $5, $6, $7) RETURNING id, status, created_at`,
		id.AccountID, id.UserID, d.Kind, d.key, d.FileType, d.FileName, d.FileSize).Scan(&d.ID, &d.Status, &d.CreatedAt)
	if err != nil {
		return fmt.Errorf("insert document: %w", err)
	}
	if err := review.Submit(ctx, tx, DocumentKind, id.AccountID, d.ID, nil, d.KindTitle+": "+d.FileName); err != nil {
		return err
	}
	return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, Action: "profile.document_upload",
		TargetType: "document", Target: strconv.FormatInt(d.ID, 10), IP: ip, Details: map[string]any{"kind": d.Kind}})
}

// RemoveDocument deletes a pending or rejected document of the account (an approved
// one stays: it is the account's proof), withdrawing it from review, audited.
func (s *Service) RemoveDocument(ctx context.Context, id acl.Identity, docID int64, ip string) error {
	var key string
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var status string
		err := tx.QueryRow(ctx, `SELECT status, file_key FROM account_documents WHERE id = $1 AND account_id = $2 FOR UPDATE`,
			docID, id.AccountID).Scan(&status, &key)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("lock document: %w", err)
		}
		if status == review.Approved {
			return apperr.New(apperr.Conflict, MsgDocApproved).WithCode("document-approved")
		}
		if _, err := tx.Exec(ctx, `DELETE FROM account_documents WHERE id = $1`, docID); err != nil {
			return fmt.Errorf("remove document: %w", err)
		}
		if err := review.Withdraw(ctx, tx, DocumentKind, docID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, Action: "profile.document_remove",
			TargetType: "document", Target: strconv.FormatInt(docID, 10), IP: ip})
	})
	if err != nil {
		return err
	}
	_ = s.store.Delete(context.WithoutCancel(ctx), key)
	return nil
}

// DocumentFile opens a document's file: of the account, or of any account for staff
// (accountID 0).
func (s *Service) DocumentFile(ctx context.Context, accountID, docID int64) (Document, io.ReadCloser, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+docColumns+` FROM account_documents WHERE id = $1 AND ($2 = 0 OR account_id = $2)`,
		docID, accountID)
	if err != nil {
		return Document{}, nil, fmt.Errorf("document: %w", err)
	}
	d, err := pgx.CollectExactlyOneRow(rows, scanDocument)
	if errors.Is(err, pgx.ErrNoRows) {
		return d, nil, apperr.ErrNotFound
	}
	if err != nil {
		return d, nil, fmt.Errorf("document: %w", err)
	}
	rc, err := s.store.Open(ctx, d.key)
	if errors.Is(err, upload.ErrNoObject) {
		return d, nil, apperr.ErrNotFound
	}
	return d, rc, err
}

// DocumentQueue is the back office queue of documents (a review.Handler).
func (s *Service) DocumentQueue() review.Handler { return documentQueue{} }

type documentQueue struct{}

// Kind returns DocumentKind, the account documents' queue.
func (documentQueue) Kind() string { return DocumentKind }

// Title returns the queue's Persian name in the back office menu.
func (documentQueue) Title() string { return "مدارک حساب‌ها" }

// Decide approves or rejects (with the reason shown to the customer) a pending document.
func (documentQueue) Decide(ctx context.Context, tx pgx.Tx, it review.Item, d review.Decision) (func(context.Context), error) {
	_, err := decideRow(ctx, tx, "account_documents", it, d, MsgDocDecided)
	return nil, err
}

// decideRow records a decision on the pending row it.SubjectID of table (of the
// item's account), under its row lock, and returns the new status.
func decideRow(ctx context.Context, tx pgx.Tx, table string, it review.Item, d review.Decision, msgDecided string) (string, error) {
	return review.DecideRow(ctx, tx, it, d, review.Row{Table: table, ReasonColumn: "reason", Stamp: "decided_at = now()",
		Pending: review.Pending, Approved: review.Approved, Rejected: review.Rejected,
		Decided: apperr.New(apperr.Conflict, msgDecided).WithCode("review-decided")})
}

func clip(s string, n int) string {
	s = strings.ToValidUTF8(strings.TrimSpace(s), "")
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}
