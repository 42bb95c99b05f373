package phonebook

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// importChunk imports one chunk of rows in one transaction. done is false when the
// import is gone (its phonebook was deleted) or another run already took the chunk.
func (s *Service) importChunk(ctx context.Context, im *Import, p *importPlan, chunk []fileRow) (done bool, err error) {
	return s.importSorted(ctx, im, p, p.sortChunk(chunk))
}

// importSorted stores a sorted chunk in one transaction (see importChunk).
func (s *Service) importSorted(ctx context.Context, im *Import, p *importPlan, sc sortedChunk) (done bool, err error) {
	c := chunkWork{im: im, p: p, rows: sc.rows, bad: sc.bad, last: sc.last, size: sc.size, names: p.unknownTags(sc.rows)}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return s.storeChunk(ctx, tx, &c) })
	if errors.Is(err, errStale) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	c.account()
	return true, nil
}

// account adds a committed chunk to the run's figures: its new tags, row errors,
// cursor and counters.
func (c *chunkWork) account() {
	for n, id := range c.newTags {
		c.p.tags[n] = id
	}
	im := c.im
	im.Errors = append(im.Errors, c.keep...)
	im.lastRow = c.last
	im.processed += c.size
	im.Added += c.added
	im.Skipped += c.skipped
	im.Invalid += len(c.bad)
	im.setProgress()
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
	if err := commitLater(ctx, tx, ""); err != nil {
		return err
	}
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
	if err := c.copy(ctx, tx, fresh); err != nil {
		// A known number met: the chunk is tried again asking the database.
		p.probe = p.probe || errors.Is(err, errProbe)
		return err
	}
	return c.finish(ctx, tx, members)
}

// commitLater makes the transaction commit without waiting for the disk: a
// chunk lost to a crash before its commit reached the disk is lost with its
// cursor, and the retried task copies it again. A lockTimeout, when given,
// bounds each wait for a lock.
func commitLater(ctx context.Context, tx pgx.Tx, lockTimeout string) error {
	if _, err := tx.Exec(ctx, `SELECT set_config('synchronous_commit', 'off', true),
		set_config('lock_timeout', $1, true)`, cmp.Or(lockTimeout, "0")); err != nil {
		return fmt.Errorf("import commit mode: %w", err)
	}
	return nil
}

// copy COPYs the fresh rows. A number that was in the phonebook after all is
// errProbe (wrapping the unique violation).
func (c *chunkWork) copy(ctx context.Context, tx pgx.Tx, fresh []int) error {
	c.tagIDs(fresh)
	n, err := copyContacts(ctx, tx, c.im, c.rows, fresh)
	if _, dup := uniqueViolation(err); dup {
		return fmt.Errorf("%w: %w", errProbe, err)
	}
	if err != nil {
		return fmt.Errorf("copy contacts: %w", err)
	}
	c.added, c.skipped = int(n), len(c.rows)-int(n)
	return nil
}

// finish adds the copied rows to the phonebook's members (members before them)
// and moves the import's cursor and counters, keeping the first row errors.
func (c *chunkWork) finish(ctx context.Context, tx pgx.Tx, members int) error {
	im := c.im
	c.keep = append([]ImportError{}, c.bad[:min(len(c.bad), max(0, maxImportErrors-len(im.Errors)))]...)
	c.p.expect = members + c.added
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
