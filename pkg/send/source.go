package send

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/bank"
	"github.com/chapar/chapar/pkg/blocklist"
	"github.com/chapar/chapar/pkg/moderation"
	"github.com/chapar/chapar/pkg/operator"
	"github.com/chapar/chapar/pkg/sms"
)

// Send types whose recipients come from a source other than the request itself.
const (
	TypeFile       = "file"
	TypePeerToPeer = "peer_to_peer"
	TypeKeyword    = "keyword"
	TypePhonebook  = "phonebook"
)

// Persian messages of the bulk sources.
const (
	MsgFileRequired      = "لطفا فایل را بارگذاری کنید"
	MsgFileNotFound      = "فایل یافت نشد"
	MsgFileParsing       = "پردازش فایل هنوز تمام نشده است"
	MsgFileFailed        = "این فایل به دلیل خطا قابل ارسال نیست"
	MsgFileWrongPurpose  = "این فایل برای این نوع ارسال بارگذاری نشده است"
	MsgPhonebookRequired = "لطفا دفترچه تلفن را انتخاب کنید"
	MsgPhonebookNotFound = "دفترچه تلفن انتخاب‌شده یافت نشد"
	MsgKeywordNoTag      = "متن ارسال کلیدواژه‌ای باید دست‌کم یک برچسب ستون مانند {ex_B} داشته باشد"
)

// chunkRows is how many source rows expansion and pricing read at a time, so memory
// stays flat however large the source.
const chunkRows = 20_000

// Source says where a send's recipients come from; it is stored in sends.source.
type Source struct {
	FileID       int64   `json:"file_id,omitempty"`
	TextCol      *int    `json:"text_col,omitempty"` // peer_to_peer: the message column
	PhonebookIDs []int64 `json:"phonebook_ids,omitempty"`
	// Target is a bank send's audience (pkg/bank), its random draw seeded.
	Target *bank.Target `json:"target,omitempty"`
	// Tags are the contact fields a phonebook send's text names (contactfields.go).
	Tags []ContactTag `json:"tags,omitempty"`
	// Occasion limits a phonebook send to the contacts with the occasion on its
	// run day, resolved at accept (occasion.go).
	Occasion *Occasion `json:"occasion,omitempty"`
}

// planned is one recipient as expansion will write it.
type planned struct {
	mobile  string
	op      string
	parts   int
	cost    int64
	text    *string // a per-row text (peer_to_peer, keyword, personalised phonebook); nil: the send's text
	blocked bool
	// carrier: blocked for being on its operator's advertising block list
	// (pkg/blocklist), not on the account's lists.
	carrier bool
}

// walkTotals are what a walk over a source counted.
type walkTotals struct {
	rows, duplicates, invalid, blacklisted int
	// operatorBlocked are the recipients on their operator's advertising block
	// list (not counted in blacklisted).
	operatorBlocked int
	maxParts        int
	words           rowWords
}

// srcRow is one row read from a source.
type srcRow struct {
	mobile string
	text   *string
}

// walker reads a send's source and prices every recipient. Quote and expansion
// both walk, so the price shown is the price charged.
type walker struct {
	typ      string
	text     string
	cancel11 bool
	// masked: a reply to a masked message, which also honours the opt-outs of
	// the numbers the account knows only through the bank (bank_optout).
	masked bool
	// advertising: the send's line is an advertising line, whose sends leave out
	// the numbers on their operator's block list (service lines ignore it).
	advertising bool
	numbers     []string
	texts       []string // pattern sends: the text of each number
	src         Source
	tbl         *operator.Table
	words       *moderation.Matcher // checks every per-row text (nil: not checked)
	// sized replaces tracked-link placeholders by links of their sent length
	// (nil: texts are counted as they are).
	sized func(string) string
}

// size is text as counted: with its short links at their sent length.
func (w walker) size(text string) string {
	if w.sized == nil {
		return text
	}
	return w.sized(text)
}

// walk reads the source in chunks through q (a transaction or the pool) and hands
// each chunk of unique, priced recipients to fn (nil: pricing only).
func (w walker) walk(ctx context.Context, q operator.Querier, accountID int64, fn func([]planned) error) (walkTotals, error) {
	var tot walkTotals
	bl, err := w.blockSet(ctx, q, accountID)
	if err != nil {
		return tot, err
	}
	carrierList, err := w.usesCarrierList(ctx, q)
	if err != nil {
		return tot, err
	}
	var fixed sms.Stats
	if w.typ != TypePeerToPeer && w.typ != TypeKeyword && !rowTexts(w.typ) {
		fixed = sms.Count(w.size(w.text), w.cancel11)
	}
	tmpl, templated := w.template()
	dedupe := w.typ == TypePhonebook
	seen := mobileSet{}
	out := make([]planned, 0, chunkRows)
	err = w.read(ctx, q, accountID, func(rows []srcRow) error {
		out = out[:0]
		var listed map[string]struct{}
		if carrierList {
			if listed, err = w.carrierBlocked(ctx, q, rows, bl); err != nil {
				return err
			}
		}
		for _, r := range rows {
			tot.rows++
			st := fixed
			text := r.text
			if templated {
				t := tmpl.render(r.text)
				text = &t
			}
			if text != nil {
				sized := w.size(*text)
				if strings.TrimSpace(sized) == "" || sms.CheckLength(sized) != nil {
					tot.invalid++
					continue
				}
				st = sms.Count(sized, w.cancel11)
			}
			if dedupe && !seen.add(r.mobile) {
				tot.duplicates++
				continue
			}
			if text != nil && w.words != nil {
				tot.words.check(w.words, *text)
			}
			out = append(out, w.plan(r.mobile, text, st.Parts, bl, listed, &tot))
		}
		if fn == nil || len(out) == 0 {
			return nil
		}
		return fn(out)
	})
	return tot, err
}

// plan prices one recipient, or marks it blocked: on the account's lists, or
// (listed) on its operator's advertising block list.
func (w walker) plan(mobile string, text *string, parts int, bl blockSet, listed map[string]struct{}, tot *walkTotals) planned {
	p := planned{mobile: mobile, op: w.tbl.Classify(mobile), parts: parts, text: text}
	_, onList := listed[mobile]
	switch {
	case bl.has(mobile):
		p.blocked = true
		tot.blacklisted++
	case onList:
		p.blocked, p.carrier = true, true
		tot.operatorBlocked++
	case w.typ != TypeVerification: // the platform's own codes are free
		p.cost = w.tbl.Price(p.op, parts)
	}
	tot.maxParts = max(tot.maxParts, parts)
	return p
}

// usesCarrierList reports whether the walk must read the operators' advertising
// block lists: an advertising send, when any number is listed at all.
func (w walker) usesCarrierList(ctx context.Context, q operator.Querier) (bool, error) {
	if !w.advertising || w.typ == TypeVerification {
		return false, nil
	}
	return blocklist.Any(ctx, q)
}

// carrierBlocked returns the numbers of a chunk on their operator's advertising
// block list: one set-based join of the chunk against the list (not a lookup per
// number), leaving out those the account's lists already block.
func (w walker) carrierBlocked(ctx context.Context, q operator.Querier, rows []srcRow, bl blockSet) (map[string]struct{}, error) {
	mobiles := make([]string, 0, len(rows))
	ops := make([]string, 0, len(rows))
	for _, r := range rows {
		if !bl.has(r.mobile) {
			mobiles, ops = append(mobiles, r.mobile), append(ops, w.tbl.Classify(r.mobile))
		}
	}
	return blocklist.Blocked(ctx, q, mobiles, ops)
}

// blockSet is what the walk leaves out: the account's send blacklist and cancel-11
// list, except for a bank audience. A bank audience holds numbers the account does
// not know, and a list the account fills by hand would turn every answer about it
// (the quote, the price held, the charge, the report, the refund) into a lookup of
// the numbers it lists (docs/targeted-sends.md, «The account's lists»).
func (w walker) blockSet(ctx context.Context, q operator.Querier, accountID int64) (blockSet, error) {
	switch {
	case bank.IsBankType(w.typ):
		return blockSet{}, nil
	case w.typ == TypeQuick || w.typ == TypeVerification || rowTexts(w.typ):
		bl, err := blocked(ctx, q, accountID, w.numbers)
		if err != nil || !w.masked {
			return bl, err
		}
		out, err := scanBlockSet(ctx, q, `SELECT mobile FROM bank_optout WHERE account_id = $1 AND mobile = ANY($2::text[])`,
			accountID, w.numbers)
		for n := range bl {
			out[n] = struct{}{}
		}
		return out, err
	}
	return loadBlockSet(ctx, q, accountID)
}

// template is the send's text as a per-row template: a keyword send's columns
// ({ex_B}) or a phonebook send's contact fields ({name}); false when rows take the
// send's text as it is.
func (w walker) template() (template, bool) {
	switch {
	case w.typ == TypeKeyword:
		return parseTemplate(w.text), true
	case w.typ == TypePhonebook && len(w.src.Tags) > 0:
		return contactTemplate(w.text, w.src.Tags), true
	}
	return template{}, false
}

// read hands the source's rows to fn, a chunk at a time.
func (w walker) read(ctx context.Context, q operator.Querier, accountID int64, fn func([]srcRow) error) error {
	switch w.typ {
	case TypeQuick, TypeVerification:
		rows := make([]srcRow, len(w.numbers))
		for i, m := range w.numbers {
			rows[i] = srcRow{mobile: m}
		}
		return fn(rows)
	case TypePattern, TypePatternOTP, TypePatternTransactional, TypeSecretary, TypePolls, TypeMatches, TypeIdea, TypeReader:
		if len(w.texts) != len(w.numbers) {
			return fmt.Errorf("pattern send: %d numbers, %d texts", len(w.numbers), len(w.texts))
		}
		rows := make([]srcRow, len(w.numbers))
		for i, m := range w.numbers {
			rows[i] = srcRow{mobile: m, text: &w.texts[i]}
		}
		return fn(rows)
	case TypeFile, TypePeerToPeer, TypeKeyword:
		col := 0 // the SQL array index of the per-row text column (0: none)
		if w.typ == TypePeerToPeer && w.src.TextCol != nil {
			col = *w.src.TextCol + 1
		}
		return readChunks(ctx, q, fn, nil, `SELECT row_no, mobile, CASE WHEN $4::int > 0 THEN cells[$4] END,
			CASE WHEN $5::bool THEN cells END FROM file_rows WHERE file_id = $3 AND row_no > $1 ORDER BY row_no LIMIT $2`,
			w.src.FileID, col, w.typ == TypeKeyword)
	case TypePhonebook:
		return w.readPhonebook(ctx, q, accountID, fn)
	}
	if bank.IsBankType(w.typ) && w.src.Target != nil {
		sql, args := w.src.Target.SourceSQL()
		return readChunks(ctx, q, fn, nil, sql, args...)
	}
	return fmt.Errorf("unknown send type %q", w.typ)
}

// readPhonebook reads a phonebook send's contacts: with the cells of its tags when
// its text is personalised, only those with the occasion on its day when it has one.
func (w walker) readPhonebook(ctx context.Context, q operator.Querier, accountID int64, fn func([]srcRow) error) error {
	args := []any{accountID, w.src.PhonebookIDs}
	cells := "NULL::text[]"
	var fix func([]string)
	if len(w.src.Tags) > 0 {
		var features []string
		cells, features = contactCellsSQL(w.src.Tags, 5)
		fix = jalaliCells(w.src.Tags)
		if len(features) > 0 {
			args = append(args, features)
		}
	}
	filter := ""
	if o := w.src.Occasion; o != nil {
		var more []any
		filter, more = o.filterSQL(len(args) + 3) // $1 and $2 are the page's
		args = append(args, more...)
	}
	return readChunks(ctx, q, fn, fix, `SELECT c.id, c.mobile, NULL::text, `+cells+` FROM contacts c
		WHERE c.account_id = $3 AND c.phonebook_id = ANY($4::bigint[])`+filter+` AND c.id > $1 ORDER BY c.id LIMIT $2`, args...)
}

// readChunks pages a query keyed by its first column; the query takes $1 (the last
// key read) and $2 (the page size), then args. fix, when set, rewrites each row's
// cells before they are packed.
func readChunks(ctx context.Context, q operator.Querier, fn func([]srcRow) error, fix func([]string), sql string, args ...any) error {
	var after int64
	rows := make([]srcRow, 0, chunkRows)
	for {
		rows = rows[:0]
		res, err := q.Query(ctx, sql, append([]any{after, chunkRows}, args...)...)
		if err != nil {
			return fmt.Errorf("read source: %w", err)
		}
		for res.Next() {
			var key int64
			var r srcRow
			var cells []string
			if err := res.Scan(&key, &r.mobile, &r.text, &cells); err != nil {
				res.Close()
				return fmt.Errorf("read source row: %w", err)
			}
			if cells != nil {
				if fix != nil {
					fix(cells)
				}
				r.text = cellsText(cells)
			}
			after = key
			rows = append(rows, r)
		}
		res.Close()
		if err := res.Err(); err != nil {
			return fmt.Errorf("read source: %w", err)
		}
		if len(rows) == 0 {
			return nil
		}
		if err := fn(rows); err != nil {
			return err
		}
		if len(rows) < chunkRows {
			return nil
		}
	}
}

// cellsText packs a row's cells for the keyword template (unit separator joined).
func cellsText(cells []string) *string {
	s := strings.Join(cells, "\x1f")
	return &s
}

// template is a keyword text split into literal pieces and column references.
type template struct {
	lits []string
	cols []int // cols[i] follows lits[i]
}

var tagRE = regexp.MustCompile(`\{\{?ex_([A-Za-z]{1,3})\}?\}`)

// parseTemplate reads a keyword text: {ex_B} takes the row's column B.
func parseTemplate(text string) template { return parseTags(text, tagRE, ColumnIndex) }

// parseTags splits text at the matches of re, whose first group names the cell
// that index gives (-1: none, the tag renders empty).
func parseTags(text string, re *regexp.Regexp, index func(string) int) template {
	var t template
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
		t.lits = append(t.lits, text[last:m[0]])
		t.cols = append(t.cols, index(text[m[2]:m[3]]))
		last = m[1]
	}
	t.lits = append(t.lits, text[last:])
	return t
}

// render fills the template from a row's packed cells.
func (t template) render(packed *string) string {
	var cells []string
	if packed != nil {
		cells = strings.Split(*packed, "\x1f")
	}
	var b strings.Builder
	for i, lit := range t.lits {
		b.WriteString(lit)
		if i < len(t.cols) && t.cols[i] >= 0 && t.cols[i] < len(cells) {
			b.WriteString(strings.TrimSpace(cells[t.cols[i]]))
		}
	}
	return b.String()
}

// ColumnIndex turns a spreadsheet column name (A, B, …, Z, AA, …) into a 0-based index.
func ColumnIndex(name string) int {
	n := 0
	for _, r := range strings.ToUpper(name) {
		n = n*26 + int(r-'A'+1)
	}
	return n - 1
}

// mobileSet dedupes a phonebook send's numbers compactly (as integers): the same
// number may sit in several phonebooks. Quick numbers are deduped at accept and a
// file's rows at upload.
type mobileSet map[uint64]struct{}

func (s mobileSet) add(mobile string) bool {
	n, err := strconv.ParseUint(mobile, 10, 64)
	if err != nil {
		return true
	}
	if _, ok := s[n]; ok {
		return false
	}
	s[n] = struct{}{}
	return true
}

// blockSet holds the numbers a send must not reach (send blacklist and cancel-11).
type blockSet map[uint64]struct{}

func (b blockSet) has(mobile string) bool {
	n, err := strconv.ParseUint(mobile, 10, 64)
	if err != nil {
		return false
	}
	_, ok := b[n]
	return ok
}

// loadBlockSet reads an account's whole send blacklist and cancel-11 list (bulk
// sources are larger than any list, so one scan beats a lookup per chunk).
func loadBlockSet(ctx context.Context, q operator.Querier, accountID int64) (blockSet, error) {
	return scanBlockSet(ctx, q, `SELECT mobile FROM blacklist WHERE account_id = $1 AND kind IN ('send', 'cancel11')`, accountID)
}

// blocked returns the given numbers that are on the account's send blacklist or
// cancel-11 list.
func blocked(ctx context.Context, q operator.Querier, accountID int64, numbers []string) (blockSet, error) {
	if accountID == 0 || len(numbers) == 0 {
		return blockSet{}, nil
	}
	// Most accounts have no list at all: one index probe spares the array lookup.
	rows, err := q.Query(ctx, `SELECT 1 FROM blacklist WHERE account_id = $1 AND kind IN ('send', 'cancel11') LIMIT 1`, accountID)
	if err != nil {
		return nil, fmt.Errorf("blacklist check: %w", err)
	}
	listed := rows.Next()
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("blacklist check: %w", err)
	}
	if !listed {
		return blockSet{}, nil
	}
	return scanBlockSet(ctx, q, `SELECT mobile FROM blacklist WHERE account_id = $1
		AND kind IN ('send', 'cancel11') AND mobile = ANY($2::text[])`, accountID, numbers)
}

func scanBlockSet(ctx context.Context, q operator.Querier, sql string, args ...any) (blockSet, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("blacklist lookup: %w", err)
	}
	defer rows.Close()
	out := blockSet{}
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			return nil, fmt.Errorf("blacklist lookup: %w", err)
		}
		if n, err := strconv.ParseUint(m, 10, 64); err == nil {
			out[n] = struct{}{}
		}
	}
	return out, rows.Err()
}

// fileInfo is what a bulk send needs to know of an uploaded file.
type fileInfo struct {
	purpose, status    string
	textCol            *int
	records, invalid   int
	duplicates, valids int
}

// checkFile loads the account's file for a send type, or a field error.
func checkFile(ctx context.Context, q pgx.Row, typ string) (fileInfo, error) {
	var f fileInfo
	err := q.Scan(&f.purpose, &f.status, &f.textCol, &f.records, &f.invalid, &f.duplicates, &f.valids)
	if errors.Is(err, pgx.ErrNoRows) {
		return f, apperr.Field("file_id", MsgFileNotFound)
	}
	if err != nil {
		return f, fmt.Errorf("load file: %w", err)
	}
	switch {
	case f.status == "parsing":
		return f, apperr.Field("file_id", MsgFileParsing)
	case f.status != "ready":
		return f, apperr.Field("file_id", MsgFileFailed)
	case typ == TypePeerToPeer && (f.purpose != "peer_to_peer" || f.textCol == nil):
		return f, apperr.Field("file_id", MsgFileWrongPurpose)
	case typ != TypePeerToPeer && f.purpose == "peer_to_peer":
		return f, apperr.Field("file_id", MsgFileWrongPurpose)
	}
	return f, nil
}
