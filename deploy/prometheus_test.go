package deploy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The live test runs only against a running stack scraped by a real Prometheus:
// scripts/metrics-test.sh (part of `make test`) starts both and sets these.
const (
	envPrometheus = "CHAPAR_PROMETHEUS_URL" // e.g. http://127.0.0.1:9090
	envAPI        = "CHAPAR_API_URL"        // e.g. http://127.0.0.1:8080
)

// sendSize is the recipients of the test's send: a third on each carrier.
const sendSize = 30

// wait is the safety net of every wait on Prometheus: long, because a loaded
// machine only makes the wait longer; a passing run waits seconds.
const wait = 3 * time.Minute

// A small send through the API, watched through Prometheus: the submit, receipt,
// expansion and API request counters move by the send, every bind is up, every
// alert rule is loaded and healthy, and every Grafana panel's query parses and
// returns data.
func TestMetricsDuringASend(t *testing.T) {
	prom, api := os.Getenv(envPrometheus), os.Getenv(envAPI)
	if prom == "" || api == "" {
		t.Skipf("needs %s and %s: scripts/metrics-test.sh runs it against the real stack", envPrometheus, envAPI)
	}
	p := promClient{base: strings.TrimRight(prom, "/")}
	p.waitFor(t, `count(up{job=~"chapar-.*"} == 1)`, 3, "api, worker and gateway scraped")
	p.waitFor(t, `count(chapar_smpp_bind_up == 1)`, 4, "the four binds up (mci, irancell, rightel, sandbox)")
	counters := []struct{ what, query string }{
		{"submits accepted", `sum(chapar_smpp_submits_total{outcome="accepted"})`},
		{"receipts applied", `sum(chapar_receipts_total{result=~"matched|late"})`},
		{"recipients expanded", `sum(chapar_send_expanded_recipients_total)`},
	}
	before := make([]float64, len(counters))
	for i, c := range counters {
		before[i] = p.value(t, c.query)
	}
	sends := `sum(chapar_http_requests_total{route="/v1/api/send",code=~"2.."}) or vector(0)`
	sendsBefore := p.value(t, sends)

	sendThroughAPI(t, strings.TrimRight(api, "/"))

	for i, c := range counters {
		p.waitFor(t, c.query, before[i]+sendSize, c.what)
	}
	p.waitFor(t, sends, sendsBefore+1, "POST /v1/api/send counted")
	p.waitFor(t, `min(chapar_smpp_bind_up)`, 1, "every bind still up")
	checkRules(t, p)
	checkPanels(t, p)
}

// sendThroughAPI logs the demo account in and sends sendSize recipients.
func sendThroughAPI(t *testing.T, api string) {
	t.Helper()
	token := loginDemo(t, defaultClient, api)
	var numbers []string
	for i := range sendSize {
		prefix := []string{"0912", "0935", "0921"}[i%3] // mci, irancell, rightel
		numbers = append(numbers, fmt.Sprintf("%s%07d", prefix, 4400000+i))
	}
	post(t, api+"/v1/api/send", token, map[string]any{"text": "آزمون سنجه‌ها", "numbers": numbers}, nil)
}

// defaultClient is the client of the calls that go straight to the API.
var defaultClient = &http.Client{Timeout: time.Minute}

// loginDemo signs the demo user in (make run's seed) and returns the session token.
func loginDemo(t *testing.T, client *http.Client, api string) string {
	t.Helper()
	var login struct {
		Data struct {
			Token string `json:"token"`
		} `json:"data"`
	}
	postWith(t, client, api+"/v1/api/acl/auth/login", "", map[string]string{"username": "demo", "password": "Demo@12345"}, &login)
	if login.Data.Token == "" {
		t.Fatal("demo login returned no token")
	}
	return login.Data.Token
}

// post sends body as JSON straight to the API and decodes a 2xx answer into out.
func post(t *testing.T, url, token string, body, out any) {
	t.Helper()
	postWith(t, defaultClient, url, token, body, out)
}

// postWith sends body as JSON with client and decodes a 2xx answer into out.
func postWith(t *testing.T, client *http.Client, url, token string, body, out any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var raw json.RawMessage
	_ = json.NewDecoder(res.Body).Decode(&raw)
	if res.StatusCode/100 != 2 {
		t.Fatalf("POST %s: %d %s", url, res.StatusCode, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("POST %s: %v", url, err)
		}
	}
}

// checkRules: Prometheus loaded every group of rules.yml, and every rule
// evaluates without error.
func checkRules(t *testing.T, p promClient) {
	t.Helper()
	var rules struct {
		Groups []struct {
			Name  string `json:"name"`
			Rules []struct {
				Name      string `json:"name"`
				Health    string `json:"health"`
				LastError string `json:"lastError"`
			} `json:"rules"`
		} `json:"groups"`
	}
	deadline := time.Now().Add(wait)
	for {
		p.get(t, "/api/v1/rules", nil, &rules)
		n, healthy := 0, true
		for _, g := range rules.Groups {
			for _, r := range g.Rules {
				n++
				if r.Health != "ok" {
					healthy = false
					if r.Health == "err" {
						t.Fatalf("rule %s: %s", r.Name, r.LastError)
					}
				}
			}
		}
		if n > 0 && healthy {
			if want := strings.Count(string(Rules), "- alert:"); n != want {
				t.Fatalf("Prometheus loaded %d rules, rules.yml has %d", n, want)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("rules not all evaluated: %+v", rules.Groups)
		}
		time.Sleep(time.Second)
	}
}

// checkPanels runs every query of the dashboard, Grafana's interval variables
// replaced by a window that holds many of the test's 1 s scrapes: each must
// parse and return at least one series.
func checkPanels(t *testing.T, p promClient) {
	t.Helper()
	vars := strings.NewReplacer("$__rate_interval", "1m", "$__interval", "15s", "$__range", "5m")
	n := 0
	for _, pn := range loadDashboard(t).all() {
		for _, q := range pn.Targets {
			expr := vars.Replace(q.Expr)
			if strings.Contains(expr, "$") {
				t.Errorf("panel %q query %s: a variable the test does not know: %s", pn.Title, q.RefID, expr)
				continue
			}
			if got := p.query(t, expr); len(got) == 0 {
				t.Errorf("panel %q query %s returned no data: %s", pn.Title, q.RefID, expr)
			}
			n++
		}
	}
	t.Logf("%d panel queries returned data", n)
}

// promClient is Prometheus' HTTP API.
type promClient struct{ base string }

// sample is one series of an instant vector.
type sample struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"`
}

// get decodes the data of a successful API answer into out.
func (p promClient) get(t *testing.T, path string, q url.Values, out any) {
	t.Helper()
	res, err := (&http.Client{Timeout: 30 * time.Second}).Get(p.base + path + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var env struct {
		Status string          `json:"status"`
		Error  string          `json:"error"`
		Data   json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&env); err != nil || env.Status != "success" {
		t.Fatalf("GET %s %s: %d %s %v", path, q.Get("query"), res.StatusCode, env.Error, err)
	}
	if err := json.Unmarshal(env.Data, out); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
}

// query runs an instant query; it must be valid PromQL answering a vector.
func (p promClient) query(t *testing.T, expr string) []sample {
	t.Helper()
	var data struct {
		ResultType string   `json:"resultType"`
		Result     []sample `json:"result"`
	}
	p.get(t, "/api/v1/query", url.Values{"query": {expr}}, &data)
	if data.ResultType != "vector" {
		t.Fatalf("%s: a %s, not a vector", expr, data.ResultType)
	}
	return data.Result
}

// value is a query's single value (0 when it returns nothing).
func (p promClient) value(t *testing.T, expr string) float64 {
	t.Helper()
	got := p.query(t, expr)
	if len(got) == 0 {
		return 0
	}
	if len(got) > 1 {
		t.Fatalf("%s: %d series, want one", expr, len(got))
	}
	s, _ := got[0].Value[1].(string)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%s: value %v", expr, got[0].Value)
	}
	return v
}

// waitFor waits until expr's value reaches at least want.
func (p promClient) waitFor(t *testing.T, expr string, want float64, what string) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		got := p.value(t, expr)
		if got >= want {
			t.Logf("%s: %s = %v", what, expr, got)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s is %v after %v, want at least %v", what, expr, got, wait, want)
		}
		time.Sleep(500 * time.Millisecond)
	}
}
