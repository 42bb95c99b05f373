package loadgen

import (
	"bytes"
	"encoding/json"
	"fmt"
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
// the system line's messages: SIM_KEEP_FROM). With LOADGEN_OTP_SETUP=1 it
// first signs up LOADGEN_OTP_USERS (50) users through the API, proving each
// mobile with the code the simulator received. Then it asks for
// LOADGEN_OTP_N (1,000) password-reset codes (POST /acl/auth/forgot_password),
// LOADGEN_OTP_RATE (20) a second, open loop, round-robin over the users, and
// matches each to its message at the handset (the k-th code asked for a mobile
// is the k-th message from the system line to it). The latency is from the
// API's answer to the simulator's first submit_sm; it prints
//
//	otp n=1000 rate=20 p50_ms=… p99_ms=… max_ms=… lost=0
func TestOTPLatency(t *testing.T) {
	api, sim := os.Getenv("LOADGEN_OTP_API"), os.Getenv("LOADGEN_OTP_SIM")
	if api == "" || sim == "" {
		t.Skip("LOADGEN_OTP_API and LOADGEN_OTP_SIM not set")
	}
	o := otpRun{api: api, sim: "http://" + sim, users: envN("LOADGEN_OTP_USERS", 50),
		n: envN("LOADGEN_OTP_N", 1000), rate: envN("LOADGEN_OTP_RATE", 20), from: "2000"}
	if os.Getenv("LOADGEN_OTP_SETUP") == "1" {
		for i := range o.users {
			if err := o.signUp(i); err != nil {
				t.Fatal(err)
			}
		}
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
	fmt.Printf("otp n=%d rate=%d p50_ms=%s p99_ms=%s max_ms=%s lost=%d\n", o.n, o.rate, ms(q(0.5)), ms(q(0.99)), ms(q(1)), lost)
}

func envN(k string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(k)); err == nil && v > 0 {
		return v
	}
	return def
}

// otpRun is one measurement: the API, the simulator and the load.
type otpRun struct {
	api, sim, from string
	users, n, rate int
	client         http.Client
	mu             sync.Mutex
	accepted       map[string][]time.Time // per mobile (98…), in the order answered
	start          time.Time
	failures       int
}

func otpUser(i int) string   { return fmt.Sprintf("otpbench%03d", i) }
func otpMobile(i int) string { return fmt.Sprintf("98912888%04d", i) }

// post sends a JSON body and decodes the envelope's data into out.
func (o *otpRun) post(path string, body, out any) error {
	b, _ := json.Marshal(body)
	res, err := o.client.Post(o.api+path, "application/json", bytes.NewReader(b))
	if err != nil {
		return err
	}
	defer res.Body.Close()
	var env struct {
		Data json.RawMessage `json:"data"`
		Meta any             `json:"meta"`
	}
	if err := json.NewDecoder(res.Body).Decode(&env); err != nil || res.StatusCode/100 != 2 {
		return fmt.Errorf("POST %s: %d %v %v", path, res.StatusCode, env.Meta, err)
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

// messages returns the system line's messages to mobile since t, oldest first.
func (o *otpRun) messages(mobile string, since time.Time) ([]simMessage, error) {
	q := url.Values{"to": {mobile}, "from": {o.from}, "since": {since.UTC().Format(time.RFC3339Nano)}, "limit": {"100000"}}
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
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		msgs, err := o.messages(otpMobile(i), since)
		if err != nil || len(msgs) == 0 {
			continue
		}
		code := codeIn(msgs[len(msgs)-1].Text)
		return o.post("/user/register/verify", map[string]string{"verify_token": reg.VerifyToken, "code": code}, nil)
	}
	return fmt.Errorf("no sign-up code reached %s", otpMobile(i))
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
			err := o.post("/acl/auth/forgot_password", map[string]string{"username": otpUser(u)}, nil)
			at := time.Now()
			o.mu.Lock()
			defer o.mu.Unlock()
			if err != nil {
				o.failures++
				return
			}
			o.accepted[otpMobile(u)] = append(o.accepted[otpMobile(u)], at)
		})
	}
	tick.Stop()
	wg.Wait()
	if o.failures > 0 {
		return nil, 0, fmt.Errorf("%d of %d code requests failed", o.failures, o.n)
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
