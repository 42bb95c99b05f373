package pattern

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
)

// Staff audit actions of systemic patterns.
const (
	ActionSystemicSave = "staff.pattern_systemic_saved"
)

// SaveSystemic creates (pid 0) or edits a systemic pattern. Staff define it, so
// its version is approved at once; the brand rule does not apply (it is the
// platform's own text), the other rules do.
func (s *Service) SaveSystemic(ctx context.Context, by acl.Identity, pid int64, in Input) (Pattern, error) {
	if err := checkInput(&in, ""); err != nil {
		return Pattern{}, err
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if pid == 0 {
			if err := tx.QueryRow(ctx, `INSERT INTO patterns (code, kind, shared, systemic, created_by)
				VALUES ($1, $2, true, true, nullif($3, 0)) RETURNING id`, newCode(), in.Kind, by.UserID).Scan(&pid); err != nil {
				return fmt.Errorf("insert systemic pattern: %w", err)
			}
		} else {
			tag, err := tx.Exec(ctx, `UPDATE patterns SET kind = $2, updated_at = now() WHERE id = $1 AND systemic`, pid, in.Kind)
			if err != nil {
				return fmt.Errorf("update systemic pattern: %w", err)
			}
			if tag.RowsAffected() == 0 {
				return apperr.ErrNotFound
			}
		}
		var vid int64
		if err := tx.QueryRow(ctx, `INSERT INTO pattern_versions (pattern_id, version, title, description, text, variables,
			status, created_by, decided_at, kind)
			VALUES ($1, (SELECT coalesce(max(version), 0) + 1 FROM pattern_versions WHERE pattern_id = $1), $2, $3, $4, $5,
			'approved', nullif($6, 0), now(), $7) RETURNING id`, pid, in.Title, in.Description, in.Text, in.Variables, by.UserID, in.Kind).Scan(&vid); err != nil {
			return fmt.Errorf("insert systemic version: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE patterns SET latest_version_id = $2, active_version_id = $2 WHERE id = $1`, pid, vid); err != nil {
			return fmt.Errorf("activate systemic version: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{UserID: by.UserID, Action: ActionSystemicSave, TargetType: "pattern",
			Target: strconv.FormatInt(pid, 10), Details: map[string]any{"title": in.Title}})
	})
	if err != nil {
		return Pattern{}, err
	}
	return s.Get(ctx, acl.Identity{}, pid)
}

// Systemic returns one systemic pattern.
func (s *Service) Systemic(ctx context.Context, pid int64) (Pattern, error) {
	p, err := s.Get(ctx, acl.Identity{}, pid)
	if err != nil {
		return Pattern{}, err
	}
	if !p.Systemic {
		return Pattern{}, apperr.ErrNotFound
	}
	return p, nil
}
