// Package pspfake holds fakes of the Iranian payment gateways the product speaks
// to (Zarinpal's REST v4 API and SEP's token flow), for tests and demos where no
// bank can be reached. Each is an http.Handler speaking the bank's published
// protocol, keeping its sessions in memory, with a payer who pays or cancels and
// fault switches: a wrong amount paid, a failing verify, slow answers (held until
// the caller gives up). Serve one with httptest.NewServer and point the gateway's
// base URL at it.
package pspfake

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"sync"
)

// Faults are the fault switches of a fake bank.
type Faults struct {
	// WrongAmount makes the payer's payment a different amount than the session's
	// (1,000 rials less): verify reports the amount the bank took.
	WrongAmount bool
	// VerifyFail makes verify answer a bank-side error (nothing changes at the bank).
	VerifyFail bool
	// ReverseFail makes reverse answer a bank-side error (the money stays taken).
	ReverseFail bool
	// Slow holds every API answer until the caller gives up (its time-out).
	Slow bool
}

// switches is the fault state shared by the fakes.
type switches struct {
	mu     sync.Mutex
	faults Faults
	calls  map[string]int
}

// SetFaults replaces the fault switches.
func (s *switches) SetFaults(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = f
}

func (s *switches) current() Faults {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faults
}

// Calls is how many times an API path was called.
func (s *switches) Calls(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[path]
}

// enter counts a call and, when the bank is slow, holds it until the caller gives
// up; it reports whether to answer.
func (s *switches) enter(w http.ResponseWriter, r *http.Request) bool {
	s.mu.Lock()
	if s.calls == nil {
		s.calls = map[string]int{}
	}
	s.calls[r.URL.Path]++
	slow := s.faults.Slow
	s.mu.Unlock()
	if slow {
		// The server notices the caller hanging up only once the body is read.
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
		return false
	}
	return true
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// readJSON decodes a request body into v.
func readJSON(r *http.Request, v any) error {
	defer r.Body.Close()
	return json.NewDecoder(http.MaxBytesReader(nil, r.Body, 1<<16)).Decode(v)
}

// randomDigits is n random decimal digits.
func randomDigits(n int) string {
	raw := make([]byte, n)
	_, _ = rand.Read(raw)
	for i := range raw {
		raw[i] = '0' + raw[i]%10
	}
	return string(raw)
}

// randomHex is n random hex digits.
func randomHex(n int) string {
	raw := make([]byte, (n+1)/2)
	_, _ = rand.Read(raw)
	return fmt.Sprintf("%x", raw)[:n]
}

var payPage = template.Must(template.New("pay").Parse(`<!doctype html><html lang="fa" dir="rtl"><head><meta charset="utf-8">
<title>{{.Title}}</title></head><body><h1>{{.Title}} (آزمایشی)</h1><p>مبلغ: {{.Amount}} ریال</p>
<form method="post">{{range $k, $v := .Hidden}}<input type="hidden" name="{{$k}}" value="{{$v}}">{{end}}
<button name="action" value="pay">پرداخت</button> <button name="action" value="cancel">انصراف</button></form></body></html>`))

// page is the data of a fake bank's payment page.
type page struct {
	Title  string
	Amount int64
	Hidden map[string]string
}

// servePage answers a fake bank's payment page: 404 for an unknown session, the
// page on GET, and the payer's choice (paid or not) to decide on a POST with one.
func servePage(w http.ResponseWriter, r *http.Request, found bool, p page, decide func(paid bool)) {
	if !found {
		http.NotFound(w, r)
		return
	}
	if r.Method == http.MethodPost && r.PostFormValue("action") != "" {
		decide(r.PostFormValue("action") == "pay")
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = payPage.Execute(w, p)
}
