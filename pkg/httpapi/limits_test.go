package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/httpapi"
	"github.com/chapar/chapar/pkg/line"
	"github.com/chapar/chapar/pkg/validate"
	"github.com/chapar/chapar/pkg/wallet"
)

// repeat is an endless run of one byte, read without allocating.
type repeat byte

func (r repeat) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// jsonWithHuge is a JSON body whose last string field holds n bytes of 'a'.
func jsonWithHuge(prefix string, n int64) (io.Reader, int64) {
	return io.MultiReader(strings.NewReader(prefix), io.LimitReader(repeat('a'), n), strings.NewReader(`"}`)),
		int64(len(prefix)) + n + 2
}

// rawPost sends a POST over a plain connection, declaring the body's length or
// sending it chunked, and reads the answer while the body is still being written
// (as an attacker's client would keep writing).
func rawPost(t *testing.T, base, path string, body io.Reader, size int64, declared bool, token string) (*http.Response, []byte) {
	t.Helper()
	u, _ := url.Parse(base)
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.SetDeadline(time.Now().Add(60 * time.Second))
	framing := "Transfer-Encoding: chunked"
	if declared {
		framing = fmt.Sprintf("Content-Length: %d", size)
	}
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAuthorization: Bearer %s\r\n%s\r\n\r\n",
		path, u.Host, token, framing)
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		if declared {
			_, _ = io.Copy(conn, body)
			return
		}
		cw := httputil.NewChunkedWriter(conn)
		if _, err := io.Copy(cw, body); err == nil {
			_ = cw.Close()
			_, _ = io.WriteString(conn, "\r\n")
		}
	}()
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	raw, _ := io.ReadAll(res.Body)
	_ = conn.Close()
	<-wrote
	return res, raw
}

// TestHugeAnonymousBodiesAre413 sends 200 MB bodies to public routes, declared and
// chunked: each is refused with 413 quickly and without the API holding the body.
func TestHugeAnonymousBodiesAre413(t *testing.T) {
	e := apitest.Start(t, nil)
	const huge = 200 << 20
	for _, c := range []struct {
		name, path, prefix string
		declared           bool
	}{
		{"check_exist declared", "/v1/api/user/check_exist", `{"username":"`, true},
		{"check_exist chunked", "/v1/api/user/check_exist", `{"username":"`, false},
		{"login password declared", "/v1/api/acl/auth/login", `{"username":"sara","password":"`, true},
		{"login password chunked", "/v1/api/acl/auth/login", `{"username":"sara","password":"`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			body, size := jsonWithHuge(c.prefix, huge)
			res, raw := rawPost(t, e.URL, c.path, body, size, c.declared, "")
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			if res.StatusCode != http.StatusRequestEntityTooLarge {
				t.Fatalf("status %d, want 413: %s", res.StatusCode, raw)
			}
			var env struct{ Meta httpapi.Meta }
			if err := json.Unmarshal(raw, &env); err != nil || env.Meta.Message != apperr.MsgTooLarge || env.Meta.Status != 413 {
				t.Fatalf("envelope %s (%v)", raw, err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
				t.Fatalf("the API allocated %d MB for a refused body", alloc>>20)
			}
			if took > 10*time.Second {
				t.Fatalf("took %v to refuse", took)
			}
		})
	}
}

// TestJSONBodyLimit refuses a body just over 1 MB on an ordinary JSON route, sent
// declared or chunked, and still reads one just under it.
func TestJSONBodyLimit(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("sara", pw, "09121234567")
	tok := e.Login("sara", pw)
	over := `{"name":"` + strings.Repeat("x", int(httpapi.DefaultBodyLimit)) + `"}`
	r := e.Must(413, "POST", "/v1/api/phonebooks", over, tok)
	if r.Meta.Message != apperr.MsgTooLarge {
		t.Fatalf("413 message %q", r.Meta.Message)
	}
	res, raw := rawPost(t, e.URL, "/v1/api/phonebooks", strings.NewReader(over), int64(len(over)), false, tok)
	if res.StatusCode != 413 {
		t.Fatalf("chunked: %d %s", res.StatusCode, raw)
	}
	// Under the limit the body is read: the name is too long, a field error.
	under := `{"name":"` + strings.Repeat("x", int(httpapi.DefaultBodyLimit)-100) + `"}`
	r = e.Must(422, "POST", "/v1/api/phonebooks", under, tok)
	if len(r.Meta.Errors["name"]) == 0 {
		t.Fatalf("under the limit: %s", r.Raw)
	}
}

// TestBulkSendBody sends 100,000 numbers (the most one quick send takes): the body is
// over the default limit and within the bulk one, in Latin and in Persian digits.
func TestBulkSendBody(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("sara", pw, "09121234567")
	tok := e.Login("sara", pw)
	ctx := context.Background()
	u, err := e.Accounts.ByUsername(ctx, "sara")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Deps.Lines.Add(ctx, u.AccountID, "300012345", line.KindAdvertising, true); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Deps.Wallet.Credit(ctx, wallet.Entry{AccountID: u.AccountID, Kind: wallet.Gift,
		Amount: 1_000_000_000, Ref: "test:bulk", Description: "test"}); err != nil {
		t.Fatal(err)
	}
	numbers := make([]string, 100_000)
	persian := make([]string, len(numbers))
	for i := range numbers {
		numbers[i] = fmt.Sprintf("0912%07d", i)
		persian[i] = "+" + toPersian("98912"+fmt.Sprintf("%07d", i))
	}
	text := strings.Repeat("پیام آزمایشی ", 50)
	for _, c := range []struct {
		path    string
		numbers []string
		want    int
	}{
		{"/v1/api/send/calculate-price", persian, 200},
		{"/v1/api/send", numbers, 201},
	} {
		body, _ := json.Marshal(map[string]any{"type": "quick", "sender": "300012345", "text": text, "numbers": c.numbers})
		size := int64(len(body))
		if size <= httpapi.DefaultBodyLimit || size > httpapi.BulkBodyLimit*3/4 {
			t.Fatalf("%s: a 100,000-number body is %d bytes; the bulk limit %d must keep a margin", c.path, size, httpapi.BulkBodyLimit)
		}
		start := time.Now()
		e.Must(c.want, "POST", c.path, string(body), tok)
		t.Logf("%s: %d bytes, answered in %v", c.path, size, time.Since(start))
	}
}

// serveWith runs the API's handler behind the production server construction
// (time-outs, per-address cap) with a tweaked configuration; it returns the address.
func serveWith(t *testing.T, e *apitest.Env, tweak func(*config.Config)) string {
	t.Helper()
	cfg := e.Config
	cfg.HTTPAddr = "127.0.0.1:0"
	tweak(&cfg)
	ln, err := httpapi.Listen(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httpapi.NewHTTPServer(cfg, e.Engine)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String()
}

// closedWithin reports whether the server closes conn (after any answer) within d.
func closedWithin(conn net.Conn, d time.Duration) bool {
	_ = conn.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, conn)
	// EOF, or a reset when the server closed while the client was still writing:
	// closed either way; only the deadline passing means it was held.
	var ne net.Error
	return !errors.As(err, &ne) || !ne.Timeout()
}

// TestSlowClientsAreCutOff trickles a body, and headers, slower than the time-outs
// allow: the server closes both connections.
func TestSlowClientsAreCutOff(t *testing.T) {
	e := apitest.Start(t, nil)
	addr := serveWith(t, e, func(c *config.Config) {
		c.HTTPReadHeaderTimeout, c.HTTPReadTimeout = 500*time.Millisecond, time.Second
	})
	body, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer body.Close()
	fmt.Fprintf(body, "POST /v1/api/user/check_exist HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
	go func() { // one byte every 200 ms: 1000 bytes would take 200 s
		for range 50 {
			time.Sleep(200 * time.Millisecond)
			if _, err := body.Write([]byte(" ")); err != nil {
				return
			}
		}
	}()
	headers, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer headers.Close()
	fmt.Fprintf(headers, "GET /healthz HTTP/1.1\r\nHost: x\r\n")
	// The trickle would take 200 s and the headers never end: closing within a
	// minute (a safety net for a busy machine) is the time-outs working.
	start := time.Now()
	if !closedWithin(body, time.Minute) {
		t.Fatalf("a trickled body still holds its connection after %v", time.Since(start))
	}
	if !closedWithin(headers, time.Minute) {
		t.Fatal("unfinished headers still hold their connection")
	}
	// A prompt request on the same server is answered.
	res, err := http.Get("http://" + addr + "/healthz")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", res, err)
	}
	res.Body.Close()
}

// TestConnectionsPerAddressCap opens more connections from one address than the cap:
// the extra ones are closed at once; a freed slot is usable again.
func TestConnectionsPerAddressCap(t *testing.T) {
	e := apitest.Start(t, nil)
	addr := serveWith(t, e, func(c *config.Config) { c.HTTPMaxConnsPerIP = 3 })
	get := func(conn net.Conn) error {
		fmt.Fprintf(conn, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			return err
		}
		res.Body.Close()
		return nil
	}
	var open []net.Conn
	for i := range 5 {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		err = get(conn)
		if i < 3 && err != nil {
			t.Fatalf("connection %d: %v", i+1, err)
		}
		if i >= 3 && err == nil {
			t.Fatalf("connection %d over the cap of 3 was served", i+1)
		}
		if i < 3 {
			open = append(open, conn)
		}
	}
	open[0].Close()
	time.Sleep(100 * time.Millisecond) // the server notices the close
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := get(conn); err != nil {
		t.Fatalf("after a slot was freed: %v", err)
	}
	// A trusted proxy carries many clients: it is not capped.
	proxy := serveWith(t, e, func(c *config.Config) { c.HTTPMaxConnsPerIP, c.TrustedProxies = 1, []string{"127.0.0.0/8"} })
	for i := range 3 {
		conn, err := net.Dial("tcp", proxy)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if err := get(conn); err != nil {
			t.Fatalf("proxy connection %d: %v", i+1, err)
		}
	}
}

// TestBadCharactersAre422 sends NUL characters and bytes that are not UTF-8 in
// names, texts and search terms, in bodies and queries.
func TestBadCharactersAre422(t *testing.T) {
	f := newContactsFixture(t)
	book := f.phonebook("دفتر")
	for _, c := range []struct {
		method, path string
		body         any
		field        string
	}{
		{"POST", "/v1/api/phonebooks", `{"name":"a\u0000b"}`, "name"},
		{"POST", "/v1/api/phonebooks", "{\"name\":\"a\xff\xfeb\"}", validate.FieldBody},
		{"POST", "/v1/api/phonebooks/numbers/add-list-new", fmt.Sprintf(`{"phonebook_id":%d,"contacts":[{"number":"09121234567","name":"x\u0000"}]}`, book.ID), "name"},
		{"POST", "/v1/api/phonebooks/numbers/tags", `{"name":"\u0000"}`, "name"},
		{"POST", "/v1/api/send/calculate-price", `{"text":"سلام\u0000","numbers":["09121234567"]}`, "text"},
		{"POST", "/v1/api/user/check_exist", `{"username":"sa\u0000ra"}`, "username"},
		{"POST", "/v1/api/acl/auth/login", `{"username":"sara","password":"a\u0000"}`, "password"},
		{"GET", "/v1/api/phonebooks/list-new?search=a%00b", nil, "search"},
		{"GET", "/v1/api/phonebooks/list-new?search=%ff%fe", nil, "search"},
		{"GET", "/v1/api/phonebooks/numbers/contact-list?search=%00", nil, "search"},
		{"GET", "/v1/api/phonebooks/blacklist?search=%c3%28", nil, "search"},
		{"GET", "/v1/api/phonebooks/numbers/tags?search=%00", nil, "search"},
		{"GET", "/v1/api/user/files/samples/a%00b", nil, "purpose"},
	} {
		r := f.e.Do(c.method, c.path, c.body, f.tokA)
		if r.Status != 422 || r.Meta.Message != validate.MsgBadText || len(r.Meta.Errors[c.field]) == 0 {
			t.Errorf("%s %s %q: %d %s", c.method, c.path, c.body, r.Status, r.Raw)
		}
	}
	// Headers the API stores: the idempotency key of a send, the browser of a session.
	for _, c := range []struct {
		path, header string
		body         any
		token        string
	}{
		{"/v1/api/send", "Idempotency-Key", map[string]any{"text": "x", "numbers": []string{"09121234567"}}, f.tokA},
		{"/v1/api/acl/auth/confirm_otp", "User-Agent", map[string]string{"login_token": "x", "code": "12345"}, ""},
		{"/v1/api/acl/auth/logout", "Authorization", nil, "x"},
	} {
		r := f.e.Do("POST", c.path, c.body, c.token, c.header, "bad\xff\xfe")
		if r.Status != 422 || len(r.Meta.Errors[c.header]) == 0 {
			t.Errorf("%s with a bad %s: %d %s", c.path, c.header, r.Status, r.Raw)
		}
	}
}

// TestHugePageOnEveryList asks every paged list for page 2^63-1: a 422 on page,
// never a 500; the last allowed page is an empty page, and a huge limit is lowered.
func TestHugePageOnEveryList(t *testing.T) {
	f := newContactsFixture(t)
	book := f.phonebook("دفتر")
	lists := []string{
		"/v1/api/report/new_list?",
		"/v1/api/report/archive_list?",
		"/v1/api/report/recipients?id=1&",
		"/v1/api/phonebooks/list-new?",
		fmt.Sprintf("/v1/api/phonebooks/numbers/contact-list?phonebook_id=%d&", book.ID),
		fmt.Sprintf("/v1/api/phonebooks/numbers/list?phonebook_id=%d&", book.ID),
		"/v1/api/phonebooks/options?",
		"/v1/api/phonebooks/blacklist?",
		"/v1/api/user/files?",
		"/v1/api/send/campaigns?",
		"/v1/api/send/scheduled?",
		"/v1/api/payment/offline/list?",
	}
	for _, l := range lists {
		for _, q := range []string{"page=9223372036854775807", "page=9223372036854775808", "page=100001", "page=0", "page=-5"} {
			r := f.e.Do("GET", l+q, nil, f.tokA)
			if r.Status != 422 || len(r.Meta.Errors["page"]) == 0 {
				t.Errorf("GET %s%s: %d %s", l, q, r.Status, r.Raw)
			}
		}
		if strings.Contains(l, "recipients") {
			continue // send 1 is not the account's
		}
		r := f.e.Do("GET", l+"page=100000&limit=9223372036854775807", nil, f.tokA)
		if r.Status != 200 || string(r.Data) != "[]" {
			t.Errorf("GET %s at the last page: %d %s", l, r.Status, r.Raw)
		}
	}
}

// TestSocketOutlivesTimeouts keeps a websocket open past the server's read and write
// time-outs: it still answers.
func TestSocketOutlivesTimeouts(t *testing.T) {
	e := apitest.Start(t, nil)
	e.Register("sara", pw, "09121234567")
	tok := e.Login("sara", pw)
	addr := serveWith(t, e, func(c *config.Config) {
		c.HTTPReadHeaderTimeout, c.HTTPReadTimeout, c.HTTPWriteTimeout = time.Second, time.Second, time.Second
	})
	ws, _, err := websocket.DefaultDialer.Dial("ws://"+addr+"/v1/ws?ticket="+url.QueryEscape(e.Ticket(tok)), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	for round := range 2 {
		if round == 1 {
			time.Sleep(2500 * time.Millisecond) // past every time-out
		}
		if err := ws.WriteMessage(websocket.TextMessage, []byte("9")); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		_ = ws.SetReadDeadline(time.Now().Add(3 * time.Second))
		if _, msg, err := ws.ReadMessage(); err != nil || string(msg) != "9" {
			t.Fatalf("round %d: answer %q %v", round, msg, err)
		}
	}
}
