// Package jobs defines the asynq task types, their queues and payloads, and the
// constructors that build them. Payloads carry ids, plus the few values a task cannot
// look up (an OTP message's text is never stored in clear, so it travels in the task).
package jobs

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// Queues. critical carries OTP and pattern messages; carrier queues are per operator.
const (
	QueueCritical = "critical"
	QueueDefault  = "default"
	QueueBulk     = "bulk"
)

// CarrierQueue is the batch queue of one operator, consumed by the gateways bound to it.
func CarrierQueue(operator string) string { return "carrier:" + operator }

// Task types.
const (
	TypeVerification = "sms:verification"
)

// Verification is a one-time code message (login, password reset, two-step set-up).
type Verification struct {
	UserID  int64  `json:"user_id"`
	Mobile  string `json:"mobile"` // 98XXXXXXXXXX
	Text    string `json:"text"`
	Voice   bool   `json:"voice"`
	Purpose string `json:"purpose"`
	// ChallengeID identifies the challenge the code belongs to, for idempotency.
	ChallengeID int64 `json:"challenge_id"`
	Seq         int   `json:"seq"`
}

// NewVerification builds the critical-queue task for a code message. The task id makes
// a retried enqueue of the same code a no-op.
func NewVerification(v Verification) (*asynq.Task, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("marshal verification: %w", err)
	}
	return asynq.NewTask(TypeVerification, b,
		asynq.Queue(QueueCritical),
		asynq.TaskID(fmt.Sprintf("otp:%d:%d", v.ChallengeID, v.Seq)),
		asynq.MaxRetry(5),
		asynq.Timeout(30*time.Second),
		asynq.Retention(time.Hour),
	), nil
}
