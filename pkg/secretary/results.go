package secretary

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"math"
	mrand "math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/spreadsheet"
	"github.com/chapar/chapar/pkg/validate"
)

// Persian messages of codes, draws and listings.
const (
	MsgCodes      = "فایل کدها خالی است یا بیش از ۱۰۰٬۰۰۰ کد دارد"
	MsgCodeLong   = "هر کد حداکثر ۶۴ کاراکتر است"
	MsgNotGift    = "این منشی از نوع کد هدیه نیست"
	MsgNotContest = "این منشی از نوع مسابقه نیست"
	MsgWinners    = "تعداد برندگان باید بین ۱ و ۱۰۰۰ باشد"
	MsgNoEntrant  = "هنوز پاسخ درستی ثبت نشده است"
)

// MaxCodes is the most codes one upload may carry.
const MaxCodes = 100_000

// own checks that the reader is the account's and of kind (any when "").
func (s *Service) own(ctx context.Context, q pgx.Tx, accountID, readerID int64, kind string) error {
	var k string
	err := q.QueryRow(ctx, `SELECT kind FROM readers WHERE account_id = $1 AND id = $2 FOR UPDATE`, accountID, readerID).Scan(&k)
	if err == pgx.ErrNoRows {
		return apperr.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("read reader: %w", err)
	}
	switch {
	case kind == KindGift && k != kind:
		return apperr.Field("codes", MsgNotGift)
	case kind == KindContest && k != kind:
		return apperr.Field("winners", MsgNotContest)
	}
	return nil
}

// AddCodes adds a gift's codes (one per line of the uploaded text; repeats and
// codes already loaded are skipped) and returns how many were new.
func (s *Service) AddCodes(ctx context.Context, id acl.Identity, readerID int64, text, ip string) (int, error) {
	var codes []string
	seen := map[string]bool{}
	for _, c := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' || r == ',' || r == ';' }) {
		c = strings.TrimSpace(validate.ToLatinDigits(c))
		if c == "" || seen[c] {
			continue
		}
		if len([]rune(c)) > 64 {
			return 0, apperr.Field("codes", MsgCodeLong)
		}
		seen[c] = true
		codes = append(codes, c)
	}
	if len(codes) == 0 || len(codes) > MaxCodes {
		return 0, apperr.Field("codes", MsgCodes)
	}
	var n int
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := s.own(ctx, tx, id.AccountID, readerID, KindGift); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO reader_codes (reader_id, code) SELECT $1, unnest($2::text[])
			ON CONFLICT (reader_id, code) DO NOTHING`, readerID, codes)
		if err != nil {
			return fmt.Errorf("insert codes: %w", err)
		}
		n = int(tag.RowsAffected())
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, APIKeyID: id.APIKeyID,
			Action: audit.ReaderCodes, TargetType: "reader", Target: strconv.FormatInt(readerID, 10), IP: ip,
			Details: map[string]any{"added": n}})
	})
	return n, err
}

// Draw is a contest's drawing: Seed and the entrants (correct first entries, by
// time) decide the winners, so the same seed draws the same winners again.
type Draw struct {
	ID        int64     `json:"id"`
	Seed      int64     `json:"seed"`
	Wanted    int       `json:"wanted"`
	Entrants  int       `json:"entrants"`
	Winners   []string  `json:"winners"`
	CreatedAt time.Time `json:"created_at"`
}

// DrawInput asks for n winners, with a seed to repeat a drawing (0: a new one).
type DrawInput struct {
	Winners int   `json:"winners"`
	Seed    int64 `json:"seed"`
}

// DrawWinners draws n winners among the contest's correct entrants and logs the seed.
func (s *Service) DrawWinners(ctx context.Context, id acl.Identity, readerID int64, in DrawInput, ip string) (Draw, error) {
	if in.Winners < 1 || in.Winners > 1000 {
		return Draw{}, apperr.Field("winners", MsgWinners)
	}
	d := Draw{Seed: in.Seed, Wanted: in.Winners}
	if d.Seed == 0 {
		var b [8]byte
		_, _ = rand.Read(b[:])
		d.Seed = int64(binary.BigEndian.Uint64(b[:]) >> 1)
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := s.own(ctx, tx, id.AccountID, readerID, KindContest); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT `+shownSender("p")+` FROM reader_participants p
			WHERE p.reader_id = $1 AND p.correct ORDER BY p.created_at, p.sender`, readerID)
		if err != nil {
			return fmt.Errorf("read entrants: %w", err)
		}
		entrants, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return fmt.Errorf("read entrants: %w", err)
		}
		if len(entrants) == 0 {
			return apperr.Field("winners", MsgNoEntrant)
		}
		d.Entrants, d.Winners = len(entrants), pick(entrants, d.Wanted, d.Seed)
		if err := tx.QueryRow(ctx, `INSERT INTO reader_draws (reader_id, seed, wanted, entrants, winners) VALUES ($1, $2, $3, $4, $5)
			RETURNING id, created_at`, readerID, d.Seed, d.Wanted, d.Entrants, d.Winners).Scan(&d.ID, &d.CreatedAt); err != nil {
			return fmt.Errorf("log draw: %w", err)
		}
		slog.InfoContext(ctx, "contest draw", "reader", readerID, "seed", d.Seed, "entrants", d.Entrants, "winners", len(d.Winners))
		return audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, APIKeyID: id.APIKeyID,
			Action: audit.ReaderDraw, TargetType: "reader", Target: strconv.FormatInt(readerID, 10), IP: ip,
			Details: map[string]any{"seed": d.Seed, "winners": d.Winners, "entrants": d.Entrants}})
	})
	return d, err
}

// pick shuffles a copy of entrants with a PCG seeded by seed and keeps the first n.
func pick(entrants []string, n int, seed int64) []string {
	out := slices.Clone(entrants)
	r := mrand.New(mrand.NewPCG(uint64(seed), uint64(seed)^0x9e3779b97f4a7c15))
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:min(n, len(out))]
}

// Draws lists a contest's drawings, newest first.
func (s *Service) Draws(ctx context.Context, id acl.Identity, readerID int64) ([]Draw, error) {
	if _, err := s.Get(ctx, id, readerID); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT d.id, d.seed, d.wanted, d.entrants, d.winners, d.created_at FROM reader_draws d
		JOIN readers r ON r.id = d.reader_id WHERE r.account_id = $1 AND d.reader_id = $2 ORDER BY d.id DESC`, id.AccountID, readerID)
	if err != nil {
		return nil, fmt.Errorf("list draws: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Draw])
	if err != nil {
		return nil, fmt.Errorf("list draws: %w", err)
	}
	return out, nil
}

// Stats are a reader's counts: messages by outcome, and a poll's votes per option.
type Stats struct {
	Outcomes map[string]int64 `json:"outcomes"`
	Votes    []OptionVotes    `json:"votes"`
}

// OptionVotes is one poll option's current votes.
type OptionVotes struct {
	Option int    `json:"option"`
	Title  string `json:"title"`
	Votes  int64  `json:"votes"`
}

// Results returns the reader's counts (the poll chart reads them live).
func (s *Service) Results(ctx context.Context, id acl.Identity, readerID int64) (Stats, error) {
	r, err := s.Get(ctx, id, readerID)
	if err != nil {
		return Stats{}, err
	}
	st := Stats{Outcomes: map[string]int64{}, Votes: []OptionVotes{}}
	rows, err := s.pool.Query(ctx, `SELECT outcome, count(*) FROM reader_entries WHERE reader_id = $1 GROUP BY 1`, readerID)
	if err != nil {
		return st, fmt.Errorf("count outcomes: %w", err)
	}
	for rows.Next() {
		var o string
		var n int64
		if err := rows.Scan(&o, &n); err != nil {
			rows.Close()
			return st, fmt.Errorf("count outcomes: %w", err)
		}
		st.Outcomes[o] = n
	}
	rows.Close()
	votes := map[int]int64{}
	rows, err = s.pool.Query(ctx, `SELECT option, count(*) FROM reader_participants WHERE reader_id = $1 AND option > 0 GROUP BY 1`, readerID)
	if err != nil {
		return st, fmt.Errorf("count votes: %w", err)
	}
	for rows.Next() {
		var o int
		var n int64
		if err := rows.Scan(&o, &n); err != nil {
			rows.Close()
			return st, fmt.Errorf("count votes: %w", err)
		}
		votes[o] = n
	}
	rows.Close()
	for i, o := range r.Options {
		st.Votes = append(st.Votes, OptionVotes{Option: i + 1, Title: o.Title, Votes: votes[i+1]})
	}
	return st, nil
}

// Entry is one message a reader answered.
type Entry struct {
	ID        int64     `json:"id"`
	Sender    string    `json:"sender"`
	Text      string    `json:"text"`
	Outcome   string    `json:"outcome"`
	Reply     string    `json:"reply"`
	SendID    *int64    `json:"send_id"`
	CreatedAt time.Time `json:"created_at"`
}

// EntryFilter narrows a reader's inbox (module-inboxes-list).
type EntryFilter struct {
	ReaderID int64
	Outcome  string
	Page     int
	Limit    int
}

// ParseEntryFilter reads reader_id, outcome and the paging.
func ParseEntryFilter(q url.Values) (EntryFilter, error) {
	pg, err := validate.ParsePaging(q, 20, 200)
	if err != nil {
		return EntryFilter{}, err
	}
	f := EntryFilter{Page: pg.Page, Limit: pg.Limit, Outcome: strings.TrimSpace(q.Get("outcome"))}
	f.ReaderID, err = strconv.ParseInt(validate.NormalizeDigits(q.Get("reader_id")), 10, 64)
	if err != nil || f.ReaderID <= 0 {
		return f, apperr.Field("reader_id", "شناسه منشی معتبر نیست")
	}
	return f, nil
}

const entryWhere = `FROM reader_entries e WHERE e.account_id = $1 AND e.reader_id = $2 AND ($3 = '' OR e.outcome = $3)`

// shownSender is a row's sender as the account sees it: masked (0912*****67) when
// the message that wrote the row was (migration 0111): fixed then, so a row shown
// whole stays whole after a later bank send (turning masked would tell that the
// send reached the number).
func shownSender(row string) string {
	return `shown_mobile(` + row + `.masked, ` + row + `.sender)`
}

var entryCols = `SELECT e.id, ` + shownSender("e") + `, e.text, e.outcome, e.reply, e.reply_send_id, e.created_at `

func scanEntry(r pgx.CollectableRow) (Entry, error) {
	var e Entry
	err := r.Scan(&e.ID, &e.Sender, &e.Text, &e.Outcome, &e.Reply, &e.SendID, &e.CreatedAt)
	return e, err
}

// Entries returns a page of a reader's answered messages, newest first.
func (s *Service) Entries(ctx context.Context, accountID int64, f EntryFilter) ([]Entry, int64, error) {
	var total int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) `+entryWhere, accountID, f.ReaderID, f.Outcome).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count entries: %w", err)
	}
	rows, err := s.pool.Query(ctx, entryCols+entryWhere+`
		ORDER BY e.id DESC LIMIT $4 OFFSET $5`, accountID, f.ReaderID, f.Outcome, f.Limit, (f.Page-1)*f.Limit)
	if err != nil {
		return nil, 0, fmt.Errorf("list entries: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanEntry)
	if err != nil {
		return nil, 0, fmt.Errorf("list entries: %w", err)
	}
	return out, total, nil
}

// OutcomeTitles are the Persian names of the outcomes.
var OutcomeTitles = map[string]string{OutReply: "پاسخ داده شد", OutCorrect: "پاسخ درست", OutWrong: "پاسخ نادرست",
	OutRepeat: "تکراری", OutVote: "رأی", OutChanged: "رأی تغییر کرد", OutInvalid: "گزینه نامعتبر", OutFeedback: "نظر",
	OutGift: "کد هدیه داده شد", OutNoCode: "کد تمام شده", OutVisit: "مراجعه"}

// WriteEntriesXLSX writes every entry of the filter as Excel.
func (s *Service) WriteEntriesXLSX(ctx context.Context, accountID int64, f EntryFilter, w io.Writer) error {
	b, err := spreadsheet.New("پیام‌های منشی", []any{"شناسه", "فرستنده", "متن", "نتیجه", "پاسخ", "شناسه ارسال", "زمان"},
		[]float64{10, 16, 50, 16, 50, 12, 20})
	if err != nil {
		return err
	}
	defer b.Close()
	after := int64(math.MaxInt64)
	for {
		rows, err := s.pool.Query(ctx, entryCols+entryWhere+`
			AND e.id < $4 ORDER BY e.id DESC LIMIT 5000`, accountID, f.ReaderID, f.Outcome, after)
		if err != nil {
			return fmt.Errorf("export entries: %w", err)
		}
		chunk, err := pgx.CollectRows(rows, scanEntry)
		if err != nil {
			return fmt.Errorf("export entries: %w", err)
		}
		for _, e := range chunk {
			var sendID any = ""
			if e.SendID != nil {
				sendID = *e.SendID
			}
			if err := b.Add([]any{e.ID, e.Sender, e.Text, OutcomeTitles[e.Outcome], e.Reply, sendID, b.Time(e.CreatedAt)}); err != nil {
				return err
			}
		}
		if len(chunk) < 5000 {
			return b.Finish(w)
		}
		after = chunk[len(chunk)-1].ID
	}
}

// WriteCodesXLSX writes a gift's codes with who got each and when.
func (s *Service) WriteCodesXLSX(ctx context.Context, id acl.Identity, readerID int64, w io.Writer) error {
	if _, err := s.Get(ctx, id, readerID); err != nil {
		return err
	}
	b, err := spreadsheet.New("کدهای هدیه", []any{"کد", "گیرنده", "زمان"}, []float64{24, 16, 20})
	if err != nil {
		return err
	}
	defer b.Close()
	rows, err := s.pool.Query(ctx, `SELECT code, coalesce(`+shownSender("c")+`, ''), given_at FROM reader_codes c
		WHERE c.reader_id = $1 ORDER BY c.id`, readerID)
	if err != nil {
		return fmt.Errorf("export codes: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var code, sender string
		var at *time.Time
		if err := rows.Scan(&code, &sender, &at); err != nil {
			return fmt.Errorf("export codes: %w", err)
		}
		var when any = ""
		if at != nil {
			when = b.Time(*at)
		}
		if err := b.Add([]any{code, sender, when}); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("export codes: %w", err)
	}
	return b.Finish(w)
}

// Variables are the reply variables of each kind (get-variables).
func Variables(kind string) []string {
	v := []string{"mobile", "title"}
	switch kind {
	case KindPoll:
		v = append(v, "option")
	case KindGift:
		v = append(v, "code")
	case KindVisit:
		v = append(v, "count")
	}
	return v
}
