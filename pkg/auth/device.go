package auth

import (
	"context"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
)

// Device tokens (OWASP's "device cookies"): every successful login hands the browser a
// random token, stored here only as its SHA-256, once per user who logged in with it
// (a browser shared by several users keeps one token). A login, code login or code
// confirmation that carries a live token of its user is trusted: it is not subject to
// the per-username lock-out, and the codes it asks for count against a daily budget of
// their own, so a stranger hammering a username can neither lock its owner out nor
// drain the owner's codes. A trusted device's own wrong passwords and codes are counted
// too: past RATE_LOGIN_USER_LOCK_AFTER in an hour the device is untrusted for that
// user until the hour ends. Password change, reset and «log out everywhere» forget all
// the user's devices.

// DeviceTTL is how long a device token stays trusted after its last login.
const DeviceTTL = 180 * 24 * time.Hour

// devicesPerUser caps the devices remembered per user (the least recently used go).
const devicesPerUser = 20

// Opened is a new session's token and the browser's device token, to keep and send
// with every later login.
type Opened struct {
	Token       string `json:"token"`
	DeviceToken string `json:"device_token,omitempty"`
}

// deviceTrusted reports whether token is a live device token of the user whose own
// failures have not used up its trust this hour.
func (s *Service) deviceTrusted(ctx context.Context, token string, userID int64) (bool, error) {
	if token == "" || userID == 0 {
		return false, nil
	}
	var live bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM device_tokens WHERE token_hash = $1 AND user_id = $2
		AND last_used_at > $3)`, hashToken(token), userID, s.now().Add(-DeviceTTL)).Scan(&live)
	if err != nil {
		return false, fmt.Errorf("device token: %w", err)
	}
	if !live || s.cfg.LoginUserLockAfter <= 0 {
		return live, nil
	}
	ok, _, err := s.limit.Peek(ctx, deviceFailKey(token, userID), s.cfg.LoginUserLockAfter)
	return ok, err
}

// deviceFailKey counts a trusted device's failures for one user.
func deviceFailKey(token string, userID int64) string {
	return "login:fails:device:" + hex.EncodeToString(hashToken(token)[:12]) + ":" + strconv.FormatInt(userID, 10)
}

// rememberDevice returns the device token the browser keeps after userID logged in:
// the one it presented, refreshed (and bound to this user too when it is a token of
// another user of the same browser), or a new one. The user's expired and surplus
// devices are forgotten.
func (s *Service) rememberDevice(ctx context.Context, tx pgx.Tx, userID int64, presented string) (string, error) {
	token := presented
	known, err := s.deviceKnown(ctx, tx, token)
	if err != nil {
		return "", err
	}
	if !known {
		if token, err = newToken(); err != nil {
			return "", err
		}
	}
	_, err = tx.Exec(ctx, `INSERT INTO device_tokens (token_hash, user_id, last_used_at) VALUES ($1, $2, $3)
		ON CONFLICT (token_hash, user_id) DO UPDATE SET last_used_at = excluded.last_used_at`, hashToken(token), userID, s.now())
	if err != nil {
		return "", fmt.Errorf("remember device: %w", err)
	}
	_, err = tx.Exec(ctx, `DELETE FROM device_tokens WHERE user_id = $1 AND (last_used_at <= $2 OR token_hash NOT IN
		(SELECT token_hash FROM device_tokens WHERE user_id = $1 ORDER BY last_used_at DESC LIMIT $3))`,
		userID, s.now().Add(-DeviceTTL), devicesPerUser)
	if err != nil {
		return "", fmt.Errorf("prune devices: %w", err)
	}
	return token, nil
}

// deviceKnown reports whether token is a live device token of any user (one this
// service issued, not one a client made up).
func (s *Service) deviceKnown(ctx context.Context, tx pgx.Tx, token string) (bool, error) {
	if token == "" {
		return false, nil
	}
	var known bool
	err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM device_tokens WHERE token_hash = $1 AND last_used_at > $2)`,
		hashToken(token), s.now().Add(-DeviceTTL)).Scan(&known)
	if err != nil {
		return false, fmt.Errorf("device known: %w", err)
	}
	return known, nil
}

// forgetDevices deletes every device token of the user and returns how many.
func forgetDevices(ctx context.Context, tx pgx.Tx, userID int64) (int64, error) {
	tag, err := tx.Exec(ctx, `DELETE FROM device_tokens WHERE user_id = $1`, userID)
	if err != nil {
		return 0, fmt.Errorf("forget devices: %w", err)
	}
	return tag.RowsAffected(), nil
}
