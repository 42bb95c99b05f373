package sandbox

import (
	"embed"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/chapar/chapar/pkg/persian"
)

//go:embed page.html
var pageFS embed.FS

var page = template.Must(template.ParseFS(pageFS, "page.html"))

// pageData fills the bank page.
type pageData struct {
	Session
	AmountFa string
	Open     bool
	Action   string
	Message  string
}

// choices maps the page's buttons to the states they record.
var choices = map[string]string{"pay": Paid, "fail": Failed, "cancel": Canceled, "taken": Taken}

// ServePage answers the bank page of a session (GET) or the payer's choice (POST,
// then a 303 redirect to the merchant's signed callback).
func (b *Bank) ServePage(w http.ResponseWriter, r *http.Request, authority string) {
	w.Header().Set("Cache-Control", "no-store")
	if r.Method == http.MethodPost {
		b.submit(w, r, authority)
		return
	}
	s, err := b.Inquire(r.Context(), authority)
	if err != nil {
		b.render(w, r, http.StatusNotFound, pageData{Message: "تراکنش یافت نشد"})
		return
	}
	d := pageData{Session: s, AmountFa: persian.Digits(group(s.Amount)), Open: s.State == Created,
		Action: b.PayURL(authority)}
	if !d.Open {
		d.Message = "این تراکنش بسته شده است"
	}
	b.render(w, r, http.StatusOK, d)
}

func (b *Bank) submit(w http.ResponseWriter, r *http.Request, authority string) {
	state, ok := choices[r.PostFormValue("action")]
	if !ok {
		b.render(w, r, http.StatusBadRequest, pageData{Message: "درخواست نامعتبر است"})
		return
	}
	to, err := b.Decide(r.Context(), authority, state)
	if errors.Is(err, ErrUnknown) {
		b.render(w, r, http.StatusNotFound, pageData{Message: "تراکنش یافت نشد"})
		return
	}
	if err != nil {
		slog.ErrorContext(r.Context(), "sandbox bank", "err", err)
		b.render(w, r, http.StatusInternalServerError, pageData{Message: "خطای درگاه؛ دوباره تلاش کنید"})
		return
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

func (b *Bank) render(w http.ResponseWriter, r *http.Request, status int, d pageData) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if err := page.Execute(w, d); err != nil {
		slog.WarnContext(r.Context(), "sandbox bank page", "err", err)
	}
}

// group writes n with Persian thousands separators.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteRune('٬')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
