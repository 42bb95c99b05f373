// Package jobs defines the asynq task types, their queues and payloads, and the
// constructors that build them. Payloads carry ids, plus the few values a task cannot
// look up (an OTP message's text is never stored in clear, so it travels in the task).
package jobs

import (
	"encoding/json"
	"fmt"
	"strings"
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

// Send pipeline task types.
const (
	TypeSendExpand   = "send:expand"
	TypeSendBatch    = "send:batch"
	TypeSendFinalize = "send:finalize"
	TypeSweep        = "send:sweep"
)

// Redis names shared by the processes.
const (
	// InboundStream receives every receipt and MO message from the gateways, written
	// before the deliver_sm is answered; the worker applies and acknowledges them.
	InboundStream = "smpp:inbound"
	// InboundGroup is the worker consumer group of InboundStream.
	InboundGroup = "workers"
	// DirtySends is a set of send ids whose progress changed; the live publisher
	// drains it about twice a second and publishes send.progress.
	DirtySends = "live:dirty_sends"
	// GatewayHeartbeat prefixes each gateway instance's bind report (JSON, short TTL).
	GatewayHeartbeat = "gateway:heartbeat:"
)

// CarrierQueueCritical is an operator's queue for OTP and pattern messages, served
// before its bulk queue.
func CarrierQueueCritical(operator string) string { return "carrier:" + operator + ":critical" }

// IsCarrierQueueCritical reports whether queue is an operator's critical queue
// (CarrierQueueCritical): its batches take the gateway's fast lane.
func IsCarrierQueueCritical(queue string) bool {
	return strings.HasPrefix(queue, "carrier:") && strings.HasSuffix(queue, ":critical")
}

// SendExpand asks the worker to expand a send into recipients.
type SendExpand struct {
	SendID int64 `json:"send_id"`
}

// NewSendExpand builds the expand task; its id is the send id, so a retried accept
// never expands twice. processAt is zero for "now".
func NewSendExpand(sendID int64, queue string, processAt time.Time) (*asynq.Task, error) {
	b, _ := json.Marshal(SendExpand{SendID: sendID})
	opts := []asynq.Option{asynq.Queue(queue), asynq.TaskID(fmt.Sprintf("expand:%d", sendID)),
		asynq.MaxRetry(20), asynq.Timeout(30 * time.Minute), asynq.Retention(24 * time.Hour)}
	if !processAt.IsZero() {
		opts = append(opts, asynq.ProcessAt(processAt))
	}
	return asynq.NewTask(TypeSendExpand, b, opts...), nil
}

// SendBatch is one per-operator batch of a send's recipients.
type SendBatch struct {
	SendID   int64  `json:"send_id"`
	Batch    int    `json:"batch"`
	Operator string `json:"operator"`
}

// NewSendBatch builds a batch task on the operator's carrier queue. The task id makes
// a repeated enqueue a no-op; the handler is idempotent by recipient state anyway.
func NewSendBatch(b SendBatch, critical bool) (*asynq.Task, error) {
	payload, _ := json.Marshal(b)
	q := CarrierQueue(b.Operator)
	if critical {
		q = CarrierQueueCritical(b.Operator)
	}
	return asynq.NewTask(TypeSendBatch, payload, asynq.Queue(q),
		asynq.TaskID(fmt.Sprintf("batch:%d:%d", b.SendID, b.Batch)),
		asynq.MaxRetry(50), asynq.Timeout(10*time.Minute), asynq.Retention(time.Hour)), nil
}

// SendFinalize asks the worker to close a send whose recipients are all final.
type SendFinalize struct {
	SendID int64 `json:"send_id"`
}

// TypeFileParse asks the worker to parse an uploaded file.
const TypeFileParse = "file:parse"

// FileParse is the parse task of one uploaded file.
type FileParse struct {
	FileID int64 `json:"file_id"`
}

// NewFileParse builds the parse task. Its id is the file id, so a repeated enqueue
// is a no-op; the handler starts over on a retry.
func NewFileParse(fileID int64, queue string) *asynq.Task {
	b, _ := json.Marshal(FileParse{FileID: fileID})
	return asynq.NewTask(TypeFileParse, b, asynq.Queue(queue), asynq.TaskID(fmt.Sprintf("file:%d", fileID)),
		asynq.MaxRetry(5), asynq.Timeout(30*time.Minute), asynq.Retention(time.Hour))
}

// TypeContactImport asks the worker to import a parsed upload file into a phonebook.
const TypeContactImport = "contacts:import"

// ContactImport is the task of one contact import.
type ContactImport struct {
	ImportID int64 `json:"import_id"`
}

// NewContactImport builds the import task. Its id is the import id, so a repeated
// enqueue is a no-op; a retry resumes after the last committed chunk.
func NewContactImport(importID int64) *asynq.Task {
	return importTask(TypeContactImport, "contacts-import", importID, asynq.Timeout(time.Hour), asynq.Retention(24*time.Hour))
}

// TypeContactSearch asks the worker to add the names of an import's contacts to the
// contact search index (pkg/phonebook IndexImport). Its payload is a ContactImport.
const TypeContactSearch = "contacts:search-index"

// NewContactSearch builds the search-index task. Its id is the import's, so a
// repeated enqueue while one is queued or running is a no-op; none is kept once
// done, so the next enqueue (the scheduler's, every few seconds while the import is
// pending) runs again.
func NewContactSearch(importID int64) *asynq.Task {
	return importTask(TypeContactSearch, "contacts-search", importID, asynq.Timeout(30*time.Minute))
}

// importTask is a default-queue task of one import whose id is its kind and the
// import's id.
func importTask(typ, kind string, importID int64, opts ...asynq.Option) *asynq.Task {
	b, _ := json.Marshal(ContactImport{ImportID: importID})
	return asynq.NewTask(typ, b, append([]asynq.Option{asynq.Queue(QueueDefault),
		asynq.TaskID(fmt.Sprintf("%s:%d", kind, importID)), asynq.MaxRetry(10)}, opts...)...)
}
