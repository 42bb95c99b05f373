// Package voice places voice calls that read out one-time codes. Carriers' voice
// gateways cannot be reached here, so the Caller interface has a sandbox
// implementation that records each call in Redis, where the demo and tests read it,
// exactly as a handset would hear it.
package voice

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Caller places a call that speaks text to a mobile.
type Caller interface {
	Call(ctx context.Context, mobile, text string) error
}

// SandboxKey is the Redis list of the sandbox's calls, newest first.
const SandboxKey = "voice:sandbox:calls"

// Call is one recorded sandbox call.
type Call struct {
	Mobile string    `json:"mobile"`
	Text   string    `json:"text"`
	At     time.Time `json:"at"`
}

// Sandbox records calls in Redis (the newest 1,000).
type Sandbox struct{ RDB redis.UniversalClient }

// Call records the call.
func (s Sandbox) Call(ctx context.Context, mobile, text string) error {
	b, _ := json.Marshal(Call{Mobile: mobile, Text: text, At: time.Now().UTC()})
	pipe := s.RDB.TxPipeline()
	pipe.LPush(ctx, SandboxKey, b)
	pipe.LTrim(ctx, SandboxKey, 0, 999)
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("sandbox call: %w", err)
	}
	return nil
}

// Calls lists the sandbox's recorded calls to a mobile, newest first.
func Calls(ctx context.Context, rdb redis.UniversalClient, mobile string) ([]Call, error) {
	raw, err := rdb.LRange(ctx, SandboxKey, 0, -1).Result()
	if err != nil {
		return nil, fmt.Errorf("sandbox calls: %w", err)
	}
	var out []Call
	for _, r := range raw {
		var c Call
		if json.Unmarshal([]byte(r), &c) == nil && c.Mobile == mobile {
			out = append(out, c)
		}
	}
	return out, nil
}
