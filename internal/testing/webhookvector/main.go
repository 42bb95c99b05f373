// Command webhookvector prints a webhook signature made by pkg/webhook's signer, as
// JSON {secret, timestamp, body, signature}, for the client libraries' tests
// (scripts/sdk-test.sh): each library must verify it and refuse it tampered.
package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/chapar/chapar/pkg/webhook"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "webhookvector:", err)
		os.Exit(1)
	}
}

func run() error {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return fmt.Errorf("secret: %w", err)
	}
	secret := webhook.SecretPrefix + hex.EncodeToString(b)
	now := time.Now()
	body := `{"delivery_id":812,"events":[{"id":90211,"type":"inbound.message","created_at":"` +
		now.UTC().Format(time.RFC3339) + `","data":{"inbox_id":3051,"sender":"989121234567","line":"300012345","text":"سلام، سفارشم کی می‌رسد؟"}}]}`
	out := map[string]string{
		"secret":    secret,
		"timestamp": strconv.FormatInt(now.Unix(), 10),
		"body":      body,
		"signature": webhook.Sign(secret, now, []byte(body)),
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	return nil
}
