package phonebook

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
)

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
