package assistant

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// chatServer speaks the chat-completions wire format: a JSON answer, or
// server-sent events when the request asks to stream. It records the requests.
func chatServer(t *testing.T, reply string, got *[]chatRequest) *httptest.Server {
	return scriptedServer(t, func(chatRequest) string { return reply }, got, nil)
}

// scriptedServer is chatServer whose reply depends on the request; raw, when
// not nil, gets each request body as sent.
func scriptedServer(t *testing.T, reply func(chatRequest) string, got *[]chatRequest, raw *[][]byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		if r.Header.Get("Authorization") != "Bearer sk-test" {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req chatRequest
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("request body: %v", err)
		}
		*got = append(*got, req)
		if raw != nil {
			*raw = append(*raw, body)
		}
		answer := reply(req)
		if !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":%q,"choices":[{"index":0,"message":{"role":"assistant","content":%q},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":5,"total_tokens":10}}`, req.Model, answer)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, ": keep-alive\n\n")
		fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n")
		for _, piece := range strings.SplitAfter(answer, " ") {
			b, _ := json.Marshal(piece)
			fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%s},\"finish_reason\":null}]}\n\n", b)
			w.(http.Flusher).Flush()
		}
		fmt.Fprint(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

var testPrompt = Prompt{Messages: []Message{{Role: "system", Content: "rules"}, {Role: "user", Content: "یک تبلیغ بنویس"}}}

func TestOpenAIWholeAndStreamed(t *testing.T) {
	const reply = "کفش آریا: تخفیف ۳۰ درصدی تا ۱۵ آذر!"
	var got []chatRequest
	srv := chatServer(t, reply, &got)
	for _, stream := range []bool{false, true} {
		c := &OpenAI{BaseURL: srv.URL + "/v1/", Model: "qwen2.5-7b-instruct", Key: "sk-test", Stream: stream, Timeout: 5 * time.Second}
		out, err := c.Complete(context.Background(), testPrompt)
		if err != nil || out != reply {
			t.Fatalf("stream %v: %q %v", stream, out, err)
		}
	}
	if len(got) != 2 || got[0].Model != "qwen2.5-7b-instruct" || got[0].Stream || !got[1].Stream ||
		len(got[1].Messages) != 2 || got[1].Messages[0].Role != "system" || got[1].MaxTokens <= 0 {
		t.Errorf("requests: %+v", got)
	}
}

func TestOpenAIErrors(t *testing.T) {
	var got []chatRequest
	srv := chatServer(t, "x", &got)
	c := &OpenAI{BaseURL: srv.URL + "/v1", Model: "m", Key: "wrong", Timeout: 5 * time.Second}
	_, err := c.Complete(context.Background(), testPrompt)
	if !errors.Is(err, ErrModel) || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "Incorrect API key") {
		t.Errorf("bad key: %v", err)
	}
	c = &OpenAI{BaseURL: srv.URL + "/nowhere", Model: "m", Key: "sk-test", Timeout: 5 * time.Second}
	if _, err := c.Complete(context.Background(), testPrompt); !errors.Is(err, ErrModel) || !strings.Contains(err.Error(), "404") {
		t.Errorf("wrong path: %v", err)
	}
	empty := chatServer(t, "  ", &got)
	c = &OpenAI{BaseURL: empty.URL + "/v1", Model: "m", Key: "sk-test", Stream: true, Timeout: 5 * time.Second}
	if _, err := c.Complete(context.Background(), testPrompt); !errors.Is(err, ErrModel) {
		t.Errorf("empty reply: %v", err)
	}
	c = &OpenAI{BaseURL: "http://127.0.0.1:1", Model: "m", Timeout: time.Second}
	if _, err := c.Complete(context.Background(), testPrompt); !errors.Is(err, ErrModel) {
		t.Errorf("refused connection: %v", err)
	}
}

// TestOpenAITimeout: a server that stops in the middle of a stream is cut off
// at the time-out.
func TestOpenAITimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"content\":\"سلام\"}}]}\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c := &OpenAI{BaseURL: srv.URL, Model: "m", Stream: true, Timeout: 300 * time.Millisecond}
	// The server holds the stream until the test ends: returning at all, with the
	// deadline as the cause, is the time-out working, however busy the machine.
	_, err := c.Complete(context.Background(), testPrompt)
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrModel) {
		t.Errorf("err: %v", err)
	}
}

// TestOpenAICutReplies: a reply the server did not finish — a stream closed
// before «[DONE]», a reply stopped by the token limit — is an error, never a
// half answer.
func TestOpenAICutReplies(t *testing.T) {
	bodies := map[string]struct{ contentType, body string }{
		"stream closed early": {"text/event-stream",
			"data: {\"choices\":[{\"delta\":{\"content\":\"کفش آریا: ۲۰ درصد تخفیف روی\"},\"finish_reason\":null}]}\n\n"},
		"stream at the token limit": {"text/event-stream",
			"data: {\"choices\":[{\"delta\":{\"content\":\"کفش آریا: ۲۰ درصد\"},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n"},
		"whole at the token limit": {"application/json",
			`{"choices":[{"index":0,"message":{"role":"assistant","content":"کفش آریا: ۲۰ درصد"},"finish_reason":"length"}]}`},
	}
	for name, b := range bodies {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", b.contentType)
			fmt.Fprint(w, b.body)
		}))
		c := &OpenAI{BaseURL: srv.URL, Model: "m", Stream: b.contentType == "text/event-stream", Timeout: 5 * time.Second}
		if out, err := c.Complete(context.Background(), testPrompt); !errors.Is(err, ErrModel) || !errors.Is(err, errCut) || out != "" {
			t.Errorf("%s: %q %v", name, out, err)
		}
		srv.Close()
	}
}
