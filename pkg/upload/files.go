package upload

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/validate"
)

// File is a file's state and, once parsed, its pre-flight report.
type File struct {
	ID          int64           `json:"id"`
	Name        string          `json:"name"`
	Purpose     string          `json:"purpose"`
	Size        int64           `json:"size"`
	Status      string          `json:"status"`
	Progress    int             `json:"progress"`
	Error       string          `json:"error"`
	Records     int             `json:"records"`
	Valid       int             `json:"valid"`
	Invalid     int             `json:"invalid"`
	Duplicates  int             `json:"duplicates"`
	Blacklisted int             `json:"blacklisted"`
	Columns     []Column        `json:"columns"`
	MobileCol   *int            `json:"mobile_col"`
	TextCol     *int            `json:"text_col"`
	PerOperator []OperatorCount `json:"per_operator"`
	CreatedAt   time.Time       `json:"created_at"`
	ParsedAt    *time.Time      `json:"parsed_at"`

	storageKey string
}

// Detail is a file with the first row errors.
type Detail struct {
	File
	ErrorsSample []ErrorView `json:"errors_sample"`
}

// ErrorView is a row error as the API shows it.
type ErrorView struct {
	Row     int    `json:"row"`
	Kind    Kind   `json:"kind"`
	Message string `json:"message"`
	Value   string `json:"value"`
}

// errorsSample is how many row errors the detail shows; the rest are in the xlsx.
const errorsSample = 20

const fileColumns = `id, coalesce(name, ''), purpose, coalesce(size, 0), coalesce(status, ''), progress, error, records,
	valid, invalid, duplicates, blacklisted, columns, mobile_col, text_col, per_operator, created_at, parsed_at,
	coalesce(storage_key, '')`

func scanFile(row pgx.Row) (File, error) {
	var f File
	var cols, ops []byte
	err := row.Scan(&f.ID, &f.Name, &f.Purpose, &f.Size, &f.Status, &f.Progress, &f.Error, &f.Records, &f.Valid,
		&f.Invalid, &f.Duplicates, &f.Blacklisted, &cols, &f.MobileCol, &f.TextCol, &ops, &f.CreatedAt, &f.ParsedAt,
		&f.storageKey)
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(cols, &f.Columns); err != nil {
		return f, fmt.Errorf("file columns: %w", err)
	}
	if err := json.Unmarshal(ops, &f.PerOperator); err != nil {
		return f, fmt.Errorf("file per_operator: %w", err)
	}
	return f, nil
}

// get reads one of the account's files; another account's is not found.
func (s *Service) get(ctx context.Context, accountID, fileID int64) (File, error) {
	f, err := scanFile(s.pool.QueryRow(ctx, `SELECT `+fileColumns+` FROM files WHERE id = $1 AND account_id = $2`,
		fileID, accountID))
	if errors.Is(err, pgx.ErrNoRows) {
		return f, errNotFound
	}
	if err != nil {
		return f, fmt.Errorf("read file %d: %w", fileID, err)
	}
	return f, nil
}

// Get returns a file of the account with its first row errors.
func (s *Service) Get(ctx context.Context, accountID, fileID int64) (Detail, error) {
	f, err := s.get(ctx, accountID, fileID)
	if err != nil {
		return Detail{}, err
	}
	d := Detail{File: f, ErrorsSample: []ErrorView{}}
	rows, err := s.pool.Query(ctx, `SELECT row_no, kind, value FROM file_row_errors WHERE file_id = $1
		ORDER BY row_no LIMIT $2`, fileID, errorsSample)
	if err != nil {
		return Detail{}, fmt.Errorf("read row errors: %w", err)
	}
	var e ErrorView
	_, err = pgx.ForEachRow(rows, []any{&e.Row, &e.Kind, &e.Value}, func() error {
		e.Message = e.Kind.Message()
		d.ErrorsSample = append(d.ErrorsSample, e)
		return nil
	})
	if err != nil {
		return Detail{}, fmt.Errorf("read row errors: %w", err)
	}
	return d, nil
}

// ParseID reads a file id from a path or body; anything but a positive integer is a
// 422 on "id".
func ParseID(s string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimSpace(validate.ToLatinDigits(s)), 10, 64)
	if err != nil || id <= 0 {
		return 0, apperr.Field("id", MsgID)
	}
	return id, nil
}

// Original opens a file's stored original for download, with its name.
func (s *Service) Original(ctx context.Context, accountID, fileID int64) (io.ReadCloser, string, error) {
	f, err := s.get(ctx, accountID, fileID)
	if err != nil {
		return nil, "", err
	}
	if f.storageKey == "" {
		return nil, "", errNotFound // a rejected file's bytes are deleted
	}
	rc, err := s.store.Open(ctx, f.storageKey)
	if errors.Is(err, ErrNoObject) {
		return nil, "", errNotFound
	}
	if err != nil {
		return nil, "", fmt.Errorf("open file %d: %w", fileID, err)
	}
	name := f.Name
	if name == "" {
		name = fmt.Sprintf("file-%d", fileID)
	}
	return rc, name, nil
}

// Delete removes one of the account's files, its rows and its stored original. A
// file whose parse holds its rows, that a send not yet expanded will read or that
// a recurring campaign reads answers 409, naming that send or campaign.
func (s *Service) Delete(ctx context.Context, id acl.Identity, fileID int64, ip string) error {
	var key string
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL lock_timeout = '2s'`); err != nil {
			return fmt.Errorf("delete file: %w", err)
		}
		msg, err := inUse(ctx, tx, id.AccountID, fileID)
		if err != nil {
			return err
		}
		if msg != "" {
			return apperr.New(apperr.Conflict, msg).WithCode("file-in-use")
		}
		err = tx.QueryRow(ctx, `DELETE FROM files WHERE id = $1 AND account_id = $2 RETURNING coalesce(storage_key, '')`,
			fileID, id.AccountID).Scan(&key)
		if errors.Is(err, pgx.ErrNoRows) {
			return errNotFound
		}
		if err != nil {
			var pe *pgconn.PgError
			if errors.As(err, &pe) && pe.Code == "55P03" { // lock_not_available
				return apperr.New(apperr.Conflict, MsgBusy).WithCode("file-busy")
			}
			return fmt.Errorf("delete file %d: %w", fileID, err)
		}
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, APIKeyID: id.APIKeyID,
			Action: "file.delete", Target: strconv.FormatInt(fileID, 10), IP: ip})
	})
	if err != nil {
		return err
	}
	if key != "" {
		if err := s.store.Delete(ctx, key); err != nil {
			s.log.WarnContext(ctx, "delete stored file", "file", fileID, "err", err)
		}
	}
	return nil
}
