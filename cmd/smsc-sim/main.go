// Command smsc-sim runs Chapar's carrier simulator: one SMPP 3.4 server
// (SMSC) per operator plus a JSON control and inspection API (see package
// cmd/smsc-sim/smscsim). It is used by `make run`, the tests and the benchmarks.
//
// Configuration comes from the environment, overridden by flags:
//
//	CHAPAR_PROFILE        default | bench | test                  (-profile)
//	SIM_OPERATORS         mci:2775,irancell:2776,rightel:2777,sandbox:2778     (-operators)
//	SIM_HOST              listen host for name:port entries, 127.0.0.1 (-host)
//	SIM_HTTP_ADDR         127.0.0.1:2780                          (-http)
//	SIM_SYSTEM_ID         chapar                                  (-system-id)
//	SIM_PASSWORD          secret                                  (-password)
//	SIM_PASSWORD_FILE     file holding the password; wins over SIM_PASSWORD (-password-file)
//	SIM_RATE              submit_sm/s per bind, 0 = unlimited     (-rate)
//	SIM_RECEIPT_DELAY_MS  500-3000                                (-receipt-delay)
//	SIM_OUTCOMES          DELIVRD=0.95,UNDELIV=0.03,EXPIRED=0.02  (-outcomes)
//	SIM_FORCE_OUTCOMES    98912...=UNDELIV,98935...=EXPIRED       (-force)
//	SIM_SEED              deterministic outcomes and ids, 0 = random (-seed)
//	SIM_MESSAGE_ID_FORMAT hex | decimal                           (-id-format)
//	SIM_RECEIPT_ID_FORMAT id format in the receipt text, default same (-receipt-id-format)
//	SIM_RETRY_TIMEOUT     deliver_sm_resp wait before redelivery, 10s (-retry-timeout)
//	SIM_IDLE_TIMEOUT      close sessions silent that long, 0 = never (-idle-timeout)
//	SIM_MAX_STORED        messages kept for inspection            (-max-stored)
//	SIM_KEEP_FROM         sender lines always stored, even above a count-only cap (-keep-from)
//	SIM_MAX_BINDS         bound sessions per system_id and operator, 0 = no limit (-max-binds)
//	SIM_SUBMIT_FAULTS     DEST[:PART]=0x45|drop|hold|nackecho[*TIMES],... (-submit-faults)
//	SIM_ID_RESTART_AFTER  restart the message id counter after that many ids (-id-restart-after)
//	SIM_DATA_SM           1 = send receipts and MO as data_sm     (-data-sm)
//	SIM_POISON_RECEIPTS   DEST=id|source|dest: invalid bytes in that receipt field (-poison-receipts)
//	SIM_BLOCKED           mci:98912...,irancell:98935...: numbers blocked at their operator (*800#) (-blocked)
//	SIM_BLOCKED_ERR       receipt err: code of a blocked number, 014 (-blocked-err)
//	SIM_LOG_LEVEL         debug | info | warn | error             (-log-level)
//	SIM_LOG_FORMAT        text | json                             (-log-format)
//
// Profile defaults apply to whatever is not set. SIGINT or SIGTERM unbinds
// the sessions and exits.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
)

func main() {
	if err := run(os.Args[1:], os.Getenv, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "smsc-sim:", err)
		os.Exit(1)
	}
}

func run(args []string, getenv func(string) string, stderr io.Writer) error {
	cfg, logger, err := loadConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	srv, err := smscsim.Start(ctx, cfg)
	if err != nil {
		return err
	}
	logger.Info("smsc-sim ready", "smpp", srv.Addrs(), "http", srv.HTTPAddr(), "system_id", cfg.SystemID,
		"rate_per_bind", cfg.Rate, "receipt_delay_min", cfg.ReceiptDelayMin, "receipt_delay_max", cfg.ReceiptDelayMax)
	<-ctx.Done()
	logger.Info("shutting down")
	return srv.Close()
}

// loadConfig builds the simulator configuration from the profile, the
// environment and the flags, in increasing precedence.
func loadConfig(args []string, getenv func(string) string, stderr io.Writer) (smscsim.Config, *slog.Logger, error) {
	fs := flag.NewFlagSet("smsc-sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := defineFlags(fs, getenv)
	if err := fs.Parse(args); err != nil {
		return smscsim.Config{}, nil, err
	}
	if fs.NArg() > 0 {
		return smscsim.Config{}, nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	logger, err := newLogger(stderr, *f.logLevel, *f.logFormat)
	if err != nil {
		return smscsim.Config{}, nil, err
	}
	cfg, err := smscsim.Profile(*f.profile)
	if err != nil {
		return cfg, nil, err
	}
	cfg.Logger = logger
	for _, apply := range []func(*smscsim.Config) error{f.applyNetwork, f.applyAuth, f.applyTraffic, f.applyIDs, f.applyLimits} {
		if err := apply(&cfg); err != nil {
			return cfg, nil, err
		}
	}
	return cfg, logger, nil
}

// simFlags are the simulator's command-line flags, each defaulting to its
// environment variable.
type simFlags struct {
	poison, blocked, blockedErr                                          *string
	dataSM                                                               *bool
	profile, operators, host, httpAddr, systemID, password, passwordFile *string
	rate, delay, outcomes, force, seed, idFormat, rcptIDFormat           *string
	retry, idle, maxStored, logLevel, logFormat                          *string
	faults, idRestart, keepFrom, maxBinds                                *string
}

func defineFlags(fs *flag.FlagSet, getenv func(string) string) simFlags {
	env := func(key, def string) string {
		if v := strings.TrimSpace(getenv(key)); v != "" {
			return v
		}
		return def
	}
	return simFlags{
		profile:      fs.String("profile", env("CHAPAR_PROFILE", "default"), "profile: default, bench or test"),
		operators:    fs.String("operators", env("SIM_OPERATORS", "mci:2775,irancell:2776,rightel:2777,sandbox:2778"), "operators as name:port[,name:port...] (port 0 = random)"),
		host:         fs.String("host", env("SIM_HOST", "127.0.0.1"), "listen host for name:port operator entries"),
		httpAddr:     fs.String("http", env("SIM_HTTP_ADDR", "127.0.0.1:2780"), "HTTP control API address (\"off\" disables it)"),
		systemID:     fs.String("system-id", env("SIM_SYSTEM_ID", "chapar"), "system_id ESMEs must bind with"),
		password:     fs.String("password", env("SIM_PASSWORD", "secret"), "password ESMEs must bind with"),
		passwordFile: fs.String("password-file", env("SIM_PASSWORD_FILE", ""), "file holding the password (wins over -password)"),
		rate:         fs.String("rate", env("SIM_RATE", ""), "accepted submit_sm/s per bind, 0 = unlimited (default from profile)"),
		delay:        fs.String("receipt-delay", env("SIM_RECEIPT_DELAY_MS", ""), "receipt delay MIN-MAX in ms (default from profile)"),
		outcomes:     fs.String("outcomes", env("SIM_OUTCOMES", ""), "outcome mix, e.g. DELIVRD=0.95,UNDELIV=0.03,EXPIRED=0.02"),
		force:        fs.String("force", env("SIM_FORCE_OUTCOMES", ""), "forced outcomes per destination, e.g. 989121234567=UNDELIV"),
		seed:         fs.String("seed", env("SIM_SEED", "0"), "seed for deterministic outcomes and ids (0 = random)"),
		idFormat:     fs.String("id-format", env("SIM_MESSAGE_ID_FORMAT", "hex"), "message id format: hex or decimal"),
		rcptIDFormat: fs.String("receipt-id-format", env("SIM_RECEIPT_ID_FORMAT", ""), "id format in the receipt text (default: same)"),
		retry:        fs.String("retry-timeout", env("SIM_RETRY_TIMEOUT", ""), "wait for deliver_sm_resp before redelivery (default 10s)"),
		idle:         fs.String("idle-timeout", env("SIM_IDLE_TIMEOUT", ""), "close sessions silent for that long (default never)"),
		maxStored:    fs.String("max-stored", env("SIM_MAX_STORED", ""), "messages kept for inspection (default from profile)"),
		keepFrom:     fs.String("keep-from", env("SIM_KEEP_FROM", ""), "sender lines whose messages are always stored, comma-separated"),
		maxBinds:     fs.String("max-binds", env("SIM_MAX_BINDS", "0"), "bound sessions per system_id and operator, 0 = no limit (a carrier account's bind quota)"),
		faults:       fs.String("submit-faults", env("SIM_SUBMIT_FAULTS", ""), "error answers, lost responses or a drop before the answer, e.g. 989121234567:2=0x45,*=0x08*2,*:3=drop,989121234568=disconnect*1"),
		dataSM:       fs.Bool("data-sm", env("SIM_DATA_SM", "") == "1", "send receipts and MO as data_sm instead of deliver_sm"),
		poison:       fs.String("poison-receipts", env("SIM_POISON_RECEIPTS", ""), "invalid bytes in a receipt field per destination, e.g. 989121234567=id,989121234568=source"),
		blocked:      fs.String("blocked", env("SIM_BLOCKED", ""), "numbers blocked at their operator (*800#), answered REJECTD with the blocked error, e.g. mci:989121234567,irancell:989351234567"),
		blockedErr:   fs.String("blocked-err", env("SIM_BLOCKED_ERR", smscsim.DefaultBlockedErr), "receipt err: code of a blocked number"),
		idRestart:    fs.String("id-restart-after", env("SIM_ID_RESTART_AFTER", ""), "restart the message id counter after that many ids (reuse)"),
		logLevel:     fs.String("log-level", env("SIM_LOG_LEVEL", "info"), "log level: debug, info, warn, error"),
		logFormat:    fs.String("log-format", env("SIM_LOG_FORMAT", "text"), "log format: text or json"),
	}
}

func (f simFlags) applyNetwork(cfg *smscsim.Config) (err error) {
	if cfg.Operators, err = smscsim.ParseOperators(*f.operators, *f.host); err != nil {
		return err
	}
	if strings.EqualFold(*f.httpAddr, "off") {
		cfg.NoHTTP = true
	} else {
		cfg.HTTPAddr = *f.httpAddr
	}
	return nil
}

func (f simFlags) applyAuth(cfg *smscsim.Config) error {
	cfg.SystemID, cfg.Password = *f.systemID, *f.password
	if *f.passwordFile == "" {
		return nil
	}
	b, err := os.ReadFile(*f.passwordFile)
	if err != nil {
		return fmt.Errorf("password file: %w", err)
	}
	cfg.Password = strings.TrimRight(string(b), "\r\n")
	if cfg.Password == "" {
		return errors.New("password file is empty")
	}
	return nil
}

// applyTraffic sets the accepted rate, the receipt delay and the outcomes.
func (f simFlags) applyTraffic(cfg *smscsim.Config) (err error) {
	if *f.rate != "" {
		r, err := strconv.ParseFloat(*f.rate, 64)
		if err != nil || r < 0 {
			return fmt.Errorf("rate %q: want a non-negative number", *f.rate)
		}
		cfg.Rate, cfg.Burst = r, 0
	}
	if *f.delay != "" {
		if cfg.ReceiptDelayMin, cfg.ReceiptDelayMax, err = smscsim.ParseDelay(*f.delay); err != nil {
			return err
		}
	}
	if *f.outcomes != "" {
		if cfg.Outcomes, err = smscsim.ParseOutcomes(*f.outcomes); err != nil {
			return err
		}
	}
	if *f.force != "" {
		if cfg.ForcedOutcomes, err = parseForced(*f.force); err != nil {
			return err
		}
	}
	if *f.faults != "" {
		if cfg.SubmitFaults, err = smscsim.ParseFaults(*f.faults); err != nil {
			return err
		}
	}
	cfg.DataSM = *f.dataSM
	cfg.BlockedErr = *f.blockedErr
	if cfg.Blocked, err = smscsim.ParseBlocked(*f.blocked); err != nil {
		return err
	}
	if *f.poison != "" {
		cfg.PoisonReceipts, err = smscsim.ParsePoison(*f.poison)
	}
	return err
}

// parseForced reads destination=STAT pairs.
func parseForced(s string) (map[string]smscsim.Stat, error) {
	out := map[string]smscsim.Stat{}
	for item := range strings.SplitSeq(s, ",") {
		dest, st, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok || dest == "" {
			return nil, fmt.Errorf("forced outcome %q: want destination=STAT", item)
		}
		stat, err := smscsim.ParseStat(st)
		if err != nil {
			return nil, err
		}
		out[dest] = stat
	}
	return out, nil
}

// applyIDs sets the seed and the message id formats.
func (f simFlags) applyIDs(cfg *smscsim.Config) (err error) {
	if cfg.Seed, err = strconv.ParseInt(*f.seed, 10, 64); err != nil {
		return fmt.Errorf("seed %q: want an integer", *f.seed)
	}
	if cfg.MessageIDFormat, err = smscsim.ParseIDFormat(*f.idFormat); err != nil {
		return err
	}
	if *f.rcptIDFormat != "" {
		if cfg.ReceiptTextIDFormat, err = smscsim.ParseIDFormat(*f.rcptIDFormat); err != nil {
			return err
		}
	}
	if *f.idRestart != "" {
		if cfg.IDRestartAfter, err = strconv.ParseUint(*f.idRestart, 10, 64); err != nil {
			return fmt.Errorf("id-restart-after %q: want a whole number", *f.idRestart)
		}
	}
	return nil
}

// applyLimits sets the redelivery and idle time-outs and the inspection store's size.
func (f simFlags) applyLimits(cfg *smscsim.Config) (err error) {
	if *f.retry != "" {
		if cfg.RetryTimeout, err = parsePositiveDuration("retry-timeout", *f.retry); err != nil {
			return err
		}
	}
	if *f.idle != "" {
		if cfg.IdleTimeout, err = parsePositiveDuration("idle-timeout", *f.idle); err != nil {
			return err
		}
	}
	if *f.maxStored != "" {
		n, err := strconv.Atoi(*f.maxStored)
		if err != nil || n <= 0 {
			return fmt.Errorf("max-stored %q: want a positive integer", *f.maxStored)
		}
		cfg.MaxStored = n
	}
	if cfg.MaxBinds, err = strconv.Atoi(*f.maxBinds); err != nil || cfg.MaxBinds < 0 {
		return fmt.Errorf("max-binds %q: want 0 or a positive integer", *f.maxBinds)
	}
	for from := range strings.SplitSeq(*f.keepFrom, ",") {
		if from = strings.TrimSpace(from); from != "" {
			cfg.KeepFrom = append(cfg.KeepFrom, from)
		}
	}
	return nil
}

func parsePositiveDuration(name, s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s %q: want a positive duration such as 10s", name, s)
	}
	return d, nil
}

func newLogger(w io.Writer, level, format string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("log level %q: %w", level, err)
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch strings.ToLower(format) {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("log format %q: want text or json", format)
}
