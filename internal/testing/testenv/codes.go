package testenv

import (
	"encoding/json"
	"testing"

	"github.com/hibiken/asynq"

	"github.com/chapar/chapar/jobs"
)

// purposeNotice is the purpose of a security notice (pkg/auth's PurposeNotice): a
// text with no code in it.
const purposeNotice = "notice"

// Queued returns the verification messages (codes, invitations, notices) waiting in
// r's SMS queue for a mobile (international form, 98…). A service tested without a
// worker leaves every message it sends there.
func Queued(tb testing.TB, r Redis, mobile string) []jobs.Verification {
	tb.Helper()
	insp := asynq.NewInspector(asynq.RedisClientOpt{Addr: r.Addr, DB: r.DB})
	defer insp.Close()
	tasks, err := insp.ListPendingTasks(jobs.QueueCritical, asynq.PageSize(10_000))
	if err != nil {
		tb.Fatalf("testenv: queued messages: %v", err)
	}
	var out []jobs.Verification
	for _, task := range tasks {
		var v jobs.Verification
		if task.Type == jobs.TypeVerification && json.Unmarshal(task.Payload, &v) == nil && v.Mobile == mobile {
			out = append(out, v)
		}
	}
	return out
}

// LastCode is the code of the newest message with a code queued for a mobile
// (international form, 98…); the test fails when there is none.
func LastCode(tb testing.TB, r Redis, mobile string) string {
	tb.Helper()
	code := CodeIn(Newest(Queued(tb, r, mobile)).Text)
	if code == "" {
		tb.Fatalf("testenv: no code queued for %s", mobile)
	}
	return code
}

// Newest is the newest of the messages that carry a code (not a security notice):
// the latest challenge's last send. It is zero when there is none.
func Newest(vs []jobs.Verification) jobs.Verification {
	var best jobs.Verification
	for _, v := range vs {
		if v.Purpose != purposeNotice && (v.ChallengeID > best.ChallengeID || v.ChallengeID == best.ChallengeID && v.Seq > best.Seq) {
			best = v
		}
	}
	return best
}

// CodeIn extracts the digits of the first run of 4–8 digits in a message.
func CodeIn(text string) string {
	var run []rune
	for _, r := range text + " " {
		if r >= '0' && r <= '9' {
			run = append(run, r)
			continue
		}
		if len(run) >= 4 && len(run) <= 8 {
			return string(run)
		}
		run = run[:0]
	}
	return ""
}
