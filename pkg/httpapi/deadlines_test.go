package httpapi_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chapar/chapar/internal/testing/apitest"
	"github.com/chapar/chapar/pkg/config"
	"github.com/chapar/chapar/pkg/httpapi"
)

// serveShort serves e's engine on a real listener with short read and write
// time-outs (the stream time-out stays e's, 30 minutes) and returns its address.
func serveShort(t *testing.T, e *apitest.Env) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httpapi.NewHTTPServer(config.Config{HTTPReadHeaderTimeout: time.Second, HTTPReadTimeout: time.Second,
		HTTPWriteTimeout: 2 * time.Second, HTTPIdleTimeout: 2 * time.Second}, e.Engine)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String()
}

// slowRequest writes a request's head declaring a body of 64 KB and only the first
// bytes of that body, then stalls; it returns the connection.
func slowRequest(t *testing.T, addr, method, path, token string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	head := method + " " + path + " HTTP/1.1\r\nHost: chapar\r\nContent-Type: multipart/form-data; boundary=b\r\n" +
		"Content-Length: 65536\r\n"
	if token != "" {
		head += "Authorization: Bearer " + token + "\r\n"
	}
	if _, err := io.WriteString(conn, head+"\r\n"+"--b\r\n"); err != nil {
		t.Fatal(err)
	}
	return conn
}

// TestAnonymousSlowClientsKeepShortDeadlines: a raw TCP client that declares a body
// and stalls, without credentials, on the upload, a download and the websocket's
// handshake, is answered 401 and then cut by the server's read time-out (one
// second here); before, the stream routes' 30-minute deadline (none for the
// socket) was set before the guard ran and held such connections. An
// authenticated slow upload still outlives the read time-out.
func TestAnonymousSlowClientsKeepShortDeadlines(t *testing.T) {
	e := apitest.Start(t, nil)
	addr := serveShort(t, e)
	for _, r := range []struct{ method, path string }{
		{"POST", "/v1/api/user/files"}, {"GET", "/v1/api/user/files/1/download"}, {"GET", "/v1/ws?ticket=forged"},
	} {
		conn := slowRequest(t, addr, r.method, r.path, "")
		// The safety net only: the server closes the connection after a second.
		_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
		got, err := io.ReadAll(conn)
		if err != nil {
			t.Errorf("%s %s: the server held the anonymous connection open (%v); read %q", r.method, r.path, err, got)
			continue
		}
		if !strings.HasPrefix(string(got), "HTTP/1.1 401") && !strings.HasPrefix(string(got), "HTTP/1.1 404") {
			t.Errorf("%s %s: answered %q", r.method, r.path, firstLine(got))
		}
	}

	e.Register("slowup", "Passw0rd!x", "09121110001")
	token := e.Login("slowup", "Passw0rd!x")
	conn := slowRequest(t, addr, "POST", "/v1/api/user/files", token)
	// The client stalls past the read time-out; its deadline was lifted after the guard.
	time.Sleep(1500 * time.Millisecond)
	body := "Content-Disposition: form-data; name=\"purpose\"\r\n\r\nsend\r\n--b--\r\n"
	_, _ = io.WriteString(conn, body+strings.Repeat(" ", 65536-len("--b\r\n")-len(body)))
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("authenticated slow upload cut: %v", err)
	}
	res.Body.Close()
	if res.StatusCode == http.StatusUnauthorized || res.StatusCode >= 500 {
		t.Fatalf("authenticated slow upload: %d", res.StatusCode)
	}
}

// firstLine is the status line of a raw answer.
func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\r\n")
	return s
}
