package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chapar/chapar/cmd/smsc-sim/smscsim"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadConfigDefaults(t *testing.T) {
	cfg, _, err := loadConfig(nil, envOf(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Operators) != 4 || cfg.Operators[0].Name != "mci" || cfg.Operators[0].Addr != "127.0.0.1:2775" ||
		cfg.Operators[2].Addr != "127.0.0.1:2777" || cfg.Operators[3].Name != "sandbox" || cfg.Operators[3].Addr != "127.0.0.1:2778" {
		t.Fatalf("operators %+v", cfg.Operators)
	}
	if cfg.HTTPAddr != "127.0.0.1:2780" || cfg.SystemID != "chapar" || cfg.Password != "secret" {
		t.Fatalf("addresses/credentials %+v", cfg)
	}
	// Realistic profile.
	if cfg.Rate != 200 || cfg.ReceiptDelayMin != 500*time.Millisecond || cfg.ReceiptDelayMax != 3*time.Second ||
		len(cfg.Outcomes) != 3 || cfg.MessageIDFormat != smscsim.IDHex {
		t.Fatalf("profile %+v", cfg)
	}
}

func TestLoadConfigEnvAndFlags(t *testing.T) {
	pwFile := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(pwFile, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := envOf(map[string]string{
		"CHAPAR_PROFILE":        "bench",
		"SIM_OPERATORS":         "mci:0,irancell:0",
		"SIM_HTTP_ADDR":         "127.0.0.1:0",
		"SIM_SYSTEM_ID":         "gw",
		"SIM_PASSWORD":          "ignored",
		"SIM_PASSWORD_FILE":     pwFile,
		"SIM_RECEIPT_DELAY_MS":  "10-20",
		"SIM_OUTCOMES":          "DELIVRD=0.5,UNDELIV=0.5",
		"SIM_FORCE_OUTCOMES":    "989121234567=UNDELIV",
		"SIM_SEED":              "7",
		"SIM_MESSAGE_ID_FORMAT": "decimal",
		"SIM_RATE":              "50",
	})
	cfg, _, err := loadConfig([]string{"-rate", "0", "-log-level", "warn"}, env, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Operators) != 2 || cfg.SystemID != "gw" || cfg.Password != "s3cret" || cfg.Rate != 0 ||
		cfg.ReceiptDelayMax != 20*time.Millisecond || cfg.Seed != 7 || cfg.MessageIDFormat != smscsim.IDDecimal ||
		cfg.ForcedOutcomes["989121234567"] != smscsim.StatUndeliverable || !cfg.CountOnlyAboveCap {
		t.Fatalf("config %+v", cfg)
	}

	srv, err := smscsim.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if srv.Addr("irancell") == "" || srv.HTTPAddr() == "" {
		t.Fatal("not listening")
	}
	srv.Close()
}

func TestLoadConfigErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-profile", "nope"},
		{"-operators", "mci"},
		{"-rate", "-1"},
		{"-receipt-delay", "9-1"},
		{"-outcomes", "LOST=1"},
		{"-force", "98912"},
		{"-seed", "x"},
		{"-id-format", "octal"},
		{"-retry-timeout", "0s"},
		{"-max-stored", "-5"},
		{"-log-level", "loud"},
		{"-password-file", "/nonexistent/pw"},
		{"extra"},
	} {
		if _, _, err := loadConfig(args, envOf(nil), io.Discard); err == nil {
			t.Fatalf("%v accepted", args)
		}
	}
}
