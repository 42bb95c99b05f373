package phonebook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/apperr"
)

// EventImport is the live event of an import's progress (the Import shape).
const EventImport = "contacts.import"

// Import statuses.
const (
	ImportRunning = "running"
	ImportDone    = "done"
	ImportFailed  = "failed"
)

// Persian messages of imports.
const (
	MsgFileRequired     = "لطفا فایل را بارگذاری کنید"
	MsgFileNotReady     = "پردازش فایل هنوز تمام نشده است"
	MsgFileFailed       = "این فایل به دلیل خطا قابل استفاده نیست"
	MsgFileWrongPurpose = "این فایل برای ورود مخاطبین بارگذاری نشده است"
	MsgColumn           = "ستون انتخاب‌شده در فایل وجود ندارد"
	MsgImportFileGone   = "فایل ورود مخاطبین حذف شده است"
	MsgImportFailed     = "خطا در ورود مخاطبین"
)

// maxImportErrors bounds the sample of invalid rows an import keeps.
const maxImportErrors = 100

// ImportMapping says which file column (by index) holds which contact field; a
// field left out is not imported. The mobile column is the file's own.
type ImportMapping struct {
	Name      *int           `json:"name,omitempty"`
	Gender    *int           `json:"gender,omitempty"`
	BirthDate *int           `json:"birth_date,omitempty"`
	Tags      *int           `json:"tags,omitempty"`
	Features  map[string]int `json:"features,omitempty"` // by Latin title (request) or feature id (stored)
}

// ImportRequest starts an import.
type ImportRequest struct {
	FileID      int64         `json:"file_id"`
	PhonebookID int64         `json:"phonebook_id"`
	Mapping     ImportMapping `json:"mapping"`
}

// Import is an import's state (the contacts.import event carries the same).
type Import struct {
	ID          int64         `json:"id"`
	PhonebookID int64         `json:"phonebook_id"`
	FileID      int64         `json:"file_id"`
	Status      string        `json:"status"`
	Total       int           `json:"total"`
	Added       int           `json:"added"`
	Skipped     int           `json:"skipped"`
	Invalid     int           `json:"invalid"`
	Progress    int           `json:"progress"`
	Error       string        `json:"error"`
	Errors      []ImportError `json:"errors"`

	processed int
	lastRow   int
	accountID int64
	mapping   ImportMapping
}

// ImportError is an invalid row of an import (the first maxImportErrors are kept).
type ImportError struct {
	Row     int    `json:"row"`
	Field   string `json:"field"`
	Message string `json:"message"`
	Value   string `json:"value"`
}

// StartImport checks an import request and queues it. The file must be a ready
// upload of the account made for contacts (or for a send); every mapped column must
// exist in it and every mapped feature must be enabled.
func (s *Service) StartImport(ctx context.Context, a Actor, in ImportRequest) (Import, error) {
	errs := apperr.Fields{}
	if in.FileID <= 0 {
		errs.Add("file_id", MsgFileRequired)
	}
	if in.PhonebookID <= 0 {
		errs.Add("phonebook_id", MsgPhonebookRequired)
	}
	if err := errs.Err(); err != nil {
		return Import{}, err
	}
	if _, err := s.Phonebook(ctx, a.AccountID, in.PhonebookID); err != nil {
		return Import{}, err
	}
	cols, err := s.fileColumns(ctx, a.AccountID, in.FileID)
	if err != nil {
		return Import{}, err
	}
	fs, err := s.loadFeatures(ctx, s.pool, a.AccountID)
	if err != nil {
		return Import{}, err
	}
	stored := ImportMapping{Name: in.Mapping.Name, Gender: in.Mapping.Gender, BirthDate: in.Mapping.BirthDate,
		Tags: in.Mapping.Tags, Features: map[string]int{}}
	for field, col := range map[string]*int{"name": in.Mapping.Name, "gender": in.Mapping.Gender,
		"birth_date": in.Mapping.BirthDate, "tags": in.Mapping.Tags} {
		if col != nil && !cols[*col] {
			errs.Add("mapping."+field, MsgColumn)
		}
	}
	for title, col := range in.Mapping.Features {
		field := fs.field("mapping.features", title)
		f, msg := fs.usable(title)
		switch {
		case f == nil:
			errs.Add(field, msg)
		case !cols[col]:
			errs.Add(field, MsgColumn)
		default:
			stored.Features[f.key()] = col
		}
	}
	if err := errs.Err(); err != nil {
		return Import{}, err
	}
	mapping, err := json.Marshal(stored)
	if err != nil {
		return Import{}, fmt.Errorf("encode mapping: %w", err)
	}
	im := Import{PhonebookID: in.PhonebookID, FileID: in.FileID, Status: ImportRunning, Errors: []ImportError{}}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `INSERT INTO contact_imports (account_id, user_id, phonebook_id, file_id, mapping)
			VALUES ($1, nullif($2, 0), $3, $4, $5) RETURNING id`, a.AccountID, a.UserID, in.PhonebookID, in.FileID, mapping).Scan(&im.ID); err != nil {
			return fmt.Errorf("insert import: %w", err)
		}
		return a.audit(ctx, tx, "contact.import", strconv.FormatInt(im.ID, 10),
			map[string]any{"file_id": in.FileID, "phonebook_id": in.PhonebookID})
	})
	if err != nil {
		return Import{}, err
	}
	if _, err := s.queue.EnqueueContext(ctx, jobs.NewContactImport(im.ID)); err != nil && !errors.Is(err, asynq.ErrTaskIDConflict) {
		_, _ = s.pool.Exec(context.WithoutCancel(ctx), `UPDATE contact_imports SET status = 'failed', error = $2,
			finished_at = now() WHERE id = $1`, im.ID, MsgImportFailed)
		return Import{}, fmt.Errorf("enqueue import: %w", err)
	}
	return im, nil
}

const importCols = `id, account_id, phonebook_id, file_id, status, total, processed, last_row, added, skipped, invalid,
	errors, error, mapping`

func scanImport(row pgx.Row) (Import, error) {
	var im Import
	err := row.Scan(&im.ID, &im.accountID, &im.PhonebookID, &im.FileID, &im.Status, &im.Total, &im.processed, &im.lastRow,
		&im.Added, &im.Skipped, &im.Invalid, &im.Errors, &im.Error, &im.mapping)
	im.setProgress()
	return im, err
}

func (im *Import) setProgress() {
	switch {
	case im.Status == ImportDone:
		im.Progress = 100
	case im.Total > 0:
		im.Progress = min(99, im.processed*100/im.Total)
	}
	if im.Errors == nil {
		im.Errors = []ImportError{}
	}
}

// ImportState returns one of the account's imports.
func (s *Service) ImportState(ctx context.Context, accountID, id int64) (Import, error) {
	im, err := scanImport(s.pool.QueryRow(ctx, `SELECT `+importCols+` FROM contact_imports WHERE account_id = $1 AND id = $2`,
		accountID, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return Import{}, apperr.ErrNotFound
	}
	if err != nil {
		return Import{}, fmt.Errorf("read import: %w", err)
	}
	return im, nil
}

// HandleImport is the worker's handler of jobs.TypeContactImport. The last retry
// that fails marks the import failed.
func (s *Service) HandleImport(ctx context.Context, t *asynq.Task) error {
	var p jobs.ContactImport
	if err := json.Unmarshal(t.Payload(), &p); err != nil {
		return fmt.Errorf("import payload: %v: %w", err, asynq.SkipRetry)
	}
	err := s.RunImport(ctx, p.ImportID)
	if err == nil {
		return nil
	}
	retry, _ := asynq.GetRetryCount(ctx)
	max, ok := asynq.GetMaxRetry(ctx)
	if ok && retry >= max {
		s.failImport(context.WithoutCancel(ctx), p.ImportID, MsgImportFailed)
	}
	return err
}

// RunImport imports (the rest of) an import's file rows. Each chunk commits its
// contacts, the phonebook's member count and the import's counters and cursor in
// one transaction, so a run that stops half-way resumes without adding a row twice.
func (s *Service) RunImport(ctx context.Context, id int64) error {
	im, err := scanImport(s.pool.QueryRow(ctx, `SELECT `+importCols+` FROM contact_imports WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil // its phonebook was deleted
	}
	if err != nil {
		return fmt.Errorf("read import: %w", err)
	}
	if im.Status != ImportRunning {
		return nil
	}
	var exists bool
	if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM files WHERE id = $1 AND account_id = $2 AND status = 'ready')`,
		im.FileID, im.accountID).Scan(&exists); err != nil {
		return fmt.Errorf("read file: %w", err)
	}
	if !exists {
		s.failImport(ctx, id, MsgImportFileGone)
		return nil
	}
	if im.Total == 0 {
		if err := s.pool.QueryRow(ctx, `UPDATE contact_imports SET total = (SELECT count(*) FROM file_rows WHERE file_id = $2)
			WHERE id = $1 RETURNING total`, id, im.FileID).Scan(&im.Total); err != nil {
			return fmt.Errorf("count file rows: %w", err)
		}
	}
	plan, err := s.newImportPlan(ctx, im)
	if errors.Is(err, errStale) {
		return nil // the phonebook is gone, and the import with it
	}
	if err != nil {
		return err
	}
	return s.importRows(ctx, &im, plan)
}

// importRows imports the file rows after the import's cursor, chunk by chunk, and
// marks the import done. The next chunk is read and checked (the worker's share of
// the work) while the current ones are stored (PostgreSQL's), and two chunks are
// stored side by side (storeBeside), so both cores work.
func (s *Service) importRows(ctx context.Context, im *Import, plan *importPlan) error {
	done, err := s.importChunks(ctx, im, plan)
	if err != nil || !done {
		return err // !done: the import is gone, or another run moved on
	}
	if _, err := s.pool.Exec(ctx, `UPDATE contact_imports SET status = 'done', finished_at = now(), updated_at = now()
		WHERE id = $1 AND status = 'running'`, im.ID); err != nil {
		return fmt.Errorf("finish import: %w", err)
	}
	im.Status = ImportDone
	im.setProgress()
	s.publish(ctx, *im)
	s.queueIndex(ctx, im.ID)
	return nil
}

// importChunks stores every chunk after the cursor (importRows).
func (s *Service) importChunks(ctx context.Context, im *Import, plan *importPlan) (done bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	next := s.readAhead(ctx, im.FileID, im.lastRow, plan)
	var piped *pipedChunk
	var readErr error
	defer func() {
		cancel()
		if next != nil {
			<-next
		}
		if piped != nil {
			<-piped.done
		}
	}()
	for {
		r := <-next
		next = nil
		if readErr = r.err; r.err != nil || r.chunk.size == 0 {
			break
		}
		next = s.readAhead(ctx, im.FileID, r.chunk.last, plan)
		if !plan.probe && len(plan.unknownTags(r.chunk.rows)) == 0 {
			f := s.storeBeside(ctx, im, plan, r.chunk, piped)
			if piped == nil {
				piped = f
				continue
			}
			if piped, done, err = s.settle(ctx, im, plan, piped, f); !done || err != nil {
				return done, err
			}
			continue
		}
		if piped != nil {
			if piped, done, err = s.settle(ctx, im, plan, piped, nil); !done || err != nil {
				return done, err
			}
		}
		if done, err = s.storeOne(ctx, im, plan, r.chunk); !done || err != nil {
			return done, err
		}
	}
	if piped != nil {
		if piped, done, err = s.settle(ctx, im, plan, piped, nil); !done || err != nil {
			return done, err
		}
	}
	return true, readErr
}

// storeOne stores a chunk alone, once more asking the database when it met a
// known number, and tells the browser.
func (s *Service) storeOne(ctx context.Context, im *Import, plan *importPlan, sc sortedChunk) (bool, error) {
	done, err := s.importSorted(ctx, im, plan, sc)
	if errors.Is(err, errProbe) {
		done, err = s.importSorted(ctx, im, plan, sc)
	}
	if done && err == nil {
		s.publish(ctx, *im)
	}
	return done, err
}

// failImport marks an import failed with a Persian reason and tells the browser.
func (s *Service) failImport(ctx context.Context, id int64, reason string) {
	if _, err := s.pool.Exec(ctx, `UPDATE contact_imports SET status = 'failed', error = $2, finished_at = now(),
		updated_at = now() WHERE id = $1 AND status = 'running'`, id, reason); err != nil {
		return
	}
	s.queueIndex(ctx, id) // the contacts it added before it failed
	im, err := scanImport(s.pool.QueryRow(ctx, `SELECT `+importCols+` FROM contact_imports WHERE id = $1`, id))
	if err == nil {
		s.publish(ctx, im)
	}
}

// publish sends the import's state to the account's browsers (best effort).
func (s *Service) publish(ctx context.Context, im Import) {
	if s.pub != nil {
		_ = s.pub.Publish(ctx, im.accountID, EventImport, im)
	}
}
