package invoice

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/chapar/chapar/pkg/persian"
)

//go:embed assets/*.woff2 invoice.html
var files embed.FS

var page = template.Must(template.New("invoice.html").Funcs(template.FuncMap{
	"rials":  Rials,
	"fa":     persian.Digits,
	"jalali": func(t time.Time) string { return persian.Digits(persian.JalaliDateTime(t)) },
}).ParseFS(files, "invoice.html"))

// Rials writes an amount with Persian digits and thousands separators («۱٬۱۰۰٬۰۰۰»).
func Rials(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteRune('٬')
		}
		b.WriteRune(r)
	}
	out := persian.Digits(b.String())
	if neg {
		out = "-" + out
	}
	return out
}

// HTML writes the invoice page.
func HTML(in Invoice) ([]byte, error) {
	var b bytes.Buffer
	if err := page.Execute(&b, in); err != nil {
		return nil, fmt.Errorf("invoice page: %w", err)
	}
	return b.Bytes(), nil
}

// Renderer prints invoice pages to PDF with headless Chromium. At most a few
// prints run at once and each is bounded by Timeout; Chromium and its children
// are killed when it runs out.
type Renderer struct {
	Chromium string
	Timeout  time.Duration
	slots    chan struct{}
}

// NewRenderer returns a renderer of the Chromium at bin (empty: /usr/bin/chromium),
// 30 s a print.
func NewRenderer(bin string) *Renderer {
	if bin == "" {
		bin = "/usr/bin/chromium"
	}
	return &Renderer{Chromium: bin, Timeout: 30 * time.Second, slots: make(chan struct{}, 2)}
}

// PDF prints the invoice to PDF.
func (r *Renderer) PDF(ctx context.Context, in Invoice) ([]byte, error) {
	html, err := HTML(in)
	if err != nil {
		return nil, err
	}
	select {
	case r.slots <- struct{}{}:
		defer func() { <-r.slots }()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	dir, err := os.MkdirTemp("", "chapar-invoice-")
	if err != nil {
		return nil, fmt.Errorf("invoice temp dir: %w", err)
	}
	defer os.RemoveAll(dir)
	if err := writePage(dir, html); err != nil {
		return nil, err
	}
	return r.print(ctx, dir)
}

// writePage writes the page and its fonts into dir.
func writePage(dir string, html []byte) error {
	fonts, _ := files.ReadDir("assets")
	for _, f := range fonts {
		b, _ := files.ReadFile("assets/" + f.Name())
		if err := os.WriteFile(filepath.Join(dir, f.Name()), b, 0o600); err != nil {
			return fmt.Errorf("invoice font: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "invoice.html"), html, 0o600); err != nil {
		return fmt.Errorf("invoice page: %w", err)
	}
	return nil
}

// print runs Chromium on dir/invoice.html and returns the PDF it writes.
func (r *Renderer) print(ctx context.Context, dir string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	out := filepath.Join(dir, "invoice.pdf")
	cmd := exec.CommandContext(ctx, r.Chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
		"--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--no-pdf-header-footer",
		"--print-to-pdf="+out, "file://"+filepath.Join(dir, "invoice.html"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // helpers Chromium left behind
	}
	if err != nil {
		return nil, fmt.Errorf("chromium print: %w: %s", err, tail(stderr.String()))
	}
	pdf, err := os.ReadFile(out)
	if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF")) {
		return nil, errors.Join(errors.New("chromium wrote no PDF"), err)
	}
	return pdf, nil
}

// tail is the end of Chromium's error output, for the log.
func tail(s string) string {
	if len(s) > 500 {
		return s[len(s)-500:]
	}
	return s
}
