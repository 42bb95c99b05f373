package smscsim

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
)

// waitLong is the safety net of every wait for something that must come: a
// loaded machine only makes the wait longer, never a failure.
const waitLong = time.Minute

func httpJSON(t *testing.T, srv *Server, method, path, body string, out any) int {
	t.Helper()
	req, err := http.NewRequest(method, "http://"+srv.HTTPAddr()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	if out != nil {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatalf("%s %s: decode: %v", method, path, err)
		}
	}
	return res.StatusCode
}

// persianText returns a Persian text of n UTF-16 units.
func persianText(n int) string {
	const phrase = "سلام، این پیام آزمایشی چاپار برای بررسی بازسازی پیام‌های چندبخشی است. "
	var u []uint16
	for len(u) < n {
		u = append(u, utf16.Encode([]rune(phrase))...)
	}
	return string(utf16.Decode(u[:n]))
}

func ucs2Parts(text string, per int) [][]byte {
	u := utf16.Encode([]rune(text))
	var parts [][]byte
	for len(u) > 0 {
		n := min(per, len(u))
		parts = append(parts, ucs2Bytes(u[:n]))
		u = u[n:]
	}
	return parts
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(waitLong)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
