package deploy

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// The proxy test runs only behind the TLS reverse proxy of deploy/nginx:
// scripts/proxy-test.sh starts nginx with a self-signed certificate in front of
// the real stack and sets these.
const (
	envProxy   = "CHAPAR_PROXY_URL" // e.g. https://127.0.0.1:8443
	envProxyCA = "CHAPAR_PROXY_CA"  // the certificate file the client trusts
)

// The panel's live events reach a browser through the proxy over TLS: a ticket
// asked for over HTTPS opens wss:///v1/ws, the socket answers its ping, and a
// send made through the proxy brings a real event (send.progress, send.status
// or credit.changed) down the socket.
func TestWebsocketThroughProxy(t *testing.T) {
	base, caFile := os.Getenv(envProxy), os.Getenv(envProxyCA)
	if base == "" || caFile == "" {
		t.Skipf("needs %s and %s: scripts/proxy-test.sh runs it behind nginx", envProxy, envProxyCA)
	}
	base = strings.TrimRight(base, "/")
	tlsConf := trusting(t, caFile)
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{TLSClientConfig: tlsConf}}
	token := loginDemo(t, client, base)
	var ticket struct {
		Data struct {
			Ticket string `json:"ticket"`
		} `json:"data"`
	}
	postWith(t, client, base+"/v1/api/live/ticket", token, struct{}{}, &ticket)

	ws := dialLive(t, base, ticket.Data.Ticket, tlsConf)
	defer ws.Close()
	if err := ws.WriteMessage(websocket.TextMessage, []byte("9")); err != nil {
		t.Fatalf("ping the socket: %v", err)
	}
	postWith(t, client, base+"/v1/api/send", token,
		map[string]any{"text": "آزمون پراکسی", "numbers": []string{"09124400100", "09354400100"}}, nil)
	awaitEvent(t, ws)
}

// trusting is a TLS configuration that trusts only the certificate in caFile.
func trusting(t *testing.T, caFile string) *tls.Config {
	t.Helper()
	pem, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatalf("no certificate in %s", caFile)
	}
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}

// dialLive opens wss://…/v1/ws?ticket= through the proxy and checks the upgrade.
func dialLive(t *testing.T, base, ticket string, tlsConf *tls.Config) *websocket.Conn {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Scheme, u.Path, u.RawQuery = "wss", "/v1/ws", url.Values{"ticket": {ticket}}.Encode()
	d := websocket.Dialer{TLSClientConfig: tlsConf, HandshakeTimeout: time.Minute}
	ws, res, err := d.Dial(u.String(), nil)
	if err != nil {
		status := 0
		if res != nil {
			status = res.StatusCode
		}
		t.Fatalf("websocket through the proxy: %v (status %d)", err, status)
	}
	if res.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("websocket upgrade: status %d", res.StatusCode)
	}
	return ws
}

// awaitEvent reads the socket until the ping's answer and a live event of the
// send arrive. The deadline is a safety net for a loaded machine; a passing run
// takes about a second.
func awaitEvent(t *testing.T, ws *websocket.Conn) {
	t.Helper()
	_ = ws.SetReadDeadline(time.Now().Add(wait))
	pong, event, seen := false, false, []string{}
	for !pong || !event {
		_, msg, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("socket closed before a live event (pong %v, seen %q): %v", pong, seen, err)
		}
		if string(msg) == "9" {
			pong = true
			continue
		}
		var m struct {
			Event string `json:"event"`
		}
		if err := json.Unmarshal(msg, &m); err != nil {
			t.Fatalf("socket message %q: %v", msg, err)
		}
		seen = append(seen, m.Event)
		switch m.Event {
		case "send.progress", "send.status", "credit.changed":
			event = true
		}
	}
}
