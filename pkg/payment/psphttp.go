package payment

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// DefaultPSPTimeout bounds one call to a bank's API.
const DefaultPSPTimeout = 20 * time.Second

// maxPSPAnswer bounds a bank's answer read into memory.
const maxPSPAnswer = 1 << 20

// postJSON posts body as JSON to url and decodes the answer into out. A bank that
// does not answer within the client's timeout, or answers other than JSON, is an
// error (the payment stays pending; the settle task asks again).
func postJSON(ctx context.Context, client *http.Client, url string, body, out any) error {
	raw, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("encode request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("bank request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if client == nil {
		client = &http.Client{Timeout: DefaultPSPTimeout}
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("bank call %s: %w", url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxPSPAnswer))
	if err != nil {
		return fmt.Errorf("bank answer %s: %w", url, err)
	}
	if resp.StatusCode >= 500 {
		return fmt.Errorf("bank answer %s: HTTP %d", url, resp.StatusCode)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("bank answer %s (HTTP %d): %w", url, resp.StatusCode, err)
	}
	return nil
}

// reservation is a new random reservation number a merchant gives the bank.
func reservation() (string, error) {
	raw := make([]byte, 12)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("reservation number: %w", err)
	}
	return "C" + hex.EncodeToString(raw), nil
}

// PSPError is a bank's refusal: its code and the Persian message shown for it.
type PSPError struct {
	Gateway string
	Code    int
	Message string
}

// Error implements error.
func (e *PSPError) Error() string {
	return fmt.Sprintf("%s: code %d: %s", e.Gateway, e.Code, e.Message)
}
