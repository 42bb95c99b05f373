package send

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
)

// The limit of test sends: TestLimit per user in TestWindow.
const (
	TestLimit  = 5
	TestWindow = 10 * time.Minute
)

// Persian messages of a test send.
const (
	// MsgTestLimit refuses a sixth test send in ten minutes (429).
	MsgTestLimit = "حداکثر ۵ ارسال آزمایشی در هر ۱۰ دقیقه مجاز است؛ کمی بعد دوباره تلاش کنید"
	// MsgNoOwnMobile refuses a test send of a user without a verified mobile.
	MsgNoOwnMobile = "شماره موبایل تأییدشده‌ای برای حساب کاربری شما ثبت نشده است؛ آن را در پروفایل ثبت کنید"
)

// TestRequest is POST /send/test: the text of a send about to be made, from its
// line, to the caller's own mobile. Sample holds the first row's fields of a
// personalised send ({name} → "علی"): each {key} of the text is replaced by its value.
type TestRequest struct {
	Text     string            `json:"text"`
	Line     string            `json:"line"`
	Sample   map[string]string `json:"sample"`
	Cancel11 *bool             `json:"cancel11"`
}

// TestSent answers a test send: the send, and the mobile it went to (0912…).
type TestSent struct {
	Accepted
	Mobile string `json:"mobile"`
}

// SendTest sends the text once to the caller's own verified mobile, as an ordinary
// quick send of one recipient (priced and charged as such, under the same line and
// hours rules) but without a bulk send's pre-flight. At most TestLimit per user in
// TestWindow.
func (s *Service) SendTest(ctx context.Context, id acl.Identity, r TestRequest, ip string) (TestSent, error) {
	mobile, err := s.ownMobile(ctx, id)
	if err != nil {
		return TestSent{}, err
	}
	if err := s.allowTest(ctx, id); err != nil {
		return TestSent{}, err
	}
	req := Request{Type: TypeQuick, Sender: r.Line, Text: fillSample(r.Text, r.Sample), Numbers: []string{mobile}, Cancel11: r.Cancel11}
	a, _, err := s.create(ctx, id, req, "", ip, 0)
	if err != nil {
		return TestSent{}, renameField(err, "sender", "line")
	}
	return TestSent{Accepted: a, Mobile: "0" + strings.TrimPrefix(mobile, "98")}, nil
}

// ownMobile is the caller's mobile when verified (an API key's: the account owner's).
func (s *Service) ownMobile(ctx context.Context, id acl.Identity) (string, error) {
	q := `SELECT mobile, mobile_verified FROM users WHERE id = $1 AND account_id = $2`
	args := []any{id.UserID, id.AccountID}
	if id.UserID == 0 {
		q = `SELECT mobile, mobile_verified FROM users WHERE account_id = $1 AND is_owner ORDER BY id LIMIT 1`
		args = args[1:]
	}
	var (
		mobile   string
		verified bool
	)
	err := s.pool.QueryRow(ctx, q, args...).Scan(&mobile, &verified)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && (mobile == "" || !verified)) {
		return "", apperr.Field("mobile", MsgNoOwnMobile)
	}
	if err != nil {
		return "", fmt.Errorf("own mobile: %w", err)
	}
	return mobile, nil
}

// allowTest counts one test send of the user (an API key's under its key).
func (s *Service) allowTest(ctx context.Context, id acl.Identity) error {
	if s.limit == nil {
		return nil
	}
	key := "send:test:user:" + strconv.FormatInt(id.UserID, 10)
	if id.UserID == 0 {
		key = "send:test:key:" + strconv.FormatInt(id.APIKeyID, 10)
	}
	ok, retry, err := s.limit.Allow(ctx, key, TestLimit, TestWindow)
	if err != nil {
		return err
	}
	if !ok {
		e := apperr.RateLimit(int(retry.Seconds()) + 1)
		e.Message = MsgTestLimit
		return e
	}
	return nil
}

// fillSample replaces each {key} of text by sample[key].
func fillSample(text string, sample map[string]string) string {
	if len(sample) == 0 {
		return text
	}
	pairs := make([]string, 0, 2*len(sample))
	for k, v := range sample {
		pairs = append(pairs, "{"+k+"}", v)
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

// renameField moves a field error of the send request to the test request's name.
func renameField(err error, from, to string) error {
	e, ok := apperr.As(err)
	if !ok || e.Fields == nil {
		return err
	}
	msgs, ok := e.Fields[from]
	if !ok {
		return err
	}
	out := *e
	out.Fields = make(map[string][]string, len(e.Fields))
	for k, v := range e.Fields {
		out.Fields[k] = v
	}
	delete(out.Fields, from)
	out.Fields[to] = msgs
	return &out
}
