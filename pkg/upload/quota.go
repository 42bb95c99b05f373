package upload

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
)

// Storage bounds: the per-account quota and the retention of parsed files.
const (
	// DefaultQuota is the bytes of stored files an account may hold (FILES_QUOTA_MB).
	DefaultQuota = 2 << 30
	// DefaultRetention is how long a file is kept after its upload (FILES_RETENTION).
	DefaultRetention = 90 * 24 * time.Hour
	// MsgQuota refuses an upload over the account's quota.
	MsgQuota = "فضای ذخیره‌سازی فایل‌های شما پر است؛ لطفا فایل‌های قدیمی را حذف کنید"
	// quotaLockClass namespaces the advisory lock that serialises an account's uploads
	// at their insert.
	quotaLockClass = 0x51554F54 // "QUOT"
)

func quotaFull() error {
	return apperr.New(apperr.TooLarge, MsgQuota).WithCode("files-quota")
}

// querier is a pool or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// usage is the bytes of the account's stored files (a rejected file's bytes are
// deleted and no longer count).
func usage(ctx context.Context, q querier, accountID int64) (int64, error) {
	var used int64
	err := q.QueryRow(ctx, `SELECT coalesce(sum(size), 0) FROM files WHERE account_id = $1 AND storage_key IS NOT NULL`,
		accountID).Scan(&used)
	if err != nil {
		return 0, fmt.Errorf("files usage: %w", err)
	}
	return used, nil
}

// room is how many bytes the account's next upload may store: MaxBytes, or less
// when the quota is nearly used up (a full quota refuses at once).
func (s *Service) room(ctx context.Context, accountID int64) (int64, error) {
	if s.Quota <= 0 {
		return s.MaxBytes, nil
	}
	used, err := usage(ctx, s.pool, accountID)
	if err != nil {
		return 0, err
	}
	if used >= s.Quota {
		return 0, quotaFull()
	}
	return min(s.MaxBytes, s.Quota-used), nil
}

// sniffLen is how much of an upload checkContent sees.
const sniffLen = 512

// checkContent checks that an upload's first bytes match its extension: an xlsx is
// a zip archive; a csv or txt file is text (no NUL byte outside UTF-16), not a zip
// archive or an old Excel (OLE) file renamed.
func checkContent(head []byte, ext string) error {
	zipMagic := bytes.HasPrefix(head, []byte("PK\x03\x04"))
	ole := bytes.HasPrefix(head, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1})
	utf16 := bytes.HasPrefix(head, []byte{0xFF, 0xFE}) || bytes.HasPrefix(head, []byte{0xFE, 0xFF})
	switch {
	case len(head) == 0:
		return nil // empty: refused as empty once read
	case ole:
		return apperr.Field("file", MsgXLS)
	case ext == "xlsx" && !zipMagic:
		return apperr.Field("file", MsgFormat)
	case ext != "xlsx" && (zipMagic || !utf16 && bytes.IndexByte(head, 0) >= 0):
		return apperr.Field("file", MsgFormat)
	}
	return nil
}

// dropStored deletes a failed file's stored bytes and forgets its key; the row
// stays with its error.
func (s *Service) dropStored(ctx context.Context, fileID int64) {
	ctx = context.WithoutCancel(ctx)
	var key string
	err := s.pool.QueryRow(ctx, `SELECT coalesce(storage_key, '') FROM files WHERE id = $1 AND status = 'failed'`,
		fileID).Scan(&key)
	if err != nil || key == "" {
		return
	}
	if err := s.store.Delete(ctx, key); err != nil {
		s.log.WarnContext(ctx, "delete rejected file", "file", fileID, "err", err)
		return
	}
	if _, err := s.pool.Exec(ctx, `UPDATE files SET storage_key = NULL WHERE id = $1 AND storage_key = $2`,
		fileID, key); err != nil {
		s.log.WarnContext(ctx, "forget rejected file", "file", fileID, "err", err)
	}
}

// expireBatch is how many files one statement of ExpireOld deletes (each may hold
// a million rows); expireMax is how many one call deletes.
const (
	expireBatch = 10
	expireMax   = 200
)

// ExpireOld deletes the files uploaded more than Retention ago with their rows and
// stored bytes, except a file still parsing, or that a send not yet expanded (a
// scheduled one too) or an enabled recurring campaign reads. It returns how many it deleted.
func (s *Service) ExpireOld(ctx context.Context) (int, error) {
	if s.Retention <= 0 {
		return 0, nil
	}
	n := 0
	for n < expireMax {
		rows, err := s.pool.Query(ctx, `DELETE FROM files WHERE id IN (SELECT f.id FROM files f
			WHERE f.created_at < now() - $1::interval AND f.status <> 'parsing'
			AND NOT EXISTS (SELECT 1 FROM sends x WHERE x.account_id = f.account_id AND x.expanded_at IS NULL
				AND x.status NOT IN ('done', 'stopped', 'failed', 'blocked') AND x.source @> jsonb_build_object('file_id', f.id))
			AND NOT EXISTS (SELECT 1 FROM campaigns c WHERE c.account_id = f.account_id AND c.enabled
				AND c.request @> jsonb_build_object('file_id', f.id))
			ORDER BY f.id LIMIT $2 FOR UPDATE SKIP LOCKED)
			RETURNING coalesce(storage_key, '')`, s.Retention, expireBatch)
		if err != nil {
			return n, fmt.Errorf("expire files: %w", err)
		}
		keys, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return n, fmt.Errorf("expire files: %w", err)
		}
		for _, key := range keys {
			if err := s.store.Delete(ctx, key); key != "" && err != nil {
				s.log.WarnContext(ctx, "delete expired file", "key", key, "err", err)
			}
		}
		n += len(keys)
		if len(keys) < expireBatch {
			break
		}
	}
	return n, nil
}

// Limits sets the quota (in megabytes; 0: none) and the retention (0: for ever)
// from the configuration, and returns the service.
func (s *Service) Limits(quotaMB int, retention time.Duration) *Service {
	s.Quota, s.Retention = int64(quotaMB)<<20, retention
	return s
}

// RunExpiry calls ExpireOld every period until ctx ends. Several workers may run it
// at once (the delete skips rows another holds).
func (s *Service) RunExpiry(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if n, err := s.ExpireOld(ctx); err != nil {
			s.log.WarnContext(ctx, "expire files", "err", err)
		} else if n > 0 {
			s.log.InfoContext(ctx, "expired files deleted", "n", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
