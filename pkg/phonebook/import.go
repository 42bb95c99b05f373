package phonebook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

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

// fileColumns checks that a file can be imported and returns its column indexes.
func (s *Service) fileColumns(ctx context.Context, accountID, fileID int64) (map[int]bool, error) {
	var status, purpose string
	var columns []struct {
		Index int `json:"index"`
	}
	err := s.pool.QueryRow(ctx, `SELECT status, purpose, columns FROM files WHERE account_id = $1 AND id = $2`,
		accountID, fileID).Scan(&status, &purpose, &columns)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read file: %w", err)
	}
	switch {
	case purpose != "contacts" && purpose != "send":
		return nil, apperr.Field("file_id", MsgFileWrongPurpose)
	case status == "failed":
		return nil, apperr.Field("file_id", MsgFileFailed)
	case status != "ready":
		return nil, apperr.Field("file_id", MsgFileNotReady)
	}
	cols := make(map[int]bool, len(columns))
	for _, c := range columns {
		cols[c.Index] = true
	}
	return cols, nil
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
// the work) while the current one is stored (PostgreSQL's), so both cores work.
func (s *Service) importRows(ctx context.Context, im *Import, plan *importPlan) error {
	ctx, cancel := context.WithCancel(ctx)
	next := s.readAhead(ctx, im.FileID, im.lastRow, plan)
	defer func() {
		cancel()
		if next != nil {
			<-next
		}
	}()
	for {
		r := <-next
		next = nil
		if r.err != nil {
			return r.err
		}
		if r.chunk.size == 0 {
			break
		}
		next = s.readAhead(ctx, im.FileID, r.chunk.last, plan)
		done, err := s.importSorted(ctx, im, plan, r.chunk)
		if errors.Is(err, errProbe) {
			done, err = s.importSorted(ctx, im, plan, r.chunk)
		}
		if err != nil {
			return err
		}
		if !done {
			return nil // the import is gone, or another run moved on
		}
		s.publish(ctx, *im)
	}
	if _, err := s.pool.Exec(ctx, `UPDATE contact_imports SET status = 'done', finished_at = now(), updated_at = now()
		WHERE id = $1 AND status = 'running'`, im.ID); err != nil {
		return fmt.Errorf("finish import: %w", err)
	}
	im.Status = ImportDone
	im.setProgress()
	s.publish(ctx, *im)
	return nil
}

// readResult is a chunk read ahead (size 0 after the last row).
type readResult struct {
	chunk sortedChunk
	err   error
}

// readAhead reads the chunk after row after and sorts it, in its own goroutine.
func (s *Service) readAhead(ctx context.Context, fileID int64, after int, p *importPlan) <-chan readResult {
	out := make(chan readResult, 1)
	go func() {
		chunk, err := s.fileRows(ctx, fileID, after)
		if err != nil || len(chunk) == 0 {
			out <- readResult{err: err}
			return
		}
		out <- readResult{chunk: p.sortChunk(chunk)}
	}()
	return out
}

// fileRow is one valid row of a parsed file.
type fileRow struct {
	row    int
	mobile string
	cells  []string
}

// fileRows reads the next chunk of a file's rows after row_no.
func (s *Service) fileRows(ctx context.Context, fileID int64, after int) ([]fileRow, error) {
	rows, err := s.pool.Query(ctx, `SELECT row_no, mobile, cells FROM file_rows WHERE file_id = $1 AND row_no > $2
		ORDER BY row_no LIMIT $3`, fileID, after, s.chunkRows)
	if err != nil {
		return nil, fmt.Errorf("read file rows: %w", err)
	}
	out := make([]fileRow, 0, s.chunkRows)
	var r fileRow
	_, err = pgx.ForEachRow(rows, []any{&r.row, &r.mobile, &r.cells}, func() error {
		out = append(out, r)
		r.cells = nil
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read file rows: %w", err)
	}
	return out, nil
}

// importPlan turns file rows into contacts.
type importPlan struct {
	m        ImportMapping
	features map[*Feature]int // feature → column
	tags     map[string]int64 // tag ids known so far
	now      time.Time
	// known holds the phonebook's numbers when the run began (sorted), and expect
	// its member count as this run last left it. While the count is as expected
	// nobody else touched the phonebook, so known (plus the file's own numbers,
	// unique by the upload pipeline) tells which rows are new without asking the
	// database; after any surprise the run asks the database for every chunk.
	known  []uint64
	expect int
	probe  bool
}

func (s *Service) newImportPlan(ctx context.Context, im Import) (*importPlan, error) {
	fs, err := s.loadFeatures(ctx, s.pool, im.accountID)
	if err != nil {
		return nil, err
	}
	p := &importPlan{m: im.mapping, features: map[*Feature]int{}, tags: map[string]int64{}, now: s.now()}
	for key, col := range im.mapping.Features {
		// A feature deleted or disabled since the import started is left out.
		if f := fs.byKey[key]; f != nil && f.Enabled {
			p.features[f] = col
		}
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `SELECT members FROM phonebooks WHERE account_id = $1 AND id = $2 FOR SHARE`,
			im.accountID, im.PhonebookID).Scan(&p.expect)
		if errors.Is(err, pgx.ErrNoRows) {
			return errStale
		}
		if err != nil {
			return fmt.Errorf("read phonebook: %w", err)
		}
		if p.expect == 0 {
			return nil
		}
		rows, err := tx.Query(ctx, `SELECT mobile FROM contacts WHERE phonebook_id = $1`, im.PhonebookID)
		if err != nil {
			return fmt.Errorf("read numbers: %w", err)
		}
		p.known = make([]uint64, 0, p.expect)
		var m string
		_, err = pgx.ForEachRow(rows, []any{&m}, func() error {
			p.known = append(p.known, mobileKey(m))
			return nil
		})
		if err != nil {
			return fmt.Errorf("read numbers: %w", err)
		}
		slices.Sort(p.known)
		return nil
	})
	return p, err
}

// mobileKey is a normalised number as an integer.
func mobileKey(m string) uint64 {
	n, _ := strconv.ParseUint(m, 10, 64)
	return n
}

// fresh returns the indexes of the rows whose number is not among the known ones
// (nor repeated in the chunk).
func (p *importPlan) fresh(rows []contactRow) []int {
	out := make([]int, 0, len(rows))
	seen := make(map[uint64]bool, len(rows))
	for i := range rows {
		k := mobileKey(rows[i].Mobile)
		if _, found := slices.BinarySearch(p.known, k); !found && !seen[k] {
			seen[k] = true
			out = append(out, i)
		}
	}
	return out
}

// contact checks one file row; a non-nil error means the row is invalid.
func (p *importPlan) contact(r fileRow) (contactRow, *ImportError) {
	c := contactRow{Mobile: r.mobile, TagIDs: []int64{}}
	cell := func(col *int) string {
		if col == nil || *col < 0 || *col >= len(r.cells) {
			return ""
		}
		return r.cells[*col]
	}
	bad := func(field, msg, value string) (contactRow, *ImportError) {
		return c, &ImportError{Row: r.row, Field: field, Message: msg, Value: value}
	}
	if v := cell(p.m.Name); v != "" {
		if c.Name = normalizeText(v); runeLen(c.Name) > maxContactName {
			return bad("name", MsgContactName, v)
		}
	}
	if v := cell(p.m.Gender); v != "" {
		var ok bool
		if c.Gender, ok = parseGender(v); !ok {
			return bad("gender", MsgGender, v)
		}
	}
	if v := strings.TrimSpace(cell(p.m.BirthDate)); v != "" {
		d, ok := birthDate(v, true, p.now)
		if !ok {
			return bad("birth_date", MsgBirthDate, v)
		}
		c.birth = d
	}
	if v := strings.TrimSpace(cell(p.m.Tags)); v != "" {
		var ok bool
		if c.tags, ok = tagNames(strings.FieldsFunc(v, isTagSeparator)); !ok {
			return bad("tags", MsgTagName, v)
		}
	}
	for f, col := range p.features {
		v := cell(&col)
		val, msg := f.value(v, true)
		if msg != "" {
			return bad("features."+f.TitleEn, msg, v)
		}
		if val != nil {
			if c.Features == nil {
				c.Features = map[string]any{}
			}
			c.Features[f.key()] = val
		}
	}
	return c, nil
}

func isTagSeparator(r rune) bool { return r == ',' || r == '،' || r == ';' || r == '؛' || r == '|' }

// importChunk imports one chunk of rows in one transaction. done is false when the
// import is gone (its phonebook was deleted) or another run already took the chunk.
func (s *Service) importChunk(ctx context.Context, im *Import, p *importPlan, chunk []fileRow) (done bool, err error) {
	return s.importSorted(ctx, im, p, p.sortChunk(chunk))
}

// importSorted stores a sorted chunk in one transaction (see importChunk).
func (s *Service) importSorted(ctx context.Context, im *Import, p *importPlan, sc sortedChunk) (done bool, err error) {
	c := chunkWork{im: im, p: p, rows: sc.rows, bad: sc.bad, last: sc.last, size: sc.size, names: p.unknownTags(sc.rows)}
	c.keep = append([]ImportError{}, c.bad[:min(len(c.bad), max(0, maxImportErrors-len(im.Errors)))]...)
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return s.storeChunk(ctx, tx, &c) })
	if errors.Is(err, errStale) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	for n, id := range c.newTags {
		p.tags[n] = id
	}
	im.Errors = append(im.Errors, c.keep...)
	im.lastRow = c.last
	im.processed += c.size
	im.Added += c.added
	im.Skipped += c.skipped
	im.Invalid += len(c.bad)
	im.setProgress()
	return true, nil
}

// chunkWork is one chunk of an import: its valid rows, its row errors, the tags
// it names that do not exist yet, and what storing it did.
type chunkWork struct {
	im             *Import
	p              *importPlan
	rows           []contactRow
	bad, keep      []ImportError
	names          []string
	last, size     int
	added, skipped int
	newTags        map[string]int64 // tags this chunk created; kept once it commits
}

// sortedChunk is a chunk of file rows read into contacts and row errors.
type sortedChunk struct {
	rows       []contactRow
	bad        []ImportError
	last, size int // the chunk's last file row and its row count
}

// sortChunk reads each row of a chunk into a contact or a row error. It reads
// only the plan's mapping, features and clock, so it runs beside a chunk being
// stored.
func (p *importPlan) sortChunk(chunk []fileRow) sortedChunk {
	sc := sortedChunk{rows: make([]contactRow, 0, len(chunk)), last: chunk[len(chunk)-1].row, size: len(chunk)}
	for _, r := range chunk {
		row, e := p.contact(r)
		if e != nil {
			sc.bad = append(sc.bad, *e)
			continue
		}
		sc.rows = append(sc.rows, row)
	}
	return sc
}

// unknownTags lists the rows' tag names that have no known id yet.
func (p *importPlan) unknownTags(rows []contactRow) []string {
	var names []string
	for i := range rows {
		for _, n := range rows[i].tags {
			if _, ok := p.tags[n]; !ok {
				names = append(names, n)
			}
		}
	}
	return names
}

// storeChunk copies the chunk's new contacts and moves the import's cursor in
// one transaction; errStale when the import or the phonebook changed under it.
func (s *Service) storeChunk(ctx context.Context, tx pgx.Tx, c *chunkWork) error {
	im, p := c.im, c.p
	members, err := lockImport(ctx, tx, im)
	if err != nil {
		return err
	}
	if len(c.names) > 0 {
		if c.newTags, err = ensureTags(ctx, tx, im.accountID, c.names); err != nil {
			return err
		}
	}
	p.probe = p.probe || members != p.expect
	var fresh []int
	if p.probe {
		if fresh, err = s.newNumbers(ctx, tx, im.PhonebookID, c.rows); err != nil {
			return err
		}
	} else {
		fresh = p.fresh(c.rows)
	}
	c.tagIDs(fresh)
	n, err := copyContacts(ctx, tx, im, c.rows, fresh)
	if _, dup := uniqueViolation(err); dup && !p.probe {
		p.probe = true
		return errProbe
	}
	if err != nil {
		return fmt.Errorf("copy contacts: %w", err)
	}
	c.added, c.skipped = int(n), len(c.rows)-int(n)
	p.expect = members + c.added
	if err := addMembers(ctx, tx, im.accountID, []int64{im.PhonebookID}, []int32{int32(c.added)}); err != nil {
		return err
	}
	sample, err := json.Marshal(c.keep)
	if err != nil {
		return fmt.Errorf("encode import errors: %w", err)
	}
	_, err = tx.Exec(ctx, `UPDATE contact_imports SET last_row = $2, processed = processed + $3, added = added + $4,
		skipped = skipped + $5, invalid = invalid + $6, errors = errors || $7::jsonb, updated_at = now() WHERE id = $1`,
		im.ID, c.last, c.size, c.added, c.skipped, len(c.bad), sample)
	if err != nil {
		return fmt.Errorf("update import: %w", err)
	}
	return nil
}

// lockImport locks the import (still running, at the cursor this worker
// left) and its phonebook, and returns the phonebook's member count.
func lockImport(ctx context.Context, tx pgx.Tx, im *Import) (int, error) {
	var cursor int
	err := tx.QueryRow(ctx, `SELECT last_row FROM contact_imports WHERE id = $1 AND status = 'running' FOR UPDATE`,
		im.ID).Scan(&cursor)
	if errors.Is(err, pgx.ErrNoRows) || err == nil && cursor != im.lastRow {
		return 0, errStale
	}
	if err != nil {
		return 0, fmt.Errorf("lock import: %w", err)
	}
	var members int
	err = tx.QueryRow(ctx, `SELECT members FROM phonebooks WHERE account_id = $1 AND id = $2 FOR UPDATE`,
		im.accountID, im.PhonebookID).Scan(&members)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, errStale
	}
	if err != nil {
		return 0, fmt.Errorf("lock phonebook: %w", err)
	}
	return members, nil
}

// tagIDs resolves the tag names of the fresh rows to ids, old or just made.
func (c *chunkWork) tagIDs(fresh []int) {
	for _, i := range fresh {
		r := &c.rows[i]
		r.TagIDs = r.TagIDs[:0]
		for _, n := range r.tags {
			id, ok := c.newTags[n]
			if !ok {
				id = c.p.tags[n]
			}
			r.TagIDs = append(r.TagIDs, id)
		}
	}
}

// copyContacts COPYs the fresh rows into contacts.
func copyContacts(ctx context.Context, tx pgx.Tx, im *Import, rows []contactRow, fresh []int) (int64, error) {
	return tx.CopyFrom(ctx, pgx.Identifier{"contacts"},
		[]string{"account_id", "phonebook_id", "mobile", "name", "gender", "birth_date", "tag_ids", "features", "import_id"},
		pgx.CopyFromSlice(len(fresh), func(i int) ([]any, error) {
			c := &rows[fresh[i]]
			var birth any
			if !c.birth.IsZero() {
				birth = c.birth
			}
			features := c.Features
			if features == nil {
				features = map[string]any{}
			}
			return []any{im.accountID, im.PhonebookID, c.Mobile, c.Name, c.Gender, birth, c.TagIDs, features, im.ID}, nil
		}))
}

var (
	errStale = errors.New("import moved on")
	// errProbe: a number the run took for new was there after all; the chunk is
	// tried again asking the database.
	errProbe = errors.New("import chunk met a known number")
)

// newNumbers returns the indexes of the rows whose number is not in the phonebook
// yet (the phonebook is locked, so nobody adds one meanwhile).
func (s *Service) newNumbers(ctx context.Context, tx pgx.Tx, phonebookID int64, rows []contactRow) ([]int, error) {
	mobiles := make([]string, len(rows))
	for i := range rows {
		mobiles[i] = rows[i].Mobile
	}
	res, err := tx.Query(ctx, `SELECT mobile FROM contacts WHERE phonebook_id = $1 AND mobile = ANY($2)`, phonebookID, mobiles)
	if err != nil {
		return nil, fmt.Errorf("read existing numbers: %w", err)
	}
	existing := map[string]bool{}
	var m string
	if _, err := pgx.ForEachRow(res, []any{&m}, func() error { existing[m] = true; return nil }); err != nil {
		return nil, fmt.Errorf("read existing numbers: %w", err)
	}
	fresh := make([]int, 0, len(rows)-len(existing))
	for i := range rows {
		// File rows are unique by number, but a repeat must not break the COPY.
		if !existing[rows[i].Mobile] {
			existing[rows[i].Mobile] = true
			fresh = append(fresh, i)
		}
	}
	return fresh, nil
}

// failImport marks an import failed with a Persian reason and tells the browser.
func (s *Service) failImport(ctx context.Context, id int64, reason string) {
	if _, err := s.pool.Exec(ctx, `UPDATE contact_imports SET status = 'failed', error = $2, finished_at = now(),
		updated_at = now() WHERE id = $1 AND status = 'running'`, id, reason); err != nil {
		return
	}
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
