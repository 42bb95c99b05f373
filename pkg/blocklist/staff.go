package blocklist

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/operator"
	"github.com/chapar/chapar/pkg/validate"
)

// Persian messages.
const (
	MsgOperator = "اپراتور انتخاب‌شده معتبر نیست"
	MsgNoValid  = "هیچ شماره موبایل معتبری در فایل یافت نشد"
	MsgMobile   = "شماره موبایل معتبر نیست"
	MsgNotFound = "این شماره در لیست سیاه اپراتور نیست"
	MsgTooMany  = "تعداد ردیف‌های فایل بیش از حد مجاز (۵٬۰۰۰٬۰۰۰) است"
)

// MaxImportRows is the most rows one import reads.
const MaxImportRows = 5_000_000

// ImportResult says what an import did.
type ImportResult struct {
	Rows    int   `json:"rows"`    // rows read
	Valid   int   `json:"valid"`   // rows holding a mobile number
	Invalid int   `json:"invalid"` // rows without one (a header, a bad cell)
	Added   int64 `json:"added"`   // numbers newly listed
	// Existing are the valid rows already listed (or repeated in the file).
	Existing int64 `json:"existing"`
}

// Import lists the numbers of a file (xlsx, csv or txt, the first valid mobile of
// each row) for op, or for the operator each number's prefix routes it to when op
// is empty. The rows are COPYed into a staging table and merged in one statement,
// all in one transaction: a file that cannot be read lists nothing.
func (s *Service) Import(ctx context.Context, by acl.Identity, path, name, op, ip string) (ImportResult, error) {
	var res ImportResult
	if op != "" && !slices.Contains(operator.Codes, op) {
		return res, apperr.Field("operator", MsgOperator)
	}
	if s.open == nil {
		return res, errors.New("blocklist: no file reader")
	}
	rows, err := s.open(path, name)
	if err != nil {
		return res, err
	}
	defer rows.Close()
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tbl, err := operator.Load(ctx, tx, 0)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TEMP TABLE blocklist_stage (mobile text, operator text) ON COMMIT DROP`); err != nil {
			return fmt.Errorf("staging table: %w", err)
		}
		src := &stageSource{rows: rows, op: op, tbl: tbl, res: &res}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"blocklist_stage"}, []string{"mobile", "operator"}, src); err != nil {
			return copyError(err)
		}
		if res.Valid == 0 {
			return apperr.Field("file", MsgNoValid)
		}
		tag, err := tx.Exec(ctx, `INSERT INTO operator_blocklist (mobile, operator, source)
			SELECT DISTINCT mobile, operator, 'import' FROM blocklist_stage ORDER BY 1, 2 ON CONFLICT DO NOTHING`)
		if err != nil {
			return fmt.Errorf("merge blocklist: %w", err)
		}
		res.Added = tag.RowsAffected()
		res.Existing = int64(res.Valid) - res.Added
		if err := bump(ctx, tx); err != nil {
			return err
		}
		return audit.Record(ctx, tx, audit.Entry{UserID: by.UserID, Action: "staff.operator_blocklist_imported", IP: ip,
			Details: map[string]any{"staff": by.Username, "file": name, "operator": op, "rows": res.Rows, "added": res.Added}})
	})
	return res, err
}

// copyError keeps a file's field error met during the COPY as it is.
func copyError(err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return ae
	}
	return fmt.Errorf("copy blocklist: %w", err)
}

// stageSource streams a file's valid numbers into the COPY, row by row: memory
// stays flat however long the file.
type stageSource struct {
	rows Rows
	op   string
	tbl  *operator.Table
	res  *ImportResult
	cur  []any
	err  error
}

// Next reads rows until one holds a mobile number.
func (s *stageSource) Next() bool {
	for {
		cells, _, err := s.rows.Next()
		if errors.Is(err, io.EOF) {
			return false
		}
		if err != nil {
			s.err = err
			return false
		}
		s.res.Rows++
		if s.res.Rows > MaxImportRows {
			s.err = apperr.Field("file", MsgTooMany)
			return false
		}
		m, ok := firstMobile(cells)
		if !ok {
			s.res.Invalid++
			continue
		}
		s.res.Valid++
		op := s.op
		if op == "" {
			op = s.tbl.Classify(m)
		}
		s.cur = []any{m, op}
		return true
	}
}

// Values is the current row.
func (s *stageSource) Values() ([]any, error) { return s.cur, nil }

// Err is the error that ended the rows.
func (s *stageSource) Err() error { return s.err }

// firstMobile is the first cell of a row that holds a mobile number.
func firstMobile(cells []string) (string, bool) {
	for _, c := range cells {
		if m, ok := validate.NormalizeMobile(c); ok {
			return m, true
		}
	}
	return "", false
}

// OperatorCount is how many numbers an operator's list holds.
type OperatorCount struct {
	Operator string `json:"operator"`
	Count    int64  `json:"count"`
}

// Summary is the list at a glance.
type Summary struct {
	Operators []OperatorCount `json:"operators"` // every operator, in display order
	Total     int64           `json:"total"`
}

// Counts returns how many numbers each operator's list holds.
func (s *Service) Counts(ctx context.Context) (Summary, error) {
	out := Summary{Operators: []OperatorCount{}}
	rows, err := s.pool.Query(ctx, `SELECT operator, count(*) FROM operator_blocklist GROUP BY operator`)
	if err != nil {
		return out, fmt.Errorf("blocklist counts: %w", err)
	}
	got := map[string]int64{}
	for rows.Next() {
		var op string
		var n int64
		if err := rows.Scan(&op, &n); err != nil {
			rows.Close()
			return out, fmt.Errorf("blocklist counts: %w", err)
		}
		got[op] = n
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("blocklist counts: %w", err)
	}
	for _, op := range operator.Codes {
		out.Operators = append(out.Operators, OperatorCount{Operator: op, Count: got[op]})
		out.Total += got[op]
	}
	return out, nil
}

// Entry is one listed number.
type Entry struct {
	Mobile    string    `json:"mobile"`
	Operator  string    `json:"operator"`
	Source    string    `json:"source"`
	CreatedAt time.Time `json:"created_at"`
}

// Search finds a number on every operator's list (none: an empty list).
func (s *Service) Search(ctx context.Context, mobile string) ([]Entry, error) {
	m, ok := validate.NormalizeMobile(mobile)
	if !ok {
		return nil, apperr.Field("mobile", MsgMobile)
	}
	rows, err := s.pool.Query(ctx, `SELECT mobile, operator, source, created_at FROM operator_blocklist
		WHERE mobile = $1 ORDER BY operator`, m)
	if err != nil {
		return nil, fmt.Errorf("blocklist search: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Entry, error) {
		var e Entry
		err := r.Scan(&e.Mobile, &e.Operator, &e.Source, &e.CreatedAt)
		return e, err
	})
	if err != nil {
		return nil, fmt.Errorf("blocklist search: %w", err)
	}
	if out == nil {
		out = []Entry{}
	}
	return out, nil
}

// Remove takes a number off an operator's list, audited with the staff member.
func (s *Service) Remove(ctx context.Context, by acl.Identity, mobile, op, ip string) error {
	m, ok := validate.NormalizeMobile(mobile)
	if !ok {
		return apperr.Field("mobile", MsgMobile)
	}
	if !slices.Contains(operator.Codes, op) {
		return apperr.Field("operator", MsgOperator)
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM operator_blocklist WHERE mobile = $1 AND operator = $2`, m, op)
		if err != nil {
			return fmt.Errorf("blocklist remove: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return apperr.New(apperr.NotFound, MsgNotFound)
		}
		if err := bump(ctx, tx); err != nil {
			return err
		}
		return audit.Record(ctx, tx, audit.Entry{UserID: by.UserID, Action: "staff.operator_blocklist_removed", IP: ip,
			Details: map[string]any{"staff": by.Username, "mobile": m, "operator": op}})
	})
}
