// Package chapar is a client of the Chapar SMS API: quick sends, status by id or
// local_id, pattern (one-time code) sends, credit, received messages, and webhook
// signature checks. Error answers are *Error values carrying the envelope's Persian
// message and code; calls are retried on network errors, 5xx and 429 with the same
// Idempotency-Key, waiting Retry-After when the answer gives one.
package chapar

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	mrand "math/rand"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

const userAgent = "chapar-go/0.1.0"

// Client calls the API of one account with an API key. Its fields may be changed
// before the first call.
type Client struct {
	BaseURL    string        // the panel's address with /v1/api
	APIKey     string        // chp_live_…
	HTTP       *http.Client  // defaults to a client with a 30 s time-out
	MaxRetries int           // retries after the first try (default 3)
	Backoff    time.Duration // first back-off without Retry-After (default 500 ms), doubled per retry
	MaxBackoff time.Duration // the longest wait between tries (default 30 s)
}

// New makes a client of baseURL (the panel's address; /v1/api is added when
// missing) with the API key.
func New(baseURL, apiKey string) *Client {
	u := strings.TrimRight(baseURL, "/")
	if !strings.HasSuffix(u, "/v1/api") {
		u += "/v1/api"
	}
	return &Client{BaseURL: u, APIKey: apiKey, HTTP: &http.Client{Timeout: 30 * time.Second},
		MaxRetries: 3, Backoff: 500 * time.Millisecond, MaxBackoff: 30 * time.Second}
}

// envelope is every answer's shape (api-contract.md).
type envelope struct {
	Data json.RawMessage `json:"data"`
	Meta struct {
		Message     string              `json:"message"`
		MessageCode string              `json:"message_code"`
		Errors      map[string][]string `json:"errors"`
	} `json:"meta"`
}

// Do makes one API call with retries and decodes the envelope's data into out
// (when out is not nil). A POST carries idemKey as its Idempotency-Key, or a
// random one when empty; the same key is sent on every retry.
func (c *Client) Do(ctx context.Context, method, path string, query url.Values, body, out any, idemKey string) error {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return fmt.Errorf("chapar: encode %s %s: %w", method, path, err)
		}
	}
	if method == http.MethodPost && idemKey == "" {
		idemKey = newKey()
	}
	u := c.BaseURL + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	for attempt := 0; ; attempt++ {
		err := c.once(ctx, method, u, payload, idemKey, out)
		if err == nil || attempt >= c.MaxRetries || !retryable(err) {
			return err
		}
		if err := sleep(ctx, c.delay(attempt, err)); err != nil {
			return fmt.Errorf("chapar: %s %s: %w", method, path, err)
		}
	}
}

func (c *Client) once(ctx context.Context, method, u string, payload []byte, idemKey string, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, u, bytes.NewReader(payload))
	if err != nil {
		return fmt.Errorf("chapar: %s %s: %w", method, u, err)
	}
	req.Header.Set("Authorization", "Bearer "+c.APIKey)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", userAgent)
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if idemKey != "" {
		req.Header.Set("Idempotency-Key", idemKey)
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %s %s: %w", ErrNetwork, method, u, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return fmt.Errorf("%w: %s %s: read: %w", ErrNetwork, method, u, err)
	}
	return decode(res, raw, out)
}

// decode unwraps the envelope: data into out on success, an *Error otherwise.
func decode(res *http.Response, raw []byte, out any) error {
	var env envelope
	jsonErr := json.Unmarshal(raw, &env)
	if res.StatusCode < 200 || res.StatusCode > 299 {
		e := &Error{Status: res.StatusCode, Code: env.Meta.MessageCode, Message: env.Meta.Message,
			Fields: env.Meta.Errors, RetryAfter: retryAfter(res.Header.Get("Retry-After"))}
		if e.Message == "" {
			e.Message = http.StatusText(res.StatusCode)
		}
		return e
	}
	if jsonErr != nil {
		return fmt.Errorf("chapar: decode answer (%d): %w", res.StatusCode, jsonErr)
	}
	if out == nil || len(env.Data) == 0 {
		return nil
	}
	if err := json.Unmarshal(env.Data, out); err != nil {
		return fmt.Errorf("chapar: decode data: %w", err)
	}
	return nil
}

// delay is the wait before retry number attempt+1: the answer's Retry-After, else
// an exponential back-off with ±20% jitter, never above MaxBackoff.
func (c *Client) delay(attempt int, err error) time.Duration {
	if e, ok := AsError(err); ok && e.RetryAfter > 0 {
		return min(e.RetryAfter, c.MaxBackoff)
	}
	d := min(time.Duration(float64(c.Backoff)*math.Pow(2, float64(attempt))), c.MaxBackoff)
	return time.Duration(float64(d) * (0.8 + 0.4*mrand.Float64()))
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t))
	}
	return 0
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// newKey is a random Idempotency-Key.
func newKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
