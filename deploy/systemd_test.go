package deploy

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The services' units, as the package installs them.
var services = []string{"chapar-api.service", "chapar-worker.service", "chapar-smpp-gateway.service"}

// The units are valid for Debian's systemd (systemd-analyze verify prints nothing,
// with stand-ins for the binaries), hardened (systemd-analyze security rates each
// at most 2.5 of 10), and each service restarts always, runs as chapar, reads the
// env files, gets its secrets as credentials and requires the migrations.
func TestSystemdUnits(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Fatalf("systemd-analyze (Debian's systemd) is needed: %v", err)
	}
	root := unitRoot(t)
	units := append([]string{"chapar-migrate.service"}, services...)
	args := []string{"verify", "--man=no", "--root=" + root}
	for _, u := range units {
		args = append(args, "/etc/systemd/system/"+u)
	}
	if out, err := exec.Command(analyze, args...).CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
	for _, u := range units {
		out, err := exec.Command(analyze, "security", "--offline=true", "--root="+root, "--threshold=25",
			"/etc/systemd/system/"+u).CombinedOutput()
		if err != nil {
			t.Errorf("systemd-analyze security %s: %v\n%s", u, err, lastLines(string(out), 3))
		}
	}
	for _, u := range services {
		checkService(t, u)
	}
}

// checkService reads one service unit and checks the settings every service has.
func checkService(t *testing.T, unit string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("systemd", unit))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, line := range []string{
		"Restart=always", "User=chapar", "EnvironmentFile=/etc/chapar/chapar.env",
		"LoadCredential=chapar:/etc/chapar/credentials", "Requires=chapar-migrate.service",
		"DATABASE_URL_FILE=%d/chapar_database_url", "TOKEN_SECRET_FILE=%d/chapar_token_secret",
		"NoNewPrivileges=yes", "ProtectSystem=strict", "CapabilityBoundingSet=\n",
		"SystemCallFilter=@system-service", "StateDirectory=chapar",
	} {
		if !strings.Contains(text, line) {
			t.Errorf("%s lacks %q", unit, strings.TrimSpace(line))
		}
	}
}

// unitRoot is a root folder for systemd-analyze: the host's own units (the
// targets ours name), ours in etc/systemd/system, and executable stand-ins for
// the binaries the units run.
func unitRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	sys := filepath.Join(root, "lib/systemd/system")
	copyRegular(t, "/lib/systemd/system", sys)
	etc := filepath.Join(root, "etc/systemd/system")
	copyRegular(t, "systemd", etc)
	bin := filepath.Join(root, "usr/bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, b := range []string{"chapar-api", "chapar-worker", "chapar-smpp-gateway"} {
		if err := os.WriteFile(filepath.Join(bin, b), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// copyRegular copies the regular files directly in src to dst (no links, no folders).
func copyRegular(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Type()&fs.ModeType != 0 {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// lastLines is the end of a command's output, for a failure message.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
