package upload

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/live"
	"github.com/chapar/chapar/pkg/operator"
)

// fileRef is what the parser needs of a file row.
type fileRef struct {
	id, accountID         int64
	purpose, ext, key, st string
}

// lockClass namespaces the advisory locks that keep two parses of a file apart.
const lockClass = 0x46494C45 // "FILE"

// HandleParse is the worker's file:parse handler. It parses the stored file in one
// transaction: the valid unique rows are COPYed into file_rows as the parser streams
// them, the row errors are spooled to a temporary file and COPYed after, then the
// blacklisted rows are counted in SQL and the report is written. A retry starts
// over (the transaction left nothing behind); a file that is no longer parsing is
// left alone. A file error ends the file failed; any other error is retried and,
// on the last attempt, ends it failed with «خطا در پردازش فایل».
func (s *Service) HandleParse(ctx context.Context, t *asynq.Task) error {
	var p jobs.FileParse
	if err := json.Unmarshal(t.Payload(), &p); err != nil {
		return fmt.Errorf("file parse payload: %w: %w", err, asynq.SkipRetry)
	}
	return s.Parse(ctx, p.FileID)
}

// Parse parses one file (see HandleParse).
func (s *Service) Parse(ctx context.Context, fileID int64) error {
	var f fileRef
	err := s.pool.QueryRow(ctx, `SELECT id, account_id, purpose, coalesce(ext, ''), coalesce(storage_key, ''),
		coalesce(status, '') FROM files WHERE id = $1`, fileID).Scan(&f.id, &f.accountID, &f.purpose, &f.ext, &f.key, &f.st)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil // deleted
	}
	if err != nil {
		return fmt.Errorf("load file %d: %w", fileID, err)
	}
	if f.st != StatusParsing {
		return nil
	}
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	case <-ctx.Done():
		return ctx.Err()
	}
	start := time.Now()
	err = s.parse(ctx, f)
	var fe *FileError
	switch {
	case err == nil:
		s.log.InfoContext(ctx, "file parsed", "file", f.id, "took", time.Since(start).Round(time.Millisecond))
		return nil
	case errors.As(err, &fe):
		s.log.InfoContext(ctx, "file failed", "file", f.id, "reason", fe.Message, "err", err)
		return s.fail(ctx, f, fe.Message)
	case ctx.Err() != nil:
		return err
	}
	retried, ok1 := asynq.GetRetryCount(ctx)
	maxRetry, ok2 := asynq.GetMaxRetry(ctx)
	if ok1 && ok2 && retried < maxRetry {
		return err
	}
	s.log.ErrorContext(ctx, "file parse gave up", "file", f.id, "err", err)
	if ferr := s.fail(ctx, f, MsgProcessing); ferr != nil {
		return errors.Join(err, ferr)
	}
	return fmt.Errorf("%w: %w", err, asynq.SkipRetry)
}

// fail ends a parsing file with a file error and deletes its stored bytes.
func (s *Service) fail(ctx context.Context, f fileRef, msg string) error {
	ctx = context.WithoutCancel(ctx)
	tag, err := s.pool.Exec(ctx, `UPDATE files SET status = 'failed', error = $2, progress = 100, records = 0,
		parsed_at = now() WHERE id = $1 AND status = 'parsing'`, f.id, msg)
	if err != nil {
		return fmt.Errorf("fail file %d: %w", f.id, err)
	}
	if tag.RowsAffected() > 0 {
		s.dropStored(ctx, f.id)
		s.publish(ctx, f, StatusFailed, 100, 0)
	}
	return nil
}

func (s *Service) parse(ctx context.Context, f fileRef) error {
	path, release, err := s.store.Local(ctx, f.key)
	if err != nil {
		return fmt.Errorf("file %d: %w", f.id, err)
	}
	defer release()
	src, err := openSource(path, f.ext)
	if err != nil {
		return err
	}
	defer src.Close()
	tbl, err := operator.Load(ctx, s.pool, f.accountID)
	if err != nil {
		return err
	}
	sc, err := newScanner(src, f.purpose, tbl.Classify)
	if err != nil {
		return err
	}
	spool, err := newErrorSpool(f.id)
	if err != nil {
		return err
	}
	defer spool.close()
	sc.onError = spool.add
	rep := &reporter{s: s, f: f, every: s.ProgressEvery}
	sc.tick = func(records int) { rep.report(ctx, records, src.Done()) }
	feed := &rowFeed{sc: sc, fileID: f.id}

	var status, msg string
	var blacklisted int
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var locked bool
		if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1, $2)`, lockClass, int32(f.id)).Scan(&locked); err != nil {
			return fmt.Errorf("lock file %d: %w", f.id, err)
		}
		if !locked {
			return fmt.Errorf("file %d is being parsed elsewhere", f.id)
		}
		// Hold the file while its rows are written (file_rows has no foreign key:
		// this is the lock its check would take). A delete waits; progress updates
		// do not.
		var st string
		err := tx.QueryRow(ctx, `SELECT status FROM files WHERE id = $1 FOR KEY SHARE`, f.id).Scan(&st)
		if errors.Is(err, pgx.ErrNoRows) || err == nil && st != StatusParsing {
			return errGone
		}
		if err != nil {
			return fmt.Errorf("hold file %d: %w", f.id, err)
		}
		for _, q := range []string{`DELETE FROM file_rows WHERE file_id = $1`, `DELETE FROM file_row_errors WHERE file_id = $1`} {
			if _, err := tx.Exec(ctx, q, f.id); err != nil {
				return fmt.Errorf("clear file %d: %w", f.id, err)
			}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"file_rows"}, []string{"file_id", "row_no", "mobile", "cells"}, feed); err != nil {
			if feed.err != nil {
				return feed.err
			}
			return fmt.Errorf("copy file rows: %w", err)
		}
		if err := spool.copyInto(ctx, tx); err != nil {
			return err
		}
		status = StatusReady
		if sc.counts.Valid == 0 {
			status, msg = StatusFailed, MsgNoValid
		}
		if blacklisted, err = s.uncountBlacklisted(ctx, tx, f, sc); err != nil {
			return err
		}
		return s.finish(ctx, tx, f, sc, status, msg, blacklisted)
	})
	if errors.Is(err, errGone) {
		return nil // deleted or finished meanwhile
	}
	if err != nil {
		return err
	}
	if status == StatusFailed {
		s.dropStored(ctx, f.id)
	}
	s.publish(ctx, f, status, 100, sc.counts.Records)
	return nil
}

// errGone stops a parse whose file was deleted or finished meanwhile.
var errGone = errors.New("file gone")

// uncountBlacklisted counts the valid rows on the account's send blacklist or
// cancel-11 list (one set-based query) and takes them out of the per-operator figures.
func (s *Service) uncountBlacklisted(ctx context.Context, tx pgx.Tx, f fileRef, sc *scanner) (int, error) {
	rows, err := tx.Query(ctx, `SELECT r.mobile, coalesce(CASE WHEN $3::int > 0 THEN r.cells[$3::int] END, '')
		FROM file_rows r WHERE r.file_id = $1 AND EXISTS (SELECT 1 FROM blacklist b
			WHERE b.account_id = $2 AND b.kind IN ('send', 'cancel11') AND b.mobile = r.mobile)`,
		f.id, f.accountID, sc.textCol+1)
	if err != nil {
		return 0, fmt.Errorf("blacklisted rows: %w", err)
	}
	n := 0
	var mobile, text string
	_, err = pgx.ForEachRow(rows, []any{&mobile, &text}, func() error {
		n++
		sc.count(mobile, text, -1)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("blacklisted rows: %w", err)
	}
	return n, nil
}

// finish writes the report.
func (s *Service) finish(ctx context.Context, tx pgx.Tx, f fileRef, sc *scanner, status, msg string, blacklisted int) error {
	perOp := []OperatorCount{}
	for _, code := range operator.Codes {
		if c := sc.perOp[code]; c != nil && c.Recipients > 0 {
			perOp = append(perOp, *c)
		}
	}
	var textCol *int
	if sc.textCol >= 0 {
		textCol = &sc.textCol
	}
	cols, _ := json.Marshal(sc.Columns())
	ops, _ := json.Marshal(perOp)
	c := sc.counts
	_, err := tx.Exec(ctx, `UPDATE files SET status = $2, error = $3, progress = 100, records = $4, valid = $5,
		invalid = $6, duplicates = $7, blacklisted = $8, columns = $9, mobile_col = $10, text_col = $11,
		per_operator = $12, parsed_at = now() WHERE id = $1`,
		f.id, status, msg, c.Records, c.Valid, c.Invalid, c.Duplicates, blacklisted, cols, sc.mobileCol, textCol, ops)
	if err != nil {
		return fmt.Errorf("file %d report: %w", f.id, err)
	}
	return nil
}

// rowFeed is the COPY source: it pulls valid rows from the scanner as COPY asks.
type rowFeed struct {
	sc     *scanner
	fileID int64
	row    Row
	err    error
}

// Next pulls the next valid row from the scanner, keeping any error but io.EOF.
func (r *rowFeed) Next() bool {
	row, err := r.sc.Next()
	if err != nil {
		if err != io.EOF {
			r.err = err
		}
		return false
	}
	r.row = row
	return true
}

// Values returns the current row as COPY values: file id, row number, mobile and cells.
func (r *rowFeed) Values() ([]any, error) {
	return []any{r.fileID, int32(r.row.No), r.row.Mobile, r.row.Cells}, nil
}

// Err returns the scanner error that ended the feed, if any.
func (r *rowFeed) Err() error { return r.err }

// reporter writes files.progress and publishes file.progress, at most once per
// `every` and only when the percentage moved.
type reporter struct {
	s     *Service
	f     fileRef
	every time.Duration
	last  time.Time
	pct   int
}

func (r *reporter) report(ctx context.Context, records int, done float64) {
	pct := min(99, int(done*100))
	if pct <= r.pct || time.Since(r.last) < r.every {
		return
	}
	r.pct, r.last = pct, time.Now()
	if _, err := r.s.pool.Exec(ctx, `UPDATE files SET progress = $2, records = $3 WHERE id = $1 AND status = 'parsing'`,
		r.f.id, pct, records); err != nil {
		r.s.log.WarnContext(ctx, "file progress", "file", r.f.id, "err", err)
		return
	}
	r.s.publish(ctx, r.f, StatusParsing, pct, records)
}

// publish sends a file.progress event.
func (s *Service) publish(ctx context.Context, f fileRef, status string, progress, records int) {
	if s.Events == nil {
		return
	}
	err := s.Events.Publish(ctx, f.accountID, live.EventFileProgress, map[string]any{
		"id": f.id, "status": status, "progress": progress, "records": records})
	if err != nil {
		s.log.WarnContext(ctx, "file progress event", "file", f.id, "err", err)
	}
}

// errorSpool keeps the row errors in a temporary csv file while the rows are COPYed
// (one connection runs one COPY at a time), so a file of a million bad rows costs no
// memory.
type errorSpool struct {
	fileID string
	f      *os.File
	w      *csv.Writer
	rec    [4]string
}

func newErrorSpool(fileID int64) (*errorSpool, error) {
	f, err := os.CreateTemp("", "chapar-row-errors-*.csv")
	if err != nil {
		return nil, fmt.Errorf("row error spool: %w", err)
	}
	return &errorSpool{fileID: strconv.FormatInt(fileID, 10), f: f, w: csv.NewWriter(f)}, nil
}

func (e *errorSpool) add(r RowError) error {
	e.rec = [4]string{e.fileID, strconv.Itoa(r.No), string(r.Kind), r.Value}
	if err := e.w.Write(e.rec[:]); err != nil {
		return fmt.Errorf("row error spool: %w", err)
	}
	return nil
}

// copyInto COPYs the spooled errors in PostgreSQL's csv format.
func (e *errorSpool) copyInto(ctx context.Context, tx pgx.Tx) error {
	e.w.Flush()
	if err := e.w.Error(); err != nil {
		return fmt.Errorf("row error spool: %w", err)
	}
	if _, err := e.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("row error spool: %w", err)
	}
	_, err := tx.Conn().PgConn().CopyFrom(ctx, bufio.NewReaderSize(e.f, 64<<10),
		`COPY file_row_errors (file_id, row_no, kind, value) FROM STDIN WITH (FORMAT csv, FORCE_NOT_NULL (value))`)
	if err != nil {
		return fmt.Errorf("copy row errors: %w", err)
	}
	return nil
}

func (e *errorSpool) close() {
	_ = e.f.Close()
	_ = os.Remove(e.f.Name())
}
