package gateway

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/send"
	"github.com/chapar/chapar/pkg/smpp"
	"github.com/chapar/chapar/pkg/sms"
)

// Operators a gateway can bind to. "other" is not among them: its numbers go
// out through the binds of Config.OtherRoute.
var Operators = []string{"mci", "irancell", "rightel"}

// OperatorSandbox is the route of sandbox API keys' sends (docs/developers.md):
// never a carrier. A sandbox bind binds only to an SMSC whose bind response
// names Config.SandboxPeer, which the simulator does on its "sandbox" port.
const OperatorSandbox = "sandbox"

// DefaultSandboxPeer is the system_id the simulator names on its sandbox port.
const DefaultSandboxPeer = "sandbox"

// bindable are the operators a bind may name: the carriers and the sandbox.
var bindable = append(slices.Clone(Operators), OperatorSandbox)

// OperatorOther is the operator of numbers matching no known prefix.
const OperatorOther = "other"

// Defaults of the configuration.
const (
	DefaultBinds           = "mci=127.0.0.1:2775,irancell=127.0.0.1:2776,rightel=127.0.0.1:2777,sandbox=127.0.0.1:2778"
	DefaultSystemID        = "chapar"
	DefaultPassword        = "secret"
	DefaultTPS             = 200
	DefaultWindow          = 100
	DefaultEnquireLink     = 15 * time.Second
	DefaultReconnectMax    = 30 * time.Second
	DefaultResponseTimeout = 10 * time.Second
	DefaultThrottlePause   = 100 * time.Millisecond
	DefaultOtherRoute      = "mci"
	DefaultHTTPAddr        = "127.0.0.1:2790"
	DefaultConcurrency     = 8
	DefaultDeliverWorkers  = 64
	// DefaultProcs is the gateway's GOMAXPROCS when neither GATEWAY_PROCS nor
	// GOMAXPROCS is set: one thread running Go code holds 38,000 recipients a
	// second (26 µs each), far beyond what carriers grant a gateway, and a
	// mostly waiting process with two paid for waking and stealing between
	// them (docs/history/testbed-2026-11.md, "Eleventh day").
	DefaultProcs           = 1
	DefaultShutdownTimeout = 30 * time.Second
	DefaultRetryMax        = 4
	DefaultRetryBackoff    = 250 * time.Millisecond
	// DefaultCriticalShare is the share of each bind's window and TPS that
	// bulk parts may never take: the fast lane of OTP and other critical
	// traffic (see lane.go).
	DefaultCriticalShare = 0.2
	// DefaultCriticalConcurrency is the number of critical batch tasks
	// handled at once, by workers of their own that bulk batches never hold.
	DefaultCriticalConcurrency = 8
	// DefaultCriticalPoll is how soon a critical worker looks at the critical
	// queues again after an empty round (then it waits for a wake, up to
	// Quiet); it bounds the queueing delay of a one-time code.
	DefaultCriticalPoll = 20 * time.Millisecond
	// maxCriticalShare leaves bulk at least a tenth of every bind.
	maxCriticalShare = 0.9
)

// DefaultRetryStatuses are the submit_sm_resp statuses answered for transient
// faults, after which a part is submitted again: ESME_RTHROTTLED, ESME_RMSGQFUL
// and ESME_RSYSERR.
var DefaultRetryStatuses = []smpp.Status{smpp.StatusThrottled, smpp.StatusMsgQueueFull, smpp.StatusSystemError}

// BindConfig is one SMPP bind to a carrier.
type BindConfig struct {
	Operator string `json:"operator"`
	Host     string `json:"host"`
	Port     int    `json:"port"`
	SystemID string `json:"system_id"`
	Password string `json:"-"`
	// TPS is the submit_sm token bucket rate; 0 means unlimited.
	TPS float64 `json:"tps"`
	// Window is the maximum of submit_sm awaiting their response.
	Window int `json:"window"`
	// EnquireLink is the keep-alive interval.
	EnquireLink time.Duration `json:"enquire_link"`
	// ReconnectMax caps the reconnect back-off.
	ReconnectMax time.Duration `json:"reconnect_max"`
	// ResponseTimeout bounds the wait for a submit_sm_resp; past it the
	// outcome is unknown.
	ResponseTimeout time.Duration `json:"response_timeout"`
	// ThrottlePause is how long the bind stops submitting after an
	// ESME_RTHROTTLED; meanwhile its adaptive rate is halved (see pacer).
	ThrottlePause time.Duration `json:"throttle_pause"`
	// RetryStatuses are the statuses after which a part is submitted again.
	// ESME_RTHROTTLED among them is flow control: it slows the bind and
	// does not use up the part's tries.
	RetryStatuses []smpp.Status `json:"retry_statuses"`
	// RetryMax is how many times a part is submitted again after other
	// retry statuses; then its last status is final.
	RetryMax int `json:"retry_max"`
	// RetryBackoff is the wait before a part's first retry; it doubles with
	// each further one.
	RetryBackoff time.Duration `json:"retry_backoff"`
	// Alphabet is the SMSC's default alphabet, what data_coding 0 means to it:
	// "gsm" (GSM 03.38 unpacked, the default), or "ascii" / "latin1" for SMSCs
	// that garble '@' and '$' otherwise: GSM-7 parts then go re-coded, with
	// data_coding 1 (IA5) or 3 (Latin-1).
	Alphabet string `json:"alphabet"`
	// SourceTON/SourceNPI and DestTON/DestNPI override the type of number and
	// numbering plan of the addresses (nil: chosen per address, see smpp.SenderLine
	// and smpp.Mobile).
	SourceTON, SourceNPI, DestTON, DestNPI *uint8 `json:"-"`
	// CriticalShare is the share (0 to 0.9) of Window and of TPS kept for
	// critical parts: bulk parts never have more than Window×(1−share) in
	// flight nor go faster than TPS×(1−share). 0 reserves nothing.
	CriticalShare float64 `json:"critical_share"`
}

// Alphabets a bind may name, with the data_coding of re-coded GSM-7 parts.
var alphabets = map[string]byte{"": sms.CodingGSM7, "gsm": sms.CodingGSM7, "ascii": sms.CodingIA5, "latin1": sms.CodingLatin1}

// Limits of SMPP 3.4 §4.1.1 on bind credentials.
const (
	maxSystemID = 15
	maxPassword = 8
)

// addresses applies the bind's TON/NPI overrides.
func (b BindConfig) addresses(src, dst smpp.Address) (smpp.Address, smpp.Address) {
	set := func(a *smpp.Address, ton, npi *uint8) {
		if ton != nil {
			a.TON = *ton
		}
		if npi != nil {
			a.NPI = *npi
		}
	}
	set(&src, b.SourceTON, b.SourceNPI)
	set(&dst, b.DestTON, b.DestNPI)
	return src, dst
}

// retries reports whether a part answered st is submitted again.
// A nil list means DefaultRetryStatuses; an empty one retries nothing.
func (b BindConfig) retries(st smpp.Status) bool {
	if b.RetryStatuses == nil {
		return slices.Contains(DefaultRetryStatuses, st)
	}
	return slices.Contains(b.RetryStatuses, st)
}

// validateBind checks what SMPP 3.4 and the gateway allow of one bind.
func (b BindConfig) validateBind(i int) []error {
	var errs []error
	switch {
	case b.SystemID == "":
		errs = append(errs, fmt.Errorf("bind %d (%s): empty system_id", i, b.Operator))
	case len(b.SystemID) > maxSystemID:
		errs = append(errs, fmt.Errorf("bind %d (%s): system_id %q is longer than SMPP's %d characters", i, b.Operator, b.SystemID, maxSystemID))
	}
	if len(b.Password) > maxPassword {
		errs = append(errs, fmt.Errorf("bind %d (%s): the password is longer than SMPP's %d characters", i, b.Operator, maxPassword))
	}
	if b.CriticalShare < 0 || b.CriticalShare > maxCriticalShare {
		errs = append(errs, fmt.Errorf("bind %d (%s): critical_share %g: want 0 to %g", i, b.Operator, b.CriticalShare, maxCriticalShare))
	}
	if _, ok := alphabets[b.Alphabet]; !ok {
		errs = append(errs, fmt.Errorf("bind %d (%s): alphabet %q: want gsm, ascii or latin1", i, b.Operator, b.Alphabet))
	}
	return errs
}

// Addr is host:port.
func (b BindConfig) Addr() string { return net.JoinHostPort(b.Host, strconv.Itoa(b.Port)) }

// Config is the gateway's configuration. DATABASE_URL, REDIS_ADDR and
// REDIS_DB come from pkg/config.
type Config struct {
	Binds []BindConfig
	// OtherRoute is the operator whose binds carry numbers of operator
	// "other"; "" disables the carrier:other queues.
	OtherRoute string
	// HTTPAddr serves GET /status and GET /healthz.
	HTTPAddr string
	// Concurrency is the number of batch tasks handled at once.
	Concurrency int
	// DeliverWorkers sizes each bind's deliver_sm queue (DeliverWorkers ×
	// smpp.DefaultDeliverQueue): one goroutine per bind hands what queued up
	// to the inbound stream in batches (smpp.Config.DeliverBatch), and a
	// deliver_sm that finds the queue full is answered ESME_RX_T_APPN.
	DeliverWorkers int
	// Procs is the process's GOMAXPROCS (GATEWAY_PROCS, DefaultProcs); the
	// command applies it unless GOMAXPROCS is set in the environment.
	Procs int
	// InstanceID names this gateway in its heartbeat key.
	InstanceID string
	// ShutdownTimeout bounds the graceful stop: finishing the batches in
	// hand, then closing the binds.
	ShutdownTimeout time.Duration
	// CriticalConcurrency is the number of critical batch tasks handled at
	// once by workers of their own; 0 serves the critical queues with the
	// bulk workers (strict priority only: a code then waits for a free one).
	CriticalConcurrency int
	// CriticalPoll is how soon a critical worker looks at its queues again
	// after a task.
	CriticalPoll time.Duration
	// Quiet is the longest an idle asynq server of the gateway waits for a
	// wake before it looks at its queues again (jobs.DefaultQuiet; the command
	// sets it from config.Config.TaskQuiet, TASK_QUIET, as the worker's; 0: it
	// polls every CriticalPoll or 100 ms; jobs.WakeChannel).
	Quiet time.Duration
	// SandboxPeer is the system_id a sandbox bind's SMSC must name in its bind
	// response (GATEWAY_SANDBOX_PEER); any other peer is refused.
	SandboxPeer string
	// BindLeases splits the configured binds between the gateways that share
	// them (GATEWAY_BIND_LEASES, on by default; lease.go): each bind is held by
	// one gateway at a time. Off, this gateway opens every bind itself.
	BindLeases bool
	// JournalDir holds the start journals of this host's gateways
	// (GATEWAY_JOURNAL_DIR, by default chapar-gateway in the temporary
	// directory; "off" disables it; journal.go): a gateway killed then leaves
	// unknown only the recipients it had started, not its whole grant. Give
	// every host its own directory: a gateway reads the journals of the dead
	// ones beside it.
	JournalDir string
	// IDRetention is how long an accepted part's message id is kept in Redis
	// (MESSAGE_ID_REDIS_RETENTION; by default MESSAGE_ID_RETENTION, as the
	// worker's, send.DefaultIDRetention). Receipts that name their handset look in
	// Redis only for the parts of the last two hours and find older ones in
	// PostgreSQL; a shorter time here costs only receipts without a handset
	// (docs/configuration.md).
	IDRetention time.Duration
}

// fileBind is an entry of GATEWAY_BINDS_FILE; absent fields take the values
// of the environment (or their defaults).
type fileBind struct {
	Operator        string    `json:"operator"`
	Host            string    `json:"host"`
	Port            int       `json:"port"`
	SystemID        *string   `json:"system_id"`
	Password        *string   `json:"password"`
	PasswordFile    string    `json:"password_file"`
	TPS             *float64  `json:"tps"`
	Window          *int      `json:"window"`
	EnquireLink     *duration `json:"enquire_link"`
	ReconnectMax    *duration `json:"reconnect_max"`
	ResponseTimeout *duration `json:"response_timeout"`
	ThrottlePause   *duration `json:"throttle_pause"`
	RetryStatuses   []string  `json:"retry_statuses"`
	RetryMax        *int      `json:"retry_max"`
	RetryBackoff    *duration `json:"retry_backoff"`
	Alphabet        string    `json:"alphabet"`
	CriticalShare   *float64  `json:"critical_share"`
	SourceTON       *uint8    `json:"source_ton"`
	SourceNPI       *uint8    `json:"source_npi"`
	DestTON         *uint8    `json:"dest_ton"`
	DestNPI         *uint8    `json:"dest_npi"`
	// Count opens that many identical binds (default 1).
	Count int `json:"count"`
}

// applyRetry sets the entry's retry settings on b.
func (e fileBind) applyRetry(b *BindConfig) error {
	if e.RetryStatuses != nil {
		st, err := parseStatuses(e.RetryStatuses)
		if err != nil {
			return fmt.Errorf("retry_statuses: %w", err)
		}
		b.RetryStatuses = st
	}
	if e.RetryMax != nil {
		b.RetryMax = *e.RetryMax
	}
	if e.RetryBackoff != nil {
		b.RetryBackoff = time.Duration(*e.RetryBackoff)
	}
	if e.Alphabet != "" {
		b.Alphabet = strings.ToLower(e.Alphabet)
	}
	if e.CriticalShare != nil {
		b.CriticalShare = *e.CriticalShare
	}
	b.SourceTON, b.SourceNPI = cmp.Or(e.SourceTON, b.SourceTON), cmp.Or(e.SourceNPI, b.SourceNPI)
	b.DestTON, b.DestNPI = cmp.Or(e.DestTON, b.DestTON), cmp.Or(e.DestNPI, b.DestNPI)
	return nil
}

// duration reads a JSON duration: a Go duration string ("15s") or a number
// of seconds.
type duration time.Duration

// UnmarshalJSON reads a Go duration string ("15s") or a number of seconds.
func (d *duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("duration %q: %w", s, err)
		}
		*d = duration(v)
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("duration %s: want a string such as \"15s\" or seconds", b)
	}
	*d = duration(f * float64(time.Second))
	return nil
}

// LoadConfig reads the gateway's configuration from the environment
// (getenv, normally os.Getenv). profile is CHAPAR_PROFILE: "bench" makes the
// default TPS unlimited.
//
//	GATEWAY_BINDS_FILE         JSON array of binds (see fileBind); overrides GATEWAY_BINDS
//	GATEWAY_BINDS              "mci=host:port,irancell=host:port,…" (DefaultBinds)
//	GATEWAY_BINDS_PER_OPERATOR binds opened per GATEWAY_BINDS entry (1)
//	SMPP_SYSTEM_ID             (chapar)
//	SMPP_PASSWORD, SMPP_PASSWORD_FILE (secret)
//	GATEWAY_TPS                submit_sm/s per bind, 0 unlimited (200; bench profile 0)
//	GATEWAY_WINDOW             submit_sm in flight per bind (100)
//	GATEWAY_ENQUIRE_LINK       keep-alive interval (15s)
//	GATEWAY_RECONNECT_MAX      reconnect back-off cap (30s)
//	GATEWAY_RESPONSE_TIMEOUT   submit_sm_resp time-out, then unknown (10s)
//	GATEWAY_THROTTLE_PAUSE     submit pause after ESME_RTHROTTLED (100ms; the rate is also halved)
//	GATEWAY_RETRY_STATUSES     statuses after which a part is submitted again (0x58,0x14,0x08)
//	GATEWAY_RETRY_MAX          retries of a part after a status other than 0x58 (4)
//	GATEWAY_RETRY_BACKOFF      wait before a part's first retry, doubling after (250ms)
//	GATEWAY_ALPHABET           the SMSC's default alphabet: gsm, ascii or latin1 (gsm)
//	GATEWAY_OTHER_ROUTE        operator carrying "other" numbers, "none" to disable (mci)
//	GATEWAY_HTTP_ADDR          status endpoint (127.0.0.1:2790)
//	GATEWAY_CONCURRENCY        batch tasks at once (8)
//	GATEWAY_DELIVER_WORKERS    a bind's deliver_sm queue, in 1,024s (64)
//	GATEWAY_INSTANCE_ID        heartbeat name (hostname-pid)
//	GATEWAY_PROCS              threads running Go code at once (1); a GOMAXPROCS in the environment wins
//	GATEWAY_SHUTDOWN_TIMEOUT   graceful stop bound (30s)
//	GATEWAY_CRITICAL_SHARE     share of each bind's window and TPS bulk never takes (0.2; 0 none)
//	GATEWAY_CRITICAL_CONCURRENCY critical batch tasks at once, on workers of their own (8; 0 shares the bulk ones)
//	GATEWAY_CRITICAL_POLL      poll of the critical queues after a task (20ms)
//	GATEWAY_BIND_LEASES        1: split the binds between gateways by leases in Redis; 0: open every bind (1)
func LoadConfig(profile string, getenv func(string) string) (Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	e := &envReader{getenv: getenv}
	def := BindConfig{
		SystemID:        e.str("SMPP_SYSTEM_ID", DefaultSystemID),
		Password:        e.secret("SMPP_PASSWORD", DefaultPassword),
		TPS:             e.tps(profile),
		Window:          e.integer("GATEWAY_WINDOW", DefaultWindow),
		EnquireLink:     e.duration("GATEWAY_ENQUIRE_LINK", DefaultEnquireLink),
		ReconnectMax:    e.duration("GATEWAY_RECONNECT_MAX", DefaultReconnectMax),
		ResponseTimeout: e.duration("GATEWAY_RESPONSE_TIMEOUT", DefaultResponseTimeout),
		ThrottlePause:   e.duration("GATEWAY_THROTTLE_PAUSE", DefaultThrottlePause),
		RetryStatuses:   e.statuses("GATEWAY_RETRY_STATUSES", DefaultRetryStatuses),
		RetryMax:        e.integer("GATEWAY_RETRY_MAX", DefaultRetryMax),
		RetryBackoff:    e.duration("GATEWAY_RETRY_BACKOFF", DefaultRetryBackoff),
		Alphabet:        strings.ToLower(e.str("GATEWAY_ALPHABET", "gsm")),
		CriticalShare:   e.share("GATEWAY_CRITICAL_SHARE", DefaultCriticalShare),
	}
	host, _ := os.Hostname()
	cfg := Config{
		OtherRoute:      e.str("GATEWAY_OTHER_ROUTE", DefaultOtherRoute),
		HTTPAddr:        e.str("GATEWAY_HTTP_ADDR", DefaultHTTPAddr),
		Concurrency:     e.integer("GATEWAY_CONCURRENCY", DefaultConcurrency),
		DeliverWorkers:  e.integer("GATEWAY_DELIVER_WORKERS", DefaultDeliverWorkers),
		Procs:           e.integer("GATEWAY_PROCS", DefaultProcs),
		InstanceID:      e.str("GATEWAY_INSTANCE_ID", fmt.Sprintf("%s-%d", host, os.Getpid())),
		ShutdownTimeout: e.duration("GATEWAY_SHUTDOWN_TIMEOUT", DefaultShutdownTimeout),
		IDRetention:     e.duration("MESSAGE_ID_REDIS_RETENTION", e.duration("MESSAGE_ID_RETENTION", send.DefaultIDRetention)),

		CriticalConcurrency: e.integer("GATEWAY_CRITICAL_CONCURRENCY", DefaultCriticalConcurrency),
		CriticalPoll:        e.duration("GATEWAY_CRITICAL_POLL", DefaultCriticalPoll),
		Quiet:               jobs.DefaultQuiet,
		SandboxPeer:         e.str("GATEWAY_SANDBOX_PEER", DefaultSandboxPeer),
		BindLeases:          e.str("GATEWAY_BIND_LEASES", "1") != "0",
		JournalDir:          e.str("GATEWAY_JOURNAL_DIR", filepath.Join(os.TempDir(), "chapar-gateway")),
	}
	if strings.EqualFold(cfg.JournalDir, "off") {
		cfg.JournalDir = ""
	}
	if strings.EqualFold(cfg.OtherRoute, "none") {
		cfg.OtherRoute = ""
	}
	var err error
	if file := e.str("GATEWAY_BINDS_FILE", ""); file != "" {
		cfg.Binds, err = readBindsFile(file, def)
	} else {
		cfg.Binds, err = parseBinds(e.str("GATEWAY_BINDS", DefaultBinds), e.integer("GATEWAY_BINDS_PER_OPERATOR", 1), def)
	}
	e.add(err)
	if err := errors.Join(e.errs...); err != nil {
		return cfg, fmt.Errorf("gateway config: %w", err)
	}
	return cfg, cfg.Validate()
}

// envReader reads settings from the environment, collecting every malformed
// value so that start-up names them all at once.
type envReader struct {
	getenv func(string) string
	errs   []error
}

func (e *envReader) add(err error) {
	if err != nil {
		e.errs = append(e.errs, err)
	}
}

func (e *envReader) str(k, def string) string {
	if v := strings.TrimSpace(e.getenv(k)); v != "" {
		return v
	}
	return def
}

func (e *envReader) integer(k string, def int) int {
	v := e.str(k, "")
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		e.add(fmt.Errorf("%s=%q: want a non-negative integer", k, v))
		return def
	}
	return n
}

func (e *envReader) duration(k string, def time.Duration) time.Duration {
	v := e.str(k, "")
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		e.add(fmt.Errorf("%s=%q: want a positive duration such as 15s", k, v))
		return def
	}
	return d
}

// share reads a fraction from 0 to maxCriticalShare.
func (e *envReader) share(k string, def float64) float64 {
	v := e.str(k, "")
	if v == "" {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || f > maxCriticalShare {
		e.add(fmt.Errorf("%s=%q: want a fraction from 0 to %g", k, v, maxCriticalShare))
		return def
	}
	return f
}

// secret reads k, or the file named by k_FILE when that is set.
func (e *envReader) secret(k, def string) string {
	f := e.str(k+"_FILE", "")
	if f == "" {
		return e.str(k, def)
	}
	b, err := os.ReadFile(f)
	if err != nil {
		e.add(fmt.Errorf("%s_FILE: %w", k, err))
		return e.str(k, def)
	}
	return strings.TrimSpace(string(b))
}

// statuses reads a comma-separated list of command_status values (0x14,8,…).
func (e *envReader) statuses(k string, def []smpp.Status) []smpp.Status {
	v := e.str(k, "")
	if v == "" {
		return def
	}
	out, err := parseStatuses(strings.Split(v, ","))
	if err != nil {
		e.add(fmt.Errorf("%s: %w", k, err))
		return def
	}
	return out
}

// parseStatuses reads command_status values written in hex (0x14) or decimal.
func parseStatuses(list []string) ([]smpp.Status, error) {
	out := make([]smpp.Status, 0, len(list))
	for _, s := range list {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		n, err := strconv.ParseUint(s, 0, 32)
		if err != nil || n == 0 {
			return nil, fmt.Errorf("%q: want a non-zero command_status such as 0x14", s)
		}
		out = append(out, smpp.Status(n))
	}
	return out, nil
}

// tps is the default submit rate of a bind: DefaultTPS, unlimited in the bench
// profile, or GATEWAY_TPS.
func (e *envReader) tps(profile string) float64 {
	tps := float64(DefaultTPS)
	if profile == "bench" {
		tps = 0
	}
	if v := e.str("GATEWAY_TPS", ""); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 {
			e.add(fmt.Errorf("GATEWAY_TPS=%q: want a non-negative number", v))
		} else {
			tps = f
		}
	}
	return tps
}

// parseBinds reads the GATEWAY_BINDS shorthand.
func parseBinds(s string, perOperator int, def BindConfig) ([]BindConfig, error) {
	if perOperator < 1 {
		return nil, fmt.Errorf("GATEWAY_BINDS_PER_OPERATOR must be at least 1, got %d", perOperator)
	}
	var out []BindConfig
	for entry := range strings.SplitSeq(s, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		op, addr, ok := strings.Cut(entry, "=")
		if !ok {
			return nil, fmt.Errorf("GATEWAY_BINDS entry %q: want operator=host:port", entry)
		}
		h, p, err := net.SplitHostPort(strings.TrimSpace(addr))
		if err != nil {
			return nil, fmt.Errorf("GATEWAY_BINDS entry %q: %w", entry, err)
		}
		port, err := strconv.Atoi(p)
		if err != nil {
			return nil, fmt.Errorf("GATEWAY_BINDS entry %q: port %q", entry, p)
		}
		b := def
		b.Operator, b.Host, b.Port = strings.ToLower(strings.TrimSpace(op)), h, port
		for range perOperator {
			out = append(out, b)
		}
	}
	return out, nil
}

// readBindsFile reads GATEWAY_BINDS_FILE.
func readBindsFile(path string, def BindConfig) ([]BindConfig, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("GATEWAY_BINDS_FILE: %w", err)
	}
	var entries []fileBind
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, fmt.Errorf("GATEWAY_BINDS_FILE %s: %w", path, err)
	}
	var out []BindConfig
	for i, e := range entries {
		b := def
		b.Operator, b.Host, b.Port = strings.ToLower(strings.TrimSpace(e.Operator)), e.Host, e.Port
		if b.Host == "" {
			b.Host = "127.0.0.1"
		}
		if e.SystemID != nil {
			b.SystemID = *e.SystemID
		}
		switch {
		case e.PasswordFile != "":
			pw, err := os.ReadFile(e.PasswordFile)
			if err != nil {
				return nil, fmt.Errorf("GATEWAY_BINDS_FILE entry %d: password_file: %w", i, err)
			}
			b.Password = strings.TrimSpace(string(pw))
		case e.Password != nil:
			b.Password = *e.Password
		}
		if e.TPS != nil {
			b.TPS = *e.TPS
		}
		if e.Window != nil {
			b.Window = *e.Window
		}
		if e.EnquireLink != nil {
			b.EnquireLink = time.Duration(*e.EnquireLink)
		}
		if e.ReconnectMax != nil {
			b.ReconnectMax = time.Duration(*e.ReconnectMax)
		}
		if e.ResponseTimeout != nil {
			b.ResponseTimeout = time.Duration(*e.ResponseTimeout)
		}
		if err := e.applyRetry(&b); err != nil {
			return nil, fmt.Errorf("GATEWAY_BINDS_FILE entry %d: %w", i, err)
		}
		if e.ThrottlePause != nil {
			b.ThrottlePause = time.Duration(*e.ThrottlePause)
		}
		n := max(e.Count, 1)
		for range n {
			out = append(out, b)
		}
	}
	return out, nil
}

// Validate checks the configuration.
func (c Config) Validate() error {
	var errs []error
	if len(c.Binds) == 0 {
		errs = append(errs, errors.New("no binds configured"))
	}
	bound := map[string]bool{}
	for i, b := range c.Binds {
		if !slices.Contains(bindable, b.Operator) {
			errs = append(errs, fmt.Errorf("bind %d: unknown operator %q (want one of %s)", i, b.Operator, strings.Join(bindable, ", ")))
		}
		if b.Host == "" || b.Port <= 0 || b.Port > 65535 {
			errs = append(errs, fmt.Errorf("bind %d (%s): invalid address %q", i, b.Operator, b.Addr()))
		}
		errs = append(errs, b.validateBind(i)...)
		if b.TPS < 0 || b.Window < 0 || b.EnquireLink < 0 || b.ReconnectMax < 0 || b.ResponseTimeout < 0 || b.ThrottlePause < 0 ||
			b.RetryMax < 0 || b.RetryBackoff < 0 {
			errs = append(errs, fmt.Errorf("bind %d (%s): negative tps, window or duration", i, b.Operator))
		}
		bound[b.Operator] = true
	}
	if c.OtherRoute != "" && !knownOperator(c.OtherRoute) {
		errs = append(errs, fmt.Errorf("GATEWAY_OTHER_ROUTE %q: unknown operator", c.OtherRoute))
	}
	if c.SandboxPeer == "" && bound[OperatorSandbox] {
		errs = append(errs, errors.New("GATEWAY_SANDBOX_PEER is empty: a sandbox bind needs the simulator's system_id"))
	}
	if c.Concurrency < 1 {
		errs = append(errs, fmt.Errorf("GATEWAY_CONCURRENCY must be at least 1, got %d", c.Concurrency))
	}
	if c.CriticalConcurrency < 0 || (c.CriticalConcurrency > 0 && c.CriticalPoll <= 0) {
		errs = append(errs, fmt.Errorf("GATEWAY_CRITICAL_CONCURRENCY %d with poll %v: want 0, or workers and a positive poll", c.CriticalConcurrency, c.CriticalPoll))
	}
	if c.InstanceID == "" {
		errs = append(errs, errors.New("empty instance id"))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("gateway config: %w", err)
	}
	return nil
}

// boundOperators returns the operators this configuration has binds for, in
// the order of Operators, then the sandbox.
func (c Config) boundOperators() []string {
	var out []string
	for _, op := range bindable {
		for _, b := range c.Binds {
			if b.Operator == op {
				out = append(out, op)
				break
			}
		}
	}
	return out
}

// QueueOperators returns the operators whose carrier queues this gateway
// consumes: those it has binds for, plus "other" when OtherRoute is one of
// them.
func (c Config) QueueOperators() []string {
	ops := c.boundOperators()
	for _, op := range ops {
		if op == c.OtherRoute {
			return append(ops, OperatorOther)
		}
	}
	return ops
}

func knownOperator(op string) bool { return slices.Contains(Operators, op) }
