package loadgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestOTPLatency measures one-time codes from the API to the carrier when
// LOADGEN_OTP_API names a running API (http://host:port/v1/api) and
// LOADGEN_OTP_SIM the simulator's HTTP address (host:port; its store must keep
// the measured line's messages: SIM_KEEP_FROM). LOADGEN_OTP_KIND chooses the codes:
//
//   - reset (the default): password-reset codes (POST /acl/auth/forgot_password)
//     from the system line, round-robin over LOADGEN_OTP_USERS (50) users; with
//     LOADGEN_OTP_SETUP=1 it first signs them up through the API, proving each
//     mobile with the code the simulator received;
//   - pattern: a customer's OTP pattern sent by API key (POST /patterns/send) from
//     the demo account's service line LOADGEN_OTP_LINE (500012345; an OTP pattern refuses an advertising line), round-robin over
//     LOADGEN_OTP_USERS recipients; with LOADGEN_OTP_SETUP=1 it first creates the
//     pattern, has the seeded staff user approve it and creates the key (see
//     patternSetup), keeping both in the file LOADGEN_OTP_STATE for later runs.
//
// It sends LOADGEN_OTP_N (1,000) at LOADGEN_OTP_RATE (20) a second, open loop,
// and matches each to its message at the handset (the k-th code asked for a
// mobile is the k-th message from the line to it). The latency is from the API's
// answer to the simulator's first submit_sm; it prints
//
//	otp kind=reset n=1000 rate=20 p50_ms=… p99_ms=… max_ms=… lost=0
func TestOTPLatency(t *testing.T) {
	api, sim := os.Getenv("LOADGEN_OTP_API"), os.Getenv("LOADGEN_OTP_SIM")
	if api == "" || sim == "" {
		t.Skip("LOADGEN_OTP_API and LOADGEN_OTP_SIM not set")
	}
	o := &otpRun{api: api, sim: "http://" + sim, users: envN("LOADGEN_OTP_USERS", 50),
		n: envN("LOADGEN_OTP_N", 1000), rate: envN("LOADGEN_OTP_RATE", 20), kind: os.Getenv("LOADGEN_OTP_KIND")}
	setup := os.Getenv("LOADGEN_OTP_SETUP") == "1"
	var err error
	switch o.kind {
	case "", "reset":
		o.kind, o.from, o.mobile, o.ask = "reset", "2000", otpMobile, o.askReset
		if setup {
			err = o.signUps()
		}
	case "pattern":
		err = o.usePattern(setup, os.Getenv("LOADGEN_OTP_STATE"), envOr("LOADGEN_OTP_LINE", "500012345"))
	default:
		t.Fatalf("LOADGEN_OTP_KIND %q: reset or pattern", o.kind)
	}
	if err != nil {
		t.Fatal(err)
	}
	lat, lost, err := o.measure()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(lat)
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }
	q := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	fmt.Printf("otp kind=%s n=%d rate=%d p50_ms=%s p99_ms=%s max_ms=%s lost=%d\n", o.kind, o.n, o.rate, ms(q(0.5)), ms(q(0.99)), ms(q(1)), lost)
}

func envN(k string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(k)); err == nil && v > 0 {
		return v
	}
	return def
}

// otpRun is one measurement: the API, the simulator and the load.
type otpRun struct {
	api, sim, from, kind string
	users, n, rate       int
	// ask requests the i-th code, for recipient u; mobile is recipient u's
	// number as the simulator sees it (98…).
	ask      func(i, u int) error
	mobile   func(u int) string
	client   http.Client
	mu       sync.Mutex
	accepted map[string][]time.Time // per mobile (98…), in the order answered
	start    time.Time
	failures int
	firstErr error
}

func otpUser(i int) string   { return fmt.Sprintf("otpbench%03d", i) }
func otpMobile(i int) string { return fmt.Sprintf("98912888%04d", i) }

// post sends a JSON body without credentials and decodes the envelope's data into out.
func (o *otpRun) post(path string, body, out any) error {
	return o.call(http.MethodPost, path, "", body, out)
}

// call sends a JSON body (nil: none) with a bearer token (a session or an API
// key; "": none) and decodes the envelope's data into out.
func (o *otpRun) call(method, path, token string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, o.api+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := o.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	var env struct {
		Data json.RawMessage `json:"data"`
		Meta any             `json:"meta"`
	}
	if err := json.NewDecoder(res.Body).Decode(&env); err != nil || res.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %d %v %v", method, path, res.StatusCode, env.Meta, err)
	}
	if out != nil {
		return json.Unmarshal(env.Data, out)
	}
	return nil
}

// simMessage is the part of the simulator's stored message read here.
type simMessage struct {
	From        string    `json:"from"`
	Text        string    `json:"text"`
	FirstSubmit time.Time `json:"first_submit"`
}

// messages returns the measured line's messages to mobile since t, oldest first.
func (o *otpRun) messages(mobile string, since time.Time) ([]simMessage, error) {
	return o.messagesFrom(o.from, mobile, since)
}

// messagesFrom returns line from's messages to mobile since t, oldest first.
func (o *otpRun) messagesFrom(from, mobile string, since time.Time) ([]simMessage, error) {
	q := url.Values{"to": {mobile}, "from": {from}, "since": {since.UTC().Format(time.RFC3339Nano)}, "limit": {"100000"}}
	res, err := o.client.Get(o.sim + "/messages?" + q.Encode())
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var out struct{ Messages []simMessage }
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		return nil, fmt.Errorf("simulator messages: %w", err)
	}
	slices.SortFunc(out.Messages, func(a, b simMessage) int { return a.FirstSubmit.Compare(b.FirstSubmit) })
	return out.Messages, nil
}

// signUps registers the users.
func (o *otpRun) signUps() error {
	for i := range o.users {
		if err := o.signUp(i); err != nil {
			return err
		}
	}
	return nil
}

// askReset asks for a password-reset code for user u.
func (o *otpRun) askReset(_, u int) error {
	return o.post("/acl/auth/forgot_password", map[string]string{"username": otpUser(u)}, nil)
}

// signUp registers user i and proves its mobile with the texted code.
func (o *otpRun) signUp(i int) error {
	since := time.Now().Add(-time.Second)
	var reg struct {
		VerifyToken string `json:"verify_token"`
	}
	err := o.post("/user/register", map[string]any{"name": "کاربر سنجش " + strconv.Itoa(i), "username": otpUser(i),
		"mobile": "0" + otpMobile(i)[2:], "password": "Bench@12345", "password_confirmation": "Bench@12345", "accept_rules": true}, &reg)
	if err != nil {
		return err
	}
	code, err := o.codeAt(otpMobile(i), since)
	if err != nil {
		return err
	}
	return o.post("/user/register/verify", map[string]string{"verify_token": reg.VerifyToken, "code": code}, nil)
}

// codeIn is the first run of 6 digits in a text.
func codeIn(s string) string {
	run := []rune{}
	for _, r := range s + " " {
		if r >= '0' && r <= '9' {
			run = append(run, r)
			continue
		}
		if len(run) == 6 {
			return string(run)
		}
		run = run[:0]
	}
	return ""
}

// measure asks for the codes at the rate and returns each one's latency and
// how many never reached the handset.
func (o *otpRun) measure() ([]time.Duration, int, error) {
	o.accepted = map[string][]time.Time{}
	o.start = time.Now()
	var wg sync.WaitGroup
	tick := time.NewTicker(time.Second / time.Duration(o.rate))
	for i := range o.n {
		<-tick.C
		u := i % o.users
		wg.Go(func() {
			err := o.ask(i, u)
			at := time.Now()
			o.mu.Lock()
			defer o.mu.Unlock()
			if err != nil {
				if o.failures++; o.failures == 1 {
					o.firstErr = err
				}
				return
			}
			o.accepted[o.mobile(u)] = append(o.accepted[o.mobile(u)], at)
		})
	}
	tick.Stop()
	wg.Wait()
	if o.failures > 0 {
		return nil, 0, fmt.Errorf("%d of %d code requests failed, the first: %w", o.failures, o.n, o.firstErr)
	}
	return o.match()
}

// match waits (up to 60 s in all) for every mobile's messages and pairs them with
// the codes asked for, in order.
func (o *otpRun) match() ([]time.Duration, int, error) {
	var lat []time.Duration
	lost := 0
	deadline := time.Now().Add(60 * time.Second)
	for mobile, acc := range o.accepted {
		slices.SortFunc(acc, func(a, b time.Time) int { return a.Compare(b) })
		var msgs []simMessage
		for ; ; time.Sleep(100 * time.Millisecond) {
			var err error
			if msgs, err = o.messages(mobile, o.start); err != nil {
				return nil, 0, err
			}
			if len(msgs) >= len(acc) || time.Now().After(deadline) {
				break
			}
		}
		for k, at := range acc {
			if k >= len(msgs) {
				lost++
				continue
			}
			lat = append(lat, msgs[k].FirstSubmit.Sub(at))
		}
	}
	return lat, lost, nil
}
