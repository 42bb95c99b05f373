package chapar

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
)

// SendRequest is a quick send (POST /send with type quick).
type SendRequest struct {
	Sender   string   `json:"sender"`
	Numbers  []string `json:"numbers"`
	Text     string   `json:"text"`
	LocalID  string   `json:"local_id,omitempty"`
	SendAt   string   `json:"send_at,omitempty"` // RFC 3339, at least 5 minutes ahead
	Cancel11 *bool    `json:"cancel11,omitempty"`
	// IdempotencyKey is sent as the header (a random one when empty).
	IdempotencyKey string `json:"-"`
}

// Accepted is the answer to an accepted send.
type Accepted struct {
	ID       int64  `json:"id"`
	Status   string `json:"status"`
	Price    int64  `json:"price"` // rials
	Sender   string `json:"sender"`
	Cancel11 bool   `json:"cancel11"`
	Sandbox  bool   `json:"sandbox,omitempty"`
	LocalID  string `json:"local_id,omitempty"`
	Type     string `json:"type,omitempty"` // pattern sends: pattern_otp, pattern_transactional, pattern
	Held     bool   `json:"held,omitempty"`
}

// PatternRecipient is one recipient of a pattern send to many.
type PatternRecipient struct {
	Mobile string            `json:"mobile"`
	Values map[string]string `json:"values,omitempty"`
}

// PatternRequest is a pattern send: Recipient with Values, or Recipients.
type PatternRequest struct {
	Code           string             `json:"code"`
	Recipient      string             `json:"recipient,omitempty"`
	Values         map[string]string  `json:"values,omitempty"`
	Recipients     []PatternRecipient `json:"recipients,omitempty"`
	Sender         string             `json:"sender,omitempty"`
	LocalID        string             `json:"local_id,omitempty"`
	IdempotencyKey string             `json:"-"`
}

// Recipient is one recipient's row: Status 0 waiting, 1 sent, 2 delivered, 3 not
// delivered, 4 blacklisted.
type Recipient struct {
	Mobile   string `json:"mobile"`
	Operator string `json:"operator"`
	Parts    int    `json:"parts"`
	Status   int    `json:"status"`
	Pending  bool   `json:"pending"`
	Rejected bool   `json:"rejected"`
	Error    string `json:"error"`
}

// SendStatus is a send's state and counters (GET /send/status).
type SendStatus struct {
	ID          int64      `json:"id"`
	Status      string     `json:"status"`
	LocalID     string     `json:"local_id"`
	Requested   int        `json:"requested"`
	Recipients  int        `json:"recipients"`
	Sent        int        `json:"sent"`
	Delivered   int        `json:"delivered"`
	Undelivered int        `json:"undelivered"`
	Blacklisted int        `json:"blacklisted"`
	Rejected    int        `json:"rejected"`
	Pending     int        `json:"pending"`
	Parts       int        `json:"parts"`
	Price       int64      `json:"price"`
	Refunded    int64      `json:"refunded"`
	Recipient   *Recipient `json:"recipient,omitempty"`
}

// InboxMessage is a received message.
type InboxMessage struct {
	ID         int64  `json:"id"`
	Sender     string `json:"sender"`
	Line       string `json:"line"`
	Text       string `json:"text"`
	Operator   string `json:"operator"`
	ReceivedAt string `json:"received_at"`
}

// Line is a sender line of the account.
type Line struct {
	ID        int64  `json:"id"`
	Number    string `json:"number"`
	Kind      string `json:"kind"`
	IsDefault bool   `json:"is_default"`
}

// Send makes a quick send.
func (c *Client) Send(ctx context.Context, r SendRequest) (Accepted, error) {
	body := struct {
		Type string `json:"type"`
		SendRequest
	}{"quick", r}
	var out Accepted
	err := c.Do(ctx, http.MethodPost, "/send", nil, body, &out, r.IdempotencyKey)
	return out, err
}

// SendPattern sends an approved pattern.
func (c *Client) SendPattern(ctx context.Context, r PatternRequest) (Accepted, error) {
	var out Accepted
	err := c.Do(ctx, http.MethodPost, "/patterns/send", nil, r, &out, r.IdempotencyKey)
	return out, err
}

// Status is the send id; a non-empty mobile adds that recipient's row.
func (c *Client) Status(ctx context.Context, id int64, mobile string) (SendStatus, error) {
	return c.status(ctx, url.Values{"id": {strconv.FormatInt(id, 10)}}, mobile)
}

// StatusByLocalID is the send made with localID; a non-empty mobile adds that
// recipient's row.
func (c *Client) StatusByLocalID(ctx context.Context, localID, mobile string) (SendStatus, error) {
	return c.status(ctx, url.Values{"local_id": {localID}}, mobile)
}

func (c *Client) status(ctx context.Context, q url.Values, mobile string) (SendStatus, error) {
	if mobile != "" {
		q.Set("mobile", mobile)
	}
	var out SendStatus
	err := c.Do(ctx, http.MethodGet, "/send/status", q, nil, &out, "")
	return out, err
}

// Credit is the wallet's credit in rials.
func (c *Client) Credit(ctx context.Context) (int64, error) {
	var out struct {
		Credit int64 `json:"credit"`
	}
	err := c.Do(ctx, http.MethodGet, "/payment/credit/mine", nil, nil, &out, "")
	return out.Credit, err
}

// Lines are the account's sender lines, the default first.
func (c *Client) Lines(ctx context.Context) ([]Line, error) {
	var out []Line
	err := c.Do(ctx, http.MethodGet, "/number/numbers", nil, nil, &out, "")
	return out, err
}

// InboxSince lists received messages with an id above afterID, oldest first
// (limit 1–500; 0 means the server's 100). Keep the last id for the next call.
func (c *Client) InboxSince(ctx context.Context, afterID int64, limit int) ([]InboxMessage, error) {
	q := url.Values{"after_id": {strconv.FormatInt(afterID, 10)}}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	var out []InboxMessage
	err := c.Do(ctx, http.MethodGet, "/inbox/since", q, nil, &out, "")
	return out, err
}
