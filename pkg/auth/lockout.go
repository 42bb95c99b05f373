package auth

import (
	"context"
	"fmt"
	"time"

	"github.com/chapar/chapar/jobs"
	"github.com/chapar/chapar/pkg/account"
	"github.com/chapar/chapar/pkg/audit"
)

// Sequence numbers of owner notices in the verification task ids (codes count from 1).
const (
	seqLockNotice  = -1
	seqResetNotice = -2
)

// resetLocked refuses a password reset for a username, or a mobile, that had its day's
// wrong reset codes. It is keyed by the username as typed, so a missing user locks alike.
func (s *Service) resetLocked(ctx context.Context, name, mobile string) error {
	for _, k := range resetKeys(name, mobile) {
		ok, retry, err := s.limit.Peek(ctx, k, s.cfg.ResetFailsPerDay)
		if err != nil {
			return err
		}
		if !ok {
			return limited(retry, CodeResetLocked, MsgResetLocked)
		}
	}
	return nil
}

// resetKeys are the day counters of wrong reset codes: the username, and the mobile of
// a real user.
func resetKeys(name, mobile string) []string {
	keys := []string{"reset:fails:name:" + name}
	if mobile != "" {
		keys = append(keys, "reset:fails:number:"+mobile)
	}
	return keys
}

// countResetFailure counts a wrong reset code against the username and the mobile for
// a day. When either reaches the limit the owner is told by SMS and the audit log.
func (s *Service) countResetFailure(ctx context.Context, ch challenge, u account.User, c Client) error {
	tripped := false
	for _, k := range resetKeys(ch.subject, u.Mobile) {
		n, _, err := s.limit.Hit(ctx, k, 24*time.Hour)
		if err != nil {
			return err
		}
		tripped = tripped || n == int64(s.cfg.ResetFailsPerDay)
	}
	if !tripped || u.ID == 0 {
		return nil
	}
	if err := audit.Record(ctx, s.pool, audit.Entry{AccountID: u.AccountID, UserID: u.ID, Action: "auth.reset_locked", IP: c.IP}); err != nil {
		return err
	}
	return s.notify(ctx, u, ch.id, seqLockNotice, MsgNoticeResetLocked)
}

// notify sends the owner a security notice by SMS on the critical queue, if the mobile
// is proven. Notices do not count against the number's daily code cap.
func (s *Service) notify(ctx context.Context, u account.User, ref int64, seq int, text string) error {
	if u.ID == 0 || !u.MobileVerified || u.Mobile == "" {
		return nil
	}
	task, err := jobs.NewVerification(jobs.Verification{UserID: u.ID, Mobile: u.Mobile, Text: text,
		Purpose: PurposeNotice, ChallengeID: ref, Seq: seq})
	if err != nil {
		return err
	}
	if _, err := s.queue.EnqueueContext(ctx, task); err != nil {
		return fmt.Errorf("enqueue notice: %w", err)
	}
	return nil
}
