package predefined

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/internal/platform/db"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/bank"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/validate"
)

// DraftTypes are the send methods whose wizards save drafts (POST /send types),
// the five targeted sends of the number bank included.
var DraftTypes = []string{"quick", "file", "keyword", "peer_to_peer", "phonebook",
	bank.TypeCityProvince, bank.TypeBusiness, bank.TypePostalCode, bank.TypeMap, bank.TypeTowerIrancell}

// Persian messages of drafts.
const (
	MsgDraftType      = "روش ارسال پیش‌نویس معتبر نیست"
	MsgDraftEmpty     = "پیش‌نویس خالی است؛ متن پیام یا گیرندگان را وارد کنید"
	MsgDraftNumbers   = "حداکثر ۱۰۰٬۰۰۰ شماره در پیش‌نویس ذخیره می‌شود"
	MsgDraftFile      = "فایل انتخاب‌شده یافت نشد"
	MsgDraftPhonebook = "دفترچه تلفن انتخاب‌شده یافت نشد"
	MsgDraftSender    = "خط ارسال معتبر نیست"
	MsgTooManyDrafts  = "حداکثر ۵۰۰ پیش‌نویس می‌توانید ذخیره کنید؛ پیش‌نویس‌های قدیمی را حذف کنید"
)

// DraftInput is the save form: without ID a new draft, with ID that draft replaced.
type DraftInput struct {
	ID           int64      `json:"id"`
	Type         string     `json:"type"`
	Title        string     `json:"title"`
	Text         string     `json:"text"`
	Sender       string     `json:"sender"`
	Cancel11     bool       `json:"cancel11"`
	Numbers      []string   `json:"numbers"`
	FileID       *int64     `json:"file_id"`
	PhonebookIDs []int64    `json:"phonebook_ids"`
	SendAt       *time.Time `json:"send_at"`
	// Target is a targeted send's audience as the wizard left it (unchecked: the
	// send checks it).
	Target *bank.Target `json:"target"`
}

// Draft is a saved, unsent send: its method, text, settings and recipients (the
// numbers, or a reference to the file or phonebooks). Lists leave Numbers empty and
// give their count in Recipients.
type Draft struct {
	DraftInput
	Recipients int       `json:"recipients"`
	FileName   string    `json:"file_name"`
	CreatedBy  string    `json:"created_by"`
	UpdatedAt  time.Time `json:"updated_at"`
}

// draftCols reads a draft; numbers only when full (the list carries their count).
func draftCols(full bool) string {
	nums := `'{}'::text[]`
	if full {
		nums = `d.numbers`
	}
	return `d.id, d.type, d.title, d.text, d.sender, d.cancel11, ` + nums + `, cardinality(d.numbers), d.file_id,
		COALESCE(f.name, ''), d.phonebook_ids, d.send_at, COALESCE(u.username, ''), d.updated_at, d.target`
}

const draftFrom = `FROM drafts d LEFT JOIN files f ON f.id = d.file_id AND f.account_id = d.account_id
	LEFT JOIN users u ON u.id = d.created_by WHERE d.account_id = $1`

func scanDraft(r pgx.CollectableRow) (Draft, error) {
	var d Draft
	err := r.Scan(&d.ID, &d.Type, &d.Title, &d.Text, &d.Sender, &d.Cancel11, &d.Numbers, &d.Recipients, &d.FileID,
		&d.FileName, &d.PhonebookIDs, &d.SendAt, &d.CreatedBy, &d.UpdatedAt, &d.Target)
	return d, err
}

// Drafts returns a page of the account's drafts, last saved first (search in title
// and text; typ narrows to one method when not empty).
func (s *Service) Drafts(ctx context.Context, id acl.Identity, search, typ string, p validate.Paging) ([]Draft, int64, error) {
	return db.Page(ctx, s.pool, "drafts", draftCols(false),
		draftFrom+` AND (d.title ILIKE $2 OR d.text ILIKE $2) AND ($3 = '' OR d.type = $3)`, "d.updated_at DESC, d.id DESC",
		[]any{id.AccountID, db.Contains(search), typ}, p.Limit, p.Page, scanDraft)
}

// Draft returns one draft of the account with its numbers, to resume its wizard.
func (s *Service) Draft(ctx context.Context, id acl.Identity, draftID int64) (Draft, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+draftCols(true)+` `+draftFrom+` AND d.id = $2`, id.AccountID, draftID)
	if err != nil {
		return Draft{}, fmt.Errorf("show draft: %w", err)
	}
	d, err := pgx.CollectExactlyOneRow(rows, scanDraft)
	return d, notFound(err, "show draft")
}

// checkDraft validates the form's own fields: every problem at once, in Persian.
func checkDraft(in DraftInput) (DraftInput, error) {
	f := apperr.Fields{}
	if !slices.Contains(DraftTypes, in.Type) {
		f.Add("type", MsgDraftType)
	}
	in.Title = cleanTitle(f, "title", in.Title, false)
	checkText(f, "text", in.Text, false)
	in.Sender = strings.TrimSpace(validate.ToLatinDigits(in.Sender))
	if utf8.RuneCountInString(in.Sender) > 20 {
		f.Add("sender", MsgDraftSender)
	}
	if len(in.Numbers) > send.MaxQuickNumbers {
		f.Add("numbers", MsgDraftNumbers)
	}
	in.Numbers = slices.DeleteFunc(in.Numbers, func(n string) bool { return strings.TrimSpace(n) == "" })
	if in.Numbers == nil {
		in.Numbers = []string{}
	}
	if in.PhonebookIDs == nil {
		in.PhonebookIDs = []int64{}
	}
	if !bank.IsBankType(in.Type) {
		in.Target = nil
	}
	if strings.TrimSpace(in.Text) == "" && len(in.Numbers) == 0 && in.FileID == nil && len(in.PhonebookIDs) == 0 && in.Target == nil {
		f.Add("text", MsgDraftEmpty)
	}
	return in, f.Err()
}

// ownSources checks that the file and phonebooks are the account's.
func ownSources(ctx context.Context, tx pgx.Tx, id acl.Identity, in DraftInput) error {
	f := apperr.Fields{}
	if in.FileID != nil {
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM files WHERE id = $1 AND account_id = $2`, *in.FileID, id.AccountID).Scan(&n); err != nil {
			return fmt.Errorf("find draft file: %w", err)
		}
		if n == 0 {
			f.Add("file_id", MsgDraftFile)
		}
	}
	if len(in.PhonebookIDs) > 0 {
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM phonebooks WHERE id = ANY($1) AND account_id = $2`,
			in.PhonebookIDs, id.AccountID).Scan(&n); err != nil {
			return fmt.Errorf("find draft phonebooks: %w", err)
		}
		if n != len(slices.Compact(slices.Sorted(slices.Values(in.PhonebookIDs)))) {
			f.Add("phonebook_ids", MsgDraftPhonebook)
		}
	}
	return f.Err()
}

// SaveDraft creates a draft, or replaces the account's draft in.ID.
func (s *Service) SaveDraft(ctx context.Context, id acl.Identity, in DraftInput) (Draft, error) {
	in, err := checkDraft(in)
	if err != nil {
		return Draft{}, err
	}
	action := audit.DraftCreate
	if in.ID != 0 {
		action = audit.DraftUpdate
	}
	e := audit.Entry{Action: action, TargetType: "draft", Target: fmt.Sprint(in.ID),
		After: map[string]any{"type": in.Type, "title": in.Title, "numbers": len(in.Numbers)}}
	err = s.inTx(ctx, id, e, func(tx pgx.Tx) error {
		if err := ownSources(ctx, tx, id, in); err != nil {
			return err
		}
		if in.ID != 0 {
			return updateDraft(ctx, tx, id, in)
		}
		return insertDraft(ctx, tx, id, &in)
	})
	if err != nil {
		return Draft{}, err
	}
	return s.Draft(ctx, id, in.ID)
}

func insertDraft(ctx context.Context, tx pgx.Tx, id acl.Identity, in *DraftInput) error {
	var n int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM drafts WHERE account_id = $1`, id.AccountID).Scan(&n); err != nil {
		return fmt.Errorf("count drafts: %w", err)
	}
	if n >= MaxDrafts {
		return apperr.Field("title", MsgTooManyDrafts)
	}
	err := tx.QueryRow(ctx, `INSERT INTO drafts (account_id, created_by, type, title, text, sender, cancel11, numbers, file_id,
		phonebook_ids, send_at, target) VALUES ($1, NULLIF($2, 0), $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
		id.AccountID, id.UserID, in.Type, in.Title, in.Text, in.Sender, in.Cancel11, in.Numbers, in.FileID, in.PhonebookIDs,
		in.SendAt, in.Target).Scan(&in.ID)
	if err != nil {
		return fmt.Errorf("insert draft: %w", err)
	}
	return nil
}

func updateDraft(ctx context.Context, tx pgx.Tx, id acl.Identity, in DraftInput) error {
	tag, err := tx.Exec(ctx, `UPDATE drafts SET type = $3, title = $4, text = $5, sender = $6, cancel11 = $7, numbers = $8,
		file_id = $9, phonebook_ids = $10, send_at = $11, target = $12, updated_at = now() WHERE id = $1 AND account_id = $2`,
		in.ID, id.AccountID, in.Type, in.Title, in.Text, in.Sender, in.Cancel11, in.Numbers, in.FileID, in.PhonebookIDs, in.SendAt,
		in.Target)
	if err != nil {
		return fmt.Errorf("update draft: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return apperr.ErrNotFound
	}
	return nil
}

// DeleteDraft removes a draft of the account.
func (s *Service) DeleteDraft(ctx context.Context, id acl.Identity, draftID int64, ip string) error {
	return s.deleteOne(ctx, id, "drafts", audit.DraftDelete, draftID, ip)
}
