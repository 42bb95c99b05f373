// Package send owns sends: accepting them (validation, price, the wallet hold and the
// send row in one transaction), expansion into recipients, the sweeper that
// re-enqueues stalled work, finalisation with refunds, stopping, and applying
// carrier receipts. The API never loops over recipients beyond validating a
// request; the worker does the rest.
package send

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/bank"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/links"
	"github.com/chapar/chapar/pkg/moderation"
	"github.com/chapar/chapar/pkg/operator"
	"github.com/chapar/chapar/pkg/plan"
	"github.com/chapar/chapar/pkg/ratelimit"
	"github.com/chapar/chapar/pkg/sendrules"
	"github.com/chapar/chapar/pkg/shortlink"
	"github.com/chapar/chapar/pkg/sms"
	"github.com/chapar/chapar/pkg/wallet"
)

// Send statuses.
const (
	StatusScheduled = "scheduled"
	StatusQueued    = "queued"
	StatusSending   = "sending"
	StatusPaused    = "paused"
	StatusDone      = "done"
	StatusStopped   = "stopped"
	StatusFailed    = "failed"
)

// Recipient statuses (spec §4 codes 0–4, then internal ones).
const (
	RcptSent        = 0
	RcptTelecom     = 1
	RcptDelivered   = 2
	RcptUndelivered = 3
	RcptBlacklisted = 4
	RcptQueued      = 5
	RcptRejected    = 6
	RcptSubmitting  = 7
)

// Types of sends built so far.
const (
	TypeQuick        = "quick"
	TypeVerification = "verification"
)

// MinLead is the shortest time ahead a send may be scheduled.
const MinLead = 5 * time.Minute

// Enqueuer is the asynq client.
type Enqueuer interface {
	EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error)
}

// Service accepts and controls sends.
type Service struct {
	pool    *pgxpool.Pool
	queue   Enqueuer
	lines   *line.Service
	limit   *ratelimit.Limiter
	perMin  int
	now     func() time.Time
	onMoney func(ctx context.Context, accountID, balance int64)
	ops     *operator.Cache  // prefixes and tariffs for pricing at accept
	quotes  QuoteOptions     // calculate-price: its limit and cache (quote.go)
	links   *shortlink.Codec // sizes tracked short links when counting parts

	// IDRetention is how long a message id matches receipts (0: DefaultIDRetention).
	IDRetention time.Duration
	// ids is where gateways keep the receipts' id lookup (nil: PostgreSQL alone; SetIDStore).
	ids *IDStore
	// pending is where RetryPending's walk of pending_receipts is (receipts.go).
	pending pendingCursor
	// AnalyzeFrom is the least number of recipients whose expansion analyzes the
	// partition they went to (0: DefaultAnalyzeFrom; analyze.go).
	AnalyzeFrom int

	orphans orphanWatch // the sweeper's orphaned batch tasks (orphans.go)
	// quietSwept is when the sweeper last looked for quiet sends (sweepQuiet).
	quietSwept atomic.Int64

	rules *sendrules.Service // the sending hours (window.go)
	// blockedCodes are the receipt errors meaning "blocked by the subscriber"
	// (blocked.go; the zero value: DefaultBlockedErr for every operator).
	blockedCodes BlockedCodes
	// metrics are registered by Instrument (metrics.go).
	metrics *sendMetrics
}

// New returns the send service. onMoney, when set, is told every new balance (the
// credit.changed event).
func New(pool *pgxpool.Pool, queue Enqueuer, lines *line.Service, limit *ratelimit.Limiter, perMin int,
	onMoney func(ctx context.Context, accountID, balance int64)) *Service {
	return &Service{pool: pool, queue: queue, lines: lines, limit: limit, perMin: perMin, now: time.Now, onMoney: onMoney,
		ops: operator.NewCache(0), links: shortlink.New(shortlink.DefaultBase, ""),
		rules: sendrules.New(pool), metrics: newSendMetrics(nil)}
}

// SetShortLinks sets the codec of tracked short links: the API, the worker and
// the gateway must share its base, whose length is part of every price.
func (s *Service) SetShortLinks(c *shortlink.Codec) { s.links = c }

// Request is a calculate-price or send request (api-contract.md "Sending" and
// "Files and bulk sources").
type Request struct {
	Type         string   `json:"type"`
	Sender       string   `json:"sender"`
	Text         string   `json:"text"`
	Numbers      []string `json:"numbers"`
	FileID       int64    `json:"file_id"`
	PhonebookIDs []int64  `json:"phonebook_ids"`
	// Target is the audience of a bank send (types city_province, business,
	// postal_code, map and tower_irancell: pkg/bank).
	Target   *bank.Target `json:"target,omitempty"`
	Cancel11 *bool        `json:"cancel11"`
	SendAt   *time.Time   `json:"send_at"`

	// Texts are the per-recipient texts of a pattern send (one per number) and
	// Pattern what pkg/pattern adds; neither is read from JSON (pattern.go).
	Texts   []string     `json:"-"`
	Pattern *PatternInfo `json:"-"`
	// HoldUntilWindow asks that a send made now outside its sending hours be
	// scheduled for the window's opening instead of refused (window.go).
	HoldUntilWindow bool `json:"hold_until_window,omitempty"`
	// SendHours, when set, are this send's own hours (instead of the account's):
	// they narrow the operators' window (window.go).
	SendHours *sendrules.Hours `json:"send_hours,omitempty"`
	// Gradual, when set, spreads the send at a pace (gradual.go).
	Gradual *Gradual `json:"gradual,omitempty"`
	// LocalID is the client's own id of the send (unique per account, localid.go).
	LocalID string `json:"local_id,omitempty"`
	// Reply marks a secretary's replies (a reply type, Numbers and Texts side by
	// side): set by pkg/secretary, never read from JSON. Their texts were reviewed
	// with the secretary, so they are not held.
	Reply bool `json:"-"`
	// Masked marks a reply to a message from the number bank (pkg/inbox): its
	// recipient is masked in reports and webhooks. Never read from JSON.
	Masked bool `json:"-"`
	// Occasion limits a phonebook send to the contacts whose date falls on its
	// day (occasion.go).
	Occasion *Occasion `json:"occasion,omitempty"`
}

type prepared struct {
	typ      string
	line     line.Line
	numbers  []string
	texts    []string // pattern sends: the text of each number
	pattern  *PatternInfo
	src      Source
	quote    Quote
	text     string
	cancel11 bool
	masked   bool // a reply to a masked message (Request.Masked)
	tbl      *operator.Table
	// rules and words are the moderation rules, loaded before an accepted send's
	// walk when its rows carry their own texts; rowWords is what the walk found.
	rules    *moderation.Rules
	words    *moderation.Matcher
	rowWords rowWords
}

// prepare validates a request and prices it by walking its recipients exactly as
// expansion will.
func (s *Service) prepare(ctx context.Context, accountID int64, r Request) (prepared, error) {
	p, err := s.check(ctx, accountID, r)
	if err != nil {
		return p, err
	}
	return p, s.price(ctx, accountID, &p)
}

// check validates a request without walking its recipients (cheap: a rate limit
// is counted only after it, and only the walk of price is expensive).
func (s *Service) check(ctx context.Context, accountID int64, r Request) (prepared, error) {
	p := prepared{typ: r.Type, masked: r.Masked}
	if p.typ == "" {
		p.typ = TypeQuick
	}
	fields := apperr.Fields{}
	addErr := func(field string, err error) error {
		fe, ok := apperr.As(err)
		if !ok || fe.Kind != apperr.Invalid {
			return err
		}
		fields.Add(field, fe.Message)
		return nil
	}
	if err := s.checkSource(ctx, accountID, r, &p, fields, addErr); err != nil {
		return p, err
	}
	if r.Occasion != nil && p.typ != TypePhonebook {
		fields.Add("occasion", MsgOccasionType)
	}
	if p.typ == TypePeerToPeer {
		r.Text = "" // every row carries its own text
	} else if err := checkText(s.links.Sized(r.Text)); err != nil {
		if err := addErr("text", err); err != nil {
			return p, err
		}
	} else if p.typ == TypeKeyword && len(parseTemplate(r.Text).cols) == 0 {
		fields.Add("text", MsgKeywordNoTag)
	} else if err := s.checkContactTags(ctx, accountID, r.Text, &p, fields); err != nil {
		return p, err
	} else if err := links.CheckText(ctx, s.pool, accountID, r.Text); err != nil {
		if err := addErr("text", err); err != nil {
			return p, err
		}
	}
	ln, err := s.lineFor(ctx, accountID, p.typ, r.Sender)
	if err != nil {
		if err := addErr("sender", err); err != nil {
			return p, err
		}
	}
	p.line = ln
	if r.SendAt != nil && r.SendAt.Before(s.now().Add(MinLead-time.Minute)) {
		fields.Add("send_at", MsgSendAtPast)
	}
	if msg := checkLocalID(r.LocalID); msg != "" {
		fields.Add("local_id", msg)
	}
	checkGradual(r.Gradual, p.typ, fields)
	if err := fields.Err(); err != nil {
		return p, err
	}
	p.text, p.cancel11 = r.Text, ln.Kind == line.KindAdvertising
	if r.Cancel11 != nil {
		if p.cancel11 && !*r.Cancel11 {
			return p, apperr.Field("cancel11", MsgCancel11Required)
		}
		p.cancel11 = *r.Cancel11
	}
	p.tbl, err = s.ops.Load(ctx, s.pool, accountID)
	return p, err
}

// checkSource checks where a send's recipients come from (numbers, a file, phonebooks
// or a pattern's recipients) into p; form errors go to fields through addErr.
func (s *Service) checkSource(ctx context.Context, accountID int64, r Request, p *prepared, fields apperr.Fields,
	addErr func(string, error) error) error {
	switch p.typ {
	case TypeQuick:
		nums, dups, err := normalizeNumbers(r.Numbers)
		if err != nil {
			if err := addErr("numbers", err); err != nil {
				return err
			}
		}
		p.numbers = nums
		p.quote.Requested, p.quote.Duplicates = len(r.Numbers), dups
	case TypeFile, TypePeerToPeer, TypeKeyword:
		if r.FileID <= 0 {
			fields.Add("file_id", MsgFileRequired)
			break
		}
		file, err := checkFile(ctx, s.pool.QueryRow(ctx, `SELECT purpose, status, text_col, records, invalid, duplicates, valid
			FROM files WHERE id = $1 AND account_id = $2`, r.FileID, accountID), p.typ)
		if err != nil {
			if err := addErr("file_id", err); err != nil {
				return err
			}
		}
		p.src = Source{FileID: r.FileID, TextCol: file.textCol}
		p.quote.Requested, p.quote.Duplicates, p.quote.Invalid = file.records, file.duplicates, file.invalid
	case TypePhonebook:
		ids, err := s.checkPhonebooks(ctx, accountID, r.PhonebookIDs, fields)
		if err != nil {
			return err
		}
		p.src = Source{PhonebookIDs: ids}
		if r.Occasion != nil {
			p.src.Occasion, err = s.checkOccasion(ctx, accountID, r, fields)
		}
		return err
	case TypePattern, TypePatternOTP, TypePatternTransactional, TypeSecretary, TypePolls, TypeMatches, TypeIdea, TypeReader:
		if IsReply(p.typ) != r.Reply {
			return apperr.Field("type", MsgBadType)
		}
		nums, err := checkPattern(r)
		if err != nil {
			return err
		}
		p.numbers, p.texts, p.pattern = nums, r.Texts, r.Pattern
		p.quote.Requested = len(nums)
	default:
		if bank.IsBankType(p.typ) {
			// Regional and location sends come with the enterprise plan (pkg/plan).
			if err := plan.CheckService(ctx, s.pool, accountID, plan.ServiceLocation); err != nil {
				return err
			}
			return s.checkTarget(ctx, r, p, fields)
		}
		return apperr.Field("type", MsgBadType)
	}
	return nil
}

// checkPhonebooks checks that the account owns the phonebooks (field errors on
// phonebook_ids) and returns their ids without repeats.
func (s *Service) checkPhonebooks(ctx context.Context, accountID int64, ids []int64, fields apperr.Fields) ([]int64, error) {
	ids = uniqueIDs(ids)
	if len(ids) == 0 {
		fields.Add("phonebook_ids", MsgPhonebookRequired)
		return ids, nil
	}
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM phonebooks WHERE account_id = $1 AND id = ANY($2)`,
		accountID, ids).Scan(&n); err != nil {
		return nil, fmt.Errorf("check phonebooks: %w", err)
	}
	if n != len(ids) {
		fields.Add("phonebook_ids", MsgPhonebookNotFound)
	}
	return ids, nil
}

// price walks the recipients of a checked request and fills its quote.
func (s *Service) price(ctx context.Context, accountID int64, p *prepared) error {
	w := walker{typ: p.typ, text: p.text, cancel11: p.cancel11, masked: p.masked, advertising: p.line.Kind == line.KindAdvertising,
		numbers: p.numbers, texts: p.texts, src: p.src, tbl: p.tbl, words: p.words, sized: s.links.Sized}
	acc := newQuoteAcc()
	tot, err := w.walk(ctx, s.pool, accountID, func(rows []planned) error { acc.add(rows); return nil })
	if err != nil {
		return err
	}
	p.rowWords = tot.words
	st := sms.Count(s.links.Sized(p.text), p.cancel11)
	q := &p.quote
	q.Parts, q.Encoding, q.Characters, q.CharsLeft, q.Cancel11 = st.Parts, st.Encoding.String(), st.Characters, st.CharsLeft, p.cancel11
	if p.typ == TypePeerToPeer || p.typ == TypeKeyword || rowTexts(p.typ) || len(p.src.Tags) > 0 {
		q.Parts = tot.maxParts
	}
	if p.typ == TypePhonebook || bank.IsBankType(p.typ) {
		q.Requested = tot.rows
	}
	if bank.IsBankType(p.typ) && tot.rows < bank.MinRecipients {
		return apperr.Field("target", bank.MsgMinimum)
	}
	q.Duplicates += tot.duplicates
	q.Invalid += tot.invalid
	q.Blacklisted = tot.blacklisted
	q.OperatorBlocked = tot.operatorBlocked
	acc.fill(q)
	return nil
}

// uniqueIDs drops non-positive and repeated ids, keeping the order.
func uniqueIDs(ids []int64) []int64 {
	out := make([]int64, 0, len(ids))
	seen := map[int64]bool{}
	for _, id := range ids {
		if id > 0 && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// Quote prices a request without sending it (quote.go: its rate limit and cache).
func (s *Service) Quote(ctx context.Context, id acl.Identity, r Request) (Quote, error) {
	return s.QuoteRuns(ctx, id, r, nil, "")
}

// Accepted is the answer to a send request.
type Accepted struct {
	ID     int64  `json:"id"`
	Status string `json:"status"`
	Price  int64  `json:"price"`
	// Sender is the line the send goes out from and Cancel11 whether the «لغو۱۱»
	// footer is appended (lines.go): the answer says both, never silently.
	Sender   string `json:"sender"`
	Cancel11 bool   `json:"cancel11"`
	// Sandbox marks a send of a sandbox key: never charged, sent only to the
	// simulator (sandbox.go).
	Sandbox bool `json:"sandbox,omitempty"`
}

// Create accepts a send: one transaction creates the send and holds its price in
// the wallet; then the expand task is enqueued (its id is the send id). A repeated
// request with the same idempotency key returns the first send.
func (s *Service) Create(ctx context.Context, id acl.Identity, r Request, idemKey, ip string) (Accepted, bool, error) {
	return s.create(ctx, id, r, idemKey, ip, 0)
}

// CreateForCampaign accepts one run of a recurring campaign (the key makes a
// retried run return its first send). A run due outside its sending hours (the
// hours changed after the campaign was saved) is held until the window opens.
func (s *Service) CreateForCampaign(ctx context.Context, id acl.Identity, r Request, key string, campaignID int64) (Accepted, error) {
	r.HoldUntilWindow = true
	a, _, err := s.create(ctx, id, r, key, "", campaignID)
	return a, err
}

// sourceField is the request field a send type's recipients come from.
func sourceField(typ string) string {
	switch typ {
	case TypeFile, TypePeerToPeer, TypeKeyword:
		return "file_id"
	case TypePhonebook:
		return "phonebook_ids"
	}
	if bank.IsBankType(typ) {
		return "target"
	}
	return "numbers"
}

// textOf is the text stored on the send: peer-to-peer rows carry their own.
func textOf(typ, text string) string {
	if typ == TypePeerToPeer {
		return ""
	}
	return text
}

func (s *Service) create(ctx context.Context, id acl.Identity, r Request, idemKey, ip string, campaignID int64) (Accepted, bool, error) {
	hash := requestHash(r)
	if idemKey != "" {
		if a, ok, err := s.byIdempotencyKey(ctx, id.AccountID, idemKey, hash); err != nil || ok {
			return a, false, err
		}
	}
	p, err := s.check(ctx, id.AccountID, r)
	if err != nil {
		return Accepted{}, false, err
	}
	// Only valid requests count, before the expensive walk.
	if err := s.allow(ctx, "send:acct:", id.AccountID, s.perMin); err != nil {
		return Accepted{}, false, err
	}
	if err := s.loadRowRules(ctx, &p); err != nil {
		return Accepted{}, false, err
	}
	if err := s.price(ctx, id.AccountID, &p); err != nil {
		return Accepted{}, false, err
	}
	if p.quote.Recipients == 0 {
		return Accepted{}, false, nothingToSend(p)
	}
	if id.Sandbox {
		p.quote.Price = 0 // see sandboxCost
	}
	r, own, err := s.applyHours(ctx, id.AccountID, r, p)
	if err != nil {
		return Accepted{}, false, err
	}
	status, held, err := s.initialStatus(ctx, id.AccountID, r, p)
	if err != nil {
		return Accepted{}, false, err
	}
	pace, err := s.paceOf(ctx, id.AccountID, r, p)
	if err != nil {
		return Accepted{}, false, err
	}
	a := Accepted{Status: status, Price: p.quote.Price, Sandbox: id.Sandbox, Sender: p.line.Number, Cancel11: p.quote.Cancel11}
	n := newSend{id: id, r: r, p: p, status: status, held: held, pace: pace, own: own, idemKey: idemKey, hash: hash,
		ip: ip, campaignID: campaignID}
	var balance int64
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		a.ID, balance, err = n.store(ctx, tx)
		return err
	})
	if errors.Is(err, errDuplicateKey) {
		a, _, err := s.byIdempotencyKey(ctx, id.AccountID, idemKey, hash)
		return a, false, err
	}
	if err != nil {
		return Accepted{}, false, err
	}
	s.moneyChanged(ctx, id.AccountID, balance)
	if status == StatusScheduled || status == StatusHeld {
		return a, true, nil // FireDue queues it at its time; a held send waits for review
	}
	if err := s.enqueueExpand(ctx, a.ID, p.typ, time.Time{}); err != nil {
		// The send is stored and paid for; the sweeper enqueues it again.
		slog.WarnContext(ctx, "expand not enqueued; the sweeper will retry", "send", a.ID, "err", err)
	}
	return a, true, nil
}

// newSend is an accepted request as create stores it: the request, what check
// prepared of it and what was decided on it.
type newSend struct {
	id                acl.Identity
	r                 Request
	p                 prepared
	status            string
	held              []string
	pace              *GradualInfo
	own               *sendrules.Window
	idemKey, hash, ip string
	campaignID        int64
}

// store writes the send, its wallet hold, its review when held and its audit
// entry in tx; it returns the send's id and the balance after the hold.
func (n newSend) store(ctx context.Context, tx pgx.Tx) (int64, int64, error) {
	id, p := n.id, n.p
	if err := accountOpen(ctx, tx, id.AccountID); err != nil {
		return 0, 0, err
	}
	sendID, err := n.insert(ctx, tx)
	if err != nil {
		return 0, 0, err
	}
	balance, _, err := wallet.Apply(ctx, tx, wallet.Entry{AccountID: id.AccountID, Kind: wallet.Hold, Amount: -p.quote.Price,
		SendID: sendID, Ref: holdRef(sendID), UserID: id.UserID, Description: "رزرو هزینه ارسال " + strconv.FormatInt(sendID, 10)})
	if err != nil {
		return 0, 0, err
	}
	if n.status == StatusHeld {
		if err := submitHeld(ctx, tx, id.AccountID, sendID, n.held, heldSummary(p)); err != nil {
			return 0, 0, err
		}
	}
	return sendID, balance, audit.Record(ctx, tx, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, APIKeyID: id.APIKeyID,
		Action: audit.SendCreate, TargetType: "send", Target: strconv.FormatInt(sendID, 10), IP: n.ip,
		Details: auditDetails(p.quote.Recipients, p.quote.Price, n.status, id.Sandbox)})
}

// insert writes the sends row: errDuplicateKey when the idempotency key is taken.
func (n newSend) insert(ctx context.Context, tx pgx.Tx) (int64, error) {
	id, p, r := n.id, n.p, n.r
	var key, keyHash *string
	if n.idemKey != "" {
		key, keyHash = &n.idemKey, &n.hash
	}
	var sendID int64
	err := tx.QueryRow(ctx, `INSERT INTO sends (account_id, user_id, api_key_id, type, line_id, sender, text, cancel11,
		encoding, parts, status, send_at, idempotency_key, numbers, source, requested, duplicates, invalid, quote, ip, campaign_id,
		request_hash, texts, local_id, pattern_version_id, priority, sandbox, masked, hours_start, hours_end,
		pace_per_hour, pace_end_at)
		VALUES ($1, nullif($2, 0), nullif($3, 0), $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
		nullif($21, 0), $22, $23, nullif($24, ''), nullif($25, 0), $26, $27, $28, $29, $30, $31, $32)
		ON CONFLICT (account_id, idempotency_key) DO NOTHING RETURNING id`,
		id.AccountID, id.UserID, id.APIKeyID, p.typ, p.line.ID, p.line.Number, textOf(p.typ, r.Text), p.quote.Cancel11,
		p.quote.Encoding, p.quote.Parts, n.status, r.SendAt, key, p.numbers, p.src, p.quote.Requested, p.quote.Duplicates,
		p.quote.Invalid, p.quote.Price, n.ip, n.campaignID, keyHash, p.texts, r.LocalID, r.patternVersion(),
		priorityOf(p.typ), id.Sandbox, r.Masked, ownFrom(n.own), ownTo(n.own), n.pace.perHour(), n.pace.end()).Scan(&sendID)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return 0, errDuplicateKey
	case localIDTaken(err):
		return 0, apperr.New(apperr.Conflict, MsgLocalIDTaken).WithCode(CodeLocalIDTaken)
	case err != nil:
		return 0, fmt.Errorf("insert send: %w", err)
	}
	return sendID, nil
}

var errDuplicateKey = errors.New("duplicate idempotency key")

func holdRef(sendID int64) string { return "send:" + strconv.FormatInt(sendID, 10) + ":hold" }

// byIdempotencyKey returns the send first made with the key. The key sent again with
// another request (its hash differs) is refused: answering with the first send
// would pass a different order off as accepted.
func (s *Service) byIdempotencyKey(ctx context.Context, accountID int64, key, hash string) (Accepted, bool, error) {
	var a Accepted
	var first *string
	err := s.pool.QueryRow(ctx, `SELECT id, status, CASE WHEN expanded_at IS NULL THEN quote ELSE cost END, request_hash, sandbox,
		sender, cancel11 FROM sends WHERE account_id = $1 AND idempotency_key = $2`, accountID, key).
		Scan(&a.ID, &a.Status, &a.Price, &first, &a.Sandbox, &a.Sender, &a.Cancel11)
	if errors.Is(err, pgx.ErrNoRows) {
		return a, false, nil
	}
	if err != nil {
		return a, false, fmt.Errorf("idempotency lookup: %w", err)
	}
	if first != nil && *first != hash {
		return Accepted{}, false, apperr.New(apperr.Invalid, MsgIdempotencyReused).WithCode(CodeIdempotencyReused)
	}
	return a, true, nil
}

// requestHash identifies a request for its idempotency key: the SHA-256 of its JSON
// (the struct's fields in a fixed order), the default type spelt out and the time
// in UTC.
func requestHash(r Request) string {
	if r.Pattern != nil && r.Pattern.Hash != "" {
		return r.Pattern.Hash
	}
	if r.Type == "" {
		r.Type = TypeQuick
	}
	if r.SendAt != nil {
		at := r.SendAt.UTC()
		r.SendAt = &at
	}
	b, _ := json.Marshal(r) // a struct of strings, numbers and a time: never fails
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func (s *Service) enqueueExpand(ctx context.Context, sendID int64, typ string, at time.Time) error {
	q := jobs.QueueDefault
	if IsCritical(typ) {
		q = jobs.QueueCritical
	}
	task, err := jobs.NewSendExpand(sendID, q, at)
	if err != nil {
		return err
	}
	_, err = s.queue.EnqueueContext(ctx, task)
	if errors.Is(err, asynq.ErrTaskIDConflict) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("enqueue expand %d: %w", sendID, err)
	}
	return nil
}

func (s *Service) moneyChanged(ctx context.Context, accountID, balance int64) {
	if s.onMoney != nil {
		s.onMoney(ctx, accountID, balance)
	}
}
