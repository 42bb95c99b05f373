package smscsim

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Stat is the final state of a message as written in the "stat:" field of a
// delivery receipt.
type Stat string

// Receipt states.
const (
	StatDelivered     Stat = "DELIVRD"
	StatUndeliverable Stat = "UNDELIV"
	StatExpired       Stat = "EXPIRED"
	StatRejected      Stat = "REJECTD"
	StatDeleted       Stat = "DELETED"
	StatUnknown       Stat = "UNKNOWN"
	StatAccepted      Stat = "ACCEPTD"
)

// MessageState is the SMPP 3.4 message_state value (TLV 0x0427) of s.
func (s Stat) MessageState() uint8 {
	switch s {
	case StatDelivered:
		return 2
	case StatExpired:
		return 3
	case StatDeleted:
		return 4
	case StatUndeliverable:
		return 5
	case StatAccepted:
		return 6
	case StatRejected:
		return 8
	default:
		return 7
	}
}

// errCode is the "err:" field of the receipt text for s.
func (s Stat) errCode() string {
	switch s {
	case StatDelivered, StatAccepted:
		return "000"
	case StatExpired:
		return "027"
	case StatRejected:
		return "011"
	case StatDeleted:
		return "006"
	default:
		return "001"
	}
}

// ParseStat validates a receipt state name (case-insensitive).
func ParseStat(s string) (Stat, error) {
	st := Stat(strings.ToUpper(strings.TrimSpace(s)))
	switch st {
	case StatDelivered, StatUndeliverable, StatExpired, StatRejected, StatDeleted, StatUnknown, StatAccepted:
		return st, nil
	}
	return "", fmt.Errorf("smscsim: unknown receipt stat %q", s)
}

// Outcome is one entry of the delivery outcome mix.
type Outcome struct {
	Stat   Stat
	Weight float64
}

// ParseOutcomes parses a mix such as "DELIVRD=0.95,UNDELIV=0.03,EXPIRED=0.02".
// Weights need not sum to 1; they are normalised.
func ParseOutcomes(s string) ([]Outcome, error) {
	var out []Outcome
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, w, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("smscsim: outcome %q: want STAT=weight", item)
		}
		st, err := ParseStat(name)
		if err != nil {
			return nil, err
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(w), 64)
		if err != nil || f < 0 {
			return nil, fmt.Errorf("smscsim: outcome %q: bad weight", item)
		}
		out = append(out, Outcome{Stat: st, Weight: f})
	}
	return out, nil
}

// OperatorConfig names one simulated operator and the address its SMPP
// listener binds ("127.0.0.1:0" for a random port).
type OperatorConfig struct {
	Name string
	Addr string
}

// ParseOperators parses "mci:2775,irancell:2776,rightel:2777". An entry may
// also carry a host ("mci:0.0.0.0:2775"); otherwise host is used.
func ParseOperators(s, host string) ([]OperatorConfig, error) {
	var out []OperatorConfig
	seen := map[string]bool{}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, rest, ok := strings.Cut(item, ":")
		if !ok || name == "" || rest == "" {
			return nil, fmt.Errorf("smscsim: operator %q: want name:port", item)
		}
		addr := net.JoinHostPort(host, rest)
		if strings.Contains(rest, ":") {
			addr = rest
		}
		if _, port, err := net.SplitHostPort(addr); err != nil {
			return nil, fmt.Errorf("smscsim: operator %q: %w", item, err)
		} else if _, err := strconv.ParseUint(port, 10, 16); err != nil {
			return nil, fmt.Errorf("smscsim: operator %q: bad port", item)
		}
		if seen[name] {
			return nil, fmt.Errorf("smscsim: operator %q listed twice", name)
		}
		seen[name] = true
		out = append(out, OperatorConfig{Name: name, Addr: addr})
	}
	if len(out) == 0 {
		return nil, errors.New("smscsim: no operators")
	}
	return out, nil
}

// ParseDelay parses a receipt delay "500-3000" or "0" (milliseconds).
func ParseDelay(s string) (minD, maxD time.Duration, err error) {
	lo, hi, ok := strings.Cut(strings.TrimSpace(s), "-")
	if !ok {
		hi = lo
	}
	a, err1 := strconv.ParseUint(strings.TrimSpace(lo), 10, 32)
	b, err2 := strconv.ParseUint(strings.TrimSpace(hi), 10, 32)
	if err1 != nil || err2 != nil || b < a {
		return 0, 0, fmt.Errorf("smscsim: receipt delay %q: want MIN-MAX milliseconds", s)
	}
	return time.Duration(a) * time.Millisecond, time.Duration(b) * time.Millisecond, nil
}

// IDFormat is the textual form of the message ids the simulator assigns.
type IDFormat string

// Message id formats.
const (
	IDHex     IDFormat = "hex"     // uppercase hexadecimal, at least 8 digits: "5F3A9C01"
	IDDecimal IDFormat = "decimal" // decimal: "1597676545"
)

// ParseIDFormat validates an id format name; "" means hex.
func ParseIDFormat(s string) (IDFormat, error) {
	switch f := IDFormat(strings.ToLower(strings.TrimSpace(s))); f {
	case "", IDHex:
		return IDHex, nil
	case IDDecimal, "dec":
		return IDDecimal, nil
	}
	return "", fmt.Errorf("smscsim: unknown id format %q (hex or decimal)", s)
}

func (f IDFormat) format(n uint64) string {
	if f == IDDecimal {
		return strconv.FormatUint(n, 10)
	}
	s := strings.ToUpper(strconv.FormatUint(n, 16))
	if len(s) < 8 {
		s = strings.Repeat("0", 8-len(s)) + s
	}
	return s
}

// Config configures a simulator. The zero value is usable: three operators
// (mci, irancell, rightel) on random ports of 127.0.0.1, HTTP on a random
// port, credentials chapar/secret, no throttling, immediate receipts, every
// message DELIVRD. Profile returns the presets of CHAPAR_PROFILE.
type Config struct {
	// Operators to listen for; empty means mci, irancell, rightel and the
	// sandbox route of sandbox API keys, each on 127.0.0.1:0.
	Operators []OperatorConfig
	// HTTPAddr of the control and inspection API; "" means 127.0.0.1:0.
	HTTPAddr string
	// NoHTTP disables the HTTP API (the Server methods still work).
	NoHTTP bool

	// SystemID and Password an ESME must bind with; default chapar/secret.
	SystemID string
	Password string

	// Rate is the accepted submit_sm per second per bind (token bucket);
	// above it submit_sm is answered ESME_RTHROTTLED. 0 means unlimited.
	Rate float64
	// Burst is the bucket size; default Rate/5, at least 1.
	Burst int

	// ReceiptDelayMin and ReceiptDelayMax bound the uniformly distributed
	// delay between submit_sm and its receipt.
	ReceiptDelayMin time.Duration
	ReceiptDelayMax time.Duration
	// Outcomes is the receipt outcome mix; empty means all DELIVRD.
	Outcomes []Outcome
	// Seed makes outcomes deterministic per message (same source,
	// destination and text give the same outcome) and fixes the first
	// message id; 0 means random.
	Seed int64
	// ForcedOutcomes forces the receipt state for destinations; see also
	// Server.ForceOutcome.
	ForcedOutcomes map[string]Stat
	// Blocked lists, per operator, the numbers whose subscribers blocked
	// advertising SMS (*800#): a submit_sm to one is accepted and its receipt
	// is REJECTD with the error BlockedErr. See also Server.Block.
	Blocked map[string][]string
	// BlockedErr is the receipt "err:" code of a blocked number (default
	// DefaultBlockedErr).
	BlockedErr string

	// MessageIDFormat of submit_sm_resp and receipted_message_id (default hex).
	MessageIDFormat IDFormat
	// ReceiptTextIDFormat is the format of the id in the receipt text;
	// "" means the same as MessageIDFormat. Some carriers answer hex ids
	// and write decimal ones in the receipt text.
	ReceiptTextIDFormat IDFormat

	// IDRestartAfter restarts the message id counter after that many ids (0:
	// never), so that ids are reused as after an SMSC restart or counter wrap.
	IDRestartAfter uint64
	// SubmitFaults answer error statuses for, or lose the response of, some
	// submit_sm (see SubmitFault).
	SubmitFaults []SubmitFault

	// DataSM sends receipts and MO as data_sm (SMPP 3.4 §4.7) instead of
	// deliver_sm, their text in message_payload.
	DataSM bool
	// PoisonReceipts puts bytes that are not UTF-8 into a field of the
	// receipts of messages to a destination (see ParsePoison).
	PoisonReceipts map[string]PoisonField

	// RetryTimeout is how long an unacknowledged deliver_sm waits before it
	// is sent again (a negative deliver_sm_resp is retried after it too);
	// default 10s.
	RetryTimeout time.Duration
	// DeliverWindow is the maximum of unacknowledged deliver_sm per session;
	// default 100.
	DeliverWindow int
	// MaxPending caps the deliver_sm kept per (operator, system_id) for a
	// receiver (default 200000). When that many receipts are pending,
	// submit_sm asking for a receipt is answered ESME_RTHROTTLED (counted
	// as throttled and queue_full) and InjectMO fails with ErrQueueFull, so
	// nothing is ever dropped.
	MaxPending int
	// MaxBinds is how many sessions of one system_id an operator keeps bound
	// at once, as a carrier account's bind quota; one more bind is answered
	// ESME_RBINDFAIL. 0 means no limit.
	MaxBinds int
	// IdleTimeout closes a session that sent nothing for that long; 0
	// disables it.
	IdleTimeout time.Duration

	// MaxStored is the number of reassembled messages whose text is kept
	// for inspection (default 100000). Older ones are evicted, unless
	// CountOnlyAboveCap is set, in which case nothing more is stored once the
	// cap is reached and only counters move.
	MaxStored         int
	CountOnlyAboveCap bool
	// KeepFrom lists source addresses (sender lines) whose messages are
	// stored even once a count-only store is full, replacing the oldest
	// stored: a benchmark finds the one-time codes of the system line among
	// a million-message campaign.
	KeepFrom []string
	// MaxPartial caps incomplete concatenated messages kept for reassembly;
	// default 20000.
	MaxPartial int
	// DedupCap caps the submit_sm fingerprints kept for duplicate detection;
	// default 2000000 (oldest forgotten first).
	DedupCap int

	// Location of the dates in the receipt text; default time.Local.
	Location *time.Location
	// Logger; default slog.Default().
	Logger *slog.Logger
}

// Profile returns the configuration preset for a CHAPAR_PROFILE value:
//
//   - "" or "default" or "dev": realistic carrier: 200 submit_sm/s per bind,
//     receipts after 500–3000 ms, DELIVRD=0.95,UNDELIV=0.03,EXPIRED=0.02,
//     last 100000 messages kept.
//   - "bench": unthrottled, immediate receipts, all DELIVRD, a deliver_sm
//     window of 10000 per session, texts of the first 10000 messages kept
//     and only counters beyond, so a run of millions of messages stays flat
//     in memory (the duplicate detector still keeps an 8-byte fingerprint
//     per submit_sm, about 40 MB of heap per million, up to DedupCap).
//   - "test": like the zero Config: unthrottled, immediate receipts, all
//     DELIVRD, last 100000 messages kept.
func Profile(name string) (Config, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "", "default", "dev", "realistic":
		return Config{
			Rate:            200,
			ReceiptDelayMin: 500 * time.Millisecond,
			ReceiptDelayMax: 3000 * time.Millisecond,
			Outcomes: []Outcome{
				{StatDelivered, 0.95}, {StatUndeliverable, 0.03}, {StatExpired, 0.02},
			},
			MaxStored: 100000,
		}, nil
	case "bench":
		return Config{
			MaxStored:         10000,
			CountOnlyAboveCap: true,
			MaxPartial:        10000,
			DedupCap:          2000000,
			DeliverWindow:     10000,
		}, nil
	case "test":
		return Config{}, nil
	}
	return Config{}, fmt.Errorf("smscsim: unknown profile %q (default, bench, test)", name)
}

func (c *Config) withDefaults() (Config, error) {
	cfg := *c
	if len(cfg.Operators) == 0 {
		cfg.Operators = []OperatorConfig{
			{Name: "mci", Addr: "127.0.0.1:0"},
			{Name: "irancell", Addr: "127.0.0.1:0"},
			{Name: "rightel", Addr: "127.0.0.1:0"},
			{Name: "sandbox", Addr: "127.0.0.1:0"},
		}
	}
	seen := map[string]bool{}
	for _, o := range cfg.Operators {
		if o.Name == "" || seen[o.Name] {
			return cfg, fmt.Errorf("smscsim: empty or repeated operator name %q", o.Name)
		}
		seen[o.Name] = true
	}
	if cfg.HTTPAddr == "" {
		cfg.HTTPAddr = "127.0.0.1:0"
	}
	if cfg.SystemID == "" {
		cfg.SystemID = "chapar"
	}
	if cfg.Password == "" {
		cfg.Password = "secret"
	}
	if cfg.Rate < 0 {
		return cfg, errors.New("smscsim: negative rate")
	}
	if cfg.Rate > 0 && cfg.Burst <= 0 {
		cfg.Burst = max(1, int(cfg.Rate/5))
	}
	if cfg.ReceiptDelayMax == 0 {
		cfg.ReceiptDelayMax = cfg.ReceiptDelayMin
	}
	if cfg.ReceiptDelayMin < 0 || cfg.ReceiptDelayMax < cfg.ReceiptDelayMin {
		return cfg, errors.New("smscsim: bad receipt delay range")
	}
	total := 0.0
	for _, o := range cfg.Outcomes {
		if o.Weight < 0 {
			return cfg, errors.New("smscsim: negative outcome weight")
		}
		total += o.Weight
	}
	if len(cfg.Outcomes) > 0 && total == 0 {
		return cfg, errors.New("smscsim: outcome weights sum to zero")
	}
	var err error
	if cfg.MessageIDFormat, err = ParseIDFormat(string(cfg.MessageIDFormat)); err != nil {
		return cfg, err
	}
	if cfg.ReceiptTextIDFormat == "" {
		cfg.ReceiptTextIDFormat = cfg.MessageIDFormat
	} else if cfg.ReceiptTextIDFormat, err = ParseIDFormat(string(cfg.ReceiptTextIDFormat)); err != nil {
		return cfg, err
	}
	if cfg.RetryTimeout <= 0 {
		cfg.RetryTimeout = 10 * time.Second
	}
	if cfg.DeliverWindow <= 0 {
		cfg.DeliverWindow = 100
	}
	if cfg.MaxPending <= 0 {
		cfg.MaxPending = 200000
	}
	if cfg.MaxStored <= 0 {
		cfg.MaxStored = 100000
	}
	if cfg.MaxPartial <= 0 {
		cfg.MaxPartial = 20000
	}
	if cfg.DedupCap <= 0 {
		cfg.DedupCap = 2000000
	}
	if cfg.Location == nil {
		cfg.Location = time.Local
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return cfg, nil
}

// outcomeTable is the cumulative distribution of the outcome mix.
type outcomeTable struct {
	stats []Stat
	cum   []float64
}

func newOutcomeTable(mix []Outcome) outcomeTable {
	var t outcomeTable
	total := 0.0
	sorted := append([]Outcome(nil), mix...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Weight > sorted[j].Weight })
	for _, o := range sorted {
		total += o.Weight
	}
	acc := 0.0
	for _, o := range sorted {
		if o.Weight == 0 {
			continue
		}
		acc += o.Weight / total
		t.stats = append(t.stats, o.Stat)
		t.cum = append(t.cum, acc)
	}
	return t
}

// pick maps u in [0,1) to a state.
func (t outcomeTable) pick(u float64) Stat {
	for i, c := range t.cum {
		if u < c {
			return t.stats[i]
		}
	}
	if len(t.stats) == 0 {
		return StatDelivered
	}
	return t.stats[len(t.stats)-1]
}
