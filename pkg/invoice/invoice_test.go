package invoice_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/invoice"
)

// account makes an account with an owner and returns its id.
func account(t *testing.T, d testenv.Database, name, user, mobile string) int64 {
	t.Helper()
	ctx := context.Background()
	var id int64
	if err := d.Pool.QueryRow(ctx, `INSERT INTO accounts (name) VALUES ($1) RETURNING id`, name).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Pool.Exec(ctx, `INSERT INTO users (account_id, username, password_hash, name, mobile, is_owner)
		VALUES ($1, $2, 'x', 'مریم رضایی', $3, true)`, id, user, mobile); err != nil {
		t.Fatal(err)
	}
	return id
}

// pay inserts a payment of the account in a state.
func pay(t *testing.T, d testenv.Database, acct int64, state string) int64 {
	t.Helper()
	var id int64
	if err := d.Pool.QueryRow(context.Background(), `INSERT INTO payments (account_id, amount, tax, total, gateway, state, bank_ref, settled_at)
		VALUES ($1, 12500000, 1250000, 13750000, 'sandbox', $2, '778899', now()) RETURNING id`, acct, state).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// seller is complete staff settings of the seller.
var seller = invoice.Seller{Name: "شرکت آزمون", NationalID: "۱۴۰۰۶۳۹۲۵۱۷", EconomicCode: "411345678912",
	RegistrationNo: "۵۴۳۲۱", Address: "تهران، خیابان آزادی، پلاک ۱۰", PostalCode: "1459812345", Phone: "02188776655"}

// setSeller stores the seller's details as staff would.
func setSeller(t *testing.T, svc *invoice.Service) {
	t.Helper()
	if _, err := svc.SetSeller(context.Background(), acl.Identity{Username: "staff"}, seller, "127.0.0.1"); err != nil {
		t.Fatal(err)
	}
}

// No invoice is issued before staff set the seller's details: the first download
// is refused with the Persian message (409) and nothing is kept; an incomplete or
// malformed form is refused field by field and changes nothing.
func TestInvoiceRefusedWithoutSeller(t *testing.T) {
	ctx := context.Background()
	d := testenv.Postgres(t)
	a := account(t, d, "بی‌فروشنده", "invoice_s", "989121110004")
	paid := pay(t, d, a, "paid")
	svc := invoice.New(d.Pool, "/bin/false")
	_, err := svc.PDF(ctx, a, paid)
	if e, ok := apperr.As(err); !ok || e.Kind != apperr.Conflict || e.Message != invoice.MsgSellerMissing {
		t.Fatalf("invoice without a seller: %v, want the 409 %q", err, invoice.MsgSellerMissing)
	}
	var kept int
	if err := d.Pool.QueryRow(ctx, `SELECT count(*) FROM invoices`).Scan(&kept); err != nil || kept != 0 {
		t.Fatalf("invoices kept: %d %v", kept, err)
	}
	bad := seller
	bad.PostalCode, bad.EconomicCode, bad.Name = "123", "", " "
	_, err = svc.SetSeller(ctx, acl.Identity{Username: "staff"}, bad, "")
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Invalid {
		t.Fatalf("bad seller: %v", err)
	}
	for _, f := range []string{"postal_code", "economic_code", "name"} {
		if len(e.Fields[f]) == 0 {
			t.Errorf("no error on %s: %v", f, e.Fields)
		}
	}
	if got, err := svc.Seller(ctx); err != nil || got.Complete() {
		t.Fatalf("a refused form was stored: %+v %v", got, err)
	}
	setSeller(t, svc)
	got, err := svc.Seller(ctx)
	if err != nil || !got.Complete() || got.NationalID != "14006392517" || got.RegistrationNo != "54321" {
		t.Fatalf("stored seller %+v %v (digits are kept Latin)", got, err)
	}
}

// The invoice of a paid payment is a PDF holding the expected Persian text and
// amounts; page 1 renders to PNG (the image shows the letters joined, right to left),
// and the second download is the kept copy. Another account's
// payment and an unpaid one are not found.
func TestInvoicePDF(t *testing.T) {
	for _, tool := range []string{"pdftoppm", "pdftotext"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed (apt-get install poppler-utils): %v", tool, err)
		}
	}
	ctx := context.Background()
	d := testenv.Postgres(t)
	a := account(t, d, "فروشگاه نمونه", "invoice_a", "989121110001")
	b := account(t, d, "دیگری", "invoice_b", "989121110002")
	paid, pending := pay(t, d, a, "paid"), pay(t, d, a, "pending")
	svc := invoice.New(d.Pool, "")
	setSeller(t, svc)
	if _, err := d.Pool.Exec(ctx, `INSERT INTO profiles (account_id, person_type, details) VALUES ($1, 'legal', $2)`, a,
		`{"company_name": "فروشگاه نمونه", "company_national_id": "10101234567", "economic_number": "411122223333",
		  "registration_number": "98765", "address": "اصفهان، خیابان چهارباغ", "postal_code": "8145678901"}`); err != nil {
		t.Fatal(err)
	}

	pdf, err := svc.PDF(ctx, a, paid)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF")) {
		t.Fatalf("not a PDF: %q", pdf[:min(len(pdf), 20)])
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "invoice.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	text, err := exec.Command("pdftotext", "-enc", "UTF-8", in, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"فاکتور", "شرکت آزمون", "کد اقتصادی", "فروشگاه نمونه", "مریم رضایی", "۱۲٬۵۰۰٬۰۰۰", "۱٬۲۵۰٬۰۰۰", "۱۳٬۷۵۰٬۰۰۰", "۰۹۱۲۱۱۱۰۰۰۱",
		"۱۴۰۰۶۳۹۲۵۱۷", "۴۱۱۳۴۵۶۷۸۹۱۲", "۵۴۳۲۱", "۱۴۵۹۸۱۲۳۴۵", // the seller's settings
		"۱۰۱۰۱۲۳۴۵۶۷", "۴۱۱۱۲۲۲۲۳۳۳۳", "۹۸۷۶۵", "۸۱۴۵۶۷۸۹۰۱", "چهارباغ"} { // the buyer's profile
		if !strings.Contains(string(text), want) {
			t.Errorf("invoice text lacks %q:\n%s", want, text)
		}
	}
	png := filepath.Join(dir, "page")
	if out, err := exec.Command("pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile", in, png).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v %s", err, out)
	}
	if st, err := os.Stat(png + ".png"); err != nil || st.Size() < 5000 {
		t.Fatalf("page 1 did not render: %v", err)
	}
	t.Logf("page 1 rendered to %s.png", png)

	again, err := svc.PDF(ctx, a, paid)
	if err != nil || !bytes.Equal(again, pdf) {
		t.Fatalf("second download is not the kept invoice: %v", err)
	}
	for name, c := range map[string][2]int64{"other account": {b, paid}, "unpaid": {a, pending}} {
		if _, err := svc.PDF(ctx, c[0], c[1]); !errors.Is(err, apperr.ErrNotFound) {
			t.Errorf("%s: got %v, want not found", name, err)
		}
	}
}

// A Chromium that hangs is stopped at the timeout with everything it started: the
// print fails in time and leaves no process running behind.
func TestRendererTimeoutKillsChromium(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	fake := filepath.Join(dir, "chromium")
	script := "#!/bin/sh\nsleep 60 &\necho $! > " + pidFile + "\nwait\n"
	if err := os.WriteFile(fake, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	r := invoice.NewRenderer(fake)
	r.Timeout = time.Second
	start := time.Now()
	if _, err := r.PDF(context.Background(), invoice.Invoice{PaymentID: 1, Seller: seller}); err == nil {
		t.Fatal("a hanging Chromium printed a PDF")
	}
	// The fake Chromium would run 60 s: far less is the 1 s timeout working,
	// however busy the machine.
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("print took %v, want about the 1 s timeout", d)
	}
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	// The group was killed; on a busy machine the child may take a moment to die
	// (it shows as running with the kill pending), but it dies: left alone it
	// would sleep 60 s, so 30 s is a safety net, not a speed goal.
	proc := "/proc/" + strings.TrimSpace(string(raw)) + "/status"
	var status []byte
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		status, err = os.ReadFile(proc)
		if err != nil || strings.Contains(string(status), "State:\tZ") {
			return
		}
		if time.Now().After(deadline) {
			break
		}
	}
	t.Fatalf("Chromium's child is still running:\n%s", status)
}

// Two first downloads at once get the same kept invoice, though each printed its
// own (this Chromium stand-in writes a different PDF every time, after a pause).
func TestInvoiceConcurrentFirstDownloads(t *testing.T) {
	d := testenv.Postgres(t)
	a := account(t, d, "هم‌زمان", "invoice_c", "989121110003")
	paid := pay(t, d, a, "paid")
	fake := filepath.Join(t.TempDir(), "chromium")
	script := "#!/bin/sh\nsleep 0.3\nfor a; do case $a in --print-to-pdf=*) echo \"%PDF-1.4 $$\" > \"${a#--print-to-pdf=}\";; esac; done\n"
	if err := os.WriteFile(fake, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	svc := invoice.New(d.Pool, fake)
	setSeller(t, svc)
	got := make(chan []byte, 2)
	for range 2 {
		go func() {
			pdf, err := svc.PDF(context.Background(), a, paid)
			if err != nil {
				t.Error(err)
			}
			got <- pdf
		}()
	}
	first, second := <-got, <-got
	if len(first) == 0 || !bytes.Equal(first, second) {
		t.Fatal("concurrent first downloads got different invoices")
	}
}
