// Package predefined owns an account's predefined messages — saved texts in titled
// groups that the message editor inserts — and the send wizards' drafts (spec §1
// "Drafts and predefined messages", §7 "Predefined messages"). Every query names the
// account, so another account's ids are simply not found; every change writes the
// audit log.
package predefined

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/sms"
)

// Limits of the fields.
const (
	// MaxTitle bounds a group's, message's or draft's title (characters).
	MaxTitle = 100
	// MaxText is the message editor's maximum (spec §9).
	MaxText = sms.MaxTextRunes
	// MaxGroups and MaxMessages bound what one account keeps.
	MaxGroups   = 200
	MaxMessages = 5000
	// MaxDrafts bounds the drafts of one account.
	MaxDrafts = 500
)

// Persian messages (spec §8 style).
const (
	MsgTitle        = "عنوان را وارد کنید"
	MsgTitleLong    = "عنوان حداکثر ۱۰۰ کاراکتر است"
	MsgText         = "متن پیام را وارد کنید"
	MsgTextLong     = "متن پیام حداکثر ۲۷۰۰ کاراکتر است"
	MsgGroup        = "گروه را انتخاب کنید"
	MsgGroupUnknown = "گروه انتخاب‌شده یافت نشد"
	MsgGroupExists  = "گروهی با این عنوان از قبل وجود دارد"
	MsgTooManyGroup = "حداکثر ۲۰۰ گروه می‌توانید بسازید"
	MsgTooManyMsg   = "حداکثر ۵۰۰۰ پیام از پیش تعریف‌شده می‌توانید ذخیره کنید"
)

// Service stores groups, messages and drafts.
type Service struct {
	pool *pgxpool.Pool
}

// New returns the service over the pool.
func New(pool *pgxpool.Pool) *Service { return &Service{pool: pool} }

// cleanTitle trims a title and checks it, adding problems to f under field.
func cleanTitle(f apperr.Fields, field, title string, required bool) string {
	t := strings.TrimSpace(title)
	switch {
	case t == "" && required:
		f.Add(field, MsgTitle)
	case utf8.RuneCountInString(t) > MaxTitle:
		f.Add(field, MsgTitleLong)
	}
	return t
}

// checkText checks a message text, adding problems to f under field.
func checkText(f apperr.Fields, field, text string, required bool) {
	switch {
	case strings.TrimSpace(text) == "" && required:
		f.Add(field, MsgText)
	case utf8.RuneCountInString(text) > MaxText:
		f.Add(field, MsgTextLong)
	}
}

// inTx runs fn in a transaction and records the audit entry with it.
func (s *Service) inTx(ctx context.Context, id acl.Identity, e audit.Entry, fn func(tx pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		e.AccountID, e.UserID, e.APIKeyID = id.AccountID, id.UserID, id.APIKeyID
		return audit.Record(ctx, tx, e)
	})
}

// notFound maps "no row" (another account's id, or none) to 404.
func notFound(err error, what string) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return apperr.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

func isUnique(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// deleteOne deletes the account's row id of table (a constant of this package) and
// audits the action; a row of another account is 404.
func (s *Service) deleteOne(ctx context.Context, id acl.Identity, table, action string, rowID int64, ip string) error {
	e := audit.Entry{Action: action, TargetType: strings.TrimSuffix(table, "s"), Target: fmt.Sprint(rowID), IP: ip}
	return s.inTx(ctx, id, e, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE id = $1 AND account_id = $2`, rowID, id.AccountID)
		if err != nil {
			return fmt.Errorf("delete from %s: %w", table, err)
		}
		if tag.RowsAffected() == 0 {
			return apperr.ErrNotFound
		}
		return nil
	})
}
