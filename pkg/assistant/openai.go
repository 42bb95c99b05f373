package assistant

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// OpenAI is a client of an OpenAI-compatible chat-completions server: OpenAI
// itself or any server speaking its wire format (vLLM, llama.cpp's server, a
// hosted one). It posts to BaseURL + "/chat/completions".
type OpenAI struct {
	// BaseURL is the API root, e.g. "http://127.0.0.1:8000/v1" (ASSISTANT_URL).
	BaseURL string
	// Model is the model name sent with each request (ASSISTANT_MODEL).
	Model string
	// Key is the bearer token (ASSISTANT_KEY); empty sends none.
	Key string
	// Stream asks for server-sent events and reads the reply as it comes.
	Stream bool
	// Timeout bounds one request, streaming included (ASSISTANT_TIMEOUT).
	Timeout time.Duration
	// MaxTokens bounds the reply (0: 600).
	MaxTokens int
	// HTTP is the client used (nil: http.DefaultClient).
	HTTP *http.Client
}

// Name is the remote model's name.
func (o *OpenAI) Name() string { return o.Model }

type chatRequest struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Stream      bool      `json:"stream"`
	MaxTokens   int       `json:"max_tokens"`
	Temperature float64   `json:"temperature"`
}

// chatResponse covers both the whole answer (message) and a streamed chunk (delta).
type chatResponse struct {
	Choices []struct {
		Message      Message `json:"message"`
		Delta        Message `json:"delta"`
		FinishReason string  `json:"finish_reason"`
	} `json:"choices"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// Complete sends the conversation and returns the reply.
func (o *OpenAI) Complete(ctx context.Context, p Prompt) (string, error) {
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	resp, err := o.post(ctx, p.Messages)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return "", statusError(resp)
	}
	var text string
	if o.Stream && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		text, err = readStream(resp.Body)
	} else {
		text, err = readWhole(resp.Body)
	}
	if err != nil {
		return "", fmt.Errorf("%w: read reply: %w", ErrModel, err)
	}
	if strings.TrimSpace(text) == "" {
		return "", fmt.Errorf("%w: empty reply", ErrModel)
	}
	return strings.TrimSpace(text), nil
}

func (o *OpenAI) post(ctx context.Context, msgs []Message) (*http.Response, error) {
	maxTokens := o.MaxTokens
	if maxTokens <= 0 {
		maxTokens = 600
	}
	body, err := json.Marshal(chatRequest{Model: o.Model, Messages: msgs, Stream: o.Stream, MaxTokens: maxTokens, Temperature: 0.4})
	if err != nil {
		return nil, fmt.Errorf("%w: encode request: %w", ErrModel, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(o.BaseURL, "/")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrModel, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if o.Stream {
		req.Header.Set("Accept", "text/event-stream")
	}
	if o.Key != "" {
		req.Header.Set("Authorization", "Bearer "+o.Key)
	}
	client := o.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrModel, err)
	}
	return resp, nil
}

// statusError describes a non-2xx answer, with the server's error message when
// it sent the usual {"error":{"message":…}}.
func statusError(resp *http.Response) error {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	var r chatResponse
	if json.Unmarshal(raw, &r) == nil && r.Error != nil && r.Error.Message != "" {
		return fmt.Errorf("%w: status %d: %s", ErrModel, resp.StatusCode, r.Error.Message)
	}
	return fmt.Errorf("%w: status %d", ErrModel, resp.StatusCode)
}

// errCut is a reply the server stopped before its end (the token limit, a
// stream closed early): a half answer is never shown.
var errCut = errors.New("the reply was cut off")

func readWhole(r io.Reader) (string, error) {
	var resp chatResponse
	if err := json.NewDecoder(io.LimitReader(r, 1<<20)).Decode(&resp); err != nil {
		return "", err
	}
	if resp.Error != nil {
		return "", fmt.Errorf("%s", resp.Error.Message)
	}
	if len(resp.Choices) == 0 {
		return "", fmt.Errorf("no choices")
	}
	if c := resp.Choices[0]; c.FinishReason == "length" {
		return "", fmt.Errorf("%w (finish_reason %s)", errCut, c.FinishReason)
	}
	return resp.Choices[0].Message.Content, nil
}

// readStream joins the deltas of a server-sent event stream. The stream must
// end with "data: [DONE]" or a chunk whose finish_reason is "stop"; one that
// ends otherwise, or stops for the token limit, is cut.
func readStream(r io.Reader) (string, error) {
	var out strings.Builder
	finish, done := "", false
	sc := bufio.NewScanner(io.LimitReader(r, 4<<20))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data:")
		if !ok {
			continue // comments, event names, blank separators
		}
		data = strings.TrimSpace(data)
		if data == "[DONE]" {
			done = true
			break
		}
		var chunk chatResponse
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			return "", fmt.Errorf("bad event: %w", err)
		}
		if chunk.Error != nil {
			return "", fmt.Errorf("%s", chunk.Error.Message)
		}
		for _, c := range chunk.Choices {
			out.WriteString(c.Delta.Content)
			if c.FinishReason != "" {
				finish = c.FinishReason
			}
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	if finish == "length" || !done && finish == "" {
		return "", fmt.Errorf("%w (finish_reason %q)", errCut, finish)
	}
	return out.String(), nil
}
