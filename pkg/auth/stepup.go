package auth

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/chapar/chapar/pkg/apperr"
)

// PurposeAPIKey is the step-up purpose that creating an API key needs.
const PurposeAPIKey = "apikey"

// StepUp is a one-time code sent to the signed-in user's mobile to confirm a
// sensitive action (creating an API key).
type StepUp struct {
	OTPToken    string `json:"otp_token"`
	ResendAfter int    `json:"resend_after"`
	MobileHint  string `json:"mobile_hint"`
}

// StartStepUp sends a code for purpose to the user's mobile, within the OTP send
// limits and the number's daily cap.
func (s *Service) StartStepUp(ctx context.Context, userID int64, purpose string, c Client) (StepUp, error) {
	return s.StartStepUpTo(ctx, userID, purpose, "", c)
}

// ConfirmStepUp checks a step-up code of the user for purpose and consumes it: a
// wrong code counts against the challenge's tries.
func (s *Service) ConfirmStepUp(ctx context.Context, userID int64, purpose, token, code string, c Client) error {
	if strings.TrimSpace(token) == "" {
		return apperr.Field("otp_token", MsgCodeRequired)
	}
	ch, err := s.verify(ctx, token, code, c, purpose)
	if err != nil {
		return err
	}
	if ch.userID != userID {
		return fmt.Errorf("step-up of user %d used by %d: %w", ch.userID, userID, apperr.ErrUnauthorized)
	}
	return nil
}

// Forget drops cache keys (of other caches: see OnForget) on every API instance,
// through the revocation channel.
func (s *Service) Forget(ctx context.Context, keys ...string) {
	s.announce(ctx, revocation{Keys: keys})
}

// OnForget registers f to be told every cache key forgotten on this instance (by a
// revocation here or announced by another instance). Call it before serving.
func (s *Service) OnForget(f func(keys []string)) {
	s.sess.hooks = append(s.sess.hooks, f)
}

// userKey is the cache key announced when a user's sessions are revoked or their
// permissions change: caches derived from the user (API keys they created) drop it.
func userKey(userID int64) string { return fmt.Sprintf("user:%d", userID) }

// permsKey is the cache key announced when a user's permissions change while their
// sessions stay open (ForgetUsers): their live sockets reconnect under the new ones.
func permsKey(userID int64) string { return fmt.Sprintf("perms:%d", userID) }

// UsersIn returns the users whose permissions changed, named by forgotten cache keys
// (see OnForget).
func UsersIn(keys []string) []int64 {
	var out []int64
	for _, k := range keys {
		if rest, ok := strings.CutPrefix(k, "perms:"); ok {
			if id, err := strconv.ParseInt(rest, 10, 64); err == nil {
				out = append(out, id)
			}
		}
	}
	return out
}
